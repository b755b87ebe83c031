// Every chapter listing, run through the simulator exactly as the editor shows it, gives the CPU
// model's trace bit for bit (frames and result), over sizes x block sizes x inputs: the equality
// that keeps the simulator honest, as GPU == CPU keeps the kernels honest.
#include "helpers.hpp"

#include "pplab/backend.hpp"
#include "pplab/files.hpp"

#include <gtest/gtest.h>

namespace pplab {
namespace {

constexpr int kSizes[] = {1, 3, 33, 257, 1000, 4096};
constexpr int kBlocks[] = {32, 64, 256, 1024};
constexpr Generator kInputs[] = {Generator::RandomInt, Generator::RandomFloat};

class ListingEquality : public ::testing::TestWithParam<Algorithm> {};

TEST_P(ListingEquality, SimulatorGivesTheCpuModelsTrace) {
    const Algorithm a = GetParam();
    const bool histogram = info(a).family == Family::Histogram;
    int runs = 0;
    for (const int block : kBlocks)
        for (const int n : kSizes)
            for (const Generator gen : kInputs) {
                if (info(a).single_block && n > block)
                    continue;
                if (histogram && gen == Generator::RandomFloat)
                    continue;
                Request r = simtest::request(a, {}, block);
                r.input =
                    generate(histogram ? Generator::Skewed : gen, n,
                             static_cast<std::uint64_t>(n) * 31u + block, histogram ? r.bins : 0);
                const Trace chapter = make_cpu_backend()->trace(r);
                const sim::RunResult res = sim::run_kernel(r, simtest::listing_text(r));
                ASSERT_TRUE(res.ok())
                    << "n " << n << " block " << block << ": " << simtest::hazards_text(res);
                EXPECT_TRUE(res.hazards.empty()) << simtest::hazards_text(res);
                EXPECT_TRUE(res.notes.empty()) << simtest::hazards_text(res);
                const sim::Difference d = sim::first_difference(res.trace, chapter);
                ASSERT_TRUE(res.trace.same_recording(chapter))
                    << "n " << n << " block " << block << " " << generator_id(gen) << ": "
                    << sim::describe(d);
                ++runs;
            }
    EXPECT_GT(runs, 0);
}

INSTANTIATE_TEST_SUITE_P(Chapter, ListingEquality,
                         ::testing::Values(Algorithm::ReduceNaive, Algorithm::ReduceTree,
                                           Algorithm::ReduceCoarsened, Algorithm::ReduceShuffle,
                                           Algorithm::ReduceFull, Algorithm::ScanBlelloch,
                                           Algorithm::ScanHillisSteele, Algorithm::HistGlobal,
                                           Algorithm::HistPrivatised, Algorithm::HistPerWarp),
                         [](const ::testing::TestParamInfo<Algorithm>& p) {
                             std::string id(pplab::info(p.param).id);
                             for (char& c : id)
                                 if (c == '-')
                                     c = '_';
                             return id;
                         });

} // namespace
} // namespace pplab

namespace pplab {
namespace {

std::string kernel_file(const std::string& name) {
    return read_text_file(std::string(PPLAB_SIM_KERNELS) + "/" + name);
}

// scan-multiblock's listing calls a scanBlock it does not define (it is §8.7's block scan);
// with it written out, the simulator runs the chapter's recursion: block scans, the scan of the
// totals, the carries added back, every launch equal to the CPU model's.
TEST(ListingEquality, ScanMultiblockWithItsBlockScan) {
    for (const int block : {8, 32, 256})
        for (const int n : {1, 9, 40, 257, 5000}) {
            Request r = simtest::request(Algorithm::ScanMultiblock, {}, block);
            r.input = generate(Generator::RandomFloat, n, static_cast<std::uint64_t>(n), 0);
            const std::string source = "#define TILE " + std::to_string(block) + "\n" +
                                       kernel_file("scan-multiblock-complete.cu");
            const sim::RunResult res = sim::run_kernel(r, source);
            ASSERT_TRUE(res.ok()) << simtest::hazards_text(res);
            EXPECT_TRUE(res.hazards.empty()) << simtest::hazards_text(res);
            const Trace chapter = make_cpu_backend()->trace(r);
            ASSERT_TRUE(res.trace.same_recording(chapter))
                << "n " << n << " block " << block << ": "
                << sim::describe(sim::first_difference(res.trace, chapter));
        }
}

} // namespace
} // namespace pplab
