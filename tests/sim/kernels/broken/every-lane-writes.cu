// Exercise 2: every lane of a warp writes s[warpId]; 32 writes race for one slot.
__device__ float warpReduce(float val)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        val += __shfl_down_sync(0xffffffffu, val, offset);
    return val;
}

__global__ void reduceFull(const float* in, float* out, int n)
{
    __shared__ float s[WARPS];
    const int stride = gridDim.x * blockDim.x;
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        sum += in[i];
    sum = warpReduce(sum);
    const int lane   = threadIdx.x % 32;
    const int warpId = threadIdx.x / 32;
    s[warpId] = sum; // HAZARD race
    __syncthreads();
    if (warpId == 0)
    {
        const float v = (lane < WARPS) ? s[lane] : 0.0f;
        sum = warpReduce(v);
        if (lane == 0) out[blockIdx.x] = sum;
    }
}
