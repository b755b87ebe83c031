// The production kernels against CUB on the same device data: the answer a user would get
// from the library instead.
#include "cuda/fast.hpp"
#include "cuda/launch.hpp"
#include "pplab/backend.hpp"

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace pplab {
namespace {

using cuda::DeviceBuffer;

bool have_gpu(std::string& why) {
    const auto gpu = make_cuda_backend(why);
    return gpu != nullptr;
}

#define REQUIRE_GPU()                                                                              \
    do {                                                                                           \
        std::string why;                                                                           \
        if (!have_gpu(why))                                                                        \
            GTEST_SKIP() << "no GPU: " << why;                                                     \
    } while (0)

class FastVsCub : public ::testing::TestWithParam<int> {};

TEST_P(FastVsCub, ReduceAgreesWithDeviceReduceSum) {
    REQUIRE_GPU();
    const int n = GetParam();
    DeviceBuffer<float> in(generate(Generator::RandomFloat, n, 11, 0));
    DeviceBuffer<float> ours(1), theirs(1);
    cuda::FastReduce().launch(in.data(), ours.data(), n);
    std::size_t bytes = 0;
    cub::DeviceReduce::Sum(nullptr, bytes, in.data(), theirs.data(), n);
    DeviceBuffer<unsigned char> temp(bytes);
    ASSERT_EQ(cub::DeviceReduce::Sum(temp.data(), bytes, in.data(), theirs.data(), n), cudaSuccess);
    const float a = ours.to_host()[0], b = theirs.to_host()[0];
    EXPECT_NEAR(a, b, 1e-5 * std::fabs(b));
}

// Whole numbers: while the running sum stays below 2^24 every partial sum is exact, so both
// scans must agree bit for bit; beyond, each rounds in its own order. `launches` runs on one
// FastScan: the second launch must find the state (tickets, descriptors) the first left.
void expect_scan_like_cub(int n, int ring_from, int launches) {
    DeviceBuffer<float> in(generate(Generator::RandomInt, n, 12, 0));
    DeviceBuffer<float> ours(static_cast<std::size_t>(n)), theirs(static_cast<std::size_t>(n));
    cuda::FastScan scan(n, kScanFastTile / (kFastBlock * 4), ring_from);
    for (int k = 0; k < launches; ++k)
        scan.launch(in.data(), ours.data(), n);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::size_t bytes = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, bytes, in.data(), theirs.data(), n);
    DeviceBuffer<unsigned char> temp(bytes);
    ASSERT_EQ(cub::DeviceScan::ExclusiveSum(temp.data(), bytes, in.data(), theirs.data(), n),
              cudaSuccess);
    const auto a = ours.to_host(), b = theirs.to_host();
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (b[i] < 16777216.0f)
            ASSERT_EQ(a[i], b[i]) << "element " << i;
        else
            ASSERT_NEAR(a[i], b[i], 1e-5 * b[i]) << "element " << i;
    }
}

// As `pplab bench` runs it: scanFast below kScanRingFrom, scanRing from there (on Hopper).
TEST_P(FastVsCub, ScanAgreesWithDeviceScanExclusiveSum) {
    REQUIRE_GPU();
    expect_scan_like_cub(GetParam(), cuda::kScanRingFrom, 1);
}

TEST_P(FastVsCub, HistogramAgreesWithHistogramEven) {
    REQUIRE_GPU();
    const int n = GetParam();
    const std::vector<float> values = generate(Generator::Skewed, n, 13, 256);
    DeviceBuffer<unsigned char> data(std::vector<unsigned char>(values.begin(), values.end()));
    DeviceBuffer<unsigned> ours(256);
    DeviceBuffer<int> theirs(256);
    // One object, twice: first every byte 255 (counted on the CPU here), then the skewed data,
    // so the sums and the ticket it keeps between launches must be back at zero.
    cuda::FastHistogram hist(256);
    DeviceBuffer<unsigned char> all_255(
        std::vector<unsigned char>(static_cast<std::size_t>(n), 255));
    hist.launch(all_255.data(), ours.data(), n);
    const auto first = ours.to_host();
    for (int bin = 0; bin < 256; ++bin)
        ASSERT_EQ(first[static_cast<std::size_t>(bin)], bin == 255 ? static_cast<unsigned>(n) : 0u)
            << "first launch, bin " << bin;
    hist.launch(data.data(), ours.data(), n);
    std::size_t bytes = 0;
    cub::DeviceHistogram::HistogramEven(nullptr, bytes, data.data(), theirs.data(), 257, 0, 256, n);
    DeviceBuffer<unsigned char> temp(bytes);
    ASSERT_EQ(cub::DeviceHistogram::HistogramEven(temp.data(), bytes, data.data(), theirs.data(),
                                                  257, 0, 256, n),
              cudaSuccess);
    const auto a = ours.to_host();
    const auto b = theirs.to_host();
    for (int bin = 0; bin < 256; ++bin)
        ASSERT_EQ(static_cast<long long>(a[static_cast<std::size_t>(bin)]),
                  static_cast<long long>(b[static_cast<std::size_t>(bin)]))
            << "bin " << bin;
}

// scanRing at every size, whole tiles and a last partial one (a tile is 8192 floats; 1 and 17
// are one partial tile, 4099 ends in three floats past its last float4), twice on one state.
class FastRing : public ::testing::TestWithParam<int> {};

TEST_P(FastRing, AgreesWithDeviceScanExclusiveSum) {
    REQUIRE_GPU();
    expect_scan_like_cub(GetParam(), 0, 2);
}

INSTANTIATE_TEST_SUITE_P(Sizes, FastRing,
                         ::testing::Values(1, 17, 4096, 4099, 8192, 8195, 100003, 1 << 20,
                                           (1 << 24) + 5));
// For compute-sanitizer (sanitizer_test.cpp): a partial tile, several tiles and a partial one.
INSTANTIATE_TEST_SUITE_P(SanitizeRing, FastRing, ::testing::Values(5, 4099, 65539));

INSTANTIATE_TEST_SUITE_P(Sizes, FastVsCub,
                         ::testing::Values(1, 17, 4096, 4099, 8192, 8195, 100003, 1 << 20,
                                           (1 << 24) + 5));

} // namespace
} // namespace pplab
