// Dataflow: which thread wrote each cell, from which cells. Known frames of the chapter are
// checked cell by cell, and for every algorithm the named sources must reproduce the values.
#include "helpers.hpp"

#include "pplab/backend.hpp"
#include "pplab/check.hpp"
#include "pplab/dataflow.hpp"
#include "pplab/lookback.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pplab {
namespace {

using namespace test;

std::size_t index_of(const Trace& t, Step s, int level, int block = 0, int warp = -1,
                     int pass = 0) {
    for (std::size_t i = 0; i < t.frames.size(); ++i) {
        const Frame& f = t.frames[i];
        if (f.step == s && f.level == level && f.block == block && f.warp == warp && f.pass == pass)
            return i;
    }
    throw std::runtime_error("no frame " + std::string(step_id(s)) + " " + std::to_string(level));
}

// What CellRef::kInput names in a frame of launch `pass`: the request's input for the first
// launch; the block totals of the launch before for reduce-full's second pass and for each
// deeper level of the multi-block scan.
std::vector<float> launch_input(const Trace& t, int pass) {
    if (pass == 0)
        return t.request.input;
    std::vector<float> totals;
    for (const Frame& f : t.frames)
        if (f.pass == pass - 1 && f.step == Step::BlockTotal)
            totals.push_back(f.values.at(0));
    return totals;
}

// A request for `a` over n random whole numbers (bin numbers below 16 for a histogram), in
// blocks of 64 threads and 16 bins.
Request random_request(const AlgorithmInfo& a, int n) {
    Request r =
        request(a.algorithm,
                generate(Generator::RandomInt, n, 4, a.family == Family::Histogram ? 16 : 0), 64);
    r.bins = 16;
    return r;
}

TEST(Dataflow, TreeLevel1AtBlock8) {
    // Level 2 of TILE 8 has stride 2: threads 0-1 add s[t + 2] into s[t]; the rest idle.
    const Trace t = trace(request(Algorithm::ReduceTree, {1, 2, 3, 4, 5, 6, 7, 8}, 8));
    const Dataflow flow(t);
    const std::size_t level0 = index_of(t, Step::TreeLevel, 0),
                      level1 = index_of(t, Step::TreeLevel, 1);
    EXPECT_EQ(flow.predecessor(level1), static_cast<int>(level0));
    EXPECT_EQ(flow.predecessor(level0), static_cast<int>(index_of(t, Step::Load, 0)));
    EXPECT_EQ(flow.predecessor(index_of(t, Step::Load, 0)), -1);
    const auto w = flow.writes(level1);
    ASSERT_EQ(w.size(), 8u);
    const int L1 = static_cast<int>(level0);
    for (int c = 0; c < 2; ++c) {
        EXPECT_EQ(w[c].thread, c);
        EXPECT_EQ(w[c].from, (std::vector<CellRef>{{L1, c}, {L1, c + 2}}));
    }
    EXPECT_EQ(w[0].expression, "s[0] = s[0] + s[2]");
    for (int c = 2; c < 8; ++c) {
        EXPECT_EQ(w[c].thread, -1) << "s[" << c << "] is not written at level 1";
        EXPECT_EQ(w[c].from, (std::vector<CellRef>{{L1, c}}));
    }
    const std::string caption = flow.caption(level1);
    EXPECT_TRUE(mentions(caption, "threads 0–1")) << caption;
    EXPECT_TRUE(mentions(caption, "s[t+2]")) << caption;
    EXPECT_TRUE(mentions(caption, "Level 1, the 2nd of 3")) << caption;
    EXPECT_TRUE(mentions(flow.caption(index_of(t, Step::TreeLevel, 2)), "thread 0 "))
        << "one thread, singular";
}

TEST(Dataflow, ShuffleOffset16LanesPastTheWarpKeepTheirOwn) {
    std::vector<float> in(32);
    for (int i = 0; i < 32; ++i)
        in[static_cast<std::size_t>(i)] = static_cast<float>(i);
    const Trace t = trace(request(Algorithm::ReduceShuffle, in, 32));
    const Dataflow flow(t);
    const std::size_t load = index_of(t, Step::Load, 0, 0, 0),
                      step1 = index_of(t, Step::Shuffle, 1, 0, 0);
    const int L = static_cast<int>(load);
    const auto w = flow.writes(step1);
    ASSERT_EQ(w.size(), 32u);
    for (int lane = 0; lane < 16; ++lane) {
        EXPECT_FALSE(w[lane].keeps_own) << "lane " << lane;
        EXPECT_EQ(w[lane].from, (std::vector<CellRef>{{L, lane}, {L, lane + 16}}));
    }
    for (int lane = 16; lane < 32; ++lane) {
        EXPECT_TRUE(w[lane].keeps_own) << "lane " << lane << " reads lane " << lane + 16;
        EXPECT_EQ(w[lane].from, (std::vector<CellRef>{{L, lane}, {L, lane}}));
        EXPECT_EQ(t.frames[step1].values[static_cast<std::size_t>(lane)],
                  2.0f * static_cast<float>(lane));
    }
    const std::string caption = flow.caption(step1);
    EXPECT_TRUE(mentions(caption, "offset 16")) << caption;
    EXPECT_TRUE(mentions(caption, "lanes 0–15")) << caption;
    EXPECT_TRUE(mentions(caption, "lanes 16–31")) << caption;
    EXPECT_TRUE(mentions(flow.caption(index_of(t, Step::Shuffle, 5, 0, 0)), "lane 31 "))
        << "offset 1: one lane";
}

TEST(Dataflow, BlellochUpsweepAndDownsweepOn1234) {
    const Trace t = trace(request(Algorithm::ScanBlelloch, {1, 2, 3, 4}));
    const Dataflow flow(t);
    // Upsweep 1 (stride 2): thread 0 adds s[1] into the root s[3].
    const std::size_t up0 = index_of(t, Step::Upsweep, 0), up1 = index_of(t, Step::Upsweep, 1);
    const auto u = flow.writes(up1);
    EXPECT_EQ(u[3].thread, 0);
    EXPECT_EQ(u[3].from,
              (std::vector<CellRef>{{static_cast<int>(up0), 3}, {static_cast<int>(up0), 1}}));
    EXPECT_EQ(u[1].thread, -1);

    // Downsweep 0 (stride 2): thread 0 owns the pair (1, 3): s[1] = carry = old s[3];
    // s[3] = carry + s[1].
    const int clear = static_cast<int>(index_of(t, Step::ClearRoot, 0));
    const std::size_t down0 = index_of(t, Step::Downsweep, 0),
                      down1 = index_of(t, Step::Downsweep, 1);
    auto d = flow.writes(down0);
    EXPECT_EQ(d[3].thread, 0);
    EXPECT_EQ(d[3].from, (std::vector<CellRef>{{clear, 3}, {clear, 1}}));
    EXPECT_EQ(d[1].thread, 0);
    EXPECT_EQ(d[1].from, (std::vector<CellRef>{{clear, 3}}));
    EXPECT_EQ(d[0].thread, -1);
    EXPECT_EQ(d[2].thread, -1);

    // Downsweep 1 (stride 1): thread 0 owns (0, 1), thread 1 owns (2, 3).
    const int D1 = static_cast<int>(down0);
    d = flow.writes(down1);
    EXPECT_EQ(d[0].thread, 0);
    EXPECT_EQ(d[1].thread, 0);
    EXPECT_EQ(d[2].thread, 1);
    EXPECT_EQ(d[3].thread, 1);
    EXPECT_EQ(d[3].from, (std::vector<CellRef>{{D1, 3}, {D1, 2}}));
    EXPECT_EQ(d[2].from, (std::vector<CellRef>{{D1, 3}}));
    EXPECT_EQ(d[1].from, (std::vector<CellRef>{{D1, 1}, {D1, 0}}));
    EXPECT_EQ(d[0].from, (std::vector<CellRef>{{D1, 1}}));
    EXPECT_TRUE(mentions(d[3].expression, "carry")) << d[3].expression;

    const std::string c1 = flow.caption(down0), c2 = flow.caption(down1);
    EXPECT_TRUE(mentions(c1, "stride 2")) << c1;
    EXPECT_TRUE(mentions(c1, "1 thread passes")) << c1;
    EXPECT_TRUE(mentions(c2, "stride 1")) << c2;
    EXPECT_TRUE(mentions(c2, "2 threads pass")) << c2;
    EXPECT_TRUE(mentions(flow.caption(clear), "s[3] = 0")) << flow.caption(clear);
}

TEST(Dataflow, SerialAddReadsTheInputInOrder) {
    const Trace t = trace(request(Algorithm::ReduceNaive, {5, 6, 7}));
    const Dataflow flow(t);
    EXPECT_EQ(flow.writes(0)[0].from, (std::vector<CellRef>{{CellRef::kInput, 0}}));
    EXPECT_EQ(flow.writes(2)[0].from, (std::vector<CellRef>{{1, 0}, {CellRef::kInput, 2}}));
    EXPECT_TRUE(mentions(flow.caption(2), "in[2]")) << flow.caption(2);
    EXPECT_TRUE(mentions(flow.caption(2), "thread 0")) << flow.caption(2);
}

TEST(Dataflow, HistogramAtomicsPerBin) {
    // The Exercise 4 golden case: block 1's second round reads elements 6 and 7, both bin 1.
    Request r = request(Algorithm::HistPrivatised, {0, 0, 1, 3, 0, 2, 1, 1}, 2);
    r.grid = 2;
    r.bins = 4;
    const Trace t = trace(r);
    const Dataflow flow(t);
    const auto w = flow.writes(index_of(t, Step::HistAccumulate, 2, 1));
    EXPECT_EQ(w[1].atomics, 2);
    EXPECT_EQ(w[0].atomics + w[2].atomics + w[3].atomics, 0);
    // The fold of block 0 (bins 0 and 2 non-empty) touches only those bins.
    const auto fold = flow.writes(index_of(t, Step::HistFold, 0, 0));
    EXPECT_EQ(fold[0].atomics, 1);
    EXPECT_EQ(fold[1].atomics, 0);
    EXPECT_EQ(fold[2].atomics, 1);
    EXPECT_EQ(fold[3].atomics, 0);
    EXPECT_TRUE(mentions(flow.caption(index_of(t, Step::HistFold, 0, 1)), "2 atomicAdds"));
    // The caption names the busiest bin (the contention row on screen may not show it), and
    // says so when no two threads of the round met on a bin: block 1 reads bins 1 and 3 first.
    const std::string busiest = flow.caption(index_of(t, Step::HistAccumulate, 2, 1));
    EXPECT_TRUE(mentions(busiest, "the busiest bin, bin 1, took 2 atomics")) << busiest;
    const std::string apart = flow.caption(index_of(t, Step::HistAccumulate, 1, 1));
    EXPECT_TRUE(mentions(apart, "no two threads hit one bin")) << apart;
    EXPECT_FALSE(mentions(apart, "busiest")) << apart;
}

// Arrows point back in time: every source is an earlier frame (or the input) and a cell that
// exists; every frame has a caption. Over every algorithm, with several blocks and passes.
// scan-fast's publish record is the one whose cells feed each other: the inclusive prefix is
// its carry + its aggregate, two cells before it.
TEST(Dataflow, SourcesAreEarlierCellsForEveryAlgorithm) {
    for (const AlgorithmInfo& a : algorithms()) {
        SCOPED_TRACE(std::string(a.id));
        if (!a.traced)
            continue; // a production kernel records no frames (production_test.cpp)
        const Trace t = trace(random_request(a, a.single_block ? 64 : 3000));
        const Dataflow flow(t);
        for (std::size_t i = 0; i < t.frames.size(); ++i) {
            const auto w = flow.writes(i);
            ASSERT_EQ(w.size(), t.frames[i].values.size());
            for (std::size_t c = 0; c < w.size(); ++c)
                for (const CellRef& src : w[c].from) {
                    if (src.frame == CellRef::kInput) {
                        ASSERT_GE(src.cell, 0);
                        ASSERT_LT(static_cast<std::size_t>(src.cell),
                                  launch_input(t, t.frames[i].pass).size())
                            << "frame " << i << " cell " << c;
                        continue;
                    }
                    ASSERT_GE(src.frame, 0)
                        << "frame " << i << " cell " << c << ": " << w[c].expression;
                    if (src.frame == static_cast<int>(i)) {
                        ASSERT_LT(src.cell, static_cast<int>(c)) << "frame " << i << " cell " << c;
                    } else {
                        ASSERT_LT(src.frame, static_cast<int>(i)) << "frame " << i << " cell " << c;
                    }
                    ASSERT_LT(static_cast<std::size_t>(src.cell),
                              t.frames[static_cast<std::size_t>(src.frame)].values.size());
                }
            EXPECT_FALSE(flow.caption(i).empty()) << "frame " << i;
        }
    }
}

// For every algorithm, the cells writes() names must give the recorded value: a + b for two
// sources, a copy for one, 0 for none (a load past n, the cleared root, the identity).
// scan-fast's records hold tickets, counts of polls and states beside the values: only the
// values are sums of their sources.
bool is_value_cell(const Frame& f, std::size_t cell) {
    const int c = static_cast<int>(cell);
    if (f.step == Step::TilePublish)
        return c == kTileAggregate || c == kTileCarry || c == kTileInclusive;
    if (f.step == Step::LookBack)
        return c % kReadValues == kReadValue &&
               f.values[static_cast<std::size_t>(c - kReadValue + kReadState)] != kNotRead;
    return true;
}

TEST(Dataflow, NamedSourcesReproduceEveryValue) {
    for (const AlgorithmInfo& a : algorithms()) {
        SCOPED_TRACE(std::string(a.id));
        if (!a.traced)
            continue; // a production kernel records no frames (production_test.cpp)
        Request r = random_request(a, a.single_block ? 60 : 300);
        r.options.inclusive = true;
        r.options.skip_empty = false;
        for (const bool inclusive : {false, true}) {
            r.options.inclusive = inclusive;
            const Trace t = trace(r);
            const Dataflow flow(t);
            const auto value = [&](int pass, const CellRef& c) {
                return c.frame == CellRef::kInput
                           ? launch_input(t, pass).at(static_cast<std::size_t>(c.cell))
                           : t.frames.at(static_cast<std::size_t>(c.frame))
                                 .values.at(static_cast<std::size_t>(c.cell));
            };
            int failures = 0;
            for (std::size_t i = 0; i < t.frames.size() && failures < 3; ++i) {
                const Frame& f = t.frames[i];
                if (f.step == Step::HistAccumulate ||
                    (f.step == Step::BlockTotal && a.algorithm == Algorithm::ReduceAtomic))
                    continue; // counts of atomics; a block reduction recorded elsewhere
                const auto w = flow.writes(i);
                ASSERT_EQ(w.size(), f.values.size());
                for (std::size_t c = 0; c < w.size(); ++c) {
                    if (!is_value_cell(f, c))
                        continue; // a ticket, a count of polls, a state
                    float want = 0.0f;
                    for (const CellRef& src : w[c].from)
                        want += value(f.pass, src);
                    if (w[c].from.size() == 1)
                        want = value(f.pass, w[c].from[0]);
                    if (w[c].from.size() == 2)
                        want = value(f.pass, w[c].from[0]) + value(f.pass, w[c].from[1]);
                    if (f.values[c] != want) {
                        ADD_FAILURE()
                            << step_id(f.step) << " " << f.level << " block " << f.block << " cell "
                            << c << ": " << f.values[c] << ", its sources give " << want << " ("
                            << w[c].expression << ")";
                        ++failures;
                        break;
                    }
                }
            }
        }
    }
}

// A tile's carry comes from what it read: the published cells of the predecessors it added,
// nearest first, up to the one whose inclusive prefix it met; each read names the publish it
// found. Two windows of 32 (40 tiles), integer inputs: the sums are exact in any order.
TEST(Dataflow, ScanFastCarriesComeFromThePublishesTheTileRead) {
    Request r = request(Algorithm::ScanFast, generate(Generator::RandomInt, 40 * 128, 2, 0), 32);
    r.options.order_seed = 3;
    const Trace t = trace(r);
    const Dataflow flow(t);
    const std::vector<LookbackTile> tiles = lookback_tiles(t);
    ASSERT_EQ(tiles.size(), 40u);
    for (const LookbackTile& tile : tiles) {
        SCOPED_TRACE("tile " + std::to_string(tile.tile));
        const int publish = flow.find(Step::TilePublish, 0, 0, tile.tile, -1);
        const int look = flow.find(Step::LookBack, 0, 0, tile.tile, -1);
        ASSERT_GE(publish, 0);
        ASSERT_GE(look, 0);
        const auto carry = flow.writes(static_cast<std::size_t>(publish))[kTileCarry];
        std::vector<CellRef> want;
        for (const LookbackRead& read : tile.reads)
            if (read.added)
                want.push_back(
                    {flow.find(Step::TilePublish, 0, 0, read.predecessor, -1),
                     read.state == TileState::Inclusive ? kTileInclusive : kTileAggregate});
        EXPECT_EQ(carry.from, want);
        EXPECT_EQ(tile.tile == 0, want.empty());
        const auto reads = flow.writes(static_cast<std::size_t>(look));
        for (const LookbackRead& read : tile.reads) {
            const auto& cell =
                reads[static_cast<std::size_t>(read.predecessor * kReadValues + kReadValue)];
            EXPECT_EQ(cell.thread, (tile.tile - 1 - read.predecessor) % kWarpSize)
                << "lane p of warp 0 reads predecessor tile - 1 - p, 32 at a time";
            ASSERT_EQ(cell.from.size(), 1u);
            EXPECT_EQ(cell.from[0].frame, flow.find(Step::TilePublish, 0, 0, read.predecessor, -1));
        }
    }
}

// scan-fast's look-back is one warp's work: lane 0 publishes, lane p polls and reads
// predecessor tile - 1 - p. Who wrote a cell of those records is named a lane, as the kernel
// has it, where the block's own frames keep naming threads.
TEST(Dataflow, ScanFastRecordsAreWrittenByLanesOfTheLookBackWarp) {
    Request r = request(Algorithm::ScanFast, generate(Generator::RandomInt, 40 * 128, 2, 0), 32);
    r.options.order_seed = 3;
    const Trace t = trace(r);
    const Dataflow flow(t);
    for (const LookbackTile& tile : lookback_tiles(t)) {
        SCOPED_TRACE("tile " + std::to_string(tile.tile));
        const int publish = flow.find(Step::TilePublish, 0, 0, tile.tile, -1);
        const int look = flow.find(Step::LookBack, 0, 0, tile.tile, -1);
        EXPECT_EQ(explain_write(flow, publish, kTileInclusive).rfind("Lane 0 wrote it", 0), 0u)
            << explain_write(flow, publish, kTileInclusive);
        const auto cells = flow.writes(static_cast<std::size_t>(look));
        for (const LookbackRead& read : tile.reads) {
            const int cell = read.predecessor * kReadValues + kReadValue;
            const std::string lane = std::to_string((tile.tile - 1 - read.predecessor) % 32);
            // The canvas's hover names the writer with writer_name.
            EXPECT_EQ(writer_name(t.frames.at(static_cast<std::size_t>(look)),
                                  cells.at(static_cast<std::size_t>(cell)).thread),
                      "lane " + lane);
            EXPECT_EQ(explain_write(flow, look, cell).rfind("Lane " + lane + " wrote it", 0), 0u)
                << explain_write(flow, look, cell);
        }
    }
    // A thread of the block stays a thread: scanBlock's load into s[].
    const Trace scan = trace(request(Algorithm::ScanBlelloch, ones(32), 32));
    const Dataflow scan_flow(scan);
    ASSERT_EQ(scan.frames.at(0).buffer, Buffer::Shared);
    EXPECT_EQ(explain_write(scan_flow, 0, 5).rfind("Thread 5 wrote it", 0), 0u)
        << explain_write(scan_flow, 0, 5);
}

// reduceAtomic has no out[b]: its block total goes to the atomicAdd. Who chose the order of
// the atomicAdds is said as it is: a seed on the CPU model, the hardware on a GPU.
TEST(Dataflow, ReduceAtomicCaptionsSayWhatThatKernelDoes) {
    Request r = request(Algorithm::ReduceAtomic, ones(1000), 64);
    r.options.order_seed = 5;
    Trace t = trace(r);
    const std::size_t total = index_of(t, Step::BlockTotal, 0);
    std::size_t first_add = 0; // its block is whichever arrived first
    while (t.frames[first_add].step != Step::AtomicAdd)
        ++first_add;
    {
        const Dataflow flow(t);
        EXPECT_FALSE(mentions(flow.caption(total), "out[")) << flow.caption(total);
        EXPECT_TRUE(mentions(flow.caption(total), "atomicAdd")) << flow.caption(total);
        EXPECT_TRUE(mentions(flow.caption(first_add), "seed 5")) << flow.caption(first_add);
        EXPECT_FALSE(mentions(flow.caption(first_add), "hardware"));
    }
    t.backend = "sim"; // a student's kernel on pplab's simulator: its blocks arrive as a seed says
    t.device = "CUDA-on-CPU simulator (your kernel)";
    {
        const Dataflow flow(t);
        EXPECT_TRUE(mentions(flow.caption(first_add),
                             "on the simulator, an arrival order chosen with seed 5"))
            << flow.caption(first_add);
        EXPECT_FALSE(mentions(flow.caption(first_add), "hardware")) << flow.caption(first_add);
    }
    t.backend = "cuda";
    t.device = "NVIDIA H200";
    const Dataflow flow(t);
    EXPECT_TRUE(mentions(flow.caption(first_add), "the hardware's order on NVIDIA H200"))
        << flow.caption(first_add);
    EXPECT_FALSE(mentions(flow.caption(first_add), "seed"));
}

// A level's ordinal and its stride are two asides: one bracket each would stand in a row
// ("Upsweep level 3 (4th of 5) (stride 8)"), so the ordinal is told in words.
TEST(Dataflow, LevelCaptionsNeverPutTwoBracketsInARow) {
    for (const Algorithm a : {Algorithm::ReduceTree, Algorithm::ScanBlelloch}) {
        const Trace t = trace(request(a, ones(32), 32));
        const Dataflow flow(t);
        int levels = 0;
        for (std::size_t k = 0; k < t.frames.size(); ++k) {
            const std::string caption = flow.caption(k);
            EXPECT_FALSE(mentions(caption, ") (")) << caption;
            levels += mentions(caption, "level 3, the 4th of 5") ||
                      mentions(caption, "Level 3, the 4th of 5");
        }
        EXPECT_GT(levels, 0) << info(a).id << ": no caption names level 3 as the 4th of 5";
    }
}

} // namespace
} // namespace pplab
