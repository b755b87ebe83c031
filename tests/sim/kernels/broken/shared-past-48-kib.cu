// A table of 16384 floats beside the tile: 64 KiB more of static __shared__ than the 48 KiB a
// block holds (nvcc refuses the kernel; more comes only from the launch, extern __shared__).
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    __shared__ float table[16384]; // HAZARD fault
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    table[threadIdx.x] = s[threadIdx.x];
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
