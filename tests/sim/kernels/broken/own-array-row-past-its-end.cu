// A thread's own 2-D array read at a row it does not have: the last block's threads past n
// index row (i - n), 2 and more of a table of two rows.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    float table[2][3] = {};
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : table[i - n][0]; // HAZARD out-of-bounds
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
