//@about §8.6's kernel, as the chapter writes it; TILE is the launch's block size. With more than
//@about one block, pplab launches it a second time over the block totals.
//@chapter reduce-full
#define TILE 256            // block size, a multiple of the warp size 32
#define WARPS (TILE / 32)   // 8 warps per block                           // @note:warps

// Warp-level reduction (from 8.5), returns the warp's total in lane 0.
__device__ float warpReduce(float val)
{
    for (int offset = 16; offset > 0; offset >>= 1)                      // @shuffle,final-shuffle
        val += __shfl_down_sync(0xffffffffu, val, offset);               // @shuffle,final-shuffle
    return val;
}

__global__ void reduceFull(const float* in, float* out, int n)
{
    __shared__ float s[WARPS];          // one slot per warp

    // --- Coarsened accumulation over the grid -----------------------------
    const int stride = gridDim.x * blockDim.x;                           // @accumulate
    float sum = 0.0f;                                                    // @accumulate
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) // @accumulate
        sum += in[i];                                                    // @accumulate

    // --- Warp-level reduction: 8 warps * 5 shuffle steps, no barriers -----
    // Lane 0 of each warp now holds that warp's partial total.
    sum = warpReduce(sum);                                               // @shuffle

    // --- One shared-memory round ------------------------------------------
    const int lane   = threadIdx.x % 32;     // position within my warp
    const int warpId = threadIdx.x / 32;     // which warp am I

    if (lane == 0) s[warpId] = sum;          // each warp writes ONE value // @warp-totals,unless:every-lane-writes
    s[warpId] = sum;   // Exercise 2: every lane writes; the 32 writes race // @warp-totals,only:every-lane-writes
    __syncthreads();                         // the ONLY barrier per block  // @warp-totals

    // --- First warp combines the 8 warp totals -----------------------------
    if (warpId == 0)
    {
        // Lane < WARPS loads a warp total; others load identity (0.0f).
        const float v = (lane < WARPS) ? s[lane] : 0.0f;                 // @final-shuffle
        sum = warpReduce(v);                 // shuffle again over 8 values // @final-shuffle
        if (lane == 0) out[blockIdx.x] = sum;   // block total            // @block-total
    }
}
//@end-chapter

// pplab: with more than one block, a second launch of the same kernel reduces the block totals:
//     reduceFull<<<grid, TILE>>>(in, partial, n);
//     reduceFull<<<1, TILE>>>(partial, out, grid);
