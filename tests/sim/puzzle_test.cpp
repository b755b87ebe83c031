// The puzzles: every reference solution passes every hidden test; a wrong solution of each fails
// with a useful first difference (or the hazard it has); the skeleton as given compiles, runs
// and is not a solution; the hidden tests are what the issue asks for.
#include "helpers.hpp"

#include "pplab/backend.hpp"
#include "pplab/files.hpp"
#include "pplab/puzzles.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace pplab {
namespace {

std::string solution(const std::string& name) {
    const std::string id = name.substr(0, name.find("-wrong"));
    return simtest::puzzle_solution(sim::find_puzzle(id).skeleton(), name);
}

std::string verdict_text(const sim::PuzzleVerdict& v) {
    std::string s = v.message + "\n";
    for (const sim::TestVerdict& t : v.tests)
        s += std::string(t.passed ? "PASS " : "FAIL ") + t.what + ": " + t.why + "\n";
    for (const sim::CompileError& e : v.errors)
        s += "error line " + std::to_string(e.line) + ": " + e.message + "\n";
    return s;
}

class Puzzles : public ::testing::TestWithParam<std::string> {
protected:
    const sim::Puzzle& puzzle() const { return sim::find_puzzle(GetParam()); }
};

TEST_P(Puzzles, TheReferenceSolutionPassesEveryTest) {
    const sim::PuzzleVerdict v = sim::check_puzzle(puzzle(), solution(GetParam()));
    EXPECT_TRUE(v.solved()) << verdict_text(v);
    EXPECT_EQ(v.passed(), static_cast<int>(puzzle().tests.size())) << verdict_text(v);
}

// A wrong solution fails, and says where: the first difference from the chapter's kernel (its
// level, its cell, and which thread of the chapter's kernel wrote what), or the hazard's line.
TEST_P(Puzzles, AWrongSolutionFailsWithAUsefulFirstDifference) {
    const sim::PuzzleVerdict v = sim::check_puzzle(puzzle(), solution(GetParam() + "-wrong"));
    ASSERT_TRUE(v.compiled) << verdict_text(v);
    EXPECT_FALSE(v.solved());
    int failed = 0;
    for (const sim::TestVerdict& t : v.tests) {
        EXPECT_TRUE(t.ran) << t.what;
        if (t.passed)
            continue;
        ++failed;
        const bool difference = t.why.find("The first: ") != std::string::npos &&
                                t.why.find("In the chapter's kernel, ") != std::string::npos;
        const bool hazard = t.first_hazard_line > 0 && t.why.find("line ") == 0;
        const bool atomics = puzzle().counts_global_atomics &&
                             t.why.find("atomicAdds on g_hist") != std::string::npos;
        EXPECT_TRUE(difference || hazard || atomics) << t.what << ": " << t.why;
    }
    EXPECT_GT(failed, 0) << verdict_text(v);
}

// The skeleton is what a student opens: it compiles and runs on the example launch (so Run
// shows something at once), and it is not already a solution.
TEST_P(Puzzles, TheSkeletonRunsAndIsNotASolution) {
    const sim::Puzzle& p = puzzle();
    const sim::RunResult res = sim::run_kernel(p.example, p.skeleton());
    EXPECT_NE(res.status, sim::RunResult::Status::CompileFailed) << simtest::hazards_text(res);
    EXPECT_FALSE(
        res.ok() && res.hazards.empty() &&
        sim::first_difference(res.trace, make_cpu_backend()->trace(res.trace.request)).same)
        << "the skeleton already gives the chapter's trace";
    const sim::RunResult solved = sim::run_kernel(p.example, solution(GetParam()));
    ASSERT_TRUE(solved.ok()) << simtest::hazards_text(solved);
    EXPECT_TRUE(
        sim::first_difference(solved.trace, make_cpu_backend()->trace(solved.trace.request)).same);
}

INSTANTIATE_TEST_SUITE_P(Chapter, Puzzles,
                         ::testing::Values("naive", "tree-loop", "grid-stride", "warp-reduce",
                                           "shared-round", "upsweep", "downsweep",
                                           "privatised-fold", "per-warp"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                             std::string id = p.param;
                             for (char& c : id)
                                 if (c == '-')
                                     c = '_';
                             return id;
                         });

// The tree's loop with its barrier after each level: the first level reads what another thread
// has not yet loaded. Each failing test says the race on its line, not an uninitialised read.
TEST(PuzzleTreeLoop, ABarrierAfterEachLevelIsARace) {
    const sim::Puzzle& p = sim::find_puzzle("tree-loop");
    const sim::PuzzleVerdict v =
        sim::check_puzzle(p, simtest::puzzle_solution(p.skeleton(), "tree-loop-barrier-after"));
    ASSERT_TRUE(v.compiled) << verdict_text(v);
    EXPECT_EQ(v.passed(), 0) << verdict_text(v);
    for (const sim::TestVerdict& t : v.tests) {
        EXPECT_EQ(t.why.find("line "), 0u) << t.what << ": " << t.why;
        EXPECT_NE(t.why.find("write-after-read race on s["), std::string::npos)
            << t.what << ": " << t.why;
        EXPECT_EQ(t.why.find("before any thread"), std::string::npos) << t.what << ": " << t.why;
    }
}

// The fold with a plain += instead of atomicAdd: where one block runs, every bin is right, and
// the verdict says the fold must use atomicAdd because blocks share the global bins (not that
// it folds too few bins); where blocks run together, their race on g_hist.
TEST(PuzzlePrivatisedFold, APlainAddIsToldToUseAtomicAdd) {
    const sim::Puzzle& p = sim::find_puzzle("privatised-fold");
    const sim::PuzzleVerdict v =
        sim::check_puzzle(p, simtest::puzzle_solution(p.skeleton(), "privatised-fold-plain-add"));
    ASSERT_TRUE(v.compiled) << verdict_text(v);
    EXPECT_EQ(v.passed(), 0) << verdict_text(v);
    int told = 0;
    for (const sim::TestVerdict& t : v.tests) {
        EXPECT_EQ(t.why.find("issued 0 atomicAdds"), std::string::npos) << t.what << ": " << t.why;
        told += t.why.find("adds into g_hist without atomicAdd: the blocks add into the same "
                           "global bins, so the fold must use atomicAdd") != std::string::npos;
    }
    EXPECT_GT(told, 0) << verdict_text(v);
}

// In the chapter's order, at least eight, each with a statement, a hint, the answer and hidden
// tests that include sizes that are not multiples of the block, non-power-of-two n and, for
// histograms, skewed data; every test launch is one the algorithm accepts.
TEST(PuzzleList, WhatTheIssueAsksFor) {
    const auto all = sim::puzzles();
    ASSERT_GE(all.size(), 8u);
    std::set<std::string_view> ids;
    int previous = -1;
    for (const sim::Puzzle& p : all) {
        EXPECT_TRUE(ids.insert(p.id).second) << p.id;
        EXPECT_GE(static_cast<int>(p.algorithm), previous) << p.id << " is out of order";
        previous = static_cast<int>(p.algorithm);
        EXPECT_GT(p.statement.size(), 100u) << p.id;
        // The hint names the idea and leaves the writing to the student: no statement of code
        // (each hint was once the whole answer); the lines that do it are the answer's.
        EXPECT_GT(p.hint.size(), 60u) << p.id;
        EXPECT_EQ(p.hint.find(';'), std::string_view::npos) << p.id << ": " << p.hint;
        EXPECT_EQ(p.hint.find('{'), std::string_view::npos) << p.id << ": " << p.hint;
        EXPECT_EQ(p.hint.find("+="), std::string_view::npos) << p.id << ": " << p.hint;
        EXPECT_NE(p.answer.find(';'), std::string_view::npos) << p.id << ": " << p.answer;
        EXPECT_NE(p.skeleton().find("Your code here"), std::string::npos) << p.id;
        ASSERT_GE(p.tests.size(), 3u) << p.id;
        bool partial_block = false, odd_n = false, skewed = false;
        for (const sim::PuzzleTest& t : p.tests) {
            const Request r = normalize(t.request);
            EXPECT_EQ(r.algorithm, p.algorithm);
            partial_block |= r.n() % r.block != 0;
            odd_n |= (r.n() & (r.n() - 1)) != 0;
            int most = 0;
            for (const float v : r.input)
                most = std::max<int>(
                    most, static_cast<int>(std::count(r.input.begin(), r.input.end(), v)));
            skewed |= most * 2 > r.n();
        }
        EXPECT_TRUE(partial_block) << p.id << ": no size that is not a multiple of the block";
        EXPECT_TRUE(odd_n) << p.id << ": no n that is not a power of two";
        if (info(p.algorithm).family == Family::Histogram) {
            EXPECT_TRUE(skewed) << p.id << ": no skewed histogram";
        }
    }
    EXPECT_THROW(sim::find_puzzle("no-such-puzzle"), InputError);
}

} // namespace
} // namespace pplab
