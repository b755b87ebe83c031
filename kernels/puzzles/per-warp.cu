// Puzzle 9 (§8.8, the next-level fix): one private histogram per WARP.
// WARPS = TILE / 32 copies, one after the other: warp w counts into s_hist[w * BINS + bin].
__global__ void histogramPerWarp(const unsigned char* data, int* g_hist, int n)
{
    __shared__ int s_hist[WARPS * BINS];
    const int warpId = threadIdx.x / 32;

    for (int b = threadIdx.x; b < WARPS * BINS; b += blockDim.x)
        s_hist[b] = 0;
    __syncthreads();

    // Your code here: each thread counts its grid-stride share of the data into its own warp's
    // copy; when every count is complete, one thread per bin sums the WARPS copies of that bin
    // into warp 0's copy (s_hist[bin]).

    // Fold, as histogramPrivatised does.
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (s_hist[b] != 0)
            atomicAdd(&g_hist[b], s_hist[b]);
}
