// A student's values laid over the trace's: the practice mode's typed level and the levels of
// a hand-trace file, each cell marked right or wrong where the canvas draws it.
#pragma once

#include "palette.hpp"
#include "scene.hpp"

#include "pplab/check.hpp"

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

// A checked hand-trace as rows to mark: each level's values as the student wrote them ("?" for
// undefined), right but for the cells the checker found wrong.
std::vector<AnswerRow> answer_rows(const CheckResult& result,
                                   const std::vector<AnswerLine>& answer);

// A hazard a student's kernel ran into (a race, an uninitialised read, an access out of
// bounds), drawn where it happened: the cell of the frame it belongs to, with what it was.
struct HazardMark {
    int frame = -1;
    int cell = -1;     // -1: the frame as a whole (a divergent barrier, a bad shuffle mask)
    bool race = false; // drawn in the race accent; anything else in the hazard accent
    std::string label; // "race: threads 3 and 7, line 12"
    bool operator==(const HazardMark&) const = default;
};

// Each marked cell gets a thick border in the hazard's accent and its label below it, and the
// legend says what the accent means; a mark whose cell is not on the canvas is left out.
void mark_hazards(Scene& s, const std::vector<HazardMark>& marks, const Palette& pal);

} // namespace pplab::scene
