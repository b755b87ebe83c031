// Every thread writes the block's total to out[i] instead of thread 0 to out[blockIdx.x]: out
// holds one element a block, so threads 2-31 of block 0 write past its end.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    __syncthreads();
    out[i] = s[0]; // HAZARD out-of-bounds
}
