//@about Not in the chapter: pplab's kernel for §8.6's remark on determinism. warpReduce is §8.6's;
//@about each block then reduces its share as reduceFull does and adds its total to the single
//@about result with one atomicAdd, in whatever order the blocks arrive.
#define WARPS (TILE / 32)   // warps per block

//@chapter reduce-full part
// Warp-level reduction (from 8.5), returns the warp's total in lane 0.
__device__ float warpReduce(float val)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        val += __shfl_down_sync(0xffffffffu, val, offset);
    return val;
}
//@end-chapter

__global__ void reduceAtomic(const float* in, float* out, int n)
{
    __shared__ float s[WARPS];          // one slot per warp

    // reduceFull's block reduction: coarsened accumulation, warp shuffles, one barrier.
    const int stride = gridDim.x * blockDim.x;                           // @block-total
    float sum = 0.0f;                                                    // @block-total
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) // @block-total
        sum += in[i];                                                    // @block-total
    sum = warpReduce(sum);                                               // @block-total

    const int lane   = threadIdx.x % 32;
    const int warpId = threadIdx.x / 32;
    if (lane == 0) s[warpId] = sum;                                      // @block-total
    __syncthreads();                                                     // @block-total

    if (warpId == 0)
    {
        const float v = (lane < WARPS) ? s[lane] : 0.0f;                 // @block-total
        sum = warpReduce(v);                                             // @block-total
        // Where reduceFull writes out[blockIdx.x], each block adds into the one result.
        if (lane == 0) atomicAdd(out, sum);      // the order is not fixed // @block-total,atomic-add,note:arrival
    }
}

// Float addition is not associative, so the last bits of the sum can change from run to run;
// the tree of reduceFull fixes the order, and with it every bit of the result.
