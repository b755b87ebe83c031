// The stride is halved in a copy, never in itself: `half = stride / 2` should be `stride /= 2`.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    int stride = TILE;
    int half = 0;
    do {
        half = stride / 2;
    } while (stride > 1); // HAZARD timeout
    s[threadIdx.x] = half;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
