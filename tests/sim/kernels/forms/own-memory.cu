// reduceTree whose load goes through pointers to each thread's own memory: an array of its own,
// a float variable, an element's address: the same trace as the chapter's.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float pair[2];
    float* p = pair;
    p[0] = (i < n) ? in[i] : 0.0f;
    float* second = &pair[1];
    *second = p[0];
    float value = 0.0f;
    float* v = &value;
    *v = pair[1];
    s[threadIdx.x] = value;
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
