// reduceTree whose last block to finish also adds the block totals into a __device__ variable,
// as CUDA's threadFenceReduction sample does: each block writes its total, __threadfence(), then
// takes a ticket with atomicInc; the block that takes the last ticket reads every total. The
// fence and the ticket order those reads after the writes: no race, and out[] is the chapter's.
__device__ unsigned int retired = 0;
__device__ float grand_total;

__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    __shared__ bool last;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0)
    {
        out[blockIdx.x] = s[0];
        __threadfence();
        const unsigned int ticket = atomicInc(&retired, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0)
    {
        float total = 0.0f;
        for (int b = 0; b < gridDim.x; ++b)
            total += out[b];
        grand_total = total;
        retired = 0; // atomicInc wrapped it to 0 already; the sample sets it for the next launch
    }
}
