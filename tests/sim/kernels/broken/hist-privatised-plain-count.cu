// The private histogram counted with ++ instead of atomicAdd: two threads of a block that read a
// bin before either writes it back lose a count on a GPU.
__global__ void histogramPrivatised(const unsigned char* data, int* g_hist, int n)
{
    __shared__ int s_hist[BINS];
    for (int b = threadIdx.x; b < BINS; b += TILE) s_hist[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * TILE + threadIdx.x; i < n; i += gridDim.x * TILE)
    {
        const int bin = data[i];
        s_hist[bin]++; // HAZARD race
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += TILE)
        if (s_hist[b] != 0)
            atomicAdd(&g_hist[b], s_hist[b]);
}
