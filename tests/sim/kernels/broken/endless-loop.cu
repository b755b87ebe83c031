// The stride never reaches 0 (`stride >>= 1` became `stride >> 1`): the loop passes the barrier
// without end, writing s each time, and is stopped there when its snapshots reach pplab's cap.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    for (int stride = TILE / 2; stride > 0; stride >> 1)
    {
        __syncthreads(); // HAZARD fault
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
