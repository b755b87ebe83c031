//@about §8.4's kernel, as the chapter writes it; TILE is the launch's block size, and the grid
//@about is chosen so that each thread gets about ELEMS_PER_THREAD elements.
//@chapter reduce-coarsened
// Each thread accumulates ELEMS_PER_THREAD elements first (coalesced
// grid-stride loop), then ONE tree reduction over the block.
#define ELEMS_PER_THREAD 4

__global__ void reduceCoarsened(const float* in, float* out, int n)
{
    __shared__ float s[TILE];

    const int stride = gridDim.x * blockDim.x;    // total threads in grid   // @accumulate
    int i = blockIdx.x * blockDim.x + threadIdx.x;                          // @accumulate

    // Grid-stride accumulation: each thread sums its share of the array.
    float sum = 0.0f;                                                       // @accumulate
    for (; i < n; i += stride)                                              // @accumulate
        sum += in[i];                              // coalesced within each pass // @accumulate

    s[threadIdx.x] = sum;                                                   // @load

    for (int stride2 = TILE / 2; stride2 > 0; stride2 >>= 1)                // @tree-level
    {
        __syncthreads();                                                    // @tree-level
        if (threadIdx.x < stride2)                                          // @tree-level
            s[threadIdx.x] += s[threadIdx.x + stride2];                     // @tree-level
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];                           // @block-total
}
//@end-chapter
