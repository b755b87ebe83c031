// The tree's add without its ;: GCC names the } on the next line, the ; belongs on this one.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride] // REFUSED a ; is missing at the end of this line
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
