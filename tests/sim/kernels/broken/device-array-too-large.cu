// A __device__ array of 2^34 floats (64 GiB): a GPU refuses it at the launch; the simulator's run
// cannot map it under its memory limit.
__device__ float scratch[1ull << 34];

__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    scratch[i] = s[threadIdx.x];
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
