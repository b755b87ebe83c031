// A deliberate mistake for compute-sanitizer to find: §8.3's tree without its __syncthreads().
// Thread t reads s[t + stride], written by another warp, with no barrier between: racecheck must
// report the hazard at this file's lines. It runs only under the sanitizer (SanitizePlanted is
// left out of ctest's list); sanitizer_test.cpp runs it there and expects the report.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <vector>

namespace {

__global__ void treeWithoutItsBarrier(const float* in, float* out) {
    extern __shared__ float s[];
    s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        // The chapter's __syncthreads() belongs here: without it the read below may run before
        // the write it needs.
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

TEST(SanitizePlanted, TreeWithoutItsBarrier) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
        GTEST_SKIP() << "no GPU";
    constexpr int kBlock = 256, kGrid = 4;
    const std::vector<float> ones(kBlock * kGrid, 1.0f);
    float* in = nullptr;
    float* out = nullptr;
    ASSERT_EQ(cudaMalloc(&in, ones.size() * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&out, kGrid * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(in, ones.data(), ones.size() * sizeof(float), cudaMemcpyHostToDevice),
              cudaSuccess);
    treeWithoutItsBarrier<<<kGrid, kBlock, kBlock * sizeof(float)>>>(in, out);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    cudaFree(in);
    cudaFree(out);
}

} // namespace
