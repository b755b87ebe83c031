// The floor of a reduction at a small size, through the same timer (issue 14): an empty kernel,
// and a kernel that only reads (16 bytes per load) and writes nothing unless the sum is a value
// it cannot be. Shared by the exploration tools.
#pragma once

namespace pplab::bench {

__global__ void emptyKernel() {}

__global__ void loadOnly(const float4* __restrict__ in, int n4, float* __restrict__ out) {
    float s = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        const float4 x = __ldcs(in + i);
        s += (x.x + x.y) + (x.z + x.w);
    }
    if (s == -1.0f)
        *out = s;
}

} // namespace pplab::bench
