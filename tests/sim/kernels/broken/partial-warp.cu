// warpReduce called by the first 20 lanes only, with a mask naming all 32.
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
    float val = (i < n) ? in[i] : 0.0f;
    if (threadIdx.x % 32 < 20)
        val = warpReduce(val);
    if (threadIdx.x % 32 == 0)
        out[blockIdx.x * (blockDim.x / 32) + warpId] = val;
}
