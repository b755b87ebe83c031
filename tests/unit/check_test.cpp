// `pplab check`: a student's hand-trace of Exercise 3 against the Blelloch trace. Right
// answers pass with or without labels; each kind of mistake is found where it was made and
// explained in the kernel's terms; answers that cannot be read are InputErrors.
#include "helpers.hpp"

#include "pplab/backend.hpp"
#include "pplab/check.hpp"
#include "pplab/io.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace pplab {
namespace {

using namespace test;

Trace blelloch_1234() {
    return trace(request(Algorithm::ScanBlelloch, {1, 2, 3, 4}));
}

CheckResult check(const std::string& answer) {
    return check_answer(blelloch_1234(), parse_answer(answer));
}

// Exercise 3, worked by hand: s after each level.
const char* const kRightLabelled = "load: 1 2 3 4\n"
                                   "upsweep 0: 1 3 3 7\n"
                                   "upsweep 1: 1 3 3 10\n"
                                   "clear-root: 1 3 3 0\n"
                                   "downsweep 0: 1 0 3 3\n"
                                   "downsweep 1: 0 1 3 6\n";

TEST(Check, AcceptsARightHandTraceWithLabels) {
    const CheckResult r = check(kRightLabelled);
    ASSERT_EQ(r.levels.size(), 6u);
    EXPECT_TRUE(r.all_right());
    EXPECT_EQ(r.first_wrong(), -1);
    EXPECT_EQ(r.levels[4].label, "downsweep 0");
    EXPECT_EQ(r.levels[4].frame, 4);
    EXPECT_EQ(r.levels[4].line_number, 5);
}

TEST(Check, AcceptsARightHandTraceWithoutLabels) {
    // Lines are taken as consecutive levels; commas, comments and blank lines are fine.
    const CheckResult r =
        check("# Exercise 3\n1 2 3 4\n1, 3, 3, 7\n\n1 3 3 10\n1 3 3 0\n1 0 3 3\n0 1 3 6");
    ASSERT_EQ(r.levels.size(), 6u);
    EXPECT_TRUE(r.all_right());
    EXPECT_EQ(r.levels[2].label, "upsweep 1");
    EXPECT_EQ(r.levels[2].line_number, 5);
}

TEST(Check, LabelsAreCaseAndSpaceInsensitiveAndMaySkipLevels) {
    // Only the downsweep, as the exercise asks; an unlabelled line continues after a label.
    const CheckResult r = check("  Downsweep   0 : 1 0 3 3\r\n0 1 3 6\r\n");
    ASSERT_EQ(r.levels.size(), 2u);
    EXPECT_TRUE(r.all_right());
    EXPECT_EQ(r.levels[1].label, "downsweep 1");
}

// What the CLI, the window's Hand-trace tab and the page say: levels, not lines (a level
// answered on two lines is one level, right only where both lines are).
TEST(Check, TheSummaryCountsLevelsNotLines) {
    EXPECT_EQ(check(kRightLabelled).summary(), "All 6 levels are right.");
    EXPECT_EQ(check("upsweep 0: 1 3 3 7\n").summary(), "The 1 level is right.");
    const CheckResult twice = check("upsweep 0: 1 3 3 7\nupsweep 0: 1 3 3 7\n");
    EXPECT_EQ(twice.levels.size(), 2u);
    EXPECT_EQ(twice.levels_answered(), 1);
    EXPECT_EQ(twice.summary(), "The 1 level is right.");
    const CheckResult once_wrong = check("upsweep 0: 1 3 3 7\nupsweep 0: 1 3 3 8\n"
                                         "upsweep 1: 1 3 3 9\nclear-root: 1 3 3 0\n");
    EXPECT_EQ(once_wrong.levels_wrong(), 2);
    EXPECT_EQ(once_wrong.summary(), "2 of 3 levels are wrong.");
    EXPECT_EQ(check("upsweep 1: 1 3 3 9\n").summary(), "1 of 1 level is wrong.");
}

TEST(Check, FindsAWrongCellInUpsweep2) {
    // The root should be 7 + 3 = 10.
    const CheckResult r = check("load: 1 2 3 4\nupsweep 0: 1 3 3 7\nupsweep 1: 1 3 3 9\n");
    EXPECT_FALSE(r.all_right());
    ASSERT_EQ(r.first_wrong(), 2);
    const LevelVerdict& v = r.levels[2];
    EXPECT_EQ(v.label, "upsweep 1");
    EXPECT_EQ(v.line_number, 3);
    EXPECT_EQ(v.wrong_cells, (std::vector<int>{3}));
    // Which thread, in which step, from what.
    EXPECT_TRUE(mentions(v.explanation, "upsweep 1")) << v.explanation;
    EXPECT_TRUE(mentions(v.explanation, "s[3]")) << v.explanation;
    EXPECT_TRUE(mentions(v.explanation, "Thread 0")) << v.explanation;
    EXPECT_TRUE(mentions(v.explanation, "expected 10")) << v.explanation;
    EXPECT_TRUE(mentions(v.explanation, "you wrote 9")) << v.explanation;
    EXPECT_TRUE(mentions(v.explanation, "s[3] + s[1] = 7 + 3 = 10")) << v.explanation;
    EXPECT_TRUE(mentions(v.explanation, "upsweep 0"))
        << "names the level it read: " << v.explanation;
}

TEST(Check, FindsAWrongCellInTheDownsweep) {
    // Downsweep 1, stride 1: thread 1 owns the pair (2, 3); the left child s[2] takes the
    // carry, old s[3] = 3. Writing 4 is adding when it should copy.
    const CheckResult r =
        check(std::string(kRightLabelled)
                  .replace(std::string(kRightLabelled).find("0 1 3 6"), 7, "0 1 4 6"));
    ASSERT_EQ(r.first_wrong(), 5);
    const LevelVerdict& v = r.levels[5];
    EXPECT_EQ(v.label, "downsweep 1");
    EXPECT_EQ(v.wrong_cells, (std::vector<int>{2}));
    EXPECT_TRUE(mentions(v.explanation, "Thread 1")) << v.explanation;
    EXPECT_TRUE(mentions(v.explanation, "downsweep 1")) << v.explanation;
    EXPECT_TRUE(mentions(v.explanation, "carry")) << v.explanation;
    EXPECT_TRUE(mentions(v.explanation, "expected 3")) << v.explanation;
    for (int i = 0; i < 5; ++i) {
        EXPECT_TRUE(r.levels[static_cast<std::size_t>(i)].right) << "level " << i;
    }
}

TEST(Check, ASkippedLevelWithoutLabelsIsWrongWhereTheSkipHappened) {
    // The student went from upsweep 0 straight to clearing the root: that line is compared
    // with upsweep 1, whose root thread 0 set to 10.
    const CheckResult r = check("1 2 3 4\n1 3 3 7\n1 3 3 0\n1 0 3 3\n0 1 3 6\n");
    ASSERT_EQ(r.first_wrong(), 2);
    EXPECT_EQ(r.levels[2].label, "upsweep 1");
    EXPECT_EQ(r.levels[2].wrong_cells, (std::vector<int>{3}));
    EXPECT_TRUE(mentions(r.levels[2].explanation, "you wrote 0")) << r.levels[2].explanation;
}

TEST(Check, TwoLevelsDoneAsOneUnderOneLabel) {
    // Labelled "downsweep 0" but already the final state: downsweep 0 only touched the pair
    // (1, 3), so s[0] still holds its upsweep value, which no thread wrote in this level.
    const CheckResult r = check("upsweep 1: 1 3 3 10\ndownsweep 0: 0 1 3 6\n");
    ASSERT_EQ(r.first_wrong(), 1);
    const LevelVerdict& v = r.levels[1];
    EXPECT_EQ(v.label, "downsweep 0");
    EXPECT_EQ(v.wrong_cells, (std::vector<int>{0, 1, 3}));
    EXPECT_TRUE(mentions(v.explanation, "No thread wrote s[0] in downsweep 0")) << v.explanation;
    EXPECT_TRUE(mentions(v.explanation, "clear-root"))
        << "where it keeps its value from: " << v.explanation;
}

TEST(Check, ExplainCellForAReductionLane) {
    // reduce-shuffle, lane 20 at offset 16 reads lane 36, outside the warp: it adds its own value.
    Request r;
    r.algorithm = Algorithm::ReduceShuffle;
    r.block = 32;
    r.input = std::vector<float>(32, 1.0f);
    const Trace t = make_cpu_backend()->trace(r);
    const std::string why = explain_cell(t, 1, 20, 1.0f);
    EXPECT_TRUE(mentions(why, "Lane 20")) << why;
    EXPECT_TRUE(mentions(why, "outside the warp")) << why;
    EXPECT_TRUE(mentions(why, "expected 2")) << why;
}

TEST(Check, ExplainsASecondPassFromTheBlockTotalsItReads) {
    // reduce-full over 12 blocks: the second launch's thread 3 starts its sum with the block
    // total of block 3, not with element 3 of the user's input.
    Request r;
    r.algorithm = Algorithm::ReduceFull;
    r.block = 64;
    r.input = generate(Generator::Seq, 3000, 0, 0); // 1, 2, 3, ...: element 3 is 4
    const Trace t = make_cpu_backend()->trace(r);
    ASSERT_EQ(t.request.grid, 12);
    float total3 = 0;
    int round1 = -1;
    for (std::size_t i = 0; i < t.frames.size(); ++i) {
        const Frame& f = t.frames[i];
        if (f.pass == 0 && f.step == Step::BlockTotal && f.block == 3)
            total3 = f.values.at(0);
        if (f.pass == 1 && f.step == Step::Accumulate && f.level == 1)
            round1 = static_cast<int>(i);
    }
    ASSERT_GE(round1, 0);
    EXPECT_EQ(t.frames[static_cast<std::size_t>(round1)].values.at(3), total3);
    const std::string why = explain_cell(t, round1, 3, 0.0f);
    EXPECT_TRUE(mentions(why, "= " + format_value(total3) + ".")) << why;
}

TEST(Check, ByValueSoZeroMatchesNegativeZero) {
    Request r;
    r.algorithm = Algorithm::ReduceTree;
    r.block = 2;
    r.input = {-0.0f, -0.0f};
    const Trace t = make_cpu_backend()->trace(r);
    EXPECT_TRUE(check_answer(t, parse_answer("0 0\n0 0\n0\n")).all_right());
}

TEST(Check, TheTextFormatIsARightAnswerForEveryAlgorithm) {
    // `pplab trace` prints what a hand-trace looks like: fed back, with or without its labels,
    // every level of every algorithm is right, so labels are unique and lines line up.
    for (const AlgorithmInfo& a : algorithms()) {
        SCOPED_TRACE(std::string(a.id));
        if (!a.traced || a.algorithm == Algorithm::ScanFast)
            continue; // no frames; scan-fast has no hand-trace (below)
        Request r;
        r.algorithm = a.algorithm;
        r.block = 32;
        r.bins = 8;
        r.input = generate(Generator::RandomInt, a.single_block ? 32 : 300, 6,
                           a.family == Family::Histogram ? 8 : 0);
        const Trace t = make_cpu_backend()->trace(r);
        const std::string text = to_text(t);
        const CheckResult labelled = check_answer(t, parse_answer(text));
        EXPECT_EQ(labelled.levels.size(), t.frames.size());
        EXPECT_TRUE(labelled.all_right());
        std::string values_only;
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);)
            values_only += line.substr(line.find(':') == std::string::npos || line[0] == '#'
                                           ? 0
                                           : line.find(':') + 1) +
                           "\n";
        EXPECT_TRUE(check_answer(t, parse_answer(values_only)).all_right());
        // A mistake in any level, in its first or last cell, is explained.
        for (std::size_t i = 0; i < t.frames.size(); ++i) {
            const auto& v = t.frames[i].values;
            for (const std::size_t c : {std::size_t{0}, v.size() - 1}) {
                const std::string why =
                    explain_cell(t, static_cast<int>(i), static_cast<int>(c), v[c] + 1);
                EXPECT_TRUE(mentions(why, "expected " + format_value(v[c]))) << why;
            }
        }
    }
}

