// The classroom's state and what acts on it, outside the drawing code: practice mode, a
// hand-trace compared with the trace, the exercises' figures, the determinism runs, session
// files. The panels (classroom_panel.hpp) draw it; the canvas lays the answers over the scene.
#pragma once

#include "settings.hpp"

#include "pplab/check.hpp"
#include "pplab/classroom.hpp"
#include "pplab/timing.hpp"
#include "scene/model.hpp"
#include "scene/overlay.hpp"

#include <cstddef>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pplab::ui {

struct State;

// A practice level larger than this is not typed by hand: the panel asks for a smaller input.
inline constexpr std::size_t kPracticeMaxCells = 256;

// The level the student types: the frames of one playback step for the block shown (one per
// warp in the per-warp steps), hidden on the canvas until checked right or revealed.
struct PracticeLevel {
    int step = -1; // -1: no level after the step shown
    std::vector<int> frames;
    std::vector<std::string> labels;             // each frame's label, as `pplab check` reads
    std::vector<std::vector<std::string>> typed; // per frame, per cell
    std::vector<std::vector<scene::Verdict>> verdicts;
    std::vector<std::vector<std::string>> why; // per frame, per cell: explain_cell for a wrong one
    int attempts = 0;
    bool right = false;    // checked right (the canvas then shows the level)
    bool revealed = false; // the answer shown without being typed right
    std::string error;     // what stops a check: an empty cell, text that is not a number
    std::size_t cells() const;
};

struct PracticeRecord {
    std::string label;
    bool first_time = false; // right at the first check
    bool revealed = false;
};

struct Practice {
    bool on = false;
    const void* model = nullptr; // the trace the level belongs to
    int block = 0;
    PracticeLevel level;
    std::vector<PracticeRecord> done; // the session so far, one per level finished
    int first_time() const;
};

// A hand-trace in the format `pplab check` reads, typed or pasted or read from a file, and
// its comparison with the trace on screen.
struct HandTrace {
    std::string text;
    std::string path;
    std::optional<CheckResult> result;
    std::vector<AnswerLine> answer; // as parsed, for the values the student wrote
    const void* model = nullptr;    // the trace it was checked against
    std::string error;
};

// §8.6 "Determinism": reduce-atomic run again and again beside reduce-full, on the back end
// the controls choose. Runs in the background: a GPU run or a large input takes a moment.
struct DeterminismRuns {
    int times = 8;
    int n = 65536; // 64 blocks of 256: many orders in which their totals can arrive
    struct Outcome {
        RepeatedRuns atomic, full;
        std::string backend, device, note;
    };
    std::future<Outcome> job;
    std::optional<Outcome> outcome;
    std::string error;
    bool busy() const { return job.valid(); }
};

struct Exercises {
    std::vector<BarrierCounts> barriers; // Exercise 1, for every TILE from 32 to 1024
    int tile = 512;                      // the exercise's TILE, highlighted
    // Exercise 4: fold atomics with and without the skip, for these sizes.
    int n = 4096, bins = 256, block = 256;
    std::vector<FoldAtomics> fold;
    int fold_for[3] = {0, 0, 0}; // the (n, bins, block) `fold` was counted for
    std::string error;
};

enum class ClassroomTab { Practice, HandTrace, Exercises, Pitfalls, Determinism, Session };

// After new settings are traced, go to this step (and start practising its next level).
struct Jump {
    const void* from_model = nullptr; // the trace on screen when the settings changed
    scene::StepKey key;
    bool practise = false;
};

struct Classroom {
    bool show = false; // the right-hand column shows the classroom, not the source
    ClassroomTab tab = ClassroomTab::Practice;
    bool select_tab = false; // the panel selects `tab` once (a menu item, a button)
    Practice practice;
    HandTrace hand;
    Exercises exercises;
    DeterminismRuns runs;
    std::optional<Jump> jump;
    std::string session_path = "pplab-session.json";
    std::string session_message; // what the last save or open did
    bool session_error = false;
    // A timing report (pplab bench --json) opened in the window, for Exercise 4 and the
    // global-atomics pitfall; its path as typed.
    std::optional<TimingReport> timing;
    std::string timing_path;
    std::string timing_error;
};

