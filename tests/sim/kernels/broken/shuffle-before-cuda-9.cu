// warpReduce with the shuffle CUDA 9 removed.
__device__ float warpReduce(float val)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        val += __shfl_down(val, offset); // REFUSED CUDA 9 replaced it with __shfl_down_sync
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
