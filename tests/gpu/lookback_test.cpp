// scan-fast traced on the GPU: the order is the hardware's, so the look-back record is held to
// soundness (check_lookback, the same check as the CPU model's in tests/unit/lookback_test.cpp),
// and everything whose order of additions the code fixes is compared bit for bit: each tile's
// aggregate, and the scanned output given the carries the look-back found. On whole numbers
// every order is exact, so the output must also equal the CPU model's.
#include "pplab/backend.hpp"
#include "pplab/lookback.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <iostream>
#include <ostream>
#include <string>
#include <vector>

namespace pplab {
namespace {

bool gpu_present(std::string& why) {
    static const bool present = make_cuda_backend(why) != nullptr;
    static const std::string reason = why;
    why = reason;
    return present;
}

#define REQUIRE_GPU()                                                                              \
    do {                                                                                           \
        std::string why;                                                                           \
        if (!gpu_present(why))                                                                     \
            GTEST_SKIP() << "no GPU: " << why;                                                     \
    } while (0)

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

struct Case {
    int tiles, block;
    bool whole_numbers;
    friend void PrintTo(const Case& c, std::ostream* os) {
        *os << c.tiles << " tiles x " << c.block << " threads, "
            << (c.whole_numbers ? "whole numbers" : "random floats");
    }
};

class GpuLookback : public ::testing::TestWithParam<Case> {};

TEST_P(GpuLookback, SoundRecordAndExactOutput) {
    REQUIRE_GPU();
    const auto [tiles, block, whole] = GetParam();
    Request r;
    r.algorithm = Algorithm::ScanFast;
    r.block = block;
    const int n = tiles * block * kLookbackItems - (tiles > 1 ? 3 : 0); // a partial last tile
    r.input =
        whole ? generate(Generator::RandomInt, n, 7, 0) : generate(Generator::RandomFloat, n, 7, 0);
    const Trace cpu = trace_lookback_cpu(r);
    int walked = 0, waited = 0;
    for (int run = 0; run < 3; ++run) {
        SCOPED_TRACE("run " + std::to_string(run));
        const Trace gpu = trace_lookback_gpu(r);
        ASSERT_EQ(gpu.request, cpu.request);
        const std::vector<std::string> problems = check_lookback(gpu);
        for (const std::string& p : problems)
            ADD_FAILURE() << p;
        if (!problems.empty())
            return;
        std::vector<float> aggregates, carries;
        for (const LookbackTile& tile : lookback_tiles(gpu)) {
            aggregates.push_back(tile.aggregate);
            carries.push_back(tile.carry);
            int added = 0;
            for (const LookbackRead& read : tile.reads) {
                added += read.added;
                waited += read.waits > 0;
            }
            walked += added >= 2;
        }
        EXPECT_TRUE(same_bits(aggregates, lookback_aggregates(gpu.request)));
        EXPECT_TRUE(same_bits(gpu.result, lookback_outputs(gpu.request, carries)));
        if (whole) {
            EXPECT_TRUE(same_bits(gpu.result, cpu.result));
        }
    }
    // What the hardware did, for the notes: how often a tile walked past an aggregate.
    std::cout << "[ lookback ] " << tiles << " tiles x " << block << " threads: " << walked
              << " tile look-backs added 2+ predecessors, " << waited
              << " reads waited, over 3 runs\n";
}

INSTANTIATE_TEST_SUITE_P(Sizes, GpuLookback,
                         ::testing::Values(Case{1, 32, true}, Case{2, 32, true}, Case{8, 32, true},
                                           Case{8, 256, false}, Case{33, 64, true},
                                           Case{64, 32, true}, Case{64, 32, false},
                                           Case{64, 1024, true}, Case{64, 1024, false}),
                         [](const auto& param) {
                             return std::to_string(param.param.tiles) + "tiles_b" +
                                    std::to_string(param.param.block) +
                                    (param.param.whole_numbers ? "_int" : "_float");
                         });

// Run under compute-sanitizer by sanitizer_test.cpp (not by ctest: "Sanitize*" is filtered out).
INSTANTIATE_TEST_SUITE_P(SanitizeLookback, GpuLookback,
                         ::testing::Values(Case{8, 32, true}, Case{40, 256, false}));

} // namespace
} // namespace pplab
