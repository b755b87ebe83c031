// Tuning runs for the production kernels: the variants bench/NOTES.md predicts and compares.
// Not part of `pplab bench` (which times the chosen configuration); built as pplab_explore.
#include "cuda/fast.hpp"
#include "cuda/launch.hpp"
#include "cuda/timer.hpp"
#include "pplab/request.hpp"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <cstdio>
#include <vector>

namespace pc = pplab::cuda;

int main() {
    using pc::check;
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    const std::size_t l2 = static_cast<std::size_t>(p.l2CacheSize);
    const int max_log2 = 28;
    const std::size_t capacity = (std::size_t{1} << max_log2) + 4 * l2 / 4;
    pc::DeviceBuffer<float> in(
        pplab::generate(pplab::Generator::RandomFloat, static_cast<int>(capacity), 3, 0));
    pc::DeviceBuffer<float> out(capacity + 1024);
    pc::Events ev;
    const int runs = 20, warmups = 3;
    std::printf("%s: variant, n, ms, GB/s (median of %d)\n", p.name, runs);

    for (int k : {20, 22, 24, 26, 28}) {
        const int n = 1 << k;
        const pc::Rotation rot = pc::rotation(static_cast<std::size_t>(n) * 4, capacity * 4, l2);
        const auto src = [&](int run) {
            return in.data() + rot.offset(run, static_cast<std::size_t>(n));
        };
        const auto dst = [&](int run) {
            return out.data() + rot.offset(run, static_cast<std::size_t>(n));
        };
        const auto line = [&](const char* what, double ms, double bytes) {
            std::printf("%-28s 2^%d %9.4f %8.0f\n", what, k, ms, bytes / (ms * 1e6));
        };
        // Reduce: how many 16-byte loads per thread before the grid grows.
        for (int loads : {2, 4, 8}) {
            pc::FastReduce r(loads);
            char what[64];
            std::snprintf(what, sizeof what, "reduceFast min_loads=%d", loads);
            line(what,
                 ev.median_ms([&](int run) { r.launch(src(run), out.data(), n); }, warmups, runs),
                 4.0 * n);
        }
        std::size_t bytes = 0;
        cub::DeviceReduce::Sum(nullptr, bytes, in.data(), out.data(), n);
        pc::DeviceBuffer<unsigned char> temp(bytes);
        line("cub::DeviceReduce::Sum",
             ev.median_ms(
                 [&](int run) {
                     std::size_t b = bytes;
                     cub::DeviceReduce::Sum(temp.data(), b, src(run), out.data(), n);
                 },
                 warmups, runs),
             4.0 * n);
        // Scan: tile size (rounds of 128 elements per warp).
        for (int rounds : {4, 8, 16}) {
            pc::FastScan s(n, rounds);
            char what[64];
            std::snprintf(what, sizeof what, "scanFast rounds=%d", rounds);
            line(what,
                 ev.median_ms([&](int run) { s.launch(src(run), dst(run), n); }, warmups, runs),
                 8.0 * n);
        }
        bytes = 0;
        cub::DeviceScan::ExclusiveSum(nullptr, bytes, in.data(), out.data(), n);
        pc::DeviceBuffer<unsigned char> stemp(bytes);
        line("cub::DeviceScan::ExclusiveSum",
             ev.median_ms(
                 [&](int run) {
                     std::size_t b = bytes;
                     cub::DeviceScan::ExclusiveSum(stemp.data(), b, src(run), dst(run), n);
                 },
                 warmups, runs),
             8.0 * n);
    }
    check(cudaGetLastError(), "the runs");
    return 0;
}
