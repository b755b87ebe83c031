// __syncthreads without its s: the message says which name was meant.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthread(); // REFUSED did you mean __syncthreads?
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
