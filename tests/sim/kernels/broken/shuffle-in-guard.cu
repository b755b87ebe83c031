// warpReduce called inside `if (i < n)`: with n 40 in blocks of 32, lanes 8-31 of block 1's
// warp skip it, yet the full mask names them.
__device__ float warpReduce(float val)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        val += __shfl_down_sync(0xffffffffu, val, offset); // HAZARD bad-shuffle-mask
    return val;
}

__global__ void reduceShuffle(const float* in, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int warpId = threadIdx.x / 32;
    if (i < n) {
        float val = in[i];
        val = warpReduce(val);
        if (threadIdx.x % 32 == 0)
            out[blockIdx.x * (blockDim.x / 32) + warpId] = val;
    }
}
