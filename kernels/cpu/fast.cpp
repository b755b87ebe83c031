// What the production kernels must compute, for checking them (they are timed, not traced).
// reduceFast's order of additions is fixed by its code, so its model is exact, bit for bit.
// scanFast's look-back adds whichever predecessors have published, so a float scan's last
// bits vary: its reference is the exact prefix sum (in double), rounded once. Counts are
// counts.
#include "cpu/recorder.hpp"
#include "pplab/lookback.hpp"

#include <array>
#include <vector>

namespace pplab::cpu {

namespace {

// fast.cu's block_sum: warp sums, then warp 0 adds the eight warp totals.
float block_sum(const std::vector<float>& per_thread) {
    constexpr int kWarps = kFastBlock / kWarpSize;
    std::array<float, kWarpSize> totals{};
    for (int w = 0; w < kWarps; ++w) {
        std::array<float, kWarpSize> lanes;
        for (int lane = 0; lane < kWarpSize; ++lane)
            lanes[lane] = per_thread[w * kWarpSize + lane];
        totals[w] = warp_shuffle_sum(lanes);
    }
    return warp_shuffle_sum(totals);
}

float reduce_fast(const std::vector<float>& in, int grid) {
    const long long n = static_cast<long long>(in.size()), n4 = n / 4;
    const long long stride = static_cast<long long>(grid) * kFastBlock;
    const auto quad = [&](long long i) {
        const float* x = &in[static_cast<std::size_t>(4 * i)];
        return (x[0] + x[1]) + (x[2] + x[3]);
    };
    std::vector<float> partials(grid);
    std::vector<float> v(kFastBlock);
    for (int b = 0; b < grid; ++b) {
        for (int t = 0; t < kFastBlock; ++t) {
            float a = 0.0f, c1 = 0.0f, c2 = 0.0f, c3 = 0.0f;
            long long i = static_cast<long long>(b) * kFastBlock + t;
            for (; i + 3 * stride < n4; i += 4 * stride) {
                a += quad(i);
                c1 += quad(i + stride);
                c2 += quad(i + 2 * stride);
                c3 += quad(i + 3 * stride);
            }
            for (; i < n4; i += stride)
                a += quad(i);
            if (b == 0 && t < n - 4 * n4)
                c1 += in[static_cast<std::size_t>(4 * n4 + t)];
            v[t] = (a + c1) + (c2 + c3);
        }
        partials[b] = block_sum(v);
    }
    // The last block adds the block totals: strided per thread, then the shuffle tree.
    for (int t = 0; t < kFastBlock; ++t) {
        float s = 0.0f;
        for (int k = t; k < grid; k += kFastBlock)
            s += partials[k];
        v[t] = s;
    }
    return block_sum(v);
}

} // namespace

std::vector<float> run_fast(const Request& r) {
    switch (r.algorithm) {
    case Algorithm::ReduceFast:
        return {reduce_fast(r.input, r.grid)};
    case Algorithm::ScanFast: {
        std::vector<float> out(r.input.size());
        double sum = 0;
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = static_cast<float>(sum);
            sum += r.input[i];
        }
        return out;
    }
    case Algorithm::HistFast: {
        std::vector<float> counts(static_cast<std::size_t>(r.bins), 0.0f);
        for (float x : r.input)
            counts[static_cast<std::size_t>(x)] += 1.0f; // exact below 2^24
        return counts;
    }
    default:
        throw std::logic_error("run_fast called for a traced algorithm");
    }
}

} // namespace pplab::cpu
