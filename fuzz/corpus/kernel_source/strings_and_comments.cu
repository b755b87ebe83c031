// A kernel whose comments and strings hold what the pre-processor rewrites elsewhere:
// __shared__ float fake[4]; float* p;
#define TILE 256
__device__ float twice(float v) { return v * 2.0f; } /* __global__ void not_a_kernel() */
__global__ void reduceTree(const float* in, float* out, int n)
{
    extern __shared__ float s[];
    const char* name = "__shared__ float s[TILE];";
    const char quote = '"';
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? twice(in[i]) * 0.5f : 0.0f;
    for (int stride = TILE / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0 && name[0] != quote)
        out[blockIdx.x] = s[0];
}
