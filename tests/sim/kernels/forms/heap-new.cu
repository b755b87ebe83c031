// reduceTree with each thread's value passed through memory from the device heap (new[] and
// delete[]): the same trace as the chapter's.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* mine = new float[2];
    mine[0] = (i < n) ? in[i] : 0.0f;
    mine[1] = mine[0];
    s[threadIdx.x] = mine[1];
    delete[] mine;
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
