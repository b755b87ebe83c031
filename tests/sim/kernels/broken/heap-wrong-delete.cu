// Memory from new[] given back with delete (not delete[]): undefined in CUDA C++, refused.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* mine = new float[1];
    mine[0] = (i < n) ? in[i] : 0.0f;
    s[threadIdx.x] = mine[0];
    delete mine; // HAZARD fault
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
