// reduceTree that keeps printf's format and a word in variables, as CUDA allows: the format is
// read from the variable, and the word is printed as text (not as its address).
#include <cstdio>

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
    const char* format = "%s %d: %.1f\n";
    const char* word = "block";
    if (threadIdx.x == 0)
    {
        printf(format, word, blockIdx.x, s[0]);
        out[blockIdx.x] = s[0];
    }
}
