// Every thread writes the block's one __shared__ total at once: a write-after-write race on a
// variable, named as the kernel names it (total, not total[0]).
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    __shared__ float total;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    total = s[threadIdx.x]; // HAZARD race
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0] + 0.0f * total;
}