// ---- Answers that cannot be read -------------------------------------------------------

// The message of the InputError that reading `answer` throws, or "" when it can be read.
std::string parse_error(const std::string& answer) {
    return input_error([&] { check(answer); });
}

// Exercise 3 as a student writes it: "the state of s after each level", without the load.
TEST(CheckAlignment, UnlabelledLinesFromTheFirstLevelAreAlignedAndSaidSo) {
    const CheckResult r = check("1 3 3 7\n1 3 3 10\n1 3 3 0\n1 0 3 3\n0 1 3 6\n");
    ASSERT_EQ(r.levels.size(), 5u);
    EXPECT_TRUE(r.all_right());
    EXPECT_EQ(r.levels.front().label, "upsweep 0");
    EXPECT_EQ(r.levels.back().label, "downsweep 1");
    EXPECT_TRUE(mentions(r.alignment, "5 lines without labels were compared with upsweep 0 to "
                                      "downsweep 1"))
        << r.alignment;
    EXPECT_TRUE(mentions(r.alignment, "before upsweep 0 left out")) << r.alignment;
}

TEST(CheckAlignment, OnlyTheDownsweepAsTheExerciseAsks) {
    const CheckResult r = check("1 0 3 3\n0 1 3 6\n");
    ASSERT_EQ(r.levels.size(), 2u);
    EXPECT_TRUE(r.all_right());
    EXPECT_EQ(r.levels[0].label, "downsweep 0");
}

