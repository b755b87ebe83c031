// A student's file on the device (label `gpu`): every chapter listing, run with nvcc's build of
// it, leaves the output the simulator's run of the same file leaves, bit for bit (the atomic
// reduction within the rounding of its arrival order), and is timed. Skipped, saying why,
// without nvcc or without a device.
#include "helpers.hpp"

#include "pplab/files.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace pplab {
namespace {

struct Case {
    Algorithm algorithm;
    int n, block;
    bool inclusive = false; // scan-multiblock: the user's array shifted, the totals not
};

// The file run on the device and on the simulator: the same output, bit for bit (`near`: within
// the rounding of a different order of float additions). Returns the device's run, for what else
// the caller checks (and to skip where no GPU answers: nothing is compared then).
sim::GpuRun expect_same_output(const Request& r, const std::string& source, bool near,
                               const std::string& where) {
    const sim::GpuRun g = sim::run_on_gpu(r, source);
    if (g.status == sim::GpuRun::Status::Skipped)
        return g;
    EXPECT_EQ(g.status, sim::GpuRun::Status::Ran) << where << g.message;
    if (g.status != sim::GpuRun::Status::Ran)
        return g;
    const sim::RunResult cpu = sim::run_kernel(r, source);
    EXPECT_TRUE(cpu.ok()) << where << cpu.message;
    EXPECT_EQ(g.result.size(), cpu.trace.result.size()) << where;
    if (!cpu.ok() || g.result.size() != cpu.trace.result.size())
        return g;
    for (std::size_t k = 0; k < g.result.size(); ++k) {
        if (near) {
            EXPECT_NEAR(g.result[k], cpu.trace.result[k], 1e-4 * std::fabs(cpu.trace.result[k]))
                << where << "out[" << k << "]";
            continue;
        }
        EXPECT_EQ(std::memcmp(&g.result[k], &cpu.trace.result[k], sizeof(float)), 0)
            << where << "out[" << k << "]: GPU " << g.result[k] << ", simulator "
            << cpu.trace.result[k];
    }
    return g;
}

class GpuRun : public ::testing::TestWithParam<Case> {};

TEST_P(GpuRun, SameOutputAsTheSimulatorAndTimed) {
    const Case& c = GetParam();
    const bool histogram = info(c.algorithm).family == Family::Histogram;
    Request r = simtest::request(c.algorithm, {}, c.block);
    r.options.inclusive = c.inclusive;
    r.input = generate(histogram ? Generator::Skewed : Generator::RandomFloat, c.n, 11,
                       histogram ? r.bins : 0);
    r = normalize(r);
    const std::string source = simtest::listing_text(r); // as the editor shows it
    // The order of reduce-atomic's arrivals is the hardware's.
    const sim::GpuRun g = expect_same_output(r, source, c.algorithm == Algorithm::ReduceAtomic, "");
    if (g.status == sim::GpuRun::Status::Skipped)
        GTEST_SKIP() << g.message;
    if (g.status != sim::GpuRun::Status::Ran)
        return;
    EXPECT_GT(g.ms, 0.0);
    EXPECT_FALSE(g.device.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Chapter, GpuRun,
    ::testing::Values(
        Case{Algorithm::ReduceNaive, 1000, 32}, Case{Algorithm::ReduceTree, 100000, 256},
        Case{Algorithm::ReduceCoarsened, 100000, 128}, Case{Algorithm::ReduceShuffle, 5000, 64},
        Case{Algorithm::ReduceFull, 100000, 256}, Case{Algorithm::ReduceAtomic, 100000, 256},
        Case{Algorithm::ScanBlelloch, 1000, 1024}, Case{Algorithm::ScanHillisSteele, 700, 1024},
        Case{Algorithm::ScanMultiblock, 50000, 256},
        Case{Algorithm::ScanMultiblock, 50000, 256, true}, Case{Algorithm::HistGlobal, 100000, 256},
        Case{Algorithm::HistPrivatised, 100000, 256}, Case{Algorithm::HistPerWarp, 100000, 256}),
    [](const ::testing::TestParamInfo<Case>& p) {
        std::string id(pplab::info(p.param.algorithm).id);
        for (char& ch : id)
            if (ch == '-')
                ch = '_';
        return id + (p.param.inclusive ? "_inclusive" : "");
    });

// The working forms (tests/sim/kernels/forms: CUDA as students write it beyond the listing's:
// fences and __device__ counters, atomics, shifted extents, extern and volatile __shared__,
// printf, pointers, the heap) on the device: nvcc's build of each leaves the output the
// simulator's run leaves, bit for bit (whole numbers: every order of addition gives one sum).
// Not heap-past-8-mib.cu: past the device heap, new gives nullptr on a GPU, as the simulator's
// note on it says.
class GpuForm : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuForm, SameOutputAsTheSimulator) {
    if (GetParam() == "heap-past-8-mib.cu")
        GTEST_SKIP() << "past the device heap a GPU's new gives nullptr (the simulator notes it)";
    const std::string source =
        read_text_file(std::string(PPLAB_SIM_KERNELS) + "/forms/" + GetParam());
    for (const int n : {100, 1000}) {
        const Request r = normalize(
            simtest::request(Algorithm::ReduceTree, generate(Generator::RandomInt, n, 3, 0), 64));
        const sim::GpuRun g = expect_same_output(r, source, false, "n " + std::to_string(n) + ": ");
        if (g.status == sim::GpuRun::Status::Skipped)
            GTEST_SKIP() << g.message;
    }
}

INSTANTIATE_TEST_SUITE_P(Students, GpuForm, ::testing::ValuesIn(simtest::working_forms()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                             std::string id = p.param.substr(0, p.param.size() - 3);
                             for (char& ch : id)
                                 if (ch == '-')
                                     ch = '_';
                             return id;
                         });

// What `pplab run --time-n` prints and the window's Your kernel tab shows: the listing on the
// device, the same output as the simulator's, timed at 2^20 beside the chapter's kernel and CUB
// and checked against a serial sum; a kernel that adds one too many is timed but NOT VALIDATED.
TEST(DeviceCheck, TheListingIsComparedTimedAndValidatedAWrongOneIsNot) {
    Request r = simtest::request(Algorithm::ReduceTree, {}, 256);
    r.input = generate(Generator::RandomInt, 1000, 7, 0);
    r = normalize(r);
    const std::string source = simtest::listing_text(r);
    const sim::RunResult cpu = sim::run_kernel(r, source);
    ASSERT_TRUE(cpu.ok()) << cpu.message;
    const Request timed = sim::at_timing_size(r, Generator::RandomInt, 3, 1 << 20, 0);
    ASSERT_EQ(timed.input.size(), std::size_t{1} << 20);
    EXPECT_EQ(timed.block, 256);
    sim::GpuOptions o;
    o.runs = 5;
    const sim::DeviceCheck d = sim::check_on_device(r, cpu.trace.result, source, timed, o);
    if (d.run.status == sim::GpuRun::Status::Skipped)
        GTEST_SKIP() << d.run.message;
    ASSERT_EQ(d.run.status, sim::GpuRun::Status::Ran) << d.run.message;
    EXPECT_EQ(d.difference, "");
    ASSERT_EQ(d.timed.status, sim::GpuRun::Status::Ran) << d.timed.message;
    EXPECT_EQ(d.timed_n, 1 << 20);
    EXPECT_EQ(d.not_validated, "");
    ASSERT_EQ(d.rows.size(), 3u) << d.beside_note;
    EXPECT_EQ(d.rows[0].what, "your kernel");
    EXPECT_EQ(d.rows[1].what, "the chapter's reduce-tree");
    EXPECT_EQ(d.rows[2].what, "CUB");
    for (const sim::TimedRow& t : d.rows)
        EXPECT_GT(t.ms, 0.0) << t.what;
    EXPECT_GT(d.copy_gbps, 0.0);

    std::string wrong = source;
    const std::string total = "out[blockIdx.x] = s[0];";
    ASSERT_NE(wrong.find(total), std::string::npos);
    wrong.replace(wrong.find(total), total.size(), "out[blockIdx.x] = s[0] + 1.0f;");
    const sim::RunResult cpu_wrong = sim::run_kernel(r, wrong);
    ASSERT_TRUE(cpu_wrong.ok()) << cpu_wrong.message;
    const sim::DeviceCheck w = sim::check_on_device(r, cpu_wrong.trace.result, wrong, timed, o);
    ASSERT_EQ(w.timed.status, sim::GpuRun::Status::Ran) << w.timed.message;
    EXPECT_EQ(w.difference, "") << "the GPU adds the same one too many as the simulator";
    EXPECT_NE(w.not_validated.find("the sum is"), std::string::npos) << w.not_validated;
}

} // namespace
} // namespace pplab
