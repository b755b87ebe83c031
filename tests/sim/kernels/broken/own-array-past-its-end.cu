// A thread's own array of four, cleared by a loop that runs one too far (<= for <).
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    float mine[4];
    for (int k = 0; k <= 4; ++k) mine[k] = 0.0f; // HAZARD out-of-bounds
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] + mine[0] : 0.0f;
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