TEST(CheckAlignment, AMistakeInTheFirstLineStillFindsItsLevel) {
    const CheckResult r = check("1 3 3 8\n1 3 3 10\n1 3 3 0\n1 0 3 3\n0 1 3 6\n");
    ASSERT_EQ(r.first_wrong(), 0);
    EXPECT_EQ(r.levels[0].label, "upsweep 0");
    EXPECT_EQ(r.levels[0].wrong_cells, (std::vector<int>{3}));
    EXPECT_TRUE(r.levels[1].right);
}

TEST(CheckAlignment, AFileWithTheLoadIsComparedFromTheLoad) {
    const CheckResult r = check("1 2 3 4\n1 3 3 7\n");
    EXPECT_EQ(r.levels[0].label, "load");
    EXPECT_TRUE(r.all_right());
    EXPECT_TRUE(mentions(r.alignment, "compared with load to upsweep 0")) << r.alignment;
}

TEST(CheckAlignment, AnAmbiguousFileAsksForLabels) {
    // Every level of a scan of zeros is zeros: one unlabelled line fits any of them.
    const Trace zeros =
        make_cpu_backend()->trace(normalize(request(Algorithm::ScanBlelloch, {0, 0, 0, 0}, 4)));
    const std::string why = input_error([&] { check_answer(zeros, parse_answer("0 0 0 0\n")); });
    EXPECT_TRUE(mentions(why, "equally well")) << why;
    EXPECT_TRUE(mentions(why, "write the level before each line")) << why;
    EXPECT_TRUE(mentions(why, "line 1")) << why;
}

