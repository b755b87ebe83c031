// scan-multiblock's listing with the scanBlock it calls written out (the listing leaves it to
// §8.7's block scan): the upsweep's root is kept before clear-root and returned. The two
// barriers around reading it are needed: without them every thread races thread 0's writes.
__device__ float scanBlock(float* s)
{
    const int n = blockDim.x;
    for (int stride = 1; stride < n; stride <<= 1)
    {
        __syncthreads();
        const int t = (threadIdx.x + 1) * 2 * stride - 1;
        if (t < n)
            s[t] += s[t - stride];
    }
    __syncthreads();                 // the last upsweep level is done before anyone reads it
    const float total = s[n - 1];
    __syncthreads();                 // everyone has the total before the root is cleared
    if (threadIdx.x == 0) s[n - 1] = 0.0f;
    for (int stride = n / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        const int t = (threadIdx.x + 1) * 2 * stride - 1;
        if (t < n)
        {
            const float carry = s[t];
            s[t] = carry + s[t - stride];
            s[t - stride] = carry;
        }
    }
    __syncthreads();
    return total;
}

__global__ void scanBlocks(const float* in, float* out, float* totals, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    const float total = scanBlock(s);
    out[i] = s[threadIdx.x];
    if (threadIdx.x == 0)
        totals[blockIdx.x] = total;
}

__global__ void addCarries(float* out, const float* carries)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = out[i] + carries[blockIdx.x];
}
