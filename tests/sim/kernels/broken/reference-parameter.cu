// A kernel's parameter taken by reference: it must be a pointer.
__global__ void reduceTree(const float* in, float& out, int n) // REFUSED pass a pointer
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) out = s[0];
}
