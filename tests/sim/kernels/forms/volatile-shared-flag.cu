// reduceTree with a volatile shared flag, the qualifier written before __shared__ as CUDA code
// often writes it: thread 0 raises it when its block's sum is ready and writes the sum only then;
// the chapter's trace.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    volatile __shared__ int ready;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    if (threadIdx.x == 0)
        ready = 0;
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0)
        ready = 1;
    if (threadIdx.x == 0 && ready == 1) out[blockIdx.x] = s[0];
}
