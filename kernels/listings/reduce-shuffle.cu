//@about warpReduce is §8.5's, as the chapter writes it; the kernel around it, one element per
//@about lane and one total per warp, is pplab's (the chapter shows no kernel for §8.5).
//@chapter warp-reduce
// Reduce a warp's 32 lanes to lane 0 using only shuffles: 5 steps.
__device__ float warpReduce(float val)
{
    // mask: all 32 lanes participate. Steps move data rightward by
    // 16, 8, 4, 2, 1 - the warp-size equivalents of the tree's strides.
    for (int offset = 16; offset > 0; offset >>= 1)               // @shuffle
        val += __shfl_down_sync(0xffffffffu, val, offset);        // @shuffle
    return val;      // lane 0 now holds the warp total
}
//@end-chapter

// pplab's kernel: one element per lane, each warp reduced on its own.
__global__ void reduceShuffle(const float* in, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;          // @load
    const int warpId = threadIdx.x / 32;
    // All 32 lanes must execute every shuffle, so lanes past n take part with 0.
    float val = (i < n) ? in[i] : 0.0f;                           // @load
    val = warpReduce(val);                                        // @shuffle,unless:partial-warp
    if (threadIdx.x % 32 < ACTIVE_LANES)  // the pitfall: only some lanes call it // @only:partial-warp
        val = warpReduce(val);                                    // @shuffle,only:partial-warp
    if (threadIdx.x % 32 == 0)
        out[blockIdx.x * (blockDim.x / 32) + warpId] = val;
}
