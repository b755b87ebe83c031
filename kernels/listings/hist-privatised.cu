//@about §8.8's kernel, as the chapter writes it; BINS and TILE are the launch's.
//@chapter hist-privatised
#define BINS 256
#define TILE 256

__global__ void histogramPrivatised(const unsigned char* data, int* g_hist,
                                    int n)
{
    // Private histogram for THIS block, in shared memory.
    __shared__ int s_hist[BINS];

    // Initialise the private histogram (all threads help; one barrier).
    for (int b = threadIdx.x; b < BINS; b += TILE) s_hist[b] = 0;    // @hist-zero
    __syncthreads();          // all bins zeroed before any thread counts // @hist-zero

    // Accumulate. Each thread counts its elements into shared memory.
    // Shared-memory atomics are fast; contention is spread across BINS.
    for (int i = blockIdx.x * TILE + threadIdx.x; i < n; i += gridDim.x * TILE) // @hist-accumulate
    {
        const int bin = data[i];                                     // @hist-accumulate
        atomicAdd(&s_hist[bin], 1);                                  // @hist-accumulate
    }

    __syncthreads();          // all counts complete before folding // @hist-fold

    // Fold: one thread per bin adds this block's count to global memory.
    for (int b = threadIdx.x; b < BINS; b += TILE)                   // @hist-fold
        if (s_hist[b] != 0)             // skip empty bins: less global traffic // @hist-fold,unless:no-skip-empty
            atomicAdd(&g_hist[b], s_hist[b]);                        // @hist-fold
}
//@end-chapter
