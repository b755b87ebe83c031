// reduceTree with its tile in dynamic shared memory: `extern __shared__ float s[];` takes its
// size from the launch (a float a thread), so the chapter's trace.
__global__ void reduceTree(const float* in, float* out, int n)
{
    extern __shared__ float s[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
