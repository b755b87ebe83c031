// The listings as a launch runs them: the constants a kernel uses take the launch's values.
#include "helpers.hpp"
#include "pplab/listing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace pplab::test {
namespace {

// The lines of the listing for `a` launched with `block` threads and `bins` bins.
std::vector<std::string> launched(Algorithm a, int block, int bins = 256) {
    Request r = request(a, ones(block), block);
    r.bins = bins;
    return listing(normalize(r)).lines;
}

int count_starting(const std::vector<std::string>& lines, const std::string& start) {
    return static_cast<int>(std::count_if(
        lines.begin(), lines.end(), [&](const std::string& l) { return l.rfind(start, 0) == 0; }));
}

TEST(Listing, TheChaptersTileTakesTheLaunchsBlock) {
    const auto lines = launched(Algorithm::ReduceFull, 64);
    EXPECT_EQ(count_starting(lines, "#define TILE 64 "), 1);
    EXPECT_EQ(count_starting(lines, "#define TILE 256"), 0);
    // WARPS keeps the chapter's formula: it follows TILE.
    EXPECT_EQ(count_starting(lines, "#define WARPS (TILE / 32)"), 1);
}

TEST(Listing, AConstantUsedButNotDefinedIsDefinedOnceAboveTheKernel) {
    const auto lines = launched(Algorithm::ReduceTree, 128);
    ASSERT_EQ(count_starting(lines, "#define TILE 128"), 1);
    const auto define = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.rfind("#define TILE", 0) == 0;
    });
    const auto kernel = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.rfind("__global__", 0) == 0;
    });
    EXPECT_LT(define, kernel);
    EXPECT_EQ(count_starting(lines, "#define BINS"), 0) << "a reduction has no bins";
}

TEST(Listing, PerWarpHistogramsGetTheirWarpsAndBins) {
    const auto lines = launched(Algorithm::HistPerWarp, 96, 16);
    EXPECT_EQ(count_starting(lines, "#define WARPS 3 "), 1);
    EXPECT_EQ(count_starting(lines, "#define BINS 16 "), 1);
}

TEST(Listing, TheStepsStayOnTheirLines) {
    // Inserting definitions must move each line's steps with it.
    Request r = normalize(request(Algorithm::ReduceTree, ones(64), 64));
    const Listing chapter = listing(Algorithm::ReduceTree);
    const Listing run = listing(r);
    const auto shift = static_cast<std::ptrdiff_t>(run.lines.size() - chapter.lines.size());
    ASSERT_GT(shift, 0);
    for (std::size_t i = 0; i < chapter.lines.size(); ++i) {
        const std::size_t j = i + (i >= 2 ? static_cast<std::size_t>(shift) : 0);
        EXPECT_EQ(run.steps[j], chapter.steps[i]) << chapter.lines[i];
    }
}

} // namespace
} // namespace pplab::test
