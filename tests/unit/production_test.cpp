// The production kernels (reduce-fast, scan-fast, hist-fast): in the catalogue, timed and
// checked; only scan-fast is also traced, at classroom sizes (lookback_test.cpp). Their rules
// (blocks of 256, their own default grids, at most 256 bins), and on the CPU what Backend::run
// returns: reduceFast's order of additions, worked out by hand from kernels/cuda/fast.cu on inputs
// where fp32 rounding makes the order visible (1e8 + 1 == 1e8: floats near 1e8 are 8 apart), its
// determinism and its dependence on the grid; scanFast's reference rounded once; histogramFast's
// counts. The results against the serial references over sizes x grids x inputs are ProductionRuns
// in model_matrix_test.cpp.
#include "helpers.hpp"
#include "reference.hpp"

#include "pplab/backend.hpp"
#include "pplab/bits.hpp"
#include "pplab/plan.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pplab {
namespace {

using namespace test;

constexpr Algorithm kProduction[] = {Algorithm::ReduceFast, Algorithm::ScanFast,
                                     Algorithm::HistFast};

std::uint32_t bits(float v) {
    return bits_of(v);
}

std::vector<float> run(const Request& r) {
    return make_cpu_backend()->run(r);
}

// ---- The catalogue ---------------------------------------------------------------------

TEST(Catalogue, TheChaptersTwelveKernelsThenThreeProductionOnes) {
    const auto all = algorithms();
    ASSERT_EQ(all.size(), 15u);
    std::set<std::string_view> ids;
    for (std::size_t k = 0; k < all.size(); ++k) {
        const AlgorithmInfo& a = all[k];
        SCOPED_TRACE(std::string(a.id));
        EXPECT_TRUE(ids.insert(a.id).second) << "ids are unique";
        EXPECT_EQ(&find_algorithm(a.id), &a);
        EXPECT_EQ(&info(a.algorithm), &a);
        EXPECT_EQ(static_cast<std::size_t>(a.algorithm), k) << "listed in the enum's order";
        EXPECT_FALSE(a.title.empty());
        EXPECT_FALSE(a.summary.empty());
        EXPECT_FALSE(a.doc.empty());
        EXPECT_EQ(a.production, k >= 12) << "the three production kernels come last";
        EXPECT_EQ(a.traced, k < 12 || a.algorithm == Algorithm::ScanFast)
            << "only scan-fast of the production kernels is traced";
    }
    const std::pair<Algorithm, Family> families[] = {{Algorithm::ReduceFast, Family::Reduce},
                                                     {Algorithm::ScanFast, Family::Scan},
                                                     {Algorithm::HistFast, Family::Histogram}};
    for (const auto& [a, family] : families) {
        SCOPED_TRACE(std::string(info(a).id));
        EXPECT_EQ(info(a).family, family);
        EXPECT_EQ(info(a).section, "production");
        EXPECT_FALSE(info(a).single_block);
    }
    EXPECT_EQ(info(Algorithm::ReduceFast).title, "reduceFast");
    EXPECT_EQ(info(Algorithm::ScanFast).title, "scanFast");
    EXPECT_EQ(info(Algorithm::HistFast).title, "histogramFast");
}

// ---- Not traced ------------------------------------------------------------------------

TEST(ProductionIds, TraceAndPlanRefuseTheUntracedRunAnswers) {
    for (const Algorithm a : kProduction) {
        const std::string id(info(a).id);
        SCOPED_TRACE(id);
        const bool hist = info(a).family == Family::Histogram;
        const Request r = request(
            a, generate(hist ? Generator::Skewed : Generator::RandomInt, 1000, 5, hist ? 256 : 0));
        if (a != Algorithm::ScanFast) { // traced at classroom sizes: lookback_test.cpp
            try {
                make_cpu_backend()->trace(r);
                ADD_FAILURE() << "trace() gave a trace of a production kernel";
            } catch (const InputError& e) {
                EXPECT_TRUE(mentions(e.what(), id + " is a production kernel")) << e.what();
                EXPECT_TRUE(mentions(e.what(), "not traced")) << e.what();
            }
            EXPECT_THROW(make_plan(normalize(r)), InputError);
        }
        EXPECT_EQ(run(r).size(), result_size(normalize(r)));
        // run() normalizes too: what normalize refuses, run refuses.
        EXPECT_THROW(run(request(a, {})), InputError);
        EXPECT_THROW(run(request(a, ones(10), 128)), InputError);
    }
}

// ---- normalize() -----------------------------------------------------------------------

TEST(ProductionIds, RunOnlyTheBlockTheyAreTunedFor) {
    // reduce-fast and scan-fast 256 threads; hist-fast 1024 (bench/NOTES.md, issue 14).
    const std::pair<Algorithm, int> tuned[] = {
        {Algorithm::ReduceFast, 256}, {Algorithm::ScanFast, 256}, {Algorithm::HistFast, 1024}};
    ASSERT_EQ(std::size(tuned), std::size(kProduction));
    for (const auto& [a, block] : tuned) {
        SCOPED_TRACE(std::string(info(a).id));
        EXPECT_EQ(normalize(request(a, ones(1000))).block, block);
        EXPECT_EQ(normalize(request(a, ones(1000), block)).block, block);
        for (const int other : {1, 32, 128, 255, 256, 257, 512, 1024, 2048}) {
            if (other == block)
                continue;
            const std::string why = rejection(request(a, ones(1000), other));
            EXPECT_TRUE(mentions(why, std::to_string(block))) << "block " << other << ": " << why;
        }
    }
}

TEST(ProductionIds, ReduceFastDefaultGridGivesEachThreadItsMinimumOfLoads) {
    // At least kFastReduceMinLoads float4 loads per thread of 256 (a tuning constant), and at
    // most 8 blocks on each of the H200's 132 SMs: ceil(n / per_block), clamped to [1, 1056].
    const int per_block = 4 * kFastBlock * kFastReduceMinLoads;
    EXPECT_EQ(kFastReduceMaxGrid, 1056);
    const int most = kFastReduceMaxGrid * per_block;
    const std::pair<int, int> n_grid[] = {{1, 1},
                                          {3, 1},
                                          {per_block, 1},
                                          {per_block + 1, 2},
                                          {100 * per_block - 3, 100},
                                          {most, kFastReduceMaxGrid},
                                          {most + 1, kFastReduceMaxGrid}};
    for (const auto& [n, grid] : n_grid) {
        EXPECT_EQ(normalize(request(Algorithm::ReduceFast, ones(n))).grid, grid) << "n = " << n;
    }
    // The grid is free (a grid-stride loop), as for the chapter's grid-stride kernels.
    for (const int grid : {1, 7, 64, 1056, 5000, 65535}) {
        EXPECT_EQ(normalize(with_grid(request(Algorithm::ReduceFast, ones(1000)), grid)).grid,
                  grid);
    }
    EXPECT_NE(rejection(with_grid(request(Algorithm::ReduceFast, ones(1000)), 65536)), "");
    EXPECT_NE(rejection(with_grid(request(Algorithm::ReduceFast, ones(1000)), -1)), "");
}

TEST(ProductionIds, RunsTakeInputsLargerThanATrace) {
    // kMaxTraceN caps a trace; the production kernels are run, not traced.
    const std::vector<float> big = ones(kMaxTraceN + 1);
    for (const Algorithm a : kProduction) {
        EXPECT_EQ(rejection(request(a, big)), "") << info(a).id;
    }
    EXPECT_TRUE(mentions(rejection(request(Algorithm::ReduceFull, big)), "too large"));
    EXPECT_EQ(run(request(Algorithm::ReduceFast, big)), (std::vector<float>{kMaxTraceN + 1.0f}));
}

TEST(ProductionIds, ScanFastGridIsOneTilePerBlock) {
    // One tile of 256 threads x 16 rounds x 4 elements per block: ceil(n / 16384), no other.
    ASSERT_EQ(kScanFastTile, 16384);
    const std::pair<int, int> n_grid[] = {
        {1, 1}, {16384, 1}, {16385, 2}, {65536 + 3, 5}, {1 << 20, 64}};
    for (const auto& [n, grid] : n_grid) {
        EXPECT_EQ(normalize(request(Algorithm::ScanFast, ones(n))).grid, grid) << "n = " << n;
    }
    EXPECT_EQ(normalize(with_grid(request(Algorithm::ScanFast, ones(16385)), 2)).grid, 2);
    const std::string wrong = rejection(with_grid(request(Algorithm::ScanFast, ones(16385)), 3));
    EXPECT_TRUE(mentions(wrong, "does not take --grid"));
    EXPECT_TRUE(mentions(wrong, "one tile of 16384 elements per block")) << wrong;
    EXPECT_TRUE(mentions(rejection(with_grid(request(Algorithm::ScanFast, ones(16385)), 1)),
                         "does not take --grid"));
}

TEST(ProductionIds, HistFastCountsAtMost256Bins) {
    Request r = request(Algorithm::HistFast, {0, 0});
    for (const int bins : {1, 7, 256}) {
        r.bins = bins;
        EXPECT_EQ(rejection(r), "") << bins << " bins";
    }
    for (const int bins : {257, 1000, 12288}) {
        r.bins = bins;
        EXPECT_TRUE(mentions(rejection(r), "at most 256 bins")) << bins << " bins";
    }
    r.bins = 0;
    EXPECT_TRUE(mentions(rejection(r), "bins must be at least 1"));
    // Elements are whole bin numbers, as for every histogram.
    r.bins = 7;
    r.input = {0, 6, 3};
    EXPECT_EQ(rejection(r), "");
    for (const float bad : {7.0f, -1.0f, 2.5f}) {
        r.input = {0, 6, bad};
        EXPECT_TRUE(mentions(rejection(r), "element 2")) << bad;
    }
    // 16 bytes per thread of 1024 per round: ceil(n / 16384) blocks by default, at most two
    // on each of the H200's 132 SMs (264); the grid is free.
    EXPECT_EQ(normalize(request(Algorithm::HistFast, ones(1))).grid, 1);
    EXPECT_EQ(normalize(request(Algorithm::HistFast, ones(16384))).grid, 1);
    EXPECT_EQ(normalize(request(Algorithm::HistFast, ones(16385))).grid, 2);
    EXPECT_EQ(normalize(request(Algorithm::HistFast, ones(1 << 24))).grid, 264);
    EXPECT_EQ(normalize(with_grid(request(Algorithm::HistFast, ones(4097)), 7)).grid, 7);
}

TEST(ProductionIds, NormalizeClearsOptionsThatDoNotApply) {
    Request r = request(Algorithm::ReduceFast, ones(100));
    r.options.inclusive = true;
    r.options.skip_empty = false;
    r.options.order_seed = 9;
    r.bins = 7;
    const Request reduce = normalize(r);
    EXPECT_FALSE(reduce.options.inclusive);
    EXPECT_TRUE(reduce.options.skip_empty);
    EXPECT_EQ(reduce.options.order_seed, 0u);
    EXPECT_EQ(reduce.bins, 0);
    r.algorithm = Algorithm::ScanFast;
    const Request scan = normalize(r);
    EXPECT_FALSE(scan.options.inclusive); // scanFast is exclusive only
    EXPECT_TRUE(scan.options.skip_empty);
    EXPECT_EQ(scan.options.order_seed, 0u);
    EXPECT_EQ(scan.bins, 0);
    r.algorithm = Algorithm::HistFast;
    const Request hist = normalize(r);
    EXPECT_FALSE(hist.options.inclusive);
    EXPECT_TRUE(hist.options.skip_empty); // histogramFast's fold always skips empty bins
    EXPECT_EQ(hist.options.order_seed, 0u);
    EXPECT_EQ(hist.bins, 7);
}

// ---- reduceFast's order of additions, by hand from fast.cu -------------------------------
//
// Thread t of block b starts at vector i = b * 256 + t and strides by grid * 256 vectors;
// while four rounds fit it adds vector i into a, i + stride into b, i + 2 stride into c and
// i + 3 stride into d, then the rounds left into a; a vector adds as (x + y) + (z + w); the
// n % 4 elements past the last vector go to thread t < n % 4 of block 0, into b; the thread
// keeps (a + b) + (c + d). A block adds its 256 values by __shfl_down_sync (offsets 16 .. 1)
// within each warp, then warp 0 adds the eight warp totals the same way. The last block's
// thread t adds the block totals t, t + 256, ... and the block adds those as before.

// n zeros with some elements set.
std::vector<float> sparse(int n, std::initializer_list<std::pair<int, float>> set) {
    std::vector<float> v(static_cast<std::size_t>(n), 0.0f);
    for (const auto& [i, x] : set)
        v.at(static_cast<std::size_t>(i)) = x;
    return v;
}

float reduce_fast(const std::vector<float>& in, int grid) {
    const std::vector<float> out = run(with_grid(request(Algorithm::ReduceFast, in), grid));
    EXPECT_EQ(out.size(), 1u);
    return out.empty() ? -1.0f : out[0];
}

TEST(ReduceFastOrder, AddsAVectorsFourFloatsInPairs) {
    const std::vector<float> in{1e8f, 1, -1e8f, 1};
    ASSERT_EQ(ref::total(in), 2.0);
    ASSERT_EQ(ref::serial_fp32_sum(in), 1.0f) << "the example needs fp32 rounding";
    // (1e8 + 1) + (-1e8 + 1) = 1e8 + -1e8 in fp32.
    EXPECT_EQ(reduce_fast(in, 1), 0.0f);
}

TEST(ReduceFastOrder, FourAccumulatorsPerThreadAddedInPairsAndTheGridDecidesWhichVectors) {
    // 1024 vectors. Grid 1 (a stride of 256 vectors): thread 0 adds vectors 0, 256, 512 and
    // 768 into a, b, c, d, then (a + b) + (c + d) = (1e8 + 1) + (-1e8 + 1) = 0.
    const std::vector<float> in = sparse(4096, {{0, 1e8f}, {1024, 1}, {2048, -1e8f}, {3072, 1}});
    EXPECT_EQ(reduce_fast(in, 1), 0.0f);
    // Grid 2 (a stride of 512): four rounds never fit; thread 0 of block 0 adds vectors 0 and
    // 512 into a (0), thread 0 of block 1 vectors 256 and 768 (2). The exact sum, 2.
    EXPECT_EQ(reduce_fast(in, 2), 2.0f);
}

TEST(ReduceFastOrder, TheTailPastTheLastVectorGoesIntoBOfBlock0) {
    // n = 4097, grid 1: thread 0 holds a = 1e8, b = 1, d = 1 from vectors 0, 256 and 768, and
    // element 4096 (the tail) joins b: b = 1 + -1e8 = -1e8. (a + b) + (c + d) = 0 + 1 = 1.
    // (Into a, the same tail would give 0 + 1 + 1 = 2.)
    const std::vector<float> in = sparse(4097, {{0, 1e8f}, {1024, 1}, {3072, 1}, {4096, -1e8f}});
    EXPECT_EQ(reduce_fast(in, 1), 1.0f);
    // n = 7: one vector (zeros) and a tail of three, one element each to threads 0, 1 and 2.
    // The shuffle tree adds lane 2 to lane 0 (offset 2) before lane 1 (offset 1):
    // (1e8 + 1) + -1e8 = 0, where in index order 1e8 + -1e8 + 1 = 1.
    EXPECT_EQ(reduce_fast({0, 0, 0, 0, 1e8f, -1e8f, 1}, 1), 0.0f);
}

TEST(ReduceFastOrder, ABlockAddsByShuffleTreesOverLanesThenOverWarps) {
    // 1024 elements, grid 1: one vector per thread, thread t's from element 4t.
    // Lanes: offset 16 adds lane 16 to lane 0 and lane 17 to lane 1 first:
    // (1e8 + 1) + (-1e8 + 1) = 0; in index order the sum is 2.
    const std::vector<float> lanes = sparse(1024, {{0, 1e8f}, {4, -1e8f}, {64, 1}, {68, 1}});
    ASSERT_EQ(ref::serial_fp32_sum(lanes), 2.0f);
    EXPECT_EQ(reduce_fast(lanes, 1), 0.0f);
    // Warps: the warp totals 1e8, -1e8 (warps 0, 1) and 1, 1 (warps 4, 5); warp 0 adds them
    // with offset 4 first: (1e8 + 1) + (-1e8 + 1) = 0.
    const std::vector<float> warps = sparse(1024, {{0, 1e8f}, {128, -1e8f}, {512, 1}, {640, 1}});
    ASSERT_EQ(ref::serial_fp32_sum(warps), 2.0f);
    EXPECT_EQ(reduce_fast(warps, 1), 0.0f);
}

TEST(ReduceFastOrder, TheLastBlockAddsBlockTotalsStridedThenByTree) {
    // Grid 258, one vector per thread: block k's total is its thread 0's vector, element
    // 1024 k. The last block's thread 0 adds totals 0 and 256 (1e8 + 1), thread 1 totals 1
    // and 257 (-1e8 + 1); the tree then gives 0. In block order the sum is 2.
    const int grid = 258;
    const std::vector<float> in =
        sparse(4 * 256 * grid, {{0, 1e8f}, {1024, -1e8f}, {1024 * 256, 1}, {1024 * 257, 1}});
    ASSERT_EQ(ref::serial_fp32_sum(in), 2.0f);
    EXPECT_EQ(reduce_fast(in, grid), 0.0f);
}

TEST(ReduceFast, IsDeterministicAndDependsOnTheGrid) {
    const std::vector<float> floats = generate(Generator::RandomFloat, 1 << 20, 1, 0);
    const std::vector<float> ints = generate(Generator::RandomInt, 1 << 20, 1, 0);
    const double exact_ints = ref::total(ints);
    std::set<std::uint32_t> float_sums;
    for (const int grid : {1, 7, 64, kFastReduceMaxGrid}) {
        SCOPED_TRACE("grid " + std::to_string(grid));
        const float first = reduce_fast(floats, grid);
        EXPECT_EQ(bits(reduce_fast(floats, grid)), bits(first)) << "the same request, twice";
        float_sums.insert(bits(first));
        // Whole numbers below 2^24 add exactly in any order: every grid gives the exact sum.
        EXPECT_EQ(reduce_fast(ints, grid), exact_ints);
    }
    // Floats: the grid decides which elements share an accumulator, and so the rounding.
    // (For this input two of the four grids differ in the last bits; the test above with
    // 1e8 shows why.)
    EXPECT_GE(float_sums.size(), 2u);
    // The default grid is the same launch as asking for it.
    const int grid = normalize(request(Algorithm::ReduceFast, floats)).grid;
    EXPECT_EQ(bits(reduce_fast(floats, 0)), bits(reduce_fast(floats, grid)));
}

// ---- scan-fast and hist-fast -------------------------------------------------------------

TEST(ScanFast, IsTheExactPrefixSumRoundedOnce) {
    // After 1e8, an fp32 running sum never moves (1e8 + 1 == 1e8); the exact prefix sums
    // 1e8 + k round to the nearest float, 8 apart.
    std::vector<float> in(12, 1.0f);
    in[0] = 1e8f;
    const std::vector<float> out = run(request(Algorithm::ScanFast, in));
    ASSERT_EQ(out.size(), in.size());
    EXPECT_EQ(out[0], 0.0f);
    EXPECT_EQ(out[1], 1e8f);
    EXPECT_EQ(out[8], 100000000.0f + 8);  // 1e8 + 7 rounds to 1e8 + 8
    EXPECT_EQ(out[11], 100000000.0f + 8); // 1e8 + 10 too
    // Random floats of 24 bits in [0, 1): their double prefix sums are exact, so every
    // output is the exact prefix sum rounded once to fp32.
    const std::vector<float> floats = generate(Generator::RandomFloat, 65536 + 3, 2, 0);
    const std::vector<double> want = ref::exclusive_scan(floats);
    const std::vector<float> got = run(request(Algorithm::ScanFast, floats));
    ASSERT_EQ(got.size(), want.size());
    int wrong = 0;
    for (std::size_t i = 0; i < want.size() && wrong < 5; ++i)
        if (bits(got[i]) != bits(static_cast<float>(want[i]))) {
            ADD_FAILURE() << "out[" << i << "] = " << got[i] << ", want " << want[i]
                          << " rounded once";
            ++wrong;
        }
}

TEST(HistFast, CountsEachElementOnceIntoItsBin) {
    Request r = request(Algorithm::HistFast, {0, 3, 3, 1, 3, 0});
    r.bins = 5;
    EXPECT_EQ(run(r), (std::vector<float>{2, 1, 0, 3, 0}));
    // Every byte value, 16 equal bytes in a row (one atomic of 16 on the GPU), and a tail.
    r.bins = 256;
    r.input.clear();
    for (int v = 0; v < 256; ++v)
        r.input.push_back(static_cast<float>(v));
    r.input.insert(r.input.end(), 16, 200.0f);
    r.input.insert(r.input.end(), 3, 7.0f);
    std::vector<float> want(256, 1.0f);
    want[200] += 16;
    want[7] += 3;
    EXPECT_EQ(run(r), want);
}

} // namespace
} // namespace pplab
