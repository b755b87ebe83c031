// atomicAdd given the element, not its address.
__global__ void histogramPrivatised(const unsigned char* data, int* g_hist, int n)
{
    __shared__ int s_hist[BINS];
    for (int b = threadIdx.x; b < BINS; b += TILE) s_hist[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * TILE + threadIdx.x; i < n; i += gridDim.x * TILE)
        atomicAdd(s_hist[data[i]], 1); // REFUSED atomicAdd takes the address of an element
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += TILE)
        if (s_hist[b] != 0)
            atomicAdd(&g_hist[b], s_hist[b]);
}
