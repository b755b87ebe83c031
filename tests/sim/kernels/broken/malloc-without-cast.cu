// malloc without the pointer's type: CUDA C++ needs the cast too.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* mine = malloc(sizeof(float)); // REFUSED malloc needs the pointer's type
    mine[0] = (i < n) ? in[i] : 0.0f;
    s[threadIdx.x] = mine[0];
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
