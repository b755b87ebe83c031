// reduceTree choosing with ?: between float variables, a number and an element: each ?: has one
// type, and the trace is the chapter's.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float loaded = (i < n) ? in[i] : 0.0f;
    float zero = 0.0f;
    float first = (i >= n) ? 0 : loaded;
    s[threadIdx.x] = (i < n) ? first : zero;
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
        {
            float& mine = s[threadIdx.x];
            float other = s[threadIdx.x + stride];
            mine = (stride > 0) ? mine + other : mine;
        }
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
