// The launch's n taken as a float: the kernel's signature is not the chapter's.
__global__ void reduceTree(const float* in, float* out, float n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
