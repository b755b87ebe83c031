// Golden traces of the chapter's worked cases, compared exactly with to_text(). The files in
// tests/golden/ were written by hand from the chapter's code (each value is worked out in the
// file's level-by-level lines), not captured from the program.
#include "helpers.hpp"

#include "pplab/backend.hpp"
#include "pplab/io.hpp"
#include "pplab/stats.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace pplab {
namespace {

using namespace test;

std::string read_golden(const std::string& name) {
    const std::string path = std::string(PPLAB_GOLDEN_DIR) + "/" + name;
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw std::runtime_error("cannot read golden file " + path);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

void expect_golden(const std::string& file, const Request& r) {
    const Trace t = trace(r);
    EXPECT_EQ(to_text(t), read_golden(file)) << "golden file tests/golden/" << file;
}

TEST(Golden, Exercise3BlellochOn1234) {
    // Exercise 3: s after each level; the exclusive prefix [0, 1, 3, 6].
    expect_golden("exercise3_blelloch_1234.txt", request(Algorithm::ScanBlelloch, {1, 2, 3, 4}));
}

TEST(Golden, Exercise3BlellochOn1234Inclusive) {
    Request r = request(Algorithm::ScanBlelloch, {1, 2, 3, 4});
    r.options.inclusive = true;
    expect_golden("exercise3_blelloch_1234_inclusive.txt", r);
}

TEST(Golden, ReduceTreeBlock8On1To8) {
    expect_golden("reduce_tree_block8_1to8.txt",
                  request(Algorithm::ReduceTree, {1, 2, 3, 4, 5, 6, 7, 8}, 8));
}

TEST(Golden, MultiblockScanBlock4On1To8) {
    // Two tiles scanned as in Exercise 3, their totals [10, 26] scanned to carries [0, 10],
    // and the carries added back.
    expect_golden("scan_multiblock_block4_1to8.txt",
                  request(Algorithm::ScanMultiblock, {1, 2, 3, 4, 5, 6, 7, 8}, 4));
}

TEST(Golden, HillisSteeleOn1234) {
    // Inclusive by construction: the header must not call it exclusive.
    expect_golden("scan_hillis_steele_1234.txt",
                  request(Algorithm::ScanHillisSteele, {1, 2, 3, 4}));
}

TEST(Golden, Exercise4PrivatisedHistogram) {
    // Two blocks of two threads, two grid-stride rounds: block 0 counts elements 0, 1, 4, 5
    // and block 1 counts 2, 3, 6, 7; each leaves two of its four bins empty.
    Request r = request(Algorithm::HistPrivatised, {0, 0, 1, 3, 0, 2, 1, 1}, 2);
    r.grid = 2;
    r.bins = 4;
    expect_golden("exercise4_hist_privatised.txt", r);
}

TEST(Golden, Exercise1BarrierCounts) {
    // Each line of the file: "<algorithm id> <block>: <barriers per block>".
    std::istringstream lines(read_golden("exercise1_barriers.txt"));
    std::string line;
    int checked = 0;
    while (std::getline(lines, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream fields(line);
        std::string id, block_colon;
        int want = -1;
        ASSERT_TRUE(fields >> id >> block_colon >> want) << "malformed line: " << line;
        const int block = std::stoi(block_colon);
        const AlgorithmInfo& a = find_algorithm(id);
        SCOPED_TRACE(line);
        // Several blocks (one for the single-block scan), so "per block" means something.
        const int n = a.single_block ? block : 8 * block;
        Request r = request(
            a.algorithm,
            generate(Generator::RandomInt, n, 1, a.family == Family::Histogram ? 256 : 0), block);
        const Trace t = make_cpu_backend()->trace(r);
        EXPECT_EQ(summarize(t).barriers_per_block, want);
        EXPECT_NE(to_text(t).find("# barriers per block: " + std::to_string(want) + "\n"),
                  std::string::npos);
        // The running count in the last frame of block 0 agrees ("barrier 9 of 9").
        for (std::size_t i = t.frames.size(); i-- > 0;)
            if (t.frames[i].pass == 0 && t.frames[i].block == 0) {
                EXPECT_EQ(barriers_so_far(t, i), want);
                break;
            }
        ++checked;
    }
    EXPECT_GE(checked, 2);
}

TEST(Golden, Exercise1TreeAgainstFullKernel) {
    // The exercise's comparison itself: TILE = 512, nine barriers against one.
    const auto input = generate(Generator::RandomInt, 4096, 2, 0);
    const Summary tree =
        summarize(make_cpu_backend()->trace(request(Algorithm::ReduceTree, input, 512)));
    const Summary full =
        summarize(make_cpu_backend()->trace(request(Algorithm::ReduceFull, input, 512)));
    EXPECT_EQ(tree.barriers_per_block, 9);
    EXPECT_EQ(full.barriers_per_block, 1);
    // Over the whole run: 8 blocks x 9 for the tree; reduceFull's 2 blocks (4 elements per
    // thread) and its one-block second pass each pass one.
    EXPECT_EQ(tree.total.barriers, 8 * 9);
    EXPECT_EQ(full.total.barriers, 2 + 1);
}

} // namespace
} // namespace pplab
