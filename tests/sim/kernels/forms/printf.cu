// reduceTree that prints its block's total: printf is given a float from shared memory, a float
// register, an int and a string, and prints each as the number or text it is. (nvcc needs
// <cstdio> for printf.)
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
    if (threadIdx.x == 0)
    {
        float total = s[0];
        printf("%s %d: %.1f = %.1f\n", "block", blockIdx.x, s[0], total);
        out[blockIdx.x] = s[0];
    }
}
