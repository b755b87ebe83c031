// Reading a float's bits through an int pointer: a cast between pointer types.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int* bits = (const int*)in; // REFUSED a cast from one pointer type to another
    s[threadIdx.x] = (i < n) ? in[i] + 0 * bits[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
