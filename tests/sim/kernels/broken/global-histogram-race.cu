// The global histogram counted with ++ instead of atomicAdd: two threads that read a bin before
// either writes it back lose a count on a GPU.
__global__ void histogramGlobal(const unsigned char* data, int* g_hist, int n)
{
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        g_hist[data[i]]++; // HAZARD race
}
