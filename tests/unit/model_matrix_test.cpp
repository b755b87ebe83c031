// Every CPU model against the serial references, over sizes x block sizes x inputs, with the
// shape of its trace checked against the chapter's loops (shape.cpp) and, for inputs whose
// sums are exact in fp32, every frame against its closed form (steps.cpp). The production
// kernels record no trace: what Backend::run leaves in their output buffer is checked against
// the same references (ProductionRuns, at the end).
#include "reference.hpp"
#include "shape.hpp"
#include "steps.hpp"

#include "pplab/backend.hpp"
#include "pplab/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace pplab {
namespace {

constexpr int kSizes[] = {1, 2, 3, 31, 32, 33, 255, 256, 257, 1000, 4096, 65536};
constexpr int kBlocks[] = {32, 64, 128, 256, 512, 1024};

struct Input {
    Generator gen = Generator::RandomInt;
    bool inclusive = false; // scans
    bool skip_empty = true; // privatised histograms (Exercise 4)
};

std::string describe(const Input& in) {
    return std::string(generator_id(in.gen)) + (in.inclusive ? ", inclusive" : "") +
           (in.skip_empty ? "" : ", no skip-empty");
}

// One ctest entry per (algorithm, n, block); the inputs run inside it. A ctest entry costs a
// process start, and thousands of them would dominate the suite's time.
struct Case {
    Algorithm algorithm;
    int n;
    int block;
    std::vector<Input> inputs;
};

std::string case_name(const ::testing::TestParamInfo<Case>& p) {
    return "n" + std::to_string(p.param.n) + "_block" + std::to_string(p.param.block);
}

Request request_for(Algorithm algorithm, int n, int block, const Input& in) {
    Request r;
    r.algorithm = algorithm;
    r.block = block;
    r.options.inclusive = in.inclusive;
    r.options.skip_empty = in.skip_empty;
    r.options.order_seed = 7;
    const bool histogram = info(algorithm).family == Family::Histogram;
    r.input = generate(in.gen, n,
                       static_cast<std::uint64_t>(n) * 1031u + static_cast<std::uint64_t>(block),
                       histogram ? r.bins : 0);
    return r;
}

// What the kernel leaves in its output buffer, from the serial references.
std::vector<double> reference_result(const Request& r) {
    switch (r.algorithm) {
    case Algorithm::ReduceNaive:
    case Algorithm::ReduceFull:
    case Algorithm::ReduceAtomic:
    case Algorithm::ReduceFast:
        return {ref::total(r.input)};
    case Algorithm::ReduceTree:
        return ref::block_sums(r.input, r.block);
    case Algorithm::ReduceCoarsened:
        return ref::grid_stride_block_sums(r.input, r.grid, r.block);
    case Algorithm::ReduceShuffle:
        return ref::warp_sums(r.input, r.block);
    case Algorithm::ScanBlelloch:
    case Algorithm::ScanMultiblock:
    case Algorithm::ScanFast:
        return r.options.inclusive ? ref::inclusive_scan(r.input) : ref::exclusive_scan(r.input);
    case Algorithm::ScanHillisSteele:
        return ref::inclusive_scan(r.input); // Hillis-Steele is inclusive by construction
    case Algorithm::HistGlobal:
    case Algorithm::HistPrivatised:
    case Algorithm::HistPerWarp:
    case Algorithm::HistFast:
        return ref::counts(r.input, r.bins);
    }
    return {};
}

// A bound on the fp32 additions any one output goes through, for the relative tolerance
// (each rounds by at most 2^-24; the inputs are positive, so nothing cancels).
double additions_in_a_chain(const Request& r) {
    switch (r.algorithm) {
    case Algorithm::ReduceNaive:
        return r.n(); // one serial chain
    case Algorithm::ReduceAtomic:
        return r.grid + 64.0; // the block totals, one atomicAdd after another
    case Algorithm::ReduceFast: {
        // A vector's two levels, one accumulator's grid-stride rounds, (a + b) + (c + d) and
        // the tail, two five-step shuffle trees, the last block's strided sum of the block
        // totals, and two more trees.
        const double threads = static_cast<double>(r.grid) * kFastBlock;
        return 2 + std::ceil(std::ceil(r.n() / 4.0) / threads) + 3 + 10 +
               std::ceil(r.grid / static_cast<double>(kFastBlock)) + 10;
    }
    case Algorithm::ScanFast:
        return 1; // the exact prefix sum, rounded once
    default:
        return 128.0; // a few grid-stride rounds and at most a few trees of log2(1024) levels
    }
}

// A result against the serial reference: exact for whole numbers, within the rounding of
// the longest chain of fp32 additions for random floats.
void expect_result_matches(const Request& r, const std::vector<float>& result, Generator gen) {
    const std::vector<double> want = reference_result(r);
    ASSERT_EQ(result.size(), want.size());
    ASSERT_EQ(result.size(), result_size(r));
    const bool exact = gen != Generator::RandomFloat;
    const double tol = exact ? 0.0 : additions_in_a_chain(r) * 0x1.0p-24;
    int wrong = 0;
    for (std::size_t i = 0; i < want.size() && wrong < 5; ++i) {
        const double got = result[i];
        if (std::abs(got - want[i]) > tol * std::abs(want[i])) {
            ADD_FAILURE() << "result[" << i << "] = " << got << ", the serial reference gives "
                          << want[i]
                          << (exact ? " (exact)"
                                    : " (relative tolerance " + std::to_string(tol) + ")");
            ++wrong;
        }
    }
}

void expect_model_matches(const Request& asked, const Input& input) {
    if (info(asked.algorithm).single_block && asked.block != 0 && asked.n() > asked.block) {
        // One block scans at most blockDim.x elements: the request is refused, not truncated.
        EXPECT_THROW(normalize(asked), InputError);
        EXPECT_THROW(make_cpu_backend()->trace(asked), InputError);
        return;
    }
    const Trace t = make_cpu_backend()->trace(asked);
    const Request& r = t.request;
    ASSERT_EQ(r.input, asked.input);
    if (asked.block != 0) {
        ASSERT_EQ(r.block, asked.block);
    }
    ASSERT_EQ(r.grid,
              asked.grid != 0 ? asked.grid : shape::default_grid(r.algorithm, r.n(), r.block));

    // The result, against the serial reference.
    expect_result_matches(r, t.result, input.gen);
    const bool exact = input.gen != Generator::RandomFloat;
    if (r.algorithm == Algorithm::ReduceNaive) {
        EXPECT_EQ(t.result[0], ref::serial_fp32_sum(r.input))
            << "reduce-naive is the fp32 loop itself";
    }

    // The shape: as many frames as the plan promises, and exactly the frames the chapter's
    // loops produce, in canonical order (pass, step, level, block, warp).
    EXPECT_EQ(t.frames.size(), shape::frames_in_plan(r));
    const std::vector<shape::Key> keys = shape::expected_keys(r);
    ASSERT_EQ(t.frames.size(), keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
        if (!(shape::key_of(t.frames[i]) == keys[i])) {
            FAIL() << "frame " << i << " is " << shape::describe(shape::key_of(t.frames[i]))
                   << "; the chapter's loops give " << shape::describe(keys[i]);
        }

    // The frames themselves.
    steps::expect_fixed_order_sums(t);
    if (exact)
        steps::expect_frames_follow_the_kernel(t);
}

class ModelMatrix : public ::testing::TestWithParam<Case> {};

TEST_P(ModelMatrix, MatchesSerialReferenceAndPlan) {
    const Case& c = GetParam();
    for (const Input& in : c.inputs) {
        SCOPED_TRACE("input " + describe(in));
        expect_model_matches(request_for(c.algorithm, c.n, c.block, in), in);
    }
}

std::vector<Case> matrix(Algorithm a, std::vector<Input> inputs) {
    std::vector<Case> cases;
    for (const int n : kSizes)
        for (const int block : kBlocks)
            cases.push_back(Case{a, n, block, inputs});
    return cases;
}

const std::vector<Input> kSums{{Generator::RandomInt}, {Generator::RandomFloat}};
const std::vector<Input> kScans{
    {Generator::RandomInt}, {Generator::RandomInt, true}, {Generator::RandomFloat}};
const std::vector<Input> kBins{{Generator::UniformBytes}, {Generator::OneBin}, {Generator::Skewed}};
const std::vector<Input> kPrivateBins{{Generator::UniformBytes},
                                      {Generator::OneBin},
                                      {Generator::Skewed},
                                      {Generator::UniformBytes, false, false}};

// Launch shapes the matrix does not reach: explicit grids (more blocks than elements
// included), blocks of one or two threads, whole warps that are not a power of two, odd bin
// counts, and the multi-block scan's recursion at its deepest (blocks of 2).
struct OddShape {
    Algorithm algorithm;
    int n;
    int block;
    int grid; // 0: the default
    int bins;
    Input input;
};

class ModelOddShapes : public ::testing::TestWithParam<OddShape> {};

TEST_P(ModelOddShapes, MatchesSerialReferenceAndPlan) {
    const OddShape& c = GetParam();
    Request r;
    r.algorithm = c.algorithm;
    r.block = c.block;
    r.grid = c.grid;
    r.bins = c.bins;
    r.options.inclusive = c.input.inclusive;
    r.options.skip_empty = c.input.skip_empty;
    r.options.order_seed = 3;
    r.input =
        generate(c.input.gen, c.n, 77, info(c.algorithm).family == Family::Histogram ? c.bins : 0);
    expect_model_matches(r, c.input);
}

constexpr Input kInts{Generator::RandomInt};
constexpr Input kInclusive{Generator::RandomInt, true};
constexpr Input kFloats{Generator::RandomFloat};
constexpr Input kBytes{Generator::UniformBytes};
constexpr Input kSkewedAll{Generator::Skewed, false, false};

const OddShape kOddShapes[] = {
    {Algorithm::ReduceNaive, 1000, 1, 0, 256, kFloats},
    {Algorithm::ReduceNaive, 5, 1000, 0, 256, kInts},
    {Algorithm::ReduceTree, 5, 1, 0, 256, kInts},
    {Algorithm::ReduceTree, 5, 2, 0, 256, kInts},
    {Algorithm::ReduceCoarsened, 1000, 64, 1, 256, kInts},
    {Algorithm::ReduceCoarsened, 1000, 64, 3, 256, kInts},
    {Algorithm::ReduceCoarsened, 1000, 64, 7, 256, kFloats},
    {Algorithm::ReduceCoarsened, 1000, 64, 100, 256, kInts},
    {Algorithm::ReduceCoarsened, 1000, 1, 9, 256, kInts},
    {Algorithm::ReduceShuffle, 200, 96, 0, 256, kInts},
    {Algorithm::ReduceFull, 1000, 64, 1, 256, kInts},
    {Algorithm::ReduceFull, 1000, 64, 3, 256, kInts},
    {Algorithm::ReduceFull, 1000, 64, 100, 256, kInts},
    {Algorithm::ReduceFull, 5000, 96, 0, 256, kInts},
    {Algorithm::ReduceFull, 65536, 32, 2000, 256, kInts}, // the second pass loops 63 rounds
    {Algorithm::ReduceAtomic, 1000, 96, 5, 256, kInts},
    {Algorithm::ReduceAtomic, 1000, 32, 300, 256, kFloats},
    {Algorithm::ScanBlelloch, 1, 1, 0, 256, kInts},
    {Algorithm::ScanBlelloch, 1, 1, 0, 256, kInclusive},
    {Algorithm::ScanBlelloch, 2, 2, 0, 256, kInclusive},
    {Algorithm::ScanBlelloch, 3, 0, 0, 256, kInts},
    {Algorithm::ScanMultiblock, 1000, 2, 0, 256, kInts},
    {Algorithm::ScanMultiblock, 1000, 2, 0, 256, kInclusive},
    {Algorithm::ScanMultiblock, 1, 2, 0, 256, kInts},
    {Algorithm::ScanMultiblock, 1025, 1024, 0, 256, kInclusive},
    {Algorithm::ScanHillisSteele, 1, 1, 0, 256, kInts},
    {Algorithm::ScanHillisSteele, 3, 3, 0, 256, kInts},
    {Algorithm::ScanHillisSteele, 100, 100, 0, 256, kInts},
    {Algorithm::ScanHillisSteele, 1000, 1024, 0, 256, kFloats},
    {Algorithm::HistGlobal, 1000, 100, 3, 7, kBytes},
    {Algorithm::HistGlobal, 1000, 1, 7, 7, kBytes},
    {Algorithm::HistPrivatised, 1000, 100, 3, 7, kBytes},
    {Algorithm::HistPrivatised, 1000, 1, 7, 1, kBytes},
    {Algorithm::HistPrivatised, 1000, 64, 200, 50, kSkewedAll},
    {Algorithm::HistPerWarp, 1000, 96, 4, 50, kBytes},
    {Algorithm::HistPerWarp, 1000, 1024, 1, 12, kSkewedAll},
};

std::string odd_name(const ::testing::TestParamInfo<OddShape>& p) {
    std::string name = std::string(info(p.param.algorithm).id) + "_n" + std::to_string(p.param.n) +
                       "_block" + std::to_string(p.param.block) + "_grid" +
                       std::to_string(p.param.grid) + "_bins" + std::to_string(p.param.bins) + "_" +
                       std::string(generator_id(p.param.input.gen)) +
                       (p.param.input.inclusive ? "_inclusive" : "");
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

INSTANTIATE_TEST_SUITE_P(Shapes, ModelOddShapes, ::testing::ValuesIn(kOddShapes), odd_name);

// One instantiation per algorithm, named after it: "ReduceTree/ModelMatrix.X/n257_block64".
#define PPLAB_MODEL_MATRIX(algorithm, inputs)                                                      \
    INSTANTIATE_TEST_SUITE_P(algorithm, ModelMatrix,                                               \
                             ::testing::ValuesIn(matrix(Algorithm::algorithm, inputs)), case_name)

PPLAB_MODEL_MATRIX(ReduceNaive, kSums);
PPLAB_MODEL_MATRIX(ReduceTree, kSums);
PPLAB_MODEL_MATRIX(ReduceCoarsened, kSums);
PPLAB_MODEL_MATRIX(ReduceShuffle, kSums);
PPLAB_MODEL_MATRIX(ReduceFull, kSums);
PPLAB_MODEL_MATRIX(ReduceAtomic, kSums);
PPLAB_MODEL_MATRIX(ScanBlelloch, kScans);
PPLAB_MODEL_MATRIX(ScanMultiblock, kScans);
PPLAB_MODEL_MATRIX(ScanHillisSteele, kSums);
PPLAB_MODEL_MATRIX(HistGlobal, kBins);
PPLAB_MODEL_MATRIX(HistPrivatised, kPrivateBins);
PPLAB_MODEL_MATRIX(HistPerWarp, kPrivateBins);

#undef PPLAB_MODEL_MATRIX

// ---- The production kernels: run(), not trace() --------------------------------------------
// Sizes that are not multiples of the 16-byte vector (4), of a block's vectors (256 x 4) or of
// a scanFast tile (4096 elements and up); for reduce-fast, explicit grids from one block to
// the default's largest (8 per SM on 132 SMs). Every input inside one ctest entry per
// (algorithm, n).

struct RunCase {
    Algorithm algorithm;
    int n;
};

constexpr int kRunSizes[] = {1, 2, 3, 5, 255, 1023, 1025, 4097, 65536 + 3, 1 << 20};

void expect_run_matches(const Request& asked, Generator gen) {
    const Request r = normalize(asked);
    ASSERT_EQ(r.block, production_block(r.algorithm))
        << "each production kernel runs its own block";
    ASSERT_EQ(r.grid,
              asked.grid != 0 ? asked.grid : shape::default_grid(r.algorithm, r.n(), r.block));
    expect_result_matches(r, make_cpu_backend()->run(asked), gen);
}

class ProductionRuns : public ::testing::TestWithParam<RunCase> {};

TEST_P(ProductionRuns, MatchesSerialReference) {
    const RunCase& c = GetParam();
    const auto seed = static_cast<std::uint64_t>(c.n) * 7919u;
    Request r;
    r.algorithm = c.algorithm;
    if (info(c.algorithm).family == Family::Histogram) {
        for (const int bins : {1, 7, 256})
            for (const Generator g :
                 {Generator::UniformBytes, Generator::OneBin, Generator::Skewed}) {
                SCOPED_TRACE(std::string(generator_id(g)) + ", " + std::to_string(bins) + " bins");
                r.bins = bins;
                r.input = generate(g, c.n, seed + static_cast<std::uint64_t>(bins), bins);
                expect_run_matches(r, g);
            }
        return;
    }
    const std::vector<int> grids = c.algorithm == Algorithm::ReduceFast
                                       ? std::vector<int>{0, 1, 7, 64, kFastReduceMaxGrid}
                                       : std::vector<int>{0};
    for (const Generator g : {Generator::RandomInt, Generator::RandomFloat}) {
        r.input = generate(g, c.n, seed, 0);
        for (const int grid : grids) {
            SCOPED_TRACE(std::string(generator_id(g)) + ", grid " + std::to_string(grid));
            r.grid = grid;
            expect_run_matches(r, g);
        }
    }
}

std::vector<RunCase> production_cases() {
    std::vector<RunCase> cases;
    for (const AlgorithmInfo& a : algorithms())
        if (a.production)
            for (const int n : kRunSizes)
                cases.push_back(RunCase{a.algorithm, n});
    return cases;
}

std::string run_name(const ::testing::TestParamInfo<RunCase>& p) {
    std::string name = std::string(info(p.param.algorithm).id) + "_n" + std::to_string(p.param.n);
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

INSTANTIATE_TEST_SUITE_P(Production, ProductionRuns, ::testing::ValuesIn(production_cases()),
                         run_name);

} // namespace
} // namespace pplab
