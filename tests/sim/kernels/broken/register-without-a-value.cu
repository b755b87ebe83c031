// The coarsened reduction's register sum declared without its = 0.0f: a GPU starts it with
// whatever the register held.
__global__ void reduceCoarsened(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float sum; // HAZARD uninitialised-read
    for (; i < n; i += stride)
        sum += in[i];
    s[threadIdx.x] = sum;
    for (int stride2 = TILE / 2; stride2 > 0; stride2 >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride2)
            s[threadIdx.x] += s[threadIdx.x + stride2];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
