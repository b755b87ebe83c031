// A pointer into a thread's own array of two, read one past its end.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    int offsets[2] = {0, 1};
    const int* next = offsets;
    const int i = blockIdx.x * blockDim.x + threadIdx.x + next[2]; // HAZARD out-of-bounds
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
