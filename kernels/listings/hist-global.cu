//@about Not in this chapter's code: the naive histogram §8.8 starts from (Chapter 5), written
//@about by pplab. One global atomicAdd per element: threads that hit the same bin serialise on one
//@about address in global memory.
__global__ void histogramGlobal(const unsigned char* data, int* g_hist, int n)
{
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) // @hist-accumulate
        atomicAdd(&g_hist[data[i]], 1);    // contended bins serialise here // @hist-accumulate
}
