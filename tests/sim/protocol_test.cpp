// What the runner child answers the parent: the lines of each step cross as runs of levels
// (reduceNaive's one thread adds n values, one level each), and the parent expands them back
// exactly, refusing an answer that names more steps than the trace can hold.
#include "sim/gpu_spec.hpp"
#include "sim/protocol.hpp"

#include "pplab/request.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pplab {
namespace {

std::string step_lines_text(const std::vector<sim::StepLines>& all) {
    std::string text;
    for (const sim::StepLines& l : all) {
        text += std::to_string(l.pass) + " " + std::string(step_id(l.step)) + " " +
                std::to_string(l.level) + ":";
        for (const int line : l.lines)
            text += " " + std::to_string(line);
        text += "\n";
    }
    return text;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t count = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++count;
    return count;
}

// 1000 additions lighting the same lines, one that lights another line (a student's kernel
// may differ at one level), a gap in the levels, then another pass.
std::vector<sim::StepLines> serial_steps() {
    std::vector<sim::StepLines> all;
    for (int level = 1; level <= 1000; ++level)
        all.push_back({0, Step::SerialAdd, level,
                       level == 500 ? std::vector<int>{9, 12} : std::vector<int>{9}});
    all.push_back({0, Step::SerialAdd, 1002, {9}});
    all.push_back({1, Step::SerialAdd, 1003, {9}});
    return all;
}

TEST(RunnerAnswer, StepLinesCrossAsRunsAndReadBackTheSame) {
    sim::RunnerOutput out;
    out.step_lines = serial_steps();
    const std::string text = sim::output_to_json(out);
    // Runs: levels 1-499, 500, 501-1000, 1002 (not next to 1000), pass 1's.
    EXPECT_EQ(occurrences(text, "\"levels\""), 5U) << text;
    const sim::RunnerOutput back = sim::output_from_json(text, 1003);
    EXPECT_EQ(step_lines_text(back.step_lines), step_lines_text(out.step_lines));
}

TEST(RunnerAnswer, StepLinesBeyondTheTracesStepsAreRefused) {
    sim::RunnerOutput out;
    out.step_lines = serial_steps(); // 1002 steps
    const std::string text = sim::output_to_json(out);
    try {
        (void)sim::output_from_json(text, 1001);
        FAIL() << "an answer naming 1002 steps read with a bound of 1001";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("more steps than the trace has"), std::string::npos)
            << e.what();
    }
    // A child that writes a huge run is stopped before anything is expanded.
    std::string huge = text;
    const auto at = huge.find("\"levels\":499");
    ASSERT_NE(at, std::string::npos) << text;
    huge.replace(at, 12, "\"levels\":2000000000");
    EXPECT_THROW((void)sim::output_from_json(huge, 1U << 20), InputError);
    std::string none = text;
    none.replace(none.find("\"levels\":499"), 12, "\"levels\":0");
    EXPECT_THROW((void)sim::output_from_json(none, 1003), InputError);
}

// A hazard says which memory its array is in (only a shared array's cells are drawn); an answer
// written before hazards said so still reads, with none.
TEST(RunnerAnswer, AHazardsMemoryCrossesAndMayBeAbsent) {
    sim::RunnerOutput out;
    sim::Hazard h;
    h.kind = sim::HazardKind::OutOfBounds;
    h.threads = {3};
    h.array = "scratch";
    h.memory = "heap";
    h.index = 2;
    out.hazards = {h};
    const std::string text = sim::output_to_json(out);
    EXPECT_EQ(sim::output_from_json(text, 0).hazards.at(0).memory, "heap");
    std::string before = text;
    const auto at = before.find("\"memory\":\"heap\",");
    ASSERT_NE(at, std::string::npos) << text;
    before.erase(at, 16);
    EXPECT_EQ(sim::output_from_json(before, 0).hazards.at(0).memory, "");
}

} // namespace
} // namespace pplab

// The runs pplab times on the GPU clear only what a kernel adds into (reduce-atomic's out[0],
// the histograms' g_hist): a clear before each run of a kernel that writes every element is a
// launch the chapter's kernel, timed beside it by pplab bench, does not make (a third of the
// time at 2^20).
namespace pplab {
namespace {

TEST(GpuSpec, TheTimedRunsClearOnlyWhatAKernelAddsInto) {
    for (const AlgorithmInfo& i : algorithms()) {
        if (!i.traced || i.algorithm == Algorithm::ScanFast)
            continue;
        Request r;
        r.algorithm = i.algorithm;
        r.block = 256;
        r.bins = i.family == Family::Histogram ? 256 : 0;
        r.input =
            generate(i.family == Family::Histogram ? Generator::UniformBytes : Generator::RandomInt,
                     i.single_block ? 256 : 1 << 16, 1, r.bins);
        const std::string spec =
            sim::spec_for(normalize(r), i.single_block ? 1 : 64, sim::GpuOptions{}).text;
        const bool adds_into =
            i.algorithm == Algorithm::ReduceAtomic || i.family == Family::Histogram;
        EXPECT_EQ(spec.find("\nzero ") != std::string::npos, adds_into) << i.id << ":\n" << spec;
    }
}

} // namespace
} // namespace pplab
