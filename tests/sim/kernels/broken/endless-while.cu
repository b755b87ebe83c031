// The index is never moved on (`i += blockDim.x` left out): the loop touches only registers.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int count = 0;
    while (i < n) // HAZARD timeout
    {
        count++;
    }
    s[threadIdx.x] = count;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
