// The barrier moved inside the `if`: threads at or past `stride` never reach it.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        if (threadIdx.x < stride)
        {
            __syncthreads(); // HAZARD divergent-barrier
            s[threadIdx.x] += s[threadIdx.x + stride];
        }
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