// A wrong unlabelled line that fits two levels equally, or none, is compared with the earliest
// and its wrong cells are named (it was refused: "fit upsweep 0 and upsweep 1 equally well").
TEST(CheckAlignment, AWrongLineThatFitsSeveralIsComparedWithTheEarliest) {
    // [1, 2, 3, 4]: load 1 2 3 4, upsweep 0 1 3 3 7, upsweep 1 1 3 3 10, clear-root 1 3 3 0.
    // "1 3 3 9" has three cells of each upsweep right, its last wrong in both.
    const CheckResult r = check("1 3 3 9\n");
    ASSERT_EQ(r.levels.size(), 1u);
    EXPECT_EQ(r.levels[0].label, "upsweep 0");
    EXPECT_EQ(r.levels[0].wrong_cells, (std::vector<int>{3}));
    EXPECT_TRUE(mentions(r.alignment, "fits upsweep 0 and upsweep 1 equally well: it was compared "
                                      "with upsweep 0, the earliest"))
        << r.alignment;
    EXPECT_TRUE(mentions(r.alignment, "'upsweep 1: ...'")) << r.alignment;
    // Right nowhere: compared with the first level, every cell named.
    const CheckResult none = check("9 9 9 9\n");
    ASSERT_EQ(none.levels.size(), 1u);
    EXPECT_EQ(none.levels[0].label, "load");
    EXPECT_EQ(none.levels[0].wrong_cells, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_TRUE(mentions(none.alignment, "matches no level: it was compared with load"))
        << none.alignment;
}

TEST(CheckAlignment, LabelledFilesSayNothingAboutAlignment) {
    EXPECT_TRUE(check(kRightLabelled).alignment.empty());
}

TEST(Check, RejectsNonNumericValuesNamingTheLine) {
    const std::string why = parse_error("load: 1 2 3 4\nupsweep 0: 1 three 3 7\n");
    EXPECT_TRUE(mentions(why, "line 2")) << why;
    EXPECT_TRUE(mentions(why, "'three'")) << why;
}

TEST(Check, RejectsAWrongValueCount) {
    const std::string why = parse_error("load: 1 2 3 4\nupsweep 0: 1 3 3\n");
    EXPECT_TRUE(mentions(why, "line 2")) << why;
    EXPECT_TRUE(mentions(why, "3 values")) << why;
}

TEST(Check, RejectsAnUnknownLabel) {
    const std::string why = parse_error("upsweep 2: 1 3 3 10\n");
    EXPECT_TRUE(mentions(why, "upsweep 2")) << why;
    EXPECT_TRUE(mentions(why, "upsweep 0")) << "lists the levels there are: " << why;
}

TEST(Check, RejectsEmptyAnswers) {
    EXPECT_NE(parse_error(""), "");
    EXPECT_NE(parse_error("\n\n   \n"), "");
    EXPECT_NE(parse_error("# only a comment\n"), "");
}

TEST(Check, RejectsLabelsWithoutValuesAndValuesWithoutLabels) {
    EXPECT_TRUE(mentions(parse_error("upsweep 0:\n"), "line 1"));
    EXPECT_TRUE(mentions(parse_error(": 1 2 3 4\n"), "line 1"));
}

TEST(Check, RejectsMoreLinesThanLevels) {
    const std::string why = parse_error(std::string(kRightLabelled) + "0 0 0 0\n");
    EXPECT_TRUE(mentions(why, "line 7")) << why;
}

} // namespace
} // namespace pplab
