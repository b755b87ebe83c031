// The trace recorder adds barriers around each snapshot, so a traced kernel that lost one of its
// own barriers would still match the CPU model. These tests close that hole: compute-sanitizer's
// racecheck and synccheck (and memcheck) run this binary's untraced kernels (the Sanitize*
// instantiations: every chapter kernel and the production kernels, at several sizes and block
// sizes) and must find nothing; racecheck must find the planted barrier-less tree
// (planted_race.cu) at its source line, or the first check proves nothing.
// Skipped, with the reason, without a GPU or without compute-sanitizer.
#include "pplab/backend.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace pplab {
namespace {

namespace fs = std::filesystem;

std::string find_sanitizer() {
    if (const char* cuda = std::getenv("CUDA_HOME"))
        if (fs::exists(fs::path(cuda) / "bin/compute-sanitizer"))
            return (fs::path(cuda) / "bin/compute-sanitizer").string();
    if (const char* path = std::getenv("PATH")) {
        std::string dirs = path;
        for (std::size_t start = 0; start <= dirs.size();) {
            const std::size_t end = std::min(dirs.find(':', start), dirs.size());
            const fs::path candidate =
                fs::path(dirs.substr(start, end - start)) / "compute-sanitizer";
            if (!dirs.substr(start, end - start).empty() && fs::exists(candidate))
                return candidate.string();
            start = end + 1;
        }
    }
    for (const char* p :
         {"/usr/local/cuda/bin/compute-sanitizer", "/opt/cuda/bin/compute-sanitizer"})
        if (fs::exists(p))
            return p;
    return "";
}

struct SanitizerRun {
    int exit_code = -1;
    std::string output;
};

// compute-sanitizer --tool TOOL on this binary's tests matching `filter`.
SanitizerRun sanitize(const std::string& tool, const std::string& filter) {
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    // Streamed rather than added: GCC 12's -Wrestrict misfires on long `+` chains at -O3.
    std::ostringstream command;
    command << "'" << find_sanitizer() << "' --tool " << tool
            << " --error-exitcode 86 --print-limit 20 '" << self << "' --gtest_filter='" << filter
            << "' 2>&1";
    SanitizerRun r;
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.str().c_str(), "r"), pclose);
    if (!pipe)
        return r;
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe.get()))
        r.output += buffer.data();
    const int status = pclose(pipe.release());
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// The untraced kernels: the chapter's stages run as they are timed, and the production kernels
// (scanRing at small sizes too: fast_vs_cub_test.cu); and scan-fast's traced twin, whose
// look-back is the production one (lookback_test.cpp).
constexpr const char* kUntraced = "Sanitize/GpuTrace.UninstrumentedKernels*:SanitizeProduction/*:"
                                  "SanitizeLookback/*:SanitizeRing/*";

#define REQUIRE_GPU_AND_SANITIZER()                                                                \
    do {                                                                                           \
        std::string why;                                                                           \
        if (!make_cuda_backend(why))                                                               \
            GTEST_SKIP() << "no GPU: " << why;                                                     \
        if (find_sanitizer().empty())                                                              \
            GTEST_SKIP() << "compute-sanitizer is not on this machine (CUDA_HOME, PATH, "          \
                            "/usr/local/cuda/bin): the race and barrier checks need it";           \
    } while (0)

// The child's own summary lines ("[  PASSED  ] 81 tests.", "... SUMMARY: 0 errors"), said in
// this test's output so a log shows what was checked.
void say_summary(const std::string& tool, const std::string& output) {
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);)
        if (line.find("PASSED") != std::string::npos || line.find("SUMMARY") != std::string::npos)
            std::cout << tool << ": " << line << "\n";
}

void expect_clean(const std::string& tool) {
    const SanitizerRun r = sanitize(tool, kUntraced);
    say_summary(tool, r.output);
    EXPECT_EQ(r.output.find("[  SKIPPED ]"), std::string::npos)
        << "a test skipped under the sanitizer checked nothing:\n"
        << r.output;
    EXPECT_EQ(r.exit_code, 0) << tool << " found something:\n" << r.output;
    EXPECT_NE(r.output.find("[  PASSED  ]"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("[  FAILED  ]"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("[  PASSED  ] 0 tests"), std::string::npos)
        << "the filter ran nothing:\n"
        << r.output;
}

TEST(ComputeSanitizer, RacecheckFindsNoHazardInTheUntracedKernels) {
    REQUIRE_GPU_AND_SANITIZER();
    expect_clean("racecheck");
}

TEST(ComputeSanitizer, SynccheckFindsNoBadBarrierInTheUntracedKernels) {
    REQUIRE_GPU_AND_SANITIZER();
    expect_clean("synccheck");
}

TEST(ComputeSanitizer, MemcheckFindsNoBadAccessInTheUntracedKernels) {
    REQUIRE_GPU_AND_SANITIZER();
    expect_clean("memcheck");
}

TEST(ComputeSanitizer, RacecheckFlagsTheTreeWithoutItsBarrier) {
    REQUIRE_GPU_AND_SANITIZER();
    const SanitizerRun r = sanitize("racecheck", "SanitizePlanted.TreeWithoutItsBarrier");
    say_summary("racecheck (planted)", r.output);
    EXPECT_EQ(r.exit_code, 86) << "racecheck missed the planted race:\n" << r.output;
    EXPECT_NE(r.output.find("hazard"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("planted_race.cu"), std::string::npos)
        << "the report names the kernel's source line:\n"
        << r.output;
}

} // namespace
} // namespace pplab
