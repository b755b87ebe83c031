// Puzzle 5 (§8.6): reduceFull's one shared-memory round.
// WARPS = TILE / 32 is the launch's number of warps per block.

// Warp-level reduction (from 8.5), returns the warp's total in lane 0.
__device__ float warpReduce(float val)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        val += __shfl_down_sync(0xffffffffu, val, offset);
    return val;
}

__global__ void reduceFull(const float* in, float* out, int n)
{
    __shared__ float s[WARPS];          // one slot per warp

    // --- Coarsened accumulation over the grid -----------------------------
    const int stride = gridDim.x * blockDim.x;
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        sum += in[i];

    // --- Warp-level reduction: lane 0 of each warp holds the warp's total ---
    sum = warpReduce(sum);

    const int lane   = threadIdx.x % 32;     // position within my warp
    const int warpId = threadIdx.x / 32;     // which warp am I

    // Your code here: one shared-memory round. Each warp puts its total in s[warpId]; one
    // barrier; then the first warp combines the WARPS totals with warpReduce (lanes past
    // WARPS take 0.0f, the identity) and writes the block's total to out[blockIdx.x].
}
