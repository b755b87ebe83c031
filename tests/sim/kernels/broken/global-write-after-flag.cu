// forms/last-block-fence.cu with the block total written after the ticket: the fence and the
// ticket publish only what came before them, so the last block's reads of the totals race.
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
        __threadfence();
        const unsigned int ticket = atomicInc(&retired, gridDim.x);
        out[blockIdx.x] = s[0];
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0)
    {
        float total = 0.0f;
        for (int b = 0; b < gridDim.x; ++b)
            total += out[b]; // HAZARD race
        grand_total = total;
        retired = 0; // atomicInc wrapped it to 0 already; the sample sets it for the next launch
    }
}
