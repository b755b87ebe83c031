// The GPU path where nvcc is (this machine, the GPU machine), with or without a device: every
// chapter listing, as the editor shows it, compiles with nvcc beside pplab's driver; a compile
// error names the student's line. Skipped, saying why, where there is no nvcc (CI).
#include "helpers.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace pplab {
namespace {

sim::GpuOptions compile_only() {
    sim::GpuOptions o;
    o.compile_only = true;
    // No device here to ask for its architecture: Hopper's, unless told (PPLAB_NVCC_ARCH).
    const char* arch = std::getenv("PPLAB_NVCC_ARCH");
    o.arch = arch && *arch ? arch : "sm_90";
    return o;
}

class GpuCompile : public ::testing::Test {
protected:
    void SetUp() override {
        std::string why;
        if (sim::nvcc_path(why).empty())
            GTEST_SKIP() << why;
    }
};

TEST_F(GpuCompile, EveryListingCompilesWithNvcc) {
    for (const Algorithm a :
         {Algorithm::ReduceNaive, Algorithm::ReduceTree, Algorithm::ReduceCoarsened,
          Algorithm::ReduceShuffle, Algorithm::ReduceFull, Algorithm::ReduceAtomic,
          Algorithm::ScanBlelloch, Algorithm::ScanHillisSteele, Algorithm::ScanMultiblock,
          Algorithm::HistGlobal, Algorithm::HistPrivatised, Algorithm::HistPerWarp}) {
        const Request r = normalize(simtest::request(a, std::vector<float>(64, 1.0f), 64));
        const sim::GpuRun g = sim::run_on_gpu(r, simtest::listing_text(r), compile_only());
        EXPECT_EQ(g.status, sim::GpuRun::Status::Compiled) << info(a).id << ": " << g.message;
    }
}

// The forms students write that the simulator runs (the device heap, pointers into shared
// memory, references, auto, printf) are CUDA C++ as nvcc reads it, not a dialect of pplab's.
TEST_F(GpuCompile, TheWorkingFormsCompileWithNvcc) {
    const Request r = normalize(simtest::request(Algorithm::ReduceTree, {1, 2, 3}, 64));
    for (const std::string& file : simtest::working_forms()) {
        const std::string text = read_text_file(std::string(PPLAB_SIM_KERNELS) + "/forms/" + file);
        const sim::GpuRun g = sim::run_on_gpu(r, text, compile_only());
        EXPECT_EQ(g.status, sim::GpuRun::Status::Compiled) << file << ": " << g.message;
    }
}

TEST_F(GpuCompile, ACompileErrorNamesTheStudentsLine) {
    const Request r = normalize(simtest::request(Algorithm::ReduceTree, {1, 2, 3}, 64));
    std::string text = simtest::listing_text(r);
    const auto at = text.find("s[threadIdx.x] += ");
    text.replace(at, 18, "s[threadIdx.x] += undeclared + ");
    const int line = static_cast<int>(std::count(text.begin(), text.begin() + at, '\n')) + 1;
    const sim::GpuRun g = sim::run_on_gpu(r, text, compile_only());
    EXPECT_EQ(g.status, sim::GpuRun::Status::CompileFailed);
    ASSERT_FALSE(g.errors.empty());
    EXPECT_EQ(g.errors.front().line, line) << g.message;
    EXPECT_NE(g.message.find("undeclared"), std::string::npos) << g.message;
}

} // namespace
} // namespace pplab
