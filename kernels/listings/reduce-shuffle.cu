// §8.5 Stage 3: warp shuffles.
// Reduce a warp's 32 lanes to lane 0 using only shuffles: 5 steps.
__device__ float warpReduce(float val)
{
    // mask: all 32 lanes participate. Steps move data rightward by
    // 16, 8, 4, 2, 1 - the warp-size equivalents of the tree's strides.
    for (int offset = 16; offset > 0; offset >>= 1)               // @shuffle
        val += __shfl_down_sync(0xffffffffu, val, offset);        // @shuffle
    return val;      // lane 0 now holds the warp total
}

// One element per lane, each warp reduced on its own: one total per warp.
__global__ void reduceShuffle(const float* in, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;          // @load
    const int warpId = threadIdx.x / 32;
    // All 32 lanes must execute every shuffle, so lanes past n take part with 0.
    float val = (i < n) ? in[i] : 0.0f;                           // @load
    val = warpReduce(val);                                        // @shuffle
    if (threadIdx.x % 32 == 0)
        out[blockIdx.x * (blockDim.x / 32) + warpId] = val;
}
