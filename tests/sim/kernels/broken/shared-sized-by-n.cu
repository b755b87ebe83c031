// A __shared__ array sized by a value the kernel is given: CUDA needs a constant.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[n]; // REFUSED a __shared__ array's size must be a constant the compiler knows
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
