// A pointer into a thread's own array of two, read one past its end.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float pair[2];
    float* p = pair;
    p[0] = (i < n) ? in[i] : 0.0f;
    p[1] = 0.0f;
    s[threadIdx.x] = p[0] + p[2]; // HAZARD out-of-bounds
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
