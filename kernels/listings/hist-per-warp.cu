//@about Not in the chapter: pplab's per-warp histogram, the next-level fix §8.8 names for skewed
//@about data. Every element in one bin now contends only among the 32 lanes of a warp.
__global__ void histogramPerWarp(const unsigned char* data, int* g_hist, int n)
{
    // WARPS private copies, one after the other: warp w counts into s_hist[w * BINS + bin].
    __shared__ int s_hist[WARPS * BINS];
    const int warpId = threadIdx.x / 32;

    for (int b = threadIdx.x; b < WARPS * BINS; b += blockDim.x)     // @hist-zero
        s_hist[b] = 0;                                               // @hist-zero
    __syncthreads();                                                 // @hist-zero

    int* mine = s_hist + warpId * BINS;                              // @hist-accumulate
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) // @hist-accumulate
        atomicAdd(&mine[data[i]], 1);                                // @hist-accumulate

    __syncthreads();          // all counts complete before merging  // @hist-merge

    // Merge: one thread per bin sums the warps' copies into warp 0's copy.
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {           // @hist-merge
        int sum = s_hist[b];                                         // @hist-merge
        for (int w = 1; w < WARPS; ++w)                              // @hist-merge
            sum += s_hist[w * BINS + b];                             // @hist-merge
        s_hist[b] = sum;                                             // @hist-merge
    }

    // Fold, as histogramPrivatised does.
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)             // @hist-fold
        if (s_hist[b] != 0)                                          // @hist-fold,unless:no-skip-empty
            atomicAdd(&g_hist[b], s_hist[b]);                        // @hist-fold
}
