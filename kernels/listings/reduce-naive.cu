// §8.2 Stage 0: one thread does it all.
__global__ void reduceNaive(const float* in, float* out, int n)
{
    if (threadIdx.x == 0)              // ONE thread                 // @serial-add
    {
        float sum = 0.0f;
        for (int i = 0; i < n; ++i) sum += in[i];   // serial, n additions // @serial-add
        out[0] = sum;
    }
}
