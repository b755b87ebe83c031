// The hand-trace checker: compares a student's levels with the trace and explains the first
// mistake in terms of the kernel (which thread wrote the cell, in which step, from what).
#pragma once

#include "pplab/dataflow.hpp"
#include "pplab/trace.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pplab {

struct AnswerLine {
    int line_number = 0; // in the answer file, from 1
    std::string label;   // empty when the line had none
    std::vector<float> values;
};

// Lines "label: v v v" or "v v v"; blank lines and lines starting with '#' are skipped.
// Throws InputError naming the line for anything that does not parse.
std::vector<AnswerLine> parse_answer(std::string_view text);

struct LevelVerdict {
    int line_number = 0;
    int frame = -1;    // the frame the line was compared with
    std::string label; // that frame's label
    bool right = false;
    std::vector<int> wrong_cells;
    std::string explanation; // for the first wrong cell: thread, step, expected vs given
};

struct CheckResult {
    std::vector<LevelVerdict> levels;
    // How answer lines without labels at the top of the file were placed, said to the student
    // ("Your 5 lines without labels were compared with upsweep 0 to downsweep 1, ..."); empty
    // when the first line has a label.
    std::string alignment;
    bool all_right() const;
    int first_wrong() const; // index into levels, -1 when all are right
    // The levels answered, a level answered on two lines counted once, and those of them with a
    // wrong line.
    int levels_answered() const;
    int levels_wrong() const;
    // "All 6 levels are right." / "The 1 level is right." / "2 of 6 levels are wrong.": what
    // `pplab check`, the window's Hand-trace tab and the page's status line say.
    std::string summary() const;
};

// Throws InputError when a label names no frame or a line has the wrong number of values.
// Lines without labels at the top are placed on the run of levels they fit best: the one with the
// most leading lines exactly right, then the most right cells (a student writing Exercise 3 as
// "the state after each level" leaves the load out); when two runs fit equally well it asks for
// labels rather than guess.
CheckResult check_answer(const Trace& t, const std::vector<AnswerLine>& answer);

// "thread 0 wrote s[3] in upsweep 2: s[3] = s[3] + s[1] = 3 + 7 = 10; you wrote 9".
std::string explain_cell(const Trace& t, int frame, int cell, float given);
// The same with a Dataflow already built over t (hover explanations, long hand-traces).
std::string explain_cell(const Dataflow& flow, int frame, int cell, float given);

// How the kernel came to leave frames[frame]'s cell as it is, without comparing it with
// anything: "Thread 0 wrote it: s[3] = s[3] + s[1] = 3 + 7 = 10 (reading upsweep 0)."
std::string explain_write(const Dataflow& flow, int frame, int cell);
// How the chapter names a cell: "s[3]", "lane 5", "thread 2's sum", "g_hist[7]", "out[1]".
std::string cell_name(const Trace& t, int frame, int cell);

} // namespace pplab
