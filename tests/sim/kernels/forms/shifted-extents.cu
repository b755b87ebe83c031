// reduceTree whose arrays are sized with shifts, as CUDA code often sizes them: shared and
// __device__ arrays of 1 << 10, TILE >> 1 and sizeof(int) << 3 elements, each written once; the
// chapter's trace.
__device__ float scratch[1 << 10];

__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[(TILE << 1) >> 1];
    __shared__ float wide[1 << 10];
    __shared__ float half[TILE >> 1];
    __shared__ int bits[sizeof(int) << 3];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    wide[threadIdx.x] = s[threadIdx.x];
    scratch[i] = s[threadIdx.x];
    if (threadIdx.x < (TILE >> 1))
        half[threadIdx.x] = 0.0f;
    if (threadIdx.x < (sizeof(int) << 3))
        bits[threadIdx.x] = 1;
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
