// The chapter's pitfalls and Exercise 2 as deliberate mistakes: what each shows on the CPU
// model (values, undefined cells, races, hazards, counts) and which requests it refuses.
#include "helpers.hpp"

#include "pplab/backend.hpp"
#include "pplab/check.hpp"
#include "pplab/dataflow.hpp"
#include "pplab/io.hpp"
#include "pplab/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace pplab {
namespace {

using namespace test;

// The CPU model's trace with the pitfall p; `active` lanes call warpReduce (PartialWarp).
Trace pitfall_trace(Algorithm a, std::vector<float> input, int block, Pitfall p, int active = 32) {
    Request r = request(a, std::move(input), block);
    r.options.pitfall = p;
    r.options.active_lanes = active;
    return trace(r);
}

int frame_of(const Trace& t, Step s, int level, int block = 0, int warp = -1) {
    return Dataflow(t).find(s, 0, level, block, warp);
}

TEST(Pitfall, EachChangesOneKernelAndSaysWhichWhenMisapplied) {
    Request r;
    r.algorithm = Algorithm::ReduceFull;
    r.input = ones(8);
    r.options.pitfall = Pitfall::NonPowerOfTwo;
    try {
        normalize(r);
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("reduce-tree"), std::string::npos) << e.what();
    }
    for (int p = 1; p < kPitfallCount; ++p)
        EXPECT_EQ(find_pitfall(pitfall_id(static_cast<Pitfall>(p))), static_cast<Pitfall>(p));
    EXPECT_THROW(find_pitfall("missing-barrier"), InputError);
}

TEST(Pitfall, NonPowerOfTwoTreeLosesElementsAndSaysWhich) {
    // TILE = 6: strides 3 then 1. s[2] (3 + 6) is never added into s[0].
    Request plain;
    plain.algorithm = Algorithm::ReduceTree;
    plain.block = 6;
    plain.input = {1, 2, 3, 4, 5, 6};
    EXPECT_THROW(normalize(plain), InputError); // only the pitfall lifts the rule
    const Trace t =
        pitfall_trace(Algorithm::ReduceTree, {1, 2, 3, 4, 5, 6}, 6, Pitfall::NonPowerOfTwo);
    EXPECT_EQ(t.result, std::vector<float>{12.0f}); // 1+4 + 2+5, not 21
    const int last = frame_of(t, Step::TreeLevel, 1);
    ASSERT_GE(last, 0);
    EXPECT_EQ(t.frames[static_cast<std::size_t>(last)].values,
              (std::vector<float>{12, 7, 9, 4, 5, 6}));
    const std::string caption = Dataflow(t).caption(t.frames.size() - 1);
    EXPECT_NE(caption.find("s[2], s[5] never reached s[0]"), std::string::npos) << caption;
    EXPECT_EQ(summarize(t).barriers_per_block, 2); // log2 floor: strides 3 and 1
}

TEST(Pitfall, EveryLaneWritesRacesAndTheModelInventsNoWinner) {
    const Trace t = pitfall_trace(Algorithm::ReduceFull, ones(64), 64, Pitfall::EveryLaneWrites);
    const int totals = frame_of(t, Step::WarpTotals, 0);
    ASSERT_GE(totals, 0);
    for (float v : t.frames[static_cast<std::size_t>(totals)].values)
        EXPECT_TRUE(std::isnan(v)) << "a raced slot is undefined on the CPU model";
    ASSERT_EQ(t.result.size(), 1u);
    EXPECT_TRUE(std::isnan(t.result[0]));
    // Each slot names all 32 lanes' values as the candidates, and the race.
    const auto writes = Dataflow(t).writes(static_cast<std::size_t>(totals));
    ASSERT_EQ(writes.size(), 2u);
    for (const CellWrite& w : writes) {
        EXPECT_TRUE(w.race);
        EXPECT_EQ(w.from.size(), 32u);
    }
    // Every lane stores: 64 shared writes where the chapter's kernel makes 2.
    EXPECT_EQ(frame_cost(t, static_cast<std::size_t>(totals)).shared_writes, 64);
    const Trace right = pitfall_trace(Algorithm::ReduceFull, ones(64), 64, Pitfall::None);
    EXPECT_EQ(frame_cost(right, static_cast<std::size_t>(totals)).shared_writes, 2);
    EXPECT_EQ(right.result, std::vector<float>{64.0f});
}

