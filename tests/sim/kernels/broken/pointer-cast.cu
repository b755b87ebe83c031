// Reading a float's bytes through a char pointer: a cast to a pointer of another size.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned char* bytes = (const unsigned char*)in; // REFUSED a cast to a pointer of another size
    s[threadIdx.x] = (i < n) ? in[i] + 0 * bytes[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