void open_classroom(State& st, ClassroomTab tab);

// ---- Practice --------------------------------------------------------------------------

// Starts practising the level after the step shown (the first level at the last step).
void practice_start(State& st);
// Sets up the level of playback step `step` and shows the step before it.
void practice_level(State& st, int step);
// Once a frame: a new trace, another block or a step the user chose sets up another level.
void practice_follow(State& st);
// Checks the typed level: each cell right or wrong, wrong ones explained. Right: the canvas
// shows the level.
void practice_check(State& st);
void practice_reveal(State& st);
void practice_next(State& st);
// Fills the typed cells with the level before (what a thread that does not work keeps).
void practice_copy_above(State& st);

// What the canvas lays over the scene: the practice level and the hand-trace's levels.
std::vector<scene::AnswerRow> answer_rows(const State& st);
// Why the student's value of a cell is wrong (practice mode's or the hand-trace's), for the
// canvas's hover; empty when neither marks it wrong.
std::string explain_answer(const State& st, const CellRef& ref);

// ---- Hand-trace ------------------------------------------------------------------------

void hand_trace_read(HandTrace& h); // reads `path` into `text`; errors into `error`
void hand_trace_check(State& st);   // compares `text` with the trace on screen
// Goes to the step of the first mistake, on its block.
void hand_trace_show_first_mistake(State& st);

// ---- Exercises and pitfalls ------------------------------------------------------------

// Settings for the chapter's scenarios: each exercise and pitfall one click away. `jump`
// names the step that shows the point; `practise`: Exercise 3 starts practice there.
void exercise2_race(State& st);
void exercise3_practice(State& st);
void exercise4_no_skip(State& st);
void pitfall_toggle(State& st, Pitfall p, bool on);
void global_atomics_toggle(State& st, bool privatised);
// Once a frame: the jump, once the new trace has arrived.
void apply_jump(State& st);

// Fills Exercise 1's table and Exercise 4's counts where missing or out of date.
void exercise_figures(Exercises& e);

// The chapter's words for a pitfall, for toggles and tooltips.
std::string_view pitfall_title(Pitfall p);

// Exercise 2 on the trace on screen: for each slot of the block shown, what its 32 lanes
// offered and what the slot holds.
struct RaceSlot {
    int warp = 0;
    std::vector<float> candidates; // the 32 lanes' sums after the last shuffle, by lane
    float slot = 0;                // NaN on the CPU model: undefined
    std::vector<int> winners;      // lanes whose sum equals the slot (the device's run)
};
std::vector<RaceSlot> race_slots(const State& st);

// Two stages of a timing report side by side, one pair per distribution (the largest size
// measured, at the chapter's TILE where it was): Exercise 4 (hist-privatised against
// hist-privatised-no-skip) and the global-atomics pitfall.
struct TimingPair {
    std::string distribution;
    long long size = 0;
    double a_ms = 0, b_ms = 0;
};
std::vector<TimingPair> timing_pairs(const TimingReport& r, std::string_view a, std::string_view b);
void timing_read(Classroom& c); // reads `timing_path` (pplab bench --json)
// The timing report the classroom compares kernels with, or nullptr: the one opened here.
const TimingReport* timing_report(const State& st);

// ---- Determinism -----------------------------------------------------------------------

void determinism_start(State& st);
void determinism_poll(DeterminismRuns& runs); // takes the outcome once it is ready

// ---- Session files ---------------------------------------------------------------------

// Writes the trace on screen with its request (the `pplab trace --format json` shape).
void session_save(State& st);
// Opens a saved trace and shows it as it was recorded (its back end and device), without
// tracing again; a file that does not read leaves the trace on screen and says why.
void session_open(State& st);

// Bits of `v` that differ from `reference`, as float_bits lays them out (a space after the
// sign and after the exponent): '^' under each differing bit.
std::string differing_bits(float v, float reference);

} // namespace pplab::ui
