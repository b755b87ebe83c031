// A __shared__ array given values where it is declared: CUDA does not allow it.
__global__ void histogramPrivatised(const unsigned char* data, int* g_hist, int n)
{
    __shared__ int s_hist[BINS] = {0}; // REFUSED cannot be given values where it is declared
    for (int i = blockIdx.x * TILE + threadIdx.x; i < n; i += gridDim.x * TILE)
        atomicAdd(&s_hist[data[i]], 1);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += TILE)
        if (s_hist[b] != 0)
            atomicAdd(&g_hist[b], s_hist[b]);
}
