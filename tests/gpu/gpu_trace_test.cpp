// GPU trace == CPU trace, bit for bit, over the matrix of sizes x block sizes x inputs; the
// uninstrumented kernels' results == the CPU model's. Without a device every test skips and
// says why. reduce-atomic is the one exception, by design: its order is the hardware's.
#include "pplab/backend.hpp"
#include "pplab/io.hpp"
#include "pplab/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace pplab {
namespace {

struct Backends {
    std::unique_ptr<Backend> gpu;
    std::unique_ptr<Backend> cpu = make_cpu_backend();
    std::string why;
    Backends() { gpu = make_cuda_backend(why); }
};

Backends& backends() {
    static Backends b; // one CUDA context for the whole run
    return b;
}

#define REQUIRE_GPU()                                                                              \
    do {                                                                                           \
        if (!backends().gpu)                                                                       \
            GTEST_SKIP() << "no GPU: " << backends().why;                                          \
    } while (0)

struct Case {
    Algorithm algorithm;
    int n;
    int block;
    Generator gen;
    std::string name() const {
        std::string s = std::string(info(algorithm).id) + "_n" + std::to_string(n) + "_b" +
                        std::to_string(block) + "_" + std::string(generator_id(gen));
        std::replace(s.begin(), s.end(), '-', '_');
        return s;
    }
};

std::vector<Case> matrix(const std::vector<int>& sizes, const std::vector<int>& blocks,
                         bool every_input = true) {
    std::vector<Case> cases;
    for (const AlgorithmInfo& a : algorithms()) {
        if (!a.traced || a.algorithm == Algorithm::ScanFast)
            continue; // production kernels: FastKernels below; scan-fast's order: GpuLookback
        const std::vector<Generator> gens =
            a.family == Family::Histogram
                ? std::vector<Generator>{Generator::UniformBytes, Generator::OneBin,
                                         Generator::Skewed}
                : std::vector<Generator>{Generator::RandomInt, Generator::RandomFloat};
        const std::size_t inputs = every_input ? gens.size() : 1;
        for (int n : sizes)
            for (int b : blocks)
                for (std::size_t gi = 0; gi < inputs; ++gi) {
                    const Generator g = gens[gi];
                    if (a.single_block && n > b)
                        continue; // normalize() rejects it; the CPU tests check that
                    if (a.algorithm == Algorithm::ReduceNaive && b != 256)
                        continue; // one thread works whatever the block size
                    cases.push_back({a.algorithm, n, b, g});
                }
    }
    return cases;
}

Request request_for(const Case& c) {
    Request r;
    r.algorithm = c.algorithm;
    r.block = c.block;
    r.input = generate(c.gen, c.n, 0x5EED + static_cast<std::uint64_t>(c.n) * 31 + c.block,
                       info(c.algorithm).family == Family::Histogram ? 256 : 0);
    return r;
}

// Where two recordings first differ, for a readable failure.
std::string first_difference(const Trace& a, const Trace& b) {
    const std::size_t m = std::min(a.frames.size(), b.frames.size());
    for (std::size_t i = 0; i < m; ++i)
        if (!(a.frames[i] == b.frames[i])) {
            const Frame& f = a.frames[i];
            std::string s = "frame " + std::to_string(i) + " (" + std::string(step_id(f.step)) +
                            " pass " + std::to_string(f.pass) + " level " +
                            std::to_string(f.level) + " block " + std::to_string(f.block) +
                            " warp " + std::to_string(f.warp) + ")";
            for (std::size_t c = 0; c < std::min(f.values.size(), b.frames[i].values.size()); ++c)
                if (f.values[c] != b.frames[i].values[c] ||
                    std::signbit(f.values[c]) != std::signbit(b.frames[i].values[c]))
                    return s + " cell " + std::to_string(c) + ": " + std::to_string(f.values[c]) +
                           " vs " + std::to_string(b.frames[i].values[c]);
            return s;
        }
    if (a.frames.size() != b.frames.size())
        return "frame counts " + std::to_string(a.frames.size()) + " vs " +
               std::to_string(b.frames.size());
    return "results differ";
}

// reduce-atomic: everything but the arrival order must agree, and the GPU's running sums
// must be exactly what adding the block totals in its recorded order gives.
void expect_atomic_consistent(const Trace& gpu, const Trace& cpu) {
    std::vector<float> totals;
    for (const Frame& f : cpu.frames)
        if (f.step == Step::BlockTotal)
            totals.push_back(f.values[0]);
    std::set<int> seen;
    float sum = 0.0f;
    std::size_t k = 0;
    for (const Frame& f : gpu.frames) {
        if (f.step == Step::BlockTotal) {
            ASSERT_EQ(f.values[0], totals.at(static_cast<std::size_t>(f.block)));
            continue;
        }
        ASSERT_EQ(f.step, Step::AtomicAdd);
        ASSERT_EQ(f.level, static_cast<int>(++k));
        ASSERT_TRUE(seen.insert(f.block).second) << "block " << f.block << " arrived twice";
        ASSERT_EQ(f.values[0], totals.at(static_cast<std::size_t>(f.block)));
        sum += f.values[0];
        ASSERT_EQ(f.values[1], sum) << "arrival " << k;
    }
    EXPECT_EQ(seen.size(), totals.size());
    ASSERT_EQ(gpu.result.size(), 1u);
    EXPECT_EQ(gpu.result[0], sum);
    EXPECT_NEAR(gpu.result[0], cpu.result[0], 1e-4 * std::max(1.0f, std::fabs(cpu.result[0])));
}

class GpuTrace : public ::testing::TestWithParam<Case> {};

TEST_P(GpuTrace, EqualsCpuModelBitForBit) {
    REQUIRE_GPU();
    const Request r = request_for(GetParam());
    const Trace cpu = backends().cpu->trace(r);
    const Trace gpu = backends().gpu->trace(r);
    EXPECT_EQ(gpu.backend, "cuda");
    if (r.algorithm == Algorithm::ReduceAtomic) {
        expect_atomic_consistent(gpu, cpu);
        return;
    }
    ASSERT_EQ(gpu.frames.size(), cpu.frames.size());
    EXPECT_TRUE(gpu.frames == cpu.frames) << first_difference(gpu, cpu);
    EXPECT_EQ(gpu.result, cpu.result);
}

// A GPU's recording saved as a session opens again (the window's loader checks arrival
// blocks and nulls as strictly as a request) and is the same recording.
TEST_P(GpuTrace, SavedAsASessionOpensAgain) {
    REQUIRE_GPU();
    const Trace gpu = backends().gpu->trace(request_for(GetParam()));
    const Trace back = trace_from_json(to_json(gpu));
    EXPECT_TRUE(back.same_recording(gpu));
    EXPECT_EQ(back.device, gpu.device);
}

TEST_P(GpuTrace, UninstrumentedKernelsGiveTheModelsResult) {
    REQUIRE_GPU();
    const Request r = request_for(GetParam());
    const std::vector<float> want = backends().cpu->trace(r).result;
    const std::vector<float> got = backends().gpu->run(r);
    ASSERT_EQ(got.size(), want.size());
    if (r.algorithm == Algorithm::ReduceAtomic) {
        EXPECT_NEAR(got[0], want[0], 1e-4 * std::max(1.0f, std::fabs(want[0])));
        return;
    }
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(got[i], want[i]) << "element " << i;
}

INSTANTIATE_TEST_SUITE_P(Matrix, GpuTrace,
                         ::testing::ValuesIn(matrix({1, 2, 31, 32, 33, 1000, 1024, 4097, 65536},
                                                    {32, 64, 128, 256, 512, 1024})),
                         [](const auto& p) { return p.param.name(); });

// A smaller set for compute-sanitizer, which slows kernels a hundredfold:
// `compute-sanitizer --tool memcheck|racecheck|synccheck|initcheck pplab_gpu_tests
//  --gtest_filter='Sanitize*'`.
INSTANTIATE_TEST_SUITE_P(Sanitize, GpuTrace,
                         ::testing::ValuesIn(matrix({33, 4097}, {32, 256, 1024}, false)),
                         [](const auto& p) { return p.param.name(); });

// ---- The production kernels (timed, not traced) ------------------------------------------

struct FastCase {
    Algorithm algorithm;
    int n;
    Generator gen;
    int grid; // reduce-fast: 0 for the default
    std::string name() const {
        std::string s = std::string(info(algorithm).id) + "_n" + std::to_string(n) + "_" +
                        std::string(generator_id(gen)) + (grid ? "_g" + std::to_string(grid) : "");
        std::replace(s.begin(), s.end(), '-', '_');
        return s;
    }
};

std::vector<FastCase> fast_cases() {
    // Non-multiples of the 16-byte vector, of the block and of scanFast's 4096-element tile.
    const std::vector<int> sizes{
        1,    2,    3,    5,     31,      255,          1023, 1025,
        4095, 4096, 4097, 65539, 1 << 20, (1 << 21) + 7}; // integer sums stay below 2^24: exact
    std::vector<FastCase> cases;
    for (int n : sizes) {
        for (Generator g : {Generator::RandomInt, Generator::RandomFloat}) {
            cases.push_back({Algorithm::ReduceFast, n, g, 0});
            cases.push_back({Algorithm::ScanFast, n, g, 0});
        }
        for (Generator g : {Generator::UniformBytes, Generator::OneBin, Generator::Skewed})
            cases.push_back({Algorithm::HistFast, n, g, 0});
    }
    for (int grid : {1, 7, 1056})
        cases.push_back({Algorithm::ReduceFast, 1 << 20, Generator::RandomFloat, grid});
    return cases;
}

class FastKernels : public ::testing::TestWithParam<FastCase> {};

TEST_P(FastKernels, GiveTheCpuModelsResult) {
    REQUIRE_GPU();
    const FastCase& c = GetParam();
    Request r;
    r.algorithm = c.algorithm;
    r.grid = c.grid;
    r.input = generate(c.gen, c.n, 0xFA57 + static_cast<std::uint64_t>(c.n),
                       info(c.algorithm).family == Family::Histogram ? 256 : 0);
    const std::vector<float> want = backends().cpu->run(r);
    const std::vector<float> got = backends().gpu->run(r);
    ASSERT_EQ(got.size(), want.size());
    const bool exact = c.algorithm != Algorithm::ScanFast || c.gen == Generator::RandomInt;
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (exact) // reduceFast's order is fixed by its code; integer sums and counts are exact
            ASSERT_EQ(got[i], want[i]) << "element " << i;
        else // the look-back's order varies; the reference is the exact sum, rounded once
            ASSERT_NEAR(got[i], want[i], 1e-5 * std::max(1.0f, std::fabs(want[i])))
                << "element " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Production, FastKernels, ::testing::ValuesIn(fast_cases()),
                         [](const auto& p) { return p.param.name(); });

// The production kernels at sizes that reach every tail, for compute-sanitizer
// (sanitizer_test.cpp): a partial vector, a partial tile, several tiles.
std::vector<FastCase> sanitize_fast_cases() {
    std::vector<FastCase> cases;
    for (const int n : {5, 4097, 65539}) {
        cases.push_back({Algorithm::ReduceFast, n, Generator::RandomInt, 0});
        cases.push_back({Algorithm::ScanFast, n, Generator::RandomInt, 0});
        cases.push_back({Algorithm::HistFast, n, Generator::Skewed, 0});
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(SanitizeProduction, FastKernels,
                         ::testing::ValuesIn(sanitize_fast_cases()),
                         [](const auto& p) { return p.param.name(); });

// Any bin count the shared memory holds: bytes up to 256 bins, 16-bit bin numbers above.
TEST(GpuHistogram, EveryBinCountTheSharedMemoryHoldsEqualsTheModel) {
    REQUIRE_GPU();
    for (const Algorithm a :
         {Algorithm::HistGlobal, Algorithm::HistPrivatised, Algorithm::HistPerWarp})
        for (const int bins : {1, 7, 256, 300, 1000, 4096}) {
            Request r;
            r.algorithm = a;
            r.block = 128;
            r.bins = bins;
            r.input =
                generate(Generator::UniformBytes, 5000, static_cast<std::uint64_t>(bins), bins);
            if (shared_bytes(r) > kSharedBytesPerBlock)
                continue; // per-warp copies of 4096 bins do not fit; normalize() says so
            const Trace cpu = backends().cpu->trace(r);
            const Trace gpu = backends().gpu->trace(r);
            EXPECT_TRUE(gpu.frames == cpu.frames)
                << info(a).id << " bins " << bins << ": " << first_difference(gpu, cpu);
            EXPECT_EQ(gpu.result, cpu.result) << info(a).id << " bins " << bins;
            EXPECT_EQ(backends().gpu->run(r), cpu.result) << info(a).id << " bins " << bins;
        }
}

// ---- The pitfalls ------------------------------------------------------------------------

TEST(GpuPitfall, NonPowerOfTwoTreeEqualsTheModelBitForBit) {
    REQUIRE_GPU();
    for (int block : {6, 12, 100, 1000}) {
        Request r;
        r.algorithm = Algorithm::ReduceTree;
        r.block = block;
        r.options.pitfall = Pitfall::NonPowerOfTwo;
        r.input = generate(Generator::RandomFloat, 4097, static_cast<std::uint64_t>(block), 0);
        const Trace cpu = backends().cpu->trace(r);
        const Trace gpu = backends().gpu->trace(r);
        EXPECT_TRUE(gpu.frames == cpu.frames)
            << "block " << block << ": " << first_difference(gpu, cpu);
        EXPECT_EQ(gpu.result, cpu.result);
    }
}

// Exercise 2: on the device one lane's write wins each race. Whatever won must be one of the
// 32 values the warp's lanes held; the steps before the race equal the model's.
TEST(GpuPitfall, EveryLaneWritesLeavesOneOfTheLanesValues) {
    REQUIRE_GPU();
    Request r;
    r.algorithm = Algorithm::ReduceFull;
    r.block = 256;
    r.options.pitfall = Pitfall::EveryLaneWrites;
    r.input = generate(Generator::RandomInt, 10000, 5, 0);
    const Trace gpu = backends().gpu->trace(r);
    const Trace cpu = backends().cpu->trace(r);
    ASSERT_EQ(gpu.frames.size(), cpu.frames.size());
    int raced = 0;
    for (std::size_t i = 0; i < gpu.frames.size(); ++i) {
        const Frame& g = gpu.frames[i];
        if (g.pass == 0 && (g.step == Step::Accumulate || g.step == Step::Shuffle)) {
            EXPECT_TRUE(g == cpu.frames[i]) << "frame " << i;
            continue;
        }
        if (g.step != Step::WarpTotals || g.pass != 0)
            continue;
        for (std::size_t w = 0; w < g.values.size(); ++w) {
            const Frame* lanes = nullptr;
            for (const Frame& f : gpu.frames)
                if (f.pass == 0 && f.step == Step::Shuffle && f.level == 5 && f.block == g.block &&
                    f.warp == static_cast<int>(w))
                    lanes = &f;
            ASSERT_NE(lanes, nullptr);
            EXPECT_NE(std::find(lanes->values.begin(), lanes->values.end(), g.values[w]),
                      lanes->values.end())
                << "block " << g.block << " s[" << w << "] = " << g.values[w];
            ++raced;
        }
        EXPECT_TRUE(std::isnan(cpu.frames[i].values[0])) << "the model invents no winner";
    }
    EXPECT_GT(raced, 0);
    EXPECT_TRUE(trace_from_json(to_json(gpu)).same_recording(gpu)) << "opens as a session";
    std::cout << "every-lane-writes on the GPU: sum " << format_value(gpu.result.at(0))
              << " (the right sum is "
              << format_value(backends()
                                  .cpu
                                  ->run([&] {
                                      Request right = r;
                                      right.options.pitfall = Pitfall::None;
                                      return right;
                                  }())
                                  .at(0))
              << ")\n";
}

TEST(GpuPitfall, UndefinedBehaviourIsShownOnTheCpuModelOnly) {
    REQUIRE_GPU();
    Request partial;
    partial.algorithm = Algorithm::ReduceShuffle;
    partial.options.pitfall = Pitfall::PartialWarp;
    partial.options.active_lanes = 20;
    partial.input = generate(Generator::RandomInt, 64, 1, 0);
    Request nosync;
    nosync.algorithm = Algorithm::ScanBlelloch;
    nosync.options.pitfall = Pitfall::NoFinalSync;
    nosync.input = {1, 2, 3, 4};
    for (const Request& r : {partial, nosync}) {
        EXPECT_THROW(backends().gpu->trace(r), InputError);
        // `auto` answers with the CPU model and says so.
        const BackendChoice automatic = choose_backend("auto");
        const Trace t = automatic.backend->trace(r);
        EXPECT_EQ(t.backend, "cpu");
        EXPECT_NE(automatic.backend->last_note().find("undefined behaviour"), std::string::npos);
    }
}

TEST(GpuAtomic, RunToRunVariationIsReportedNotHidden) {
    REQUIRE_GPU();
    Request r;
    r.algorithm = Algorithm::ReduceAtomic;
    r.block = 256;
    r.grid = 512;
    r.input = generate(Generator::RandomFloat, 1 << 20, 7, 0);
    std::set<float> sums;
    for (int run = 0; run < 20; ++run)
        sums.insert(backends().gpu->run(r).at(0));
    std::cout << "reduce-atomic, 2^20 random floats, 512 blocks, 20 runs: " << sums.size()
              << " distinct sums:";
    for (float s : sums)
        std::cout << " " << format_value(s);
    std::cout << "\n";
    RecordProperty("distinct_sums", static_cast<int>(sums.size()));
    // reduce-full on the same input is bit-reproducible: the tree order is fixed by the code.
    r.algorithm = Algorithm::ReduceFull;
    const float first = backends().gpu->run(r).at(0);
    for (int run = 0; run < 5; ++run)
        EXPECT_EQ(backends().gpu->run(r).at(0), first);
}

TEST(GpuErrors, OversizedCooperativeGridIsAClearInputError) {
    REQUIRE_GPU();
    Request r;
    r.algorithm = Algorithm::HistPrivatised;
    r.block = 1024;
    r.bins = 1;     // a small trace: the grid, not the trace cap, is what is too large
    r.grid = 60000; // far more blocks of 1024 threads than the device holds at once
    r.input = generate(Generator::UniformBytes, 1000, 1, 1);
    try {
        backends().gpu->trace(r);
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("resident"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace pplab
