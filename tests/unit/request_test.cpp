// normalize(): the chapter's defaults filled in, and every rule a kernel relies on enforced
// with an InputError a student can act on. Plus the input list parser and the generators.
#include "helpers.hpp"

#include "pplab/backend.hpp"
#include "pplab/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace pplab {
namespace {

using namespace test;

TEST(Normalize, FillsTheChaptersDefaults) {
    // TILE = 256 and ELEMS_PER_THREAD = 4.
    const Request tree = normalize(request(Algorithm::ReduceTree, ones(1000)));
    EXPECT_EQ(tree.block, 256);
    EXPECT_EQ(tree.grid, 4); // one element per thread: ceil(1000 / 256)
    const Request full = normalize(request(Algorithm::ReduceFull, ones(5000)));
    EXPECT_EQ(full.block, 256);
    EXPECT_EQ(full.grid, 5); // ceil(5000 / (256 * 4))
    // scanBlock scans blockDim.x elements: the smallest power of two that holds n.
    EXPECT_EQ(normalize(request(Algorithm::ScanBlelloch, ones(5))).block, 8);
    EXPECT_EQ(normalize(request(Algorithm::ScanBlelloch, ones(4))).block, 4);
    EXPECT_EQ(normalize(request(Algorithm::ScanBlelloch, ones(1))).block, 1);
    EXPECT_EQ(normalize(request(Algorithm::ScanHillisSteele, ones(5))).block, 5);
    EXPECT_EQ(normalize(request(Algorithm::ReduceNaive, ones(5000))).grid, 1);
}

TEST(Normalize, IsIdempotentForEveryAlgorithm) {
    for (const AlgorithmInfo& a : algorithms()) {
        SCOPED_TRACE(std::string(a.id));
        const Request once = normalize(request(a.algorithm, ones(a.single_block ? 100 : 3000)));
        EXPECT_EQ(normalize(once), once);
    }
}

TEST(Normalize, ClearsOptionsThatDoNotApply) {
    Request r = request(Algorithm::ReduceTree, ones(10));
    r.options.inclusive = true;
    r.options.skip_empty = false;
    r.options.order_seed = 9;
    const Request n = normalize(r);
    EXPECT_FALSE(n.options.inclusive);
    EXPECT_TRUE(n.options.skip_empty);
    EXPECT_EQ(n.options.order_seed, 0u);
    EXPECT_EQ(n.bins, 0) << "bins mean nothing to a reduction";
}

TEST(Normalize, RejectsBlockSizesOutsideOneTo1024) {
    for (const AlgorithmInfo& a : algorithms()) {
        SCOPED_TRACE(std::string(a.id));
        EXPECT_NE(rejection(request(a.algorithm, ones(4), 2000)), "");
        EXPECT_NE(rejection(request(a.algorithm, ones(4), 2048)), "");
        EXPECT_NE(rejection(request(a.algorithm, ones(4), -32)), "");
    }
    EXPECT_NE(rejection(request(Algorithm::ReduceTree, ones(4), 2000)).find("1024"),
              std::string::npos);
}

TEST(Normalize, HalvingTreesNeedAPowerOfTwo) {
    for (const Algorithm a : {Algorithm::ReduceTree, Algorithm::ReduceCoarsened,
                              Algorithm::ScanBlelloch, Algorithm::ScanMultiblock}) {
        SCOPED_TRACE(std::string(info(a).id));
        const std::string why = rejection(request(a, ones(100), 100));
        EXPECT_NE(why.find("power of two"), std::string::npos) << why;
        EXPECT_EQ(rejection(request(a, ones(100), 128)), "");
    }
    // Kernels without a halving tree take any block size their other rules allow.
    EXPECT_EQ(rejection(request(Algorithm::ReduceNaive, ones(100), 100)), "");
    EXPECT_EQ(rejection(request(Algorithm::ScanHillisSteele, ones(100), 100)), "");
    EXPECT_EQ(rejection(request(Algorithm::HistPrivatised, ones(100), 100)), "");
}

TEST(Normalize, WarpShufflesNeedWholeWarps) {
    for (const Algorithm a : {Algorithm::ReduceShuffle, Algorithm::ReduceFull,
                              Algorithm::ReduceAtomic, Algorithm::HistPerWarp}) {
        SCOPED_TRACE(std::string(info(a).id));
        const std::string why = rejection(request(a, ones(100), 48));
        EXPECT_NE(why.find("multiple of 32"), std::string::npos) << why;
        EXPECT_EQ(rejection(request(a, ones(100), 96)), "");
    }
}

TEST(Normalize, SingleBlockScansNeedNAtMostTheBlock) {
    for (const Algorithm a : {Algorithm::ScanBlelloch, Algorithm::ScanHillisSteele}) {
        SCOPED_TRACE(std::string(info(a).id));
        EXPECT_EQ(rejection(request(a, ones(64), 64)), "");
        const std::string why = rejection(request(a, ones(65), 64));
        EXPECT_NE(why.find("scan-multiblock"), std::string::npos) << "points to the fix: " << why;
    }
    EXPECT_NE(rejection(request(Algorithm::ScanMultiblock, ones(10), 1)), "")
        << "with one thread per block the totals never shrink";
}

TEST(Normalize, RejectsEmptyNonFiniteAndOversizedInputs) {
    EXPECT_NE(rejection(request(Algorithm::ReduceTree, {})).find("empty"), std::string::npos);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    for (const float bad : {nan, inf, -inf}) {
        const std::string why = rejection(request(Algorithm::ScanMultiblock, {1, 2, bad, 4}));
        EXPECT_NE(why.find("element 2"), std::string::npos) << why;
    }
    EXPECT_NE(rejection(request(Algorithm::ReduceNaive, ones(kMaxTraceN + 1))), "");
    EXPECT_EQ(rejection(request(Algorithm::ReduceFull, ones(kMaxTraceN))), "");
}

TEST(Normalize, RejectsInputsWhoseSumsWouldOverflowFp32) {
    // Finite elements whose sum is not: the trace would hold infinities, which no JSON can carry
    // and which teach nothing (the same reason NaN and inf inputs are refused).
    for (const Algorithm a : {Algorithm::ReduceNaive, Algorithm::ReduceTree, Algorithm::ReduceFull,
                              Algorithm::ScanBlelloch, Algorithm::ScanMultiblock,
                              Algorithm::ReduceFast, Algorithm::ScanFast}) {
        SCOPED_TRACE(std::string(info(a).id));
        EXPECT_NE(rejection(request(a, {3e38f, 3e38f})), "");
        EXPECT_NE(rejection(request(a, {-3e38f, -3e38f, 1})), "");
        EXPECT_EQ(rejection(request(a, {1e30f, -1e30f, 5})), "");
    }
    // reduce-shuffle's out-of-warp lanes double their value at each of five steps: lane 31
    // ends with 32 times its element, which must stay finite too.
    std::vector<float> lanes(32, 0.0f);
    lanes[31] = 2e37f;
    const std::string why = rejection(request(Algorithm::ReduceShuffle, lanes));
    if (why.empty()) {
        const Trace t = make_cpu_backend()->trace(request(Algorithm::ReduceShuffle, lanes));
        for (const Frame& f : t.frames)
            for (const float v : f.values) {
                ASSERT_TRUE(std::isfinite(v)) << step_id(f.step) << " " << f.level;
            }
    }
}

TEST(Normalize, HistogramInputMustBeWholeBinNumbers) {
    Request r = request(Algorithm::HistPrivatised, {0, 1, 7});
    r.bins = 8;
    EXPECT_EQ(rejection(r), "");
    for (const float bad : {8.0f, -1.0f, 2.5f, 300.0f}) {
        r.input = {0, 1, bad};
        const std::string why = rejection(r);
        EXPECT_NE(why.find("element 2"), std::string::npos) << why;
        EXPECT_NE(why.find("0 to 7"), std::string::npos) << why;
    }
}

TEST(Normalize, HistogramBinsMustBeAtLeastOne) {
    for (const Algorithm a : {Algorithm::HistGlobal, Algorithm::HistPrivatised,
                              Algorithm::HistPerWarp, Algorithm::HistFast}) {
        SCOPED_TRACE(std::string(info(a).id));
        Request r = request(a, {0, 1, 2});
        r.bins = 0;
        const std::string why = rejection(r);
        EXPECT_NE(why.find("bins must be at least 1"), std::string::npos)
            << "the message names the bins, not the elements: " << why;
    }
}

TEST(Normalize, PrivateHistogramsMustFitInSharedMemory) {
    // 48 KiB per block: 12288 four-byte bins.
    Request r = request(Algorithm::HistPrivatised, {0, 1, 2});
    r.bins = 12288;
    EXPECT_EQ(rejection(r), "");
    r.bins = 12289;
    EXPECT_NE(rejection(r).find("49152"), std::string::npos);
    // One copy per warp: 1024 threads are 32 warps, so 384 bins x 32 x 4 bytes fill it.
    Request w = request(Algorithm::HistPerWarp, {0, 1, 2}, 1024);
    w.bins = 384;
    EXPECT_EQ(rejection(w), "");
    w.bins = 385;
    EXPECT_NE(rejection(w), "");
    // The naive histogram has no private copy.
    Request g = request(Algorithm::HistGlobal, {0, 1, 2});
    g.bins = 20000;
    EXPECT_EQ(rejection(g), "");
}

TEST(Normalize, GridIsFreeOnlyForGridStrideKernels) {
    Request tree = request(Algorithm::ReduceTree, ones(1000), 256);
    tree.grid = 4; // ceil(1000 / 256): the one grid that gives one element per thread
    EXPECT_EQ(rejection(tree), "");
    tree.grid = 2;
    EXPECT_NE(rejection(tree).find("does not take --grid"), std::string::npos);
    Request coarse = request(Algorithm::ReduceCoarsened, ones(1000), 256);
    coarse.grid = 2;
    EXPECT_EQ(normalize(coarse).grid, 2);
    coarse.grid = 65536;
    EXPECT_NE(rejection(coarse), "");
    coarse.grid = -1;
    EXPECT_NE(rejection(coarse), "");
}

TEST(Plan, RefusesTracesOverTheCapBeforeRunning) {
    // A million elements in blocks of 32 at four per thread are 8192 blocks, each recording a
    // private histogram of 12288 bins at least twice: far more than kMaxTraceWords.
    Request r = request(Algorithm::HistPrivatised, std::vector<float>(kMaxTraceN, 0.0f), 32);
    r.bins = 12288;
    const Request n = normalize(r);
    ASSERT_EQ(n.grid, 8192);
    EXPECT_THROW(make_plan(n), InputError);
    EXPECT_THROW(make_cpu_backend()->trace(r), InputError);
}

TEST(ParseList, AcceptsCommasAndWhiteSpace) {
    EXPECT_EQ(parse_list("1,2,3,4"), (std::vector<float>{1, 2, 3, 4}));
    EXPECT_EQ(parse_list(" 1 2\t3\n4 "), (std::vector<float>{1, 2, 3, 4}));
    EXPECT_EQ(parse_list("1, 2,\r\n3"), (std::vector<float>{1, 2, 3}));
    EXPECT_EQ(parse_list("-1.5,2e2,0.25"), (std::vector<float>{-1.5f, 200.0f, 0.25f}));
}

TEST(ParseList, RejectsEmptyAndNonNumericLists) {
    EXPECT_THROW(parse_list(""), InputError);
    EXPECT_THROW(parse_list(" , ,\n"), InputError);
    try {
        parse_list("1,two,3");
        FAIL() << "no InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("'two'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse_list("1,2x,3"), InputError);
    EXPECT_THROW(parse_list("1;2"), InputError);
}

TEST(Generators, StayInTheirRangesAndRepeatForASeed) {
    const auto random_int = generate(Generator::RandomInt, 10000, 3, 0);
    EXPECT_TRUE(std::all_of(random_int.begin(), random_int.end(),
                            [](float v) { return v >= 0 && v <= 9 && v == std::floor(v); }));
    EXPECT_EQ(random_int, generate(Generator::RandomInt, 10000, 3, 0));
    EXPECT_NE(random_int, generate(Generator::RandomInt, 10000, 4, 0));

    const auto floats = generate(Generator::RandomFloat, 10000, 3, 0);
    EXPECT_TRUE(std::all_of(floats.begin(), floats.end(), [](float v) { return v >= 0 && v < 1; }));

    for (const Generator g :
         {Generator::UniformBytes, Generator::OneBin, Generator::Skewed, Generator::Seq}) {
        SCOPED_TRACE(std::string(generator_id(g)));
        const auto bins = generate(g, 10000, 3, 37);
        EXPECT_TRUE(std::all_of(bins.begin(), bins.end(),
                                [](float v) { return v >= 0 && v < 37 && v == std::floor(v); }));
    }
    const auto one = generate(Generator::OneBin, 1000, 3, 256);
    EXPECT_TRUE(std::all_of(one.begin(), one.end(), [&](float v) { return v == one[0]; }));
    // Skewed: about nine elements in ten hit the favourite bin.
    const auto skewed = generate(Generator::Skewed, 10000, 3, 256);
    std::vector<int> hits(256, 0);
    for (const float v : skewed)
        ++hits[static_cast<std::size_t>(v)];
    const int top = *std::max_element(hits.begin(), hits.end());
    EXPECT_GT(top, 8500);
    EXPECT_LT(top, 9500);

    EXPECT_EQ(generate(Generator::Seq, 4, 0, 0), (std::vector<float>{1, 2, 3, 4}));
    EXPECT_THROW(generate(Generator::Seq, 0, 0, 0), InputError);
    EXPECT_THROW(find_generator("gaussian"), InputError);
    EXPECT_THROW(find_algorithm("reduce-magic"), InputError);
}

} // namespace
} // namespace pplab
