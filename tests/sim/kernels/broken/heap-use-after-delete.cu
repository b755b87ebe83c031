// A read of heap memory after delete[] gave it back.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* mine = new float[1];
    mine[0] = (i < n) ? in[i] : 0.0f;
    delete[] mine;
    s[threadIdx.x] = mine[0]; // HAZARD out-of-bounds
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
