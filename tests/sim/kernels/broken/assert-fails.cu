// reduceTree that checks its total with assert(): the check fails, the kernel stops itself, and
// the run says so with what assert() printed.
#include <cassert>

__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
        assert(s[0] < 0.0f);
        out[blockIdx.x] = s[0];
    }
}