TEST(Pitfall, PartialWarpMarksEveryValueThatReadsANonParticipatingLane) {
    const Trace t = pitfall_trace(Algorithm::ReduceShuffle, ones(32), 32, Pitfall::PartialWarp, 20);
    // Shuffle 1 (offset 16): lanes 4..15 read lanes 20..31, which did not call it.
    const int s1 = frame_of(t, Step::Shuffle, 1, 0, 0);
    ASSERT_GE(s1, 0);
    const auto& v = t.frames[static_cast<std::size_t>(s1)].values;
    const auto writes = Dataflow(t).writes(static_cast<std::size_t>(s1));
    for (int lane = 0; lane < 32; ++lane) {
        const bool reads_idle_lane = lane < 20 && lane + 16 >= 20 && lane + 16 < 32;
        EXPECT_EQ(std::isnan(v[static_cast<std::size_t>(lane)]), reads_idle_lane) << lane;
        EXPECT_EQ(writes[static_cast<std::size_t>(lane)].undefined, reads_idle_lane) << lane;
        if (lane >= 20) { // does not call warpReduce: keeps its value, written by no one
            EXPECT_EQ(v[static_cast<std::size_t>(lane)], 1.0f);
            EXPECT_EQ(writes[static_cast<std::size_t>(lane)].thread, -1);
        }
    }
    EXPECT_TRUE(std::isnan(t.result[0])); // lane 0's sum depends on undefined values
    // With all 32 lanes the same request is the chapter's, and defined.
    EXPECT_EQ(
        pitfall_trace(Algorithm::ReduceShuffle, ones(32), 32, Pitfall::PartialWarp, 32).result,
        std::vector<float>{32.0f});
    Request bad;
    bad.algorithm = Algorithm::ReduceShuffle;
    bad.input = ones(32);
    bad.options.pitfall = Pitfall::PartialWarp;
    bad.options.active_lanes = 0;
    EXPECT_THROW(normalize(bad), InputError);
}

TEST(Pitfall, MissingFinalSyncKeepsTheValuesAndMarksTheUnorderedReads) {
    const Trace wrong =
        pitfall_trace(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4, Pitfall::NoFinalSync);
    const Trace right = pitfall_trace(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4, Pitfall::None);
    EXPECT_TRUE(wrong.frames == right.frames); // the lockstep model cannot show the race itself
    EXPECT_EQ(summarize(right).barriers_per_block, 5);
    EXPECT_EQ(summarize(wrong).barriers_per_block, 4);
    // Downsweep 1 (stride 1): thread 0 writes s[0], s[1]; thread 1 writes s[2], s[3]. Thread t
    // then reads s[t] for out[t]: s[1] (written by 0), s[2] and s[3] (by 1) are hazards.
    const int last = frame_of(wrong, Step::Downsweep, 1);
    ASSERT_GE(last, 0);
    const auto writes = Dataflow(wrong).writes(static_cast<std::size_t>(last));
    EXPECT_EQ(writes[0].hazard, "");
    EXPECT_NE(writes[1].hazard.find("thread 1 reads s[1]"), std::string::npos) << writes[1].hazard;
    EXPECT_NE(writes[2].hazard, "");
    EXPECT_NE(writes[3].hazard, "");
    for (const CellWrite& w : Dataflow(right).writes(static_cast<std::size_t>(last)))
        EXPECT_EQ(w.hazard, "");
}

TEST(Pitfall, UndefinedValuesReadAsQuestionMarksAndRoundTripAsNull) {
    const Trace t = pitfall_trace(Algorithm::ReduceFull, ones(64), 64, Pitfall::EveryLaneWrites);
    const std::string text = to_text(t);
    EXPECT_NE(text.find("warp-totals: ? ?"), std::string::npos);
    const std::string json = to_json(t);
    EXPECT_NE(json.find("[null, null]"), std::string::npos);
    EXPECT_TRUE(trace_from_json(json).same_recording(t));
    // A hand-trace answers an undefined value with "?", and a number there is wrong.
    EXPECT_TRUE(check_answer(t, parse_answer("warp-totals: ? ?")).all_right());
    const CheckResult wrong = check_answer(t, parse_answer("warp-totals: 32 32"));
    ASSERT_FALSE(wrong.all_right());
    EXPECT_NE(wrong.levels[0].explanation.find("race"), std::string::npos)
        << wrong.levels[0].explanation;
    EXPECT_THROW(parse_list("1,?,3"), InputError); // inputs are always numbers
}

TEST(Generators, SparseLeavesMostBinsEmpty) {
    const std::vector<float> v = generate(Generator::Sparse, 10000, 3, 256);
    std::vector<int> counts(256, 0);
    for (float x : v)
        ++counts[static_cast<std::size_t>(x)];
    int used = 0;
    for (int c : counts)
        used += c > 0;
    EXPECT_LE(used, 16); // one bin in sixteen can be hit
    EXPECT_GE(used, 8);
}

} // namespace
} // namespace pplab
