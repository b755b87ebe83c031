// The load guarded without a value for the threads past n: in the last block (n 40, blocks of
// 32) threads 8-31 write nothing, and level 0 reads s[16], which no thread of the block writes.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) s[threadIdx.x] = in[i];
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride]; // HAZARD uninitialised-read
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
