// Per-step counters for cases whose costs can be read off the chapter's code.
#include "helpers.hpp"

#include "pplab/backend.hpp"
#include "pplab/lookback.hpp"
#include "pplab/stats.hpp"

#include <gtest/gtest.h>

namespace pplab {
namespace {

using namespace test;

std::vector<float> ints(int n) {
    return generate(Generator::RandomInt, n, 9, 0);
}

// Sum of frame_cost over the frames of one pass (all passes when pass < 0).
Counters cost_of(const Trace& t, int pass = -1) {
    Counters c;
    for (std::size_t i = 0; i < t.frames.size(); ++i)
        if (pass < 0 || t.frames[i].pass == pass)
            c += frame_cost(t, i);
    return c;
}

TEST(Stats, TreeLevelKHasTileShiftedByKPlusOneAdditionsAndOneBarrier) {
    for (const int B : {8, 256, 1024}) {
        SCOPED_TRACE("TILE " + std::to_string(B));
        const Trace t = trace(request(Algorithm::ReduceTree, ints(2 * B), B));
        int levels = 0;
        for (std::size_t i = 0; i < t.frames.size(); ++i) {
            const Frame& f = t.frames[i];
            if (f.step != Step::TreeLevel)
                continue;
            ++levels;
            // At level k (from 0), threads t < TILE >> (k+1) each do s[t] += s[t + stride]:
            // two reads, one write.
            const Counters c = frame_cost(t, i);
            const std::int64_t active = B >> (f.level + 1);
            EXPECT_EQ(c.additions, active) << "level " << f.level;
            EXPECT_EQ(c.shared_reads, 2 * active);
            EXPECT_EQ(c.shared_writes, active);
            EXPECT_EQ(c.barriers, 1);
            EXPECT_EQ(c.global_reads, 0);
        }
        // Every level of both blocks; B - 1 additions per block in all.
        int log2B = 0;
        while ((1 << log2B) < B)
            ++log2B;
        EXPECT_EQ(levels, 2 * log2B);
        EXPECT_EQ(summarize(t).total.additions, 2 * (B - 1));
        EXPECT_EQ(summarize(t).total.global_reads, 2 * B);
        EXPECT_EQ(summarize(t).total.global_writes, 2);
    }
}

TEST(Stats, BarriersSoFarCountOneBlocksLevels) {
    const Trace t = trace(request(Algorithm::ReduceTree, {1, 2, 3, 4, 5, 6, 7, 8}, 8));
    // load, level 1, level 2, level 3, block total
    ASSERT_EQ(t.frames.size(), 5u);
    const int want[] = {0, 1, 2, 3, 3};
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(barriers_so_far(t, i), want[i]) << "frame " << i;
    }
}

TEST(Stats, ShuffleStepsUseNoBarrierAndNoSharedMemory) {
    const Trace t = trace(request(Algorithm::ReduceShuffle, ints(256), 128)); // 2 blocks of 4 warps
    for (std::size_t i = 0; i < t.frames.size(); ++i) {
        if (t.frames[i].step != Step::Shuffle)
            continue;
        const Counters c = frame_cost(t, i);
        EXPECT_EQ(c.shuffles, 1);
        EXPECT_EQ(c.additions, 32) << "all 32 lanes add, including those that read their own value";
        EXPECT_EQ(c.barriers, 0);
        EXPECT_EQ(c.shared_reads + c.shared_writes, 0);
    }
    const Summary s = summarize(t);
    EXPECT_EQ(s.total.shuffles, 2 * 4 * 5); // 8 warps x 5 steps
    EXPECT_EQ(s.total.barriers, 0);
    EXPECT_EQ(s.total.global_reads, 256);
}

TEST(Stats, FullKernelPerBlock) {
    // One block of 256 threads (8 warps): 8 x 5 warp shuffles, 5 more in the first warp,
    // lane 0 of each warp writes s[warpId] and the first warp reads the 8 back, one barrier.
    const Trace t = trace(request(Algorithm::ReduceFull, ints(1000), 256));
    ASSERT_EQ(t.request.grid, 1);
    const Counters c = cost_of(t);
    EXPECT_EQ(c.shuffles, 8 * 5 + 5);
    EXPECT_EQ(c.barriers, 1);
    EXPECT_EQ(c.shared_writes, 8);
    EXPECT_EQ(c.shared_reads, 8);
    EXPECT_EQ(c.global_reads, 1000);
    EXPECT_EQ(c.global_writes, 1);
}

TEST(Stats, EveryReductionReadsEachElementOnce) {
    const int n = 5000;
    for (const Algorithm a :
         {Algorithm::ReduceNaive, Algorithm::ReduceTree, Algorithm::ReduceCoarsened,
          Algorithm::ReduceShuffle, Algorithm::ReduceFull, Algorithm::ReduceAtomic}) {
        SCOPED_TRACE(std::string(info(a).id));
        const Trace t = trace(request(a, ints(n), 64));
        // reduceFull's second launch also reads the first launch's block totals.
        const std::int64_t extra = a == Algorithm::ReduceFull ? t.request.grid : 0;
        EXPECT_EQ(summarize(t).total.global_reads, n + extra);
    }
}

TEST(Stats, AtomicReductionCostsTheFullBlockReductionPlusOneAtomicPerBlock) {
    // reduceAtomic runs reduceFull's block reduction, then atomicAdds the total instead of
    // storing it in out[blockIdx.x]: one global atomic and one addition more, one store less.
    const auto input = ints(20000);
    const Trace full = trace(request(Algorithm::ReduceFull, input, 64));
    const Trace atomic = trace(request(Algorithm::ReduceAtomic, input, 64));
    ASSERT_EQ(full.request.grid, atomic.request.grid);
    const std::int64_t G = atomic.request.grid;
    ASSERT_GT(G, 1);
    Counters want = cost_of(full, 0);
    want.global_writes -= G;
    want.global_atomics += G;
    want.additions += G;
    EXPECT_EQ(summarize(atomic).total, want);
    EXPECT_EQ(summarize(atomic).barriers_per_block, 1);
}

TEST(Stats, BlellochDoesLinearWorkHillisSteeleDoesNLogN) {
    // Upsweep level k (from 0): TILE >> (k+1) additions; downsweep level k: 2^k.
    // 2 (TILE - 1) in all.
    const Trace blelloch = trace(request(Algorithm::ScanBlelloch, ints(1024), 1024));
    for (std::size_t i = 0; i < blelloch.frames.size(); ++i) {
        const Frame& f = blelloch.frames[i];
        if (f.step == Step::Upsweep) {
            EXPECT_EQ(frame_cost(blelloch, i).additions, 1024 >> (f.level + 1));
        }
        if (f.step == Step::Downsweep) {
            EXPECT_EQ(frame_cost(blelloch, i).additions, 1 << f.level);
        }
    }
    EXPECT_EQ(summarize(blelloch).total.additions, 2 * 1023);
    // Hillis-Steele step k: every thread t >= 2^(k-1) adds, 1024 - 2^(k-1) of them.
    const Trace hillis = trace(request(Algorithm::ScanHillisSteele, ints(1024), 1024));
    EXPECT_EQ(summarize(hillis).total.additions, 1024 * 10 - 1023);
    EXPECT_EQ(summarize(hillis).barriers_per_block, 2 * 10);
}

TEST(Stats, ScanBlockBarriersIncludeTheFinalSyncthreads) {
    // scanBlock: one barrier per upsweep level and per downsweep level, then the final
    // __syncthreads() before the result is read, even when a one-thread block has no levels;
    // the inclusive shift adds one between its read and its write.
    for (int B = 1, L = 0; B <= 1024; B *= 2, ++L) {
        SCOPED_TRACE("TILE " + std::to_string(B));
        Request r = request(Algorithm::ScanBlelloch, ints(B), B);
        const Trace exclusive = trace(r);
        EXPECT_EQ(summarize(exclusive).barriers_per_block, 2 * L + 1);
        // The block stores its tile once.
        EXPECT_EQ(summarize(exclusive).total.global_writes, B);
        r.options.inclusive = true;
        const Trace inclusive = trace(r);
        EXPECT_EQ(summarize(inclusive).barriers_per_block, 2 * L + 2);
        EXPECT_EQ(summarize(inclusive).total.global_writes, B);
    }
}

TEST(Stats, Exercise4FoldSkipsEmptyBins) {
    // The golden case: block 0 counts bins {0, 2}, block 1 counts bins {1, 3}; each leaves two
    // of its four bins empty, so skipping them halves the fold's global atomics.
    Request r = request(Algorithm::HistPrivatised, {0, 0, 1, 3, 0, 2, 1, 1}, 2);
    r.grid = 2;
    r.bins = 4;
    const Trace skip = trace(r);
    r.options.skip_empty = false;
    const Trace every = trace(r);
    EXPECT_EQ(skip.result, every.result)
        << "skipping empty bins is correct: adding 0 changes nothing";
    const auto fold_atomics = [](const Trace& t) {
        std::vector<std::int64_t> per_block;
        for (std::size_t i = 0; i < t.frames.size(); ++i)
            if (t.frames[i].step == Step::HistFold)
                per_block.push_back(frame_cost(t, i).global_atomics);
        return per_block;
    };
    EXPECT_EQ(fold_atomics(skip), (std::vector<std::int64_t>{2, 2}));
    EXPECT_EQ(fold_atomics(every), (std::vector<std::int64_t>{4, 4}));
    // Counting is one shared-memory atomic per element, either way.
    EXPECT_EQ(summarize(skip).total.shared_atomics, 8);
    EXPECT_EQ(summarize(every).total.shared_atomics, 8);
}

TEST(Stats, Exercise4NothingToSkipWhenEveryBinIsFull) {
    // "Consider a case where every bin is non-empty": each block sees every bin, so the
    // skip saves no atomic and only adds a test per bin.
    Request r = request(Algorithm::HistPrivatised, generate(Generator::Seq, 64, 0, 8), 8);
    r.bins = 8;
    r.grid = 2; // block 0 holds elements 0-7, 16-23, ...: all eight bins; so does block 1
    const Trace skip = trace(r);
    r.options.skip_empty = false;
    const Trace every = trace(r);
    EXPECT_EQ(summarize(skip).total.global_atomics, 2 * 8);
    EXPECT_EQ(summarize(every).total.global_atomics, 2 * 8);
}

TEST(Stats, GlobalHistogramIsOneGlobalAtomicPerElement) {
    const Trace t =
        trace(request(Algorithm::HistGlobal, generate(Generator::Skewed, 3000, 1, 256), 128));
    const Summary s = summarize(t);
    EXPECT_EQ(s.total.global_atomics, 3000);
    EXPECT_EQ(s.total.shared_atomics, 0);
    EXPECT_EQ(s.barriers_per_block, 0);
}

// scanFast reads and writes each element once, takes one tile ticket per block, publishes two
// descriptors per tile (tile 0 one), and polls each predecessor it read once plus once per
// poll that found nothing: the counts the look-back record holds.
TEST(Stats, ScanFastReadsAndWritesEachElementOnceAndPollsWhatItRead) {
    Request r = request(Algorithm::ScanFast, generate(Generator::RandomInt, 1000, 1, 0), 32);
    r.options.order_seed = 4;
    const Trace t = trace(r);
    const int tiles = 8; // ceil(1000 / (32 x 4))
    ASSERT_EQ(t.request.grid, tiles);
    Counters publish, look;
    long long polls = 0;
    for (std::size_t i = 0; i < t.frames.size(); ++i) {
        const Frame& f = t.frames[i];
        (f.step == Step::TilePublish ? publish : look) += frame_cost(t, i);
        if (f.step == Step::LookBack)
            for (std::size_t slot = 0; slot < f.values.size(); slot += kReadValues)
                if (f.values[slot + kReadState] != kNotRead)
                    polls += 1 + static_cast<long long>(f.values[slot + kReadWaits]);
    }
    EXPECT_EQ(publish.global_reads, 1000);
    EXPECT_EQ(publish.global_writes, 1000 + 2 * tiles - 1);
    EXPECT_EQ(publish.global_atomics, tiles);
    EXPECT_EQ(look.global_reads, polls);
    EXPECT_GE(polls, tiles - 1) << "every tile but the first read at least one predecessor";
    EXPECT_EQ(look.global_writes, 0);
    EXPECT_EQ(summarize(t).barriers_per_block, 3);
}

TEST(Stats, CumulativeCostsEndAtTheSummary) {
    for (const AlgorithmInfo& a : algorithms()) {
        SCOPED_TRACE(std::string(a.id));
        if (!a.traced)
            continue; // a production kernel records no frames (production_test.cpp)
        const Trace t = trace(request(a.algorithm,
                                      generate(Generator::RandomInt, a.single_block ? 64 : 700, 1,
                                               a.family == Family::Histogram ? 256 : 0),
                                      64));
        const std::vector<Counters> running = cumulative_costs(t);
        ASSERT_EQ(running.size(), t.frames.size());
        EXPECT_EQ(running.back(), summarize(t).total);
        EXPECT_EQ(running.front(), frame_cost(t, 0));
    }
}

} // namespace
} // namespace pplab
