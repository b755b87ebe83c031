// reduceTree as a file written for nvcc begins: CUDA's headers included (pplab's header gives
// their names, so the simulator leaves those lines empty) and a #pragma unroll.
#include <cuda_runtime.h>
#include <device_launch_parameters.h>
#include <cstdio>

__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
#pragma unroll
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
