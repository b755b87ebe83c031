// threadIdx.x dereferenced as if it were a pointer.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? *threadIdx.x : 0.0f; // REFUSED threadIdx.x is a number (an index), not a pointer
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
