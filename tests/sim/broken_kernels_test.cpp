// The issue's deliberately broken kernels: each reported as the right kind of hazard at the
// right line (the line marked `// HAZARD kind` in the file), and where the CPU model shows the
// same mistake as a pitfall, the simulator's trace is the CPU model's, "?" for "?".
#include "helpers.hpp"

#include "pplab/backend.hpp"
#include "pplab/files.hpp"
#include "pplab/lookback.hpp"
#include "sim/compile_errors.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

// A test's name from its kernel's file: "heap-new.cu" -> "heap_new".
std::string test_name(const std::string& file) {
    std::string id = file.substr(0, file.size() - 3);
    std::replace(id.begin(), id.end(), '-', '_');
    return id;
}

class BrokenKernel : public ::testing::TestWithParam<Broken> {};

TEST_P(BrokenKernel, ReportedAsTheRightKindAtTheRightLine) {
    const Broken& b = GetParam();
    const auto [line, kind] = marked(b);
    ASSERT_GT(line, 0) << b.file << " has no // HAZARD mark";
#if defined(PPLAB_TEST_ASAN)
    if (b.file.find("past-its-end") != std::string::npos)
        GTEST_SKIP() << "a sanitizer build's runner has the sanitizer's bounds handler: it "
                        "reports the overrun itself";
#endif
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
    if (kind == "race") { // the fixture's name says which memory
        EXPECT_EQ(first.memory, b.file.rfind("global-", 0) == 0 ? "global" : "shared");
    }
    if (kind == "out-of-bounds") { // the fixture's name says which memory
        const std::string memory = b.file.rfind("heap-", 0) == 0  ? "heap"
                                   : b.file.rfind("own-", 0) == 0 ? "own"
                                                                  : "global";
        EXPECT_EQ(first.memory, memory) << first.message;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Issue, BrokenKernel,
    ::testing::Values(
        Broken{"tree-missing-barrier.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"},
        // Three tiles of 128: tiles 1 and 2 read what tiles 0 and 1 published.
        Broken{"global-lookback-without-volatile.cu", Algorithm::ScanFast, 300, 32, ""},
        Broken{"lookback-never-published.cu", Algorithm::ScanFast, 300, 32, ""},
        Broken{"every-lane-writes.cu", Algorithm::ReduceFull, 100, 64,
               "#define TILE 64\n#define WARPS 2\n"},
        Broken{"partial-warp.cu", Algorithm::ReduceShuffle, 32, 32, ""},
        Broken{"out-of-bounds.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"},
        Broken{"barrier-in-if.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"},
        Broken{"endless-loop.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"},
        Broken{"endless-stride.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"},
        Broken{"endless-while.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n", true},
        Broken{"endless-for.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n", true},
        Broken{"endless-do.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n", true},
        Broken{"heap-out-of-bounds.cu", Algorithm::ReduceTree, 100, 64, ""},
        Broken{"heap-use-after-delete.cu", Algorithm::ReduceTree, 100, 64, ""},
        Broken{"heap-wrong-delete.cu", Algorithm::ReduceTree, 100, 64, ""},
        Broken{"heap-delete-shared.cu", Algorithm::ReduceTree, 100, 64, ""},
        Broken{"own-array-out-of-bounds.cu", Algorithm::ReduceTree, 100, 64, ""},
        Broken{"own-array-past-its-end.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"},
        Broken{"own-array-row-past-its-end.cu", Algorithm::ReduceTree, 100, 64,
               "#define TILE 64\n"},
        Broken{"heap-negative-size.cu", Algorithm::ReduceTree, 100, 64, ""},
        Broken{"shared-past-48-kib.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"},
        Broken{"barrier-in-grid-loop.cu", Algorithm::HistPrivatised, 1000, 32, ""},
        Broken{"shuffle-in-guard.cu", Algorithm::ReduceShuffle, 40, 32, ""},
        Broken{"global-write-past-out.cu", Algorithm::ReduceTree, 64, 32, ""},
        Broken{"tree-barrier-after-level.cu", Algorithm::ReduceTree, 64, 32, ""},
        Broken{"shared-never-written.cu", Algorithm::ReduceTree, 40, 32, ""},
        Broken{"warp-synchronous.cu", Algorithm::ReduceTree, 100, 64, ""},
        Broken{"global-histogram-race.cu", Algorithm::HistGlobal, 1000, 64, ""},
        Broken{"hist-privatised-plain-count.cu", Algorithm::HistPrivatised, 1000, 64, ""},
        Broken{"shared-variable-race.cu", Algorithm::ReduceTree, 100, 64, "#define TILE 64\n"},
        Broken{"register-without-a-value.cu", Algorithm::ReduceCoarsened, 1000, 64,
               "#define TILE 64\n"},
        Broken{"global-every-block-writes-one.cu", Algorithm::ReduceTree, 100, 64, ""},
        Broken{"global-flag-without-fence.cu", Algorithm::ReduceTree, 256, 64, ""},
        Broken{"global-write-after-flag.cu", Algorithm::ReduceTree, 256, 64, ""}),
    [](const ::testing::TestParamInfo<Broken>& p) { return test_name(p.param.file); });

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
// scan-fast's look-back that reads a predecessor's descriptor once instead of waiting for it:
// tiles run in flight together, so some tile looks back before its predecessor has published,
// adds nothing for it, and the output differs from the CPU model's (a GPU's would too, at
// times). Run to the end, not hung.
TEST(BrokenKernel, ALookBackThatDoesNotWaitGivesAWrongScan) {
    const std::string source =
        read_text_file(std::string(PPLAB_SIM_KERNELS) + "/broken/scan-fast-no-flag-wait.cu");
    for (const std::uint64_t seed : {0u, 7u, 12345u}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        Request r = simtest::request(Algorithm::ScanFast,
                                     generate(Generator::RandomInt, 16 * 128, 5, 0), 32);
        r.options.order_seed = seed;
        const sim::RunResult res = sim::run_kernel(r, source);
        ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
        const Trace chapter = make_cpu_backend()->trace(r);
        EXPECT_NE(res.trace.result, chapter.result);
        const sim::Difference d = sim::first_difference(res.trace, chapter);
        EXPECT_FALSE(d.same);
        EXPECT_EQ(sim::describe(d).rfind("The result differs: out[", 0), 0u) << sim::describe(d);
        // The record shows why: a look that found nothing published, and the lane went on.
        const std::vector<std::string> problems = check_lookback(res.trace);
        EXPECT_TRUE(std::any_of(problems.begin(), problems.end(), [](const std::string& p) {
            return p.find("the look-back ended without finding anything published") !=
                   std::string::npos;
        })) << (problems.empty() ? "no problem found" : problems.front());
    }
}

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

// A broken kernel's launch over whole numbers (seed 5), in `grid` blocks.
Request launch_of(const Broken& b, int grid) {
    Request r = simtest::request(b.algorithm, generate(Generator::RandomInt, b.n, 5, 0), b.block);
    r.grid = grid;
    return r;
}

// What CUDA leaves undefined, the CPU model's pitfalls record as "?"; the simulator, running the
// mistake itself, must agree cell for cell.
TEST(BrokenKernel, Exercise2RaceGivesTheCpuModelsPitfallTrace) {
    const Broken b{"every-lane-writes.cu", Algorithm::ReduceFull, 100, 64,
                   "#define TILE 64\n#define WARPS 2\n"};
    Request r = launch_of(b, 1);
    const sim::RunResult res = sim::run_kernel(r, kernel_source(b));
    ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
    r.options.pitfall = Pitfall::EveryLaneWrites;
    const Trace pitfall = make_cpu_backend()->trace(r);
    EXPECT_EQ(res.trace.frames, pitfall.frames)
        << sim::describe(sim::first_difference(res.trace, pitfall));
}

// One mistake is one report: the every-lane write races in each of the 4 blocks of the first
// launch and again in the launch that adds their totals, and the student reads one line counting
// all of them (31 late writes a warp, 8 warps a block, 4 + 1 blocks), not a line a launch.
TEST(BrokenKernel, ARaceInBothLaunchesIsOneReport) {
    const Broken b{"every-lane-writes.cu", Algorithm::ReduceFull, 4096, 256,
                   "#define TILE 256\n#define WARPS 8\n"};
    const Request r = launch_of(b, 4);
    const sim::RunResult res = sim::run_kernel(r, kernel_source(b));
    ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
    ASSERT_EQ(res.hazards.size(), 1u) << simtest::hazards_text(res);
    EXPECT_EQ(res.hazards.front().kind, sim::HazardKind::Race);
    EXPECT_EQ(res.hazards.front().line, marked(b).first);
    EXPECT_EQ(res.hazards.front().count, 31 * 8 * (4 + 1));
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

// What a message must not show: the simulator's own names, which mean nothing to a student.
void expect_in_the_chapters_words(const std::string& message) {
    for (const char* internal : {"ptr<", "ref<", "reg", "pplab::sim", "fiber", "preprocess",
                                 "heap_", "Taken::", "instantiat", "template"})
        EXPECT_EQ(message.find(internal), std::string::npos) << internal << " in: " << message;
}

// A kernel file under kernels/ (broken/NAME, forms/NAME) run as reduce-tree over 100 whole
// numbers in blocks of 64.
sim::RunResult run_tree(const std::string& path) {
    const Request r =
        simtest::request(Algorithm::ReduceTree, generate(Generator::RandomInt, 100, 3, 0), 64);
    return sim::run_kernel(r, read_text_file(std::string(PPLAB_SIM_KERNELS) + "/" + path));
}

// The heap hazards say where the memory came from, and where it was given back.
TEST(BrokenKernel, HeapHazardsSayWhereTheMemoryCameFrom) {
    const auto message = [](const std::string& file) {
        const sim::RunResult res = run_tree("broken/" + file);
        EXPECT_EQ(res.status, sim::RunResult::Status::Faulted) << simtest::hazards_text(res);
        expect_in_the_chapters_words(res.message);
        return res.message;
    };
    EXPECT_EQ(message("heap-out-of-bounds.cu"),
              "line 8: write to pair[1] by thread 0 of block 0: outside the 1 elements of pair "
              "got from new[] on line 6; 63 other threads of the block (1-63) did the same on "
              "line 8");
    EXPECT_EQ(message("heap-use-after-delete.cu"),
              "line 9: read of mine[0] by thread 0 of block 0 after delete[] gave it back on "
              "line 8: memory given back is no longer the kernel's; 63 other threads of the "
              "block (1-63) did the same on line 9");
    EXPECT_EQ(message("heap-negative-size.cu"),
              "line 5: malloc is asked for -3600 bytes: the size must not be negative");
    EXPECT_EQ(message("heap-wrong-delete.cu"),
              "line 9: mine came from new[] on line 6, so it is given back with delete[], not "
              "delete");
    const std::string shared = message("heap-delete-shared.cu");
    EXPECT_EQ(shared.rfind("line 9: delete[] gives back s, which new or malloc did not give", 0),
              0u)
        << shared;
}

// A hazard's message says which block (when the grid has more than one), which threads waited
// where, and the lowest thread that made the mistake with how many others made it too.
TEST(BrokenKernel, MessagesNameTheBlockAndTheThreads) {
    const auto first = [](const Broken& b) {
        const Request r =
            simtest::request(b.algorithm, generate(Generator::RandomInt, b.n, 3, 0), b.block);
        const sim::RunResult res = sim::run_kernel(r, kernel_source(b));
        EXPECT_FALSE(res.hazards.empty()) << b.file;
        expect_in_the_chapters_words(res.message);
        return res.hazards.empty() ? std::string() : res.hazards.front().message;
    };
    EXPECT_EQ(first({"shuffle-in-guard.cu", Algorithm::ReduceShuffle, 40, 32, ""}),
              "the mask 0xffffffff on line 6 names lanes 8-31 of warp 0 of block 1, which do not "
              "execute it: the values they should give are undefined (shown as ?)");
    EXPECT_EQ(first({"barrier-in-grid-loop.cu", Algorithm::HistPrivatised, 1000, 32, ""}),
              "threads of block 7 wait at different barriers: threads 0-7 at line 12; threads "
              "8-31 at line 14: each __syncthreads() must be reached by the whole block (a "
              "barrier inside a loop or an `if` that not all threads take hangs or breaks on a "
              "GPU)");
    EXPECT_EQ(first({"global-write-past-out.cu", Algorithm::ReduceTree, 64, 32, ""}),
              "write to out[2] by thread 2 of block 0: outside the 2 elements of the buffer out; "
              "29 other threads of the block (3-31) did the same on line 15");
}

// The barrier after each level instead of before it: level 0 reads s[16] before thread 16 loads
// it. The read is early, not of memory no thread fills: the race with thread 16's write is said
// (racecheck's report), and no uninitialised read.
TEST(BrokenKernel, AReadBeforeAnotherThreadsWriteIsARaceNotAnUninitialisedRead) {
    const Broken b{"tree-barrier-after-level.cu", Algorithm::ReduceTree, 64, 32, ""};
    const Request r =
        simtest::request(b.algorithm, generate(Generator::RandomInt, b.n, 3, 0), b.block);
    const sim::RunResult res = sim::run_kernel(r, kernel_source(b));
    ASSERT_FALSE(res.hazards.empty()) << simtest::hazards_text(res);
    EXPECT_EQ(res.hazards.front().message,
              "write-after-read race on s[16]: thread 16 (line 8) and thread 0 (line 12) of "
              "block 0 with no __syncthreads() between them");
    for (const sim::Hazard& h : res.hazards)
        EXPECT_NE(h.kind, sim::HazardKind::UninitialisedRead) << h.message;
}

// Shared memory no thread of the block writes, read: the block, the thread, the element, and
// that shared memory starts undefined; the values read are undefined too, shown as ?.
TEST(BrokenKernel, AReadOfSharedMemoryNoThreadWroteIsSaid) {
    const Broken b{"shared-never-written.cu", Algorithm::ReduceTree, 40, 32, ""};
    const Request r =
        simtest::request(b.algorithm, generate(Generator::RandomInt, b.n, 3, 0), b.block);
    const sim::RunResult res = sim::run_kernel(r, kernel_source(b));
    ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
    ASSERT_EQ(res.hazards.size(), 1u) << simtest::hazards_text(res);
    const sim::Hazard& h = res.hazards.front();
    EXPECT_EQ(h.message, "thread 0 of block 1 reads s[16] before any thread of the block wrote "
                         "it: shared memory starts undefined in every block");
    EXPECT_EQ(h.block, 1);
    EXPECT_EQ(h.index, 16);
    EXPECT_EQ(h.memory, "shared");
    // Level 0 of block 1: threads 0-15 read s[16..31], of which threads 8-15 wrote none.
    EXPECT_EQ(h.count, 24) << simtest::hazards_text(res);
    ASSERT_EQ(res.trace.result.size(), 2u);
    EXPECT_TRUE(std::isnan(res.trace.result[1])) << "block 1's total is undefined (?)";
}

// __shfl_xor_sync's butterfly: every lane ends with the warp's total, so lane 0 writes the
// chapter's result, and the run has no hazard.
TEST(WorkingForm, ShflXorSyncGivesEveryLaneTheWarpsTotal) {
    const std::string source = "__device__ float warpReduce(float val)\n"
                               "{\n"
                               "    for (int offset = 16; offset > 0; offset >>= 1)\n"
                               "        val += __shfl_xor_sync(0xffffffffu, val, offset);\n"
                               "    return val;\n"
                               "}\n"
                               "__global__ void reduceShuffle(const float* in, float* out, int n)\n"
                               "{\n"
                               "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    const int warpId = threadIdx.x / 32;\n"
                               "    float val = (i < n) ? in[i] : 0.0f;\n"
                               "    val = warpReduce(val);\n"
                               "    if (threadIdx.x % 32 == 31)\n"
                               "        out[blockIdx.x * (blockDim.x / 32) + warpId] = val;\n"
                               "}\n";
    const Request r =
        simtest::request(Algorithm::ReduceShuffle, generate(Generator::RandomInt, 100, 3, 0), 64);
    const sim::RunResult res = sim::run_kernel(r, source);
    ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
    EXPECT_TRUE(res.hazards.empty()) << simtest::hazards_text(res);
    EXPECT_GT(res.counted.shuffles, 0);
    EXPECT_EQ(res.trace.result, make_cpu_backend()->trace(r).result);
}

// nvcc refuses more than 48 KiB of static __shared__ a block; so does the simulator, saying how
// much the kernel declares, array by array.
TEST(BrokenKernel, StaticSharedPast48KibIsRefusedWithItsSize) {
    const sim::RunResult res = run_tree("broken/shared-past-48-kib.cu");
    EXPECT_EQ(res.status, sim::RunResult::Status::Faulted) << simtest::hazards_text(res);
    expect_in_the_chapters_words(res.message);
    EXPECT_EQ(res.message,
              "line 6: the kernel declares 64 KiB and 256 bytes of __shared__ (s 256 bytes, "
              "table 64 KiB) and a block holds 48 KiB statically (nvcc refuses the kernel): size "
              "the arrays by the block (s[TILE]), or take the memory from the launch with extern "
              "__shared__");
}

// Forms of C++ the chapter's kernels do not use but students write: memory from the device heap
// (new, malloc), pointers into shared memory and their arithmetic, references, auto, helpers
// taking pointers. Each kernel in kernels/forms/ computes reduceTree, so its trace must be the
// CPU model's, level for level.
class WorkingForm : public ::testing::TestWithParam<std::string> {};

TEST_P(WorkingForm, GivesTheChaptersTrace) {
    const std::string source =
        read_text_file(std::string(PPLAB_SIM_KERNELS) + "/forms/" + GetParam());
    for (const int n : {100, 256}) {
        const Request r =
            simtest::request(Algorithm::ReduceTree, generate(Generator::RandomInt, n, 3, 0), 64);
        const sim::RunResult res = sim::run_kernel(r, source);
        ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
        EXPECT_TRUE(res.hazards.empty()) << simtest::hazards_text(res);
        const Trace chapter = make_cpu_backend()->trace(r);
        EXPECT_EQ(res.trace.frames, chapter.frames)
            << sim::describe(sim::first_difference(res.trace, chapter));
        EXPECT_EQ(res.trace.result, chapter.result);
    }
}

INSTANTIATE_TEST_SUITE_P(Students, WorkingForm, ::testing::ValuesIn(simtest::working_forms()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                             return test_name(p.param);
                         });

// What students get wrong, or write in a form pplab cannot run: each file in kernels/broken/
// marks one line `// REFUSED words`; the run must not compile, and its message must name that
// line, say the words, and show nothing of pplab's insides.
struct Refusal {
    std::string file;
    Algorithm algorithm = Algorithm::ReduceTree;
};

class RefusedKernel : public ::testing::TestWithParam<Refusal> {};

TEST_P(RefusedKernel, SaysWhyOnTheStudentsLine) {
    const Refusal& f = GetParam();
    const std::string source = read_text_file(std::string(PPLAB_SIM_KERNELS) + "/broken/" + f.file);
    std::istringstream in(source);
    std::string text, words;
    int line = 0;
    std::size_t code = 0; // the marked line's code, up to its // REFUSED comment
    for (int number = 1; std::getline(in, text) && line == 0; ++number)
        if (const auto at = text.find("// REFUSED "); at != std::string::npos) {
            line = number;
            words = text.substr(at + 11);
            code = text.find_last_not_of(' ', at - 1) + 1;
        }
    ASSERT_GT(line, 0) << f.file << " has no // REFUSED mark";
    const bool histogram = info(f.algorithm).family == Family::Histogram;
    const Request r = simtest::request(
        f.algorithm,
        generate(histogram ? Generator::UniformBytes : Generator::RandomInt, 100, 3, 0), 64);
    const sim::RunResult res = sim::run_kernel(r, source);
    ASSERT_EQ(res.status, sim::RunResult::Status::CompileFailed) << simtest::hazards_text(res);
    EXPECT_EQ(res.errors.front().line, line) << simtest::hazards_text(res);
    // The column is the student's, in the line's code (the compiler counted in pplab's
    // pre-processed line, longer where it notes each use's line).
    EXPECT_GE(res.errors.front().column, 1) << res.message;
    EXPECT_LE(res.errors.front().column, static_cast<int>(code) + 1) << res.message;
    EXPECT_EQ(res.message.rfind("line " + std::to_string(line) + ": ", 0), 0u) << res.message;
    EXPECT_NE(res.message.find(words), std::string::npos) << res.message;
    expect_in_the_chapters_words(res.message);
}

INSTANTIATE_TEST_SUITE_P(
    Students, RefusedKernel,
    ::testing::Values(Refusal{"malloc-without-cast.cu"}, Refusal{"shared-struct.cu"},
                      Refusal{"float4.cu"}, Refusal{"reference-parameter.cu"},
                      Refusal{"missing-semicolon.cu"}, Refusal{"missing-semicolon-before-brace.cu"},
                      Refusal{"for-with-comma.cu"}, Refusal{"misspelt-barrier.cu"},
                      Refusal{"shared-sized-by-n.cu"}, Refusal{"pointer-cast.cu"},
                      Refusal{"index-as-pointer.cu"},
                      Refusal{"shuffle-without-mask.cu", Algorithm::ReduceShuffle},
                      Refusal{"shuffle-before-cuda-9.cu", Algorithm::ReduceShuffle},
                      Refusal{"atomic-without-address.cu", Algorithm::HistPrivatised},
                      Refusal{"shared-initialised.cu", Algorithm::HistPrivatised},
                      Refusal{"cooperative-groups.cu", Algorithm::ReduceShuffle},
                      Refusal{"host-code.cu"}),
    [](const ::testing::TestParamInfo<Refusal>& p) { return test_name(p.param.file); });

// A recursion that never ends runs into the guard page below its thread's stack: the run ends
// as a crash that says where the kernel was and what is likely (an AddressSanitizer build keeps
// its own report).
TEST(BrokenKernel, AnEndlessRecursionSaysWhereItCrashed) {
#if defined(PPLAB_TEST_ASAN)
    GTEST_SKIP() << "an AddressSanitizer build reports the crash itself";
#endif
    const sim::RunResult res = run_tree("broken/endless-recursion.cu");
    ASSERT_EQ(res.status, sim::RunResult::Status::Crashed) << res.message;
    EXPECT_NE(res.message.find("last seen at line 13 (thread 0 of block 0"), std::string::npos)
        << res.message;
    EXPECT_NE(res.message.find("a recursion too deep for a thread's stack"), std::string::npos)
        << res.message;
    expect_in_the_chapters_words(res.message);
}

// An integer division by zero stops the simulated kernel (a GPU gives an undefined number and
// goes on): the run says so in words, with the line last seen, not as "signal 8".
TEST(BrokenKernel, ADivisionByZeroIsSaidInWords) {
#if defined(PPLAB_TEST_ASAN)
    GTEST_SKIP() << "an UndefinedBehaviorSanitizer build reports the division itself";
#endif
    const sim::RunResult res = run_tree("broken/divide-by-zero.cu");
    ASSERT_EQ(res.status, sim::RunResult::Status::Crashed) << res.message;
    EXPECT_EQ(res.message.rfind("the kernel divided an integer by zero, last seen at line 10", 0),
              0U)
        << res.message;
    EXPECT_EQ(res.last_seen_line, 10); // the editor goes there on a click
    EXPECT_EQ(res.stopped_line, 0);    // not marked as a limit's line
    EXPECT_NE(res.message.find("a GPU does not stop there"), std::string::npos) << res.message;
    expect_in_the_chapters_words(res.message);
}

// A thread's own array indexed directly (no pointer the runtime watches) past its end is caught
// by the compiler's bounds check, at its line, with the first thread that did it: it read or
// wrote whatever lay beside the array on the thread's stack, a different sum each run.
TEST(BrokenKernel, AnOwnArrayIndexedPastItsEndIsSaidAtItsLine) {
#if defined(PPLAB_TEST_ASAN)
    GTEST_SKIP() << "a sanitizer build's runner has the sanitizer's bounds handler: it reports "
                    "the overrun itself";
#endif
    const sim::RunResult loop = run_tree("broken/own-array-past-its-end.cu");
    ASSERT_EQ(loop.status, sim::RunResult::Status::Faulted) << simtest::hazards_text(loop);
    ASSERT_FALSE(loop.hazards.empty());
    EXPECT_EQ(loop.hazards.front().line, 6);
    EXPECT_EQ(loop.hazards.front().message,
              "element 4 of a thread's own array (float [4]) by thread 0 of block 0: outside its "
              "4 elements, 0 to 3");
    // Block 1 of 100 numbers in blocks of 64: thread 38 (i = 102) is the first to ask for row 2.
    const sim::RunResult row = run_tree("broken/own-array-row-past-its-end.cu");
    ASSERT_EQ(row.status, sim::RunResult::Status::Faulted) << simtest::hazards_text(row);
    ASSERT_FALSE(row.hazards.empty());
    EXPECT_EQ(row.hazards.front().line, 8);
    EXPECT_EQ(row.hazards.front().message,
              "row 2 of a thread's own array (float [2][3]) by thread 38 of block 1: outside its "
              "2 rows, 0 to 1");
    for (const sim::RunResult* r : {&loop, &row})
        expect_in_the_chapters_words(r->hazards.front().message);
}

// File-scope arrays past the run's memory limit are said as such, not as the loader's "failed to
// map segment".
TEST(BrokenKernel, DeviceArraysPastTheMemoryLimitAreSaidInWords) {
#if defined(PPLAB_TEST_ASAN)
    GTEST_SKIP() << "an AddressSanitizer build runs the kernel with no memory limit";
#endif
    const sim::RunResult res = run_tree("broken/device-array-too-large.cu");
    EXPECT_FALSE(res.ok());
    EXPECT_EQ(res.message.rfind("the kernel's __device__ and __constant__ arrays do not fit in "
                                "the memory the simulator gives a run (",
                                0),
              0u)
        << res.message;
    EXPECT_EQ(res.message.find("map segment"), std::string::npos) << res.message;
}

// A __shared__ variable (an array of one) is named as the kernel names it: "total", not
// "total[0]", which the kernel never wrote.
TEST(BrokenKernel, ASharedVariableIsNamedWithoutAnIndex) {
    const sim::RunResult res = run_tree("broken/shared-variable-race.cu");
    ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
    ASSERT_FALSE(res.hazards.empty());
    EXPECT_EQ(res.hazards.front().message,
              "write-after-write race on total: thread 1 (line 9) and thread 0 (line 9) of block "
              "0 with no __syncthreads() between them");
}

// A float declared without a value and read before one is given (the coarsened sum without its
// = 0.0f): said at the declaration, where the value goes, once for all the threads that read
// it; what it held reads as ?, so the levels it reaches are ? and not a lucky 0's sums.
TEST(BrokenKernel, ARegisterReadBeforeItHasAValueIsSaidWhereItIsDeclared) {
    const Broken b{"register-without-a-value.cu", Algorithm::ReduceCoarsened, 1000, 64, ""};
    const Request r = launch_of(b, 2);
    const sim::RunResult res = sim::run_kernel(r, kernel_source(b));
    ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
    ASSERT_EQ(res.hazards.size(), 1u) << simtest::hazards_text(res);
    const sim::Hazard& h = res.hazards.front();
    EXPECT_EQ(h.kind, sim::HazardKind::UninitialisedRead);
    EXPECT_EQ(h.line, 8);
    EXPECT_EQ(h.count, 2 * 64); // every thread of both blocks
    EXPECT_EQ(h.message,
              "sum, declared without a value, is read by thread 0 of block 0 before anything is "
              "written to it: on a GPU it holds whatever was there before, so declare it with a "
              "value (float sum = 0.0f;)");
    expect_in_the_chapters_words(h.message);
    ASSERT_EQ(res.trace.result.size(), 2u); // one partial sum a block
    for (const float v : res.trace.result)
        EXPECT_TRUE(std::isnan(v)) << v;
    // Given its value on the line after, nothing is said.
    std::string fixed = kernel_source(b);
    fixed.replace(fixed.find("float sum;"), 10, "float sum;\n    sum = 0.0f;");
    const sim::RunResult ok = sim::run_kernel(r, fixed);
    ASSERT_TRUE(ok.ok()) << simtest::hazards_text(ok);
    EXPECT_TRUE(ok.hazards.empty()) << simtest::hazards_text(ok);
}

// A private histogram counted with ++ instead of atomicAdd: the race at its line; the rounds
// between the two barriers, which only the atomics tell apart, "?" but the last, which is
// s_hist[] as the barrier after them found it (replayed from no atomics, every round was drawn
// empty and --check said the kernel had counted nothing).
TEST(BrokenKernel, PlainCountsInSharedMemoryRaceAndTheirRoundsAreUnknown) {
    const Broken b{"hist-privatised-plain-count.cu", Algorithm::HistPrivatised, 1000, 64, ""};
    Request r =
        simtest::request(b.algorithm, generate(Generator::UniformBytes, b.n, 3, 16), b.block);
    r.bins = 16;
    r.grid = 4; // four rounds of 4 x 64 threads
    const sim::RunResult res = sim::run_kernel(r, kernel_source(b));
    ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
    ASSERT_FALSE(res.hazards.empty());
    EXPECT_EQ(res.hazards.front().kind, sim::HazardKind::Race);
    EXPECT_EQ(res.hazards.front().line, marked(b).first);
    const Trace chapter = make_cpu_backend()->trace(r);
    ASSERT_EQ(res.trace.frames.size(), chapter.frames.size());
    int unknown = 0, last = 0;
    for (std::size_t f = 0; f < chapter.frames.size(); ++f) {
        const Frame& mine = res.trace.frames[f];
        if (mine.step != Step::HistAccumulate)
            continue;
        if (mine.level < 4) {
            EXPECT_TRUE(std::all_of(mine.values.begin(), mine.values.end(),
                                    [](float v) { return std::isnan(v); }))
                << "round " << mine.level << " of block " << mine.block;
            ++unknown;
        } else { // what the kernel counted: some counts lost to the race, none made up
            ASSERT_EQ(mine.values.size(), chapter.frames[f].values.size());
            float counted = 0;
            for (std::size_t bin = 0; bin < mine.values.size(); ++bin) {
                EXPECT_LE(mine.values[bin], chapter.frames[f].values[bin]) << "bin " << bin;
                counted += mine.values[bin];
            }
            EXPECT_GT(counted, 0.0f) << "block " << mine.block << " drawn as if it counted nothing";
            ++last;
        }
    }
    EXPECT_EQ(unknown, 4 * 3);
    EXPECT_EQ(last, 4);
    EXPECT_TRUE(std::any_of(res.notes.begin(), res.notes.end(), [](const std::string& n) {
        return n.find("without atomicAdd") != std::string::npos;
    })) << simtest::hazards_text(res);
}

// A failed assert() (or __trap()) stops the kernel: the run says so, and what assert printed is
// kept with what the kernel printed.
TEST(BrokenKernel, AFailedAssertIsSaidAndItsTextKept) {
#if defined(PPLAB_TEST_ASAN)
    GTEST_SKIP() << "an AddressSanitizer build reports the abort itself";
#endif
    const sim::RunResult res = run_tree("broken/assert-fails.cu");
    ASSERT_EQ(res.status, sim::RunResult::Status::Crashed) << res.message;
    EXPECT_EQ(res.message.rfind("the kernel stopped itself (abort or trap)", 0), 0U) << res.message;
    EXPECT_NE(res.printed.find("line 12: assert(s[0] < 0.0f) failed"), std::string::npos)
        << res.printed;
    expect_in_the_chapters_words(res.message);
}

// A signature that is not the chapter's names each parameter's type as the student wrote it,
// a float among them (pplab makes float variables registers of its own).
TEST(BrokenKernel, AChangedSignatureIsSpeltAsWritten) {
    const sim::RunResult res = run_tree("broken/float-parameter.cu");
    ASSERT_EQ(res.status, sim::RunResult::Status::Faulted) << res.message;
    EXPECT_NE(res.message.find("yours takes (const float*, float*, float)"), std::string::npos)
        << res.message;
}

// printf prints what the kernel holds: an element of shared memory and a float variable are
// numbers (passed as pplab's objects they printed garbage, often 0).
TEST(WorkingForm, PrintfPrintsTheValuesTheKernelHolds) {
    const std::string source = read_text_file(std::string(PPLAB_SIM_KERNELS) + "/forms/printf.cu");
    const Request r = simtest::request(Algorithm::ReduceTree, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 64);
    const sim::RunResult res = sim::run_kernel(r, source);
    ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
    EXPECT_EQ(res.printed, "block 0: 55.0 = 55.0\n");
}

// printf's format kept in a variable (`const char* format = "…"`) is read from it, as CUDA
// reads it, and a word in a `const char*` variable is printed as text (it did not compile).
TEST(WorkingForm, PrintfTakesItsFormatAndWordsFromVariables) {
    const std::string source =
        read_text_file(std::string(PPLAB_SIM_KERNELS) + "/forms/printf-format-variable.cu");
    const Request r = simtest::request(Algorithm::ReduceTree, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 64);
    const sim::RunResult res = sim::run_kernel(r, source);
    ASSERT_TRUE(res.ok()) << res.message << simtest::hazards_text(res);
    EXPECT_EQ(res.printed, "block 0: 55.0\n");
}

// What a GPU's device heap (8 MiB unless the host raises it) would not hold runs here, bounded
// by the run's memory limit only, and a note says so; a kernel holding little has no such note.
TEST(WorkingForm, HoldingMoreThanTheDeviceHeapIsNoted) {
    const auto heap_notes = [](const std::string& file) {
        const sim::RunResult res = run_tree("forms/" + file);
        EXPECT_TRUE(res.ok()) << simtest::hazards_text(res);
        return std::count_if(res.notes.begin(), res.notes.end(), [](const std::string& n) {
            return n.find("your kernel held 16 MiB from new and malloc at once; a GPU's device "
                          "heap holds 8 MiB") != std::string::npos;
        });
    };
    EXPECT_EQ(heap_notes("heap-past-8-mib.cu"), 1);
    EXPECT_EQ(heap_notes("heap-new.cu"), 0);
}

// Two blocks writing one element of global memory race: no barrier orders them, and the message
// says what does.
TEST(BrokenKernel, BlocksRacingForAGlobalElementAreToldWhatOrdersThem) {
    const sim::RunResult res = run_tree("broken/global-every-block-writes-one.cu");
    ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
    ASSERT_FALSE(res.hazards.empty());
    EXPECT_EQ(res.hazards.front().message,
              "write-after-write race on out[0]: thread 0 of block 1 (line 6) and thread 0 of "
              "block 0 (line 6): threads of different blocks are not ordered within a launch (a "
              "second launch is; or a flag: the writer's __threadfence() and then an atomic or "
              "volatile write of the flag, which the reader reads)");
}

// The last block's reads of the other blocks' totals (CUDA's threadFenceReduction) race unless
// each total is written before the __threadfence() that the ticket's atomicInc publishes: the
// message says which went wrong (no fence before the ticket; the total after it), and where.
TEST(BrokenKernel, ALastBlockWithoutItsFenceIsToldWhere) {
    const sim::RunResult res = run_tree("broken/global-flag-without-fence.cu");
    ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
    ASSERT_FALSE(res.hazards.empty());
    // Blocks 0 and 1 of 100 numbers in blocks of 64: block 1 takes the last ticket and reads
    // block 0's total (line 29), which block 0 wrote (line 20) before its ticket (line 21).
    EXPECT_EQ(res.hazards.front().message,
              "read-after-write race on out[0]: thread 0 of block 1 (line 29) and thread 0 of "
              "block 0 (line 20): block 0 wrote global memory (line 20) and then a flag (line "
              "21) with no __threadfence() between them, so a block that sees the flag may still "
              "read the old value: put __threadfence() before the flag's write");
    const sim::RunResult after = run_tree("broken/global-write-after-flag.cu");
    ASSERT_TRUE(after.ok()) << simtest::hazards_text(after);
    ASSERT_FALSE(after.hazards.empty());
    EXPECT_EQ(after.hazards.front().message,
              "read-after-write race on out[0]: thread 0 of block 1 (line 30) and thread 0 of "
              "block 0 (line 22): block 0 wrote it after the __threadfence() that published its "
              "flag: write the data first, then __threadfence(), then the flag");
    for (const sim::RunResult* r : {&res, &after})
        for (const sim::Hazard& h : r->hazards)
            expect_in_the_chapters_words(h.message);
}

// The same mistakes as the host compiler reports them, whichever it is: GCC (the default build)
// and clang (the sanitizers' build said clang's words as written, "use of undeclared identifier
// '__syncthread'" without the hint). Each log is the compiler's own text for these lines.
// Where the ; is missing, from each compiler's words and column: at the end of an expression's
// line (GCC says "before '}'" there, on that line), before a } on the same line, or a , in a for
// loop's header; the columns the compiler gives for the pre-processed file (s.at(6)[n] for s[n])
// are placed in the student's line.
TEST(CompilerErrors, AMissingSemicolonIsPlacedWhereItBelongs) {
    const std::string source = "__global__ void k(float* s, float* out, int n)\n"
                               "{\n"
                               "    for (int stride = 4; stride > 0; stride >>= 1)\n"
                               "    {\n"
                               "        if (n < stride)\n"
                               "            s[n] += s[n + stride]  // add the partner\n"
                               "    }\n"
                               "    if (n == 0) { out[0] = s[0] }\n"
                               "    for (int stride = 4; stride > 0, stride >>= 1)\n"
                               "        s[0] = 1;\n"
                               "}\n";
    // What pplab's pre-processor compiles: the launch's constants above, each use's line noted.
    const std::string compiled =
        "#include \"pplab_cuda_sim.hpp\"\n#line 1 \"kernel.cu\"\n"
        "__global__ void k(::pplab::sim::ptr<float> s, ::pplab::sim::ptr<float> out, int n)\n"
        "{\n"
        "    for (int stride = 4; ::pplab::sim::going_round(3), stride > 0; stride >>= 1)\n"
        "    {\n"
        "        if (n < stride)\n"
        "            s.at(6)[n] += s.at(6)[n + stride]  // add the partner\n"
        "    }\n"
        "    if (n == 0) { out.at(8)[0] = s.at(8)[0] }\n"
        "    for (int stride = 4; ::pplab::sim::going_round(9), stride > 0, stride >>= 1)\n"
        "        s.at(10)[0] = 1;\n"
        "}\n";
    struct Case {
        std::string log;
        int line, column;
        std::string words;
    };
    const std::vector<Case> cases = {
        {"kernel.cu:6:46: error: expected ';' before '}' token", 6, 34,
         "a ; is missing at the end of this line"},
        {"kernel.cu:6:46: error: expected ';' after expression", 6, 34,
         "a ; is missing at the end of this line"},
        {"kernel.cu:8:44: error: expected ';' before '}' token", 8, 32,
         "a ; is missing in column 32, before the '}'"},
        {"kernel.cu:8:44: error: expected ';' after expression", 8, 32,
         "a ; is missing in column 32, before the '}'"},
        {"kernel.cu:9:80: error: expected ';' before ')' token", 9, 50,
         "a for loop's header has three parts"},
        {"kernel.cu:9:80: error: expected ';' in 'for' statement specifier", 9, 50,
         "a for loop's header has three parts"},
    };
    for (const Case& c : cases) {
        const std::vector<sim::CompileError> errors = sim::compiler_errors(c.log, source, compiled);
        ASSERT_EQ(errors.size(), 1u) << c.log;
        EXPECT_EQ(errors.front().line, c.line) << c.log;
        EXPECT_EQ(errors.front().column, c.column) << c.log;
        EXPECT_NE(errors.front().message.find(c.words), std::string::npos)
            << c.log << "\n  said: " << errors.front().message;
    }
}

TEST(CompilerErrors, GccAndClangSayTheSameMistakeInTheChaptersWords) {
    const std::string source = "__global__ void k(const float* in, float* out, int n)\n"
                               "{\n"
                               "    __shared__ float s[32];\n"
                               "    const int i = threadIdx.x\n"
                               "    __syncthread();\n"
                               "}\n";
    struct Case {
        std::string log;
        int line;
        std::string words;
    };
    std::vector<Case> cases = {
        {"kernel.cu:5:5: error: expected ',' or ';' before '__syncthread'", 4,
         "a ; is missing at the end of this line"},
        {"kernel.cu:4:30: error: expected ';' at end of declaration", 4,
         "a ; is missing at the end of this line"},
        {"kernel.cu:5:5: error: '__syncthread' was not declared in this scope", 5,
         "did you mean __syncthreads?"},
        {"kernel.cu:5:5: error: use of undeclared identifier '__syncthread'; did you mean "
         "'__syncthreads'?",
         5, "did you mean __syncthreads?"},
        {"kernel.cu:5:5: error: use of undeclared identifier '__shfl_down'", 5,
         "CUDA 9 replaced it with __shfl_down_sync"},
        {"kernel.cu:5:5: error: no matching function for call to 'shfl_down'", 5,
         "__shfl_down_sync takes the lanes' mask"},
        {"kernel.cu:5:5: error: no matching function for call to 'atomicAdd'", 5,
         "atomicAdd takes the address of an element"},
        {"kernel.cu:5:5: error: cannot cast from type 'pplab::sim::ptr<const float>' to pointer "
         "type 'const int *'",
         5, "this cast of a pointer is not supported"},
        {"kernel.cu:5:5: error: static assertion failed: pplab's simulator casts a pointer only "
         "to a type of the same size (float* to unsigned*): index the elements one by one",
         5, "a cast to a pointer of another size"},
        {"kernel.cu:5:5: error: static assertion failed due to requirement 'sizeof(float) == "
         "sizeof(unsigned char)': pplab's simulator casts a pointer only to a type of the same "
         "size (float* to unsigned*): index the elements one by one",
         5, "a cast to a pointer of another size"},
    };
    // The same static_assert as each compiler reports it from pplab's header: GCC names the
    // student's line before the error ("required from here"), clang after it, in a note (the
    // sanitizers' build said line 0).
    cases.push_back({"kernel.cu:5:5:   required from here\n/tmp/pplab/cuda_sim.hpp:212:23: error: "
                     "static assertion failed: pplab's simulator casts a pointer only to a type "
                     "of the same size (float* to unsigned*): index the elements one by one",
                     5, "a cast to a pointer of another size"});
    cases.push_back({"/tmp/pplab/cuda_sim.hpp:212:23: error: static assertion failed due to "
                     "requirement 'sizeof(float) == sizeof(char)': pplab's simulator casts a "
                     "pointer only to a type of the same size (float* to unsigned*): index the "
                     "elements one by one\nkernel.cu:5:5: note: in instantiation of function "
                     "template specialization 'pplab::sim::ptr<char>::ptr<float, 0>' requested "
                     "here",
                     5, "a cast to a pointer of another size"});
    for (const Case& c : cases) {
        const std::vector<sim::CompileError> errors = sim::compiler_errors(c.log, source);
        ASSERT_EQ(errors.size(), 1u) << c.log;
        EXPECT_EQ(errors.front().line, c.line) << c.log;
        EXPECT_NE(errors.front().message.find(c.words), std::string::npos)
            << c.log << "\n  said: " << errors.front().message;
    }
    // threadIdx.x as a pointer, on a line that has it.
    const std::string index_source = "__global__ void k(float* out)\n"
                                     "{\n"
                                     "    out[0] = *threadIdx.x;\n"
                                     "}\n";
    for (const std::string log :
         {"kernel.cu:3:14: error: invalid type argument of unary '*' (have 'unsigned int')",
          "kernel.cu:3:14: error: indirection requires pointer operand ('unsigned int' invalid)"}) {
        const std::vector<sim::CompileError> errors = sim::compiler_errors(log, index_source);
        ASSERT_EQ(errors.size(), 1u) << log;
        EXPECT_NE(errors.front().message.find("threadIdx.x is a number (an index), not a pointer"),
                  std::string::npos)
            << log << "\n  said: " << errors.front().message;
    }
}

} // namespace
} // namespace pplab
