// A student's values laid over the trace's: the practice mode's typed level and the levels of
// a hand-trace file, each cell marked right or wrong where the canvas draws it.
#pragma once

#include "palette.hpp"
#include "scene.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pplab::scene {

enum class Verdict : std::uint8_t { Typed, Right, Wrong };

// One level of the student's answer: what they wrote in each cell of a trace frame.
struct AnswerRow {
    int frame = -1;
    std::vector<std::string> given; // as written ("?" for undefined); "" where nothing is
    std::vector<Verdict> verdicts;  // one per cell; Typed until checked
    bool keep_in_view = false;      // the level being typed: the camera keeps it in view
    bool operator==(const AnswerRow&) const = default;
};

// A level not reached yet shows the student's values in its empty outlines (tinted right or
// wrong once checked); a level on screen keeps the trace's values, each checked cell bordered
// right or wrong and a wrong one labelled with what the student wrote. Rows to keep in view
// join the scene's focus, so that a camera following the step shows them too.
void mark_answers(Scene& s, const std::vector<AnswerRow>& rows, const Palette& pal);

} // namespace pplab::scene
