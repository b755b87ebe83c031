// splitmix64: a tiny generator that gives the same sequence for a seed on every platform and
// compiler (no std distributions), so generated inputs and arrival orders repeat exactly.
#pragma once

#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace pplab {

struct SplitMix {
    std::uint64_t state;

    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, bound): multiply-shift; the bias is below 2^-32 for the bounds used here.
    std::uint32_t below(std::uint32_t bound) {
        return static_cast<std::uint32_t>(((next() >> 32) * bound) >> 32);
    }
    // Uniform in [0, 1) with 24 random bits: every value is an exact float, never all zeros.
    float unit() { return static_cast<float>(next() >> 40) * 0x1.0p-24f; }
};

// The order in which reduce-atomic's blocks arrive at the atomicAdd: a seeded shuffle
// (Fisher-Yates), standing in for whatever order the GPU's scheduler picks. The CPU model
// and the simulator (which runs a student's blocks in this order) share it.
inline std::vector<int> arrival_order(int blocks, std::uint64_t seed) {
    std::vector<int> order(static_cast<std::size_t>(blocks));
    std::iota(order.begin(), order.end(), 0);
    SplitMix rng{seed};
    for (int i = blocks - 1; i > 0; --i) {
        const auto j = static_cast<std::size_t>(rng.next() % static_cast<std::uint64_t>(i + 1));
        std::swap(order[static_cast<std::size_t>(i)], order[j]);
    }
    return order;
}

} // namespace pplab
