// Puzzle 8 (§8.8): the privatised histogram's fold, skipping empty bins.
// BINS is the launch's number of bins, TILE its threads per block.
__global__ void histogramPrivatised(const unsigned char* data, int* g_hist,
                                    int n)
{
    // Private histogram for THIS block, in shared memory.
    __shared__ int s_hist[BINS];

    // Initialise the private histogram (all threads help; one barrier).
    for (int b = threadIdx.x; b < BINS; b += TILE) s_hist[b] = 0;
    __syncthreads();          // all bins zeroed before any thread counts

    // Accumulate. Each thread counts its elements into shared memory.
    for (int i = blockIdx.x * TILE + threadIdx.x; i < n; i += gridDim.x * TILE)
    {
        const int bin = data[i];
        atomicAdd(&s_hist[bin], 1);
    }

    // Your code here: the fold. When every count is complete, the block's threads share the
    // bins and add each NON-EMPTY bin of this block's histogram into g_hist.
}
