// reduceTree whose threads each hold 256 KiB from new through the tree (16 MiB for a block of
// 64): it runs in pplab, and a note says a GPU's 8 MiB device heap would not hold it.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* scratch = new float[1 << 16];
    scratch[0] = (i < n) ? in[i] : 0.0f;
    s[threadIdx.x] = scratch[0];
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    delete[] scratch;
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
