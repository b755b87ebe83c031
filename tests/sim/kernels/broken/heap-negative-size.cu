// malloc asked for a size computed to be negative (n - 1000 floats, n = 100).
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    float* mine = (float*)malloc((n - 1000) * sizeof(float)); // HAZARD fault
    s[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] : 0.0f;
    free(mine);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
