// warpReduce with the pre-CUDA-9 shuffle's arguments: the mask is missing.
__device__ float warpReduce(float val)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        val += __shfl_down_sync(val, offset); // REFUSED __shfl_down_sync takes the lanes' mask
    return val;
}

__global__ void reduceShuffle(const float* in, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float val = (i < n) ? in[i] : 0.0f;
    val = warpReduce(val);
    if (threadIdx.x % 32 == 0)
        out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = val;
}
