// A barrier inside the grid-stride loop: the threads of the last block go round it different
// numbers of times (n 1000, 8 blocks of 32: threads 0-7 of block 7 once more), so they wait at
// the loop's barrier while the others wait at the one after it.
__global__ void histogramPrivatised(const unsigned char* data, int* g_hist, int n)
{
    __shared__ int s_hist[BINS];
    for (int b = threadIdx.x; b < BINS; b += TILE) s_hist[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * TILE + threadIdx.x; i < n; i += gridDim.x * TILE)
    {
        atomicAdd(&s_hist[data[i]], 1);
        __syncthreads(); // HAZARD divergent-barrier
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += TILE)
        if (s_hist[b] != 0)
            atomicAdd(&g_hist[b], s_hist[b]);
}
