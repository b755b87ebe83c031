// §8.6 "Determinism": the tree order is fixed by the code, so a request always records the
// same trace; only the atomic reduction depends on the order in which blocks arrive.
#include "pplab/backend.hpp"
#include "pplab/bits.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace pplab {
namespace {

Request request(Algorithm a, int n, int block, Generator g, std::uint64_t order_seed = 0) {
    Request r;
    r.algorithm = a;
    r.block = block;
    r.options.order_seed = order_seed;
    r.input = generate(g, n, 42, info(a).family == Family::Histogram ? r.bins : 0);
    return r;
}

TEST(Determinism, SameRequestRecordsTheSameTraceForEveryAlgorithm) {
    for (const AlgorithmInfo& a : algorithms()) {
        SCOPED_TRACE(std::string(a.id));
        const Generator g =
            a.family == Family::Histogram ? Generator::Skewed : Generator::RandomFloat;
        if (a.production) {
            // A production kernel's output is the same, bit for bit, every run (reduceFast's
            // order is fixed by its code; scanFast's run is its reference, rounded once).
            const Request r = request(a.algorithm, 3000, 0, g, 11);
            const std::vector<float> first = make_cpu_backend()->run(r);
            const std::vector<float> second = make_cpu_backend()->run(r);
            ASSERT_EQ(first.size(), second.size());
            for (std::size_t i = 0; i < first.size(); ++i) {
                EXPECT_EQ(bits_of(first[i]), bits_of(second[i])) << "element " << i;
            }
        }
        if (!a.traced)
            continue; // records no frames
        // scan-fast: the same seed is the same schedule.
        const Request r = request(a.algorithm, a.single_block ? 64 : 3000, 64, g, 11);
        const Trace first = make_cpu_backend()->trace(r);
        const Trace second = make_cpu_backend()->trace(r);
        EXPECT_TRUE(first.same_recording(second));
        EXPECT_EQ(first.backend, "cpu");
        EXPECT_FALSE(first.device.empty()) << "every trace names the device that produced it";
    }
}

// The AtomicAdd frames of a trace as (arriving block, the total it added), in arrival order.
std::vector<std::pair<int, float>> arrivals(const Trace& t) {
    std::vector<std::pair<int, float>> out;
    for (const Frame& f : t.frames)
        if (f.step == Step::AtomicAdd)
            out.emplace_back(f.block, f.values.at(0));
    return out;
}

TEST(Determinism, AtomicOrderSeedsPermuteTheSameBlockTotals) {
    // 64 blocks of 32 threads, four random floats per thread: the totals all differ.
    const Trace a = make_cpu_backend()->trace(
        request(Algorithm::ReduceAtomic, 8192, 32, Generator::RandomFloat, 1));
    const Trace b = make_cpu_backend()->trace(
        request(Algorithm::ReduceAtomic, 8192, 32, Generator::RandomFloat, 2));
    ASSERT_EQ(a.request.grid, 64);
    const auto in_a = arrivals(a), in_b = arrivals(b);
    ASSERT_EQ(in_a.size(), 64u);
    EXPECT_NE(in_a, in_b) << "two seeds should give two arrival orders";

    // The same multiset of (block, total) pairs, and each total is what that block wrote.
    auto sorted_a = in_a, sorted_b = in_b;
    std::sort(sorted_a.begin(), sorted_a.end());
    std::sort(sorted_b.begin(), sorted_b.end());
    EXPECT_EQ(sorted_a, sorted_b);
    std::map<int, float> totals;
    for (const Frame& f : a.frames)
        if (f.step == Step::BlockTotal)
            totals[f.block] = f.values.at(0);
    for (int blk = 0; blk < 64; ++blk) {
        EXPECT_EQ(sorted_a[static_cast<std::size_t>(blk)], std::make_pair(blk, totals[blk]));
    }

    // The block totals themselves do not depend on the order: only their sum's rounding can.
    for (std::size_t i = 0; i < a.frames.size(); ++i)
        if (a.frames[i].step == Step::BlockTotal) {
            EXPECT_EQ(a.frames[i], b.frames[i]);
        }
}

TEST(Determinism, AtomicSameSeedSameTrace) {
    const Request r = request(Algorithm::ReduceAtomic, 8192, 32, Generator::RandomFloat, 5);
    EXPECT_TRUE(make_cpu_backend()->trace(r).same_recording(make_cpu_backend()->trace(r)));
}

TEST(Determinism, AtomicSumsInArrivalOrderCanRoundDifferently) {
    // float addition is not associative: the chapter's reason the atomic sum varies. Across
    // a handful of seeds the fp32 results must not all agree.
    std::vector<float> sums;
    for (std::uint64_t seed = 1; seed <= 16; ++seed)
        sums.push_back(
            make_cpu_backend()
                ->trace(request(Algorithm::ReduceAtomic, 65536, 32, Generator::RandomFloat, seed))
                .result.at(0));
    EXPECT_NE(*std::min_element(sums.begin(), sums.end()),
              *std::max_element(sums.begin(), sums.end()));
}

TEST(Determinism, OrderSeedOnlyMattersToTheAtomicReduction) {
    // normalize() clears options that do not apply, so equal requests compare equal.
    const Trace a = make_cpu_backend()->trace(
        request(Algorithm::ReduceFull, 8192, 32, Generator::RandomFloat, 1));
    const Trace b = make_cpu_backend()->trace(
        request(Algorithm::ReduceFull, 8192, 32, Generator::RandomFloat, 2));
    EXPECT_TRUE(a.same_recording(b));
}

} // namespace
} // namespace pplab
