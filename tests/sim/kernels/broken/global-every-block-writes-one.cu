// Every block's first element written to out[0]: the blocks race for it, and on a GPU any one
// may win.
__global__ void reduceTree(const float* in, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0 && i < n) out[0] = in[i]; // HAZARD race
}
