// The issue's deliberately broken kernels: each reported as the right kind of hazard at the
// right line (the line marked `// HAZARD kind` in the file), and where the CPU model shows the
// same mistake as a pitfall, the simulator's trace is the CPU model's, "?" for "?".
#include "helpers.hpp"

#include "pplab/backend.hpp"
#include "pplab/files.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace pplab {
namespace {

struct Broken {
    std::string file;
    Algorithm algorithm;
    int n, block;
    std::string defines;
    // An endless loop that touches nothing but registers: placed on its own line exactly.
    bool registers_only = false;
};

std::string kernel_source(const Broken& b) {
    return b.defines + read_text_file(std::string(PPLAB_SIM_KERNELS) + "/broken/" + b.file);
}

// The marked line and kind, read from the file (counting the defines put above it).
std::pair<int, std::string> marked(const Broken& b) {
    std::istringstream in(kernel_source(b));
    std::string line;
    for (int number = 1; std::getline(in, line); ++number)
        if (const auto at = line.find("// HAZARD "); at != std::string::npos)
            return {number, line.substr(at + 10)};
    return {0, ""};
}

// The line of the first "}" standing alone after line `from`: the end of the loop that starts
// there.
int closing_brace(const Broken& b, int from) {
    std::istringstream in(kernel_source(b));
    std::string line;
    for (int number = 1; std::getline(in, line); ++number)
        if (number > from && line.find_first_not_of(' ') != std::string::npos &&
            line.substr(line.find_first_not_of(' ')) == "}")
            return number;
    return 0;
}

class BrokenKernel : public ::testing::TestWithParam<Broken> {};

TEST_P(BrokenKernel, ReportedAsTheRightKindAtTheRightLine) {
    const Broken& b = GetParam();
    const auto [line, kind] = marked(b);
    ASSERT_GT(line, 0) << b.file << " has no // HAZARD mark";
    Request r = simtest::request(b.algorithm, generate(Generator::RandomInt, b.n, 3, 0), b.block);
    sim::Limits limits;
    limits.seconds = 3;
    const sim::RunResult res = sim::run_kernel(r, kernel_source(b), limits);
    if (kind == "timeout") {
        EXPECT_EQ(res.status, sim::RunResult::Status::TimedOut) << simtest::hazards_text(res);
        EXPECT_NE(res.message.find("did not finish"), std::string::npos) << res.message;
        // Stopped inside the endless loop: from its header (the marked line) to its closing brace.
        EXPECT_GE(res.stopped_line, line) << res.message;
        EXPECT_LE(res.stopped_line, closing_brace(b, line)) << res.message;
        EXPECT_NE(res.message.find("at line " + std::to_string(res.stopped_line)),
                  std::string::npos)
            << res.message;
        EXPECT_EQ(res.message.find("before its first"), std::string::npos) << res.message;
        if (b.registers_only) {
            EXPECT_EQ(res.stopped_line, line) << res.message;
        }
        return;
    }
    ASSERT_FALSE(res.hazards.empty()) << simtest::hazards_text(res);
    const sim::Hazard& first = res.hazards.front();
    EXPECT_EQ(std::string(sim::hazard_id(first.kind)), kind) << simtest::hazards_text(res);
    EXPECT_EQ(first.line, line) << simtest::hazards_text(res);
    EXPECT_FALSE(first.threads.empty());
    EXPECT_GE(first.frame, 0) << "a hazard is drawn on a frame of the trace";
    const bool fatal = kind == "out-of-bounds" || kind == "divergent-barrier" || kind == "fault";
    EXPECT_EQ(first.fatal, fatal);
    EXPECT_EQ(res.status, fatal ? sim::RunResult::Status::Faulted : sim::RunResult::Status::Ran);
    if (kind == "race" || kind == "out-of-bounds") {
        EXPECT_GE(first.index, 0);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Issue, BrokenKernel,
    ::testing::Values(
        Broken{"tree-missing-barrier.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"},
        Broken{"every-lane-writes.cu", Algorithm::ReduceFull, 100, 64,
               "#define TILE 64\n#define WARPS 2\n"},
        Broken{"partial-warp.cu", Algorithm::ReduceShuffle, 32, 32, ""},
        Broken{"out-of-bounds.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"},
        Broken{"barrier-in-if.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"},
        Broken{"endless-loop.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"},
        Broken{"endless-stride.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"},
        Broken{"endless-while.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n", true},
        Broken{"endless-for.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n", true},
        Broken{"endless-do.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n", true}),
    [](const ::testing::TestParamInfo<Broken>& p) {
        std::string id = p.param.file.substr(0, p.param.file.size() - 3);
        for (char& c : id)
            if (c == '-')
                c = '_';
        return id;
    });

// A run under a small memory limit (384 MiB), with time to reach it.
sim::RunResult run_in_384_mib(const Broken& b) {
    const Request r =
        simtest::request(b.algorithm, generate(Generator::RandomInt, b.n, 3, 0), b.block);
    sim::Limits limits;
    limits.seconds = 60;
    limits.memory_bytes = 384ull << 20;
    return sim::run_kernel(r, kernel_source(b), limits);
}

// The endless loop passes a barrier each time round, writing shared memory, and pplab keeps a
// snapshot of it at each: the block is stopped at that barrier when it has recorded
// kMostSnapshotsPerBlock of them, well before the memory limit (kept small here, so reaching it
// first would fail the test), and the message names the barrier and why.
TEST(BrokenKernel, TheSnapshotCapStopsALoopAroundABarrierThere) {
    const Broken b{"endless-loop.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"};
    const std::string barrier = std::to_string(marked(b).first);
    const sim::RunResult res = run_in_384_mib(b);
    ASSERT_EQ(res.status, sim::RunResult::Status::Faulted) << res.message;
    EXPECT_EQ(res.message.rfind(
                  "line " + barrier + ": block 0 passed __syncthreads() on line " + barrier, 0),
              0u)
        << res.message;
    EXPECT_NE(res.message.find("more than 4096 snapshots of shared memory"), std::string::npos)
        << res.message;
}

#if defined(__SANITIZE_ADDRESS__)
#define PPLAB_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PPLAB_TEST_ASAN 1
#endif
#endif

// Memory taken in a loop and never given back: under a small memory limit the run ends there,
// and says the limit and where, as the time limit does.
TEST(BrokenKernel, TheMemoryLimitStopsAnAllocatingLoopAndSaysWhere) {
#if defined(PPLAB_TEST_ASAN)
    GTEST_SKIP() << "an AddressSanitizer build runs the kernel with no memory limit";
#endif
    const Broken b{"endless-alloc.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"};
    const int line = marked(b).first;
    const sim::RunResult res = run_in_384_mib(b);
    ASSERT_EQ(res.status, sim::RunResult::Status::OutOfMemory) << res.message;
    EXPECT_NE(res.message.find("384 MiB"), std::string::npos) << res.message;
    EXPECT_GE(res.stopped_line, line) << res.message;
    EXPECT_LE(res.stopped_line, closing_brace(b, line)) << res.message;
}

// What CUDA leaves undefined, the CPU model's pitfalls record as "?"; the simulator, running the
// mistake itself, must agree cell for cell.
TEST(BrokenKernel, Exercise2RaceGivesTheCpuModelsPitfallTrace) {
    const Broken b{"every-lane-writes.cu", Algorithm::ReduceFull, 100, 64,
                   "#define TILE 64\n#define WARPS 2\n"};
    Request r = simtest::request(b.algorithm, generate(Generator::RandomInt, b.n, 5, 0), b.block);
    r.grid = 1;
    const sim::RunResult res = sim::run_kernel(r, kernel_source(b));
    ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
    r.options.pitfall = Pitfall::EveryLaneWrites;
    const Trace pitfall = make_cpu_backend()->trace(r);
    EXPECT_EQ(res.trace.frames, pitfall.frames)
        << sim::describe(sim::first_difference(res.trace, pitfall));
}

TEST(BrokenKernel, PartialWarpGivesTheCpuModelsPitfallTrace) {
    const Broken b{"partial-warp.cu", Algorithm::ReduceShuffle, 32, 32, ""};
    Request r = simtest::request(b.algorithm, generate(Generator::RandomInt, b.n, 5, 0), b.block);
    const sim::RunResult res = sim::run_kernel(r, kernel_source(b));
    ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
    r.options.pitfall = Pitfall::PartialWarp;
    r.options.active_lanes = 20;
    const Trace pitfall = make_cpu_backend()->trace(r);
    EXPECT_EQ(res.trace.frames, pitfall.frames)
        << sim::describe(sim::first_difference(res.trace, pitfall));
    EXPECT_NE(res.hazards.front().message.find("20-31"), std::string::npos)
        << res.hazards.front().message;
}

} // namespace
} // namespace pplab
