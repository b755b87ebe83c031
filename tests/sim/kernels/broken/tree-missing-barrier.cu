// reduceTree without its barrier: level k reads what level k-1 has not finished writing.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride]; // HAZARD race
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
