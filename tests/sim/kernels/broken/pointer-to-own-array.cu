// A pointer to a thread's own array: pplab watches shared and global memory only.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float mine[2];
    float* p = mine; // REFUSED a pointer to a thread's own variable or array
    p[0] = (i < n) ? in[i] : 0.0f;
    s[threadIdx.x] = mine[0];
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
