// The exercises' numbers and the determinism demo, as the window's exercise panel shows them.
#include "pplab/classroom.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

namespace pplab {
namespace {

TEST(Exercise1, TreeNeedsLog2TileBarriersTheFullKernelOne) {
    for (int tile : {32, 64, 128, 256, 512, 1024}) {
        const BarrierCounts c = exercise1_barriers(tile);
        EXPECT_EQ(c.tree, std::countr_zero(static_cast<unsigned>(tile))) << tile;
        EXPECT_EQ(c.full, 1) << tile;
    }
    EXPECT_EQ(exercise1_barriers(512).tree, 9); // the exercise's TILE
    EXPECT_THROW(exercise1_barriers(100), InputError);
}

TEST(Exercise4, TheSkipSavesAtomicsOnlyWhereBinsAreEmpty) {
    // One block of 64 threads over 64 elements: the fold touches each bin once at most.
    const FoldAtomics sparse = exercise4_fold_atomics(Generator::Sparse, 64, 256, 64);
    EXPECT_EQ(sparse.without_skip, 256);
    EXPECT_LE(sparse.with_skip, 16); // sparse data hits one bin in sixteen
    // Every bin non-empty: the check saves nothing and costs a comparison per bin.
    const FoldAtomics full = exercise4_fold_atomics(Generator::Seq, 256, 256, 64);
    EXPECT_EQ(full.with_skip, full.without_skip);
    EXPECT_EQ(full.with_skip, 256);
}

TEST(Determinism, AtomicOrderChangesTheBitsTheTreeDoesNot) {
    Request r;
    r.algorithm = Algorithm::ReduceAtomic;
    r.block = 32;
    r.grid = 64;
    r.input = generate(Generator::RandomFloat, 4096, 9, 0);
    auto cpu = make_cpu_backend();
    const RepeatedRuns atomic = run_repeatedly(*cpu, r, 20);
    EXPECT_EQ(atomic.sums.size(), 20u);
    EXPECT_GT(atomic.distinct, 1) << "64 block totals in 20 orders: some sums must differ";
    r.algorithm = Algorithm::ReduceFull;
    r.grid = 0;
    EXPECT_EQ(run_repeatedly(*cpu, r, 5).distinct, 1);
    r.algorithm = Algorithm::ScanBlelloch;
    r.input.resize(4);
    EXPECT_THROW(run_repeatedly(*cpu, r, 2), InputError);
}

TEST(Determinism, BitsShowSignExponentFraction) {
    EXPECT_EQ(float_bits(1.0f), "0 01111111 00000000000000000000000");
    EXPECT_EQ(float_bits(-2.5f), "1 10000000 01000000000000000000000");
}

} // namespace
} // namespace pplab
