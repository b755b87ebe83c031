// Memory from new[] one element too short: the write past its end is caught like any other.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* pair = new float[1];
    pair[0] = (i < n) ? in[i] : 0.0f;
    pair[1] = 0.0f; // HAZARD out-of-bounds
    s[threadIdx.x] = pair[0] + pair[1];
    delete[] pair;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
