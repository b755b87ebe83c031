// Puzzle 4 (§8.5): warpReduce.
// Reduce a warp's 32 lanes to lane 0 using only shuffles.
__device__ float warpReduce(float val)
{
    // Your code here: five __shfl_down_sync steps, offsets 16, 8, 4, 2, 1, all 32 lanes
    // taking part (mask 0xffffffffu), each lane adding the value it receives.
    return val;      // lane 0 must hold the warp total
}

// One element per lane, each warp reduced on its own: one total per warp.
__global__ void reduceShuffle(const float* in, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int warpId = threadIdx.x / 32;
    // All 32 lanes must execute every shuffle, so lanes past n take part with 0.
    float val = (i < n) ? in[i] : 0.0f;
    val = warpReduce(val);
    if (threadIdx.x % 32 == 0)
        out[blockIdx.x * (blockDim.x / 32) + warpId] = val;
}
