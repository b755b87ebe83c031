// reduce-atomic's listing with the fullBlock it calls written out: reduceFull's block reduction
// (grid-stride accumulation, warp shuffles, one shared round), its total in thread 0.
__device__ float warpReduce(float val)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        val += __shfl_down_sync(0xffffffffu, val, offset);
    return val;
}

__device__ float fullBlock(const float* in, int n, float* s)
{
    const int stride = gridDim.x * blockDim.x;
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        sum += in[i];
    sum = warpReduce(sum);
    const int lane = threadIdx.x % 32;
    const int warpId = threadIdx.x / 32;
    if (lane == 0) s[warpId] = sum;
    __syncthreads();
    float total = 0.0f;
    if (warpId == 0)
        total = warpReduce((lane < WARPS) ? s[lane] : 0.0f);
    return total;
}

__global__ void reduceAtomic(const float* in, float* out, int n)
{
    __shared__ float s[WARPS];
    const float sum = fullBlock(in, n, s);
    if (threadIdx.x == 0)
        atomicAdd(out, sum);
}
