// splitmix64: a tiny generator that gives the same sequence for a seed on every platform and
// compiler (no std distributions), so generated inputs and arrival orders repeat exactly.
#pragma once

#include <cstdint>

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

} // namespace pplab
