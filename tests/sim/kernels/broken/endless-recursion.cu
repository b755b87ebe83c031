// A recursion that never ends: it runs past the thread's stack and the run says so.
__device__ int depth(int k)
{
    return depth(k + 1) + 1;
}

__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0] + depth(0);
}
