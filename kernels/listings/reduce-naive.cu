//@about §8.2's kernel, as the chapter writes it.
//@chapter reduce-naive
__global__ void reduceNaive(const float* in, float* out, int n)
{
    if (threadIdx.x == 0)              // ONE thread                   // @serial-add
    {
        float sum = 0.0f;                                               // @serial-add
        for (int i = 0; i < n; ++i) sum += in[i];   // serial, n additions // @serial-add
        out[0] = sum;
    }
}
//@end-chapter
