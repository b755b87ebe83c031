// The "Your kernel" tab's state and what acts on it, outside the drawing code: the editor's
// text (the selected algorithm's listing as the launch runs it, or a puzzle's skeleton), the run
// of the student's kernel in the simulator's child process (off the UI thread, cancellable),
// the last good trace with its hazards and lit lines, and the puzzles' verdicts.
#pragma once

#include "settings.hpp"

#include "pplab/puzzles.hpp"
#include "pplab/sim.hpp"
#include "scene/model.hpp"
#include "scene/overlay.hpp"

#include <atomic>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pplab::ui {

struct State;

// One run of the student's kernel, as the worker delivers it.
struct KernelRun {
    Settings settings;
    std::string source; // the editor's text that ran
    sim::RunResult result;
    std::shared_ptr<const scene::Model> model; // the student's trace; null when it did not run
    std::string difference;                    // against the chapter's kernel, in words
    bool same_as_chapter = false;
    // What the chapter's listing does on the same launch, counted by running it the same way
    // (absent where its listing does not run as written).
    std::optional<Counters> chapter_counted;
    std::string error; // the request itself was refused (bad input, no runner)
};

struct PuzzleCheck {
    std::string puzzle;
    std::future<sim::PuzzleVerdict> job;
    std::shared_ptr<std::atomic<int>> done; // tests finished so far
    int total = 0;
};

struct YourKernel {
    std::string source;  // the editor's text
    std::string puzzle;  // the selected puzzle's id; empty: the chapter's listing
    std::string origin;  // what `source` was filled from ("listing:reduce-tree", "puzzle:naive")
    bool edited = false; // typed in since it was filled
    // The student's text for each origin, so that switching between a listing and a puzzle
    // never loses work; saved to drafts_folder() at each run and when the window closes.
    std::map<std::string, std::string> drafts;
    bool drafts_loaded = false;
    bool show_hint = false;
    bool show_answer = false; // after the hint: the lines that do it
    bool select_tab = false;  // the column selects the tab once (a menu item)
    double seconds = 10.0;    // a run (each hidden test) is stopped after this: an endless loop
    int time_log2 = 0;        // with a GPU: time the kernel at n = 2^time_log2 (0: not timed)
    std::optional<std::string> gpu_why; // why the file cannot run on a GPU here ("": it can)

    // The run in flight, if any: the child is killed when `cancel` is set.
    std::future<KernelRun> job;
    std::shared_ptr<std::atomic<bool>> cancel;
    std::vector<std::future<KernelRun>> retired; // cancelled runs finishing (their child killed)
    Settings job_settings;
    std::optional<KernelRun> last; // the latest finished run, whatever it gave
    // The latest run's file on the GPU ("Run on" auto or cuda, with nvcc and a device), started
    // once the simulator's run has given the canvas its trace: compared with the simulator's
    // output and, at the size the tab picks, timed beside the chapter's kernel and CUB.
    std::future<sim::DeviceCheck> device_job;
    std::vector<std::future<sim::DeviceCheck>> device_retired; // cancelled, finishing
    std::optional<sim::DeviceCheck> device;
    std::string device_note; // why the latest run did not go to the GPU, when that was asked
    // What the canvas shows of the student's kernel: the latest run if the canvas can draw it
    // (it ran, or stopped at a hazard drawn up to there), else the last good run, else nothing.
    std::shared_ptr<const scene::Model> model;
    std::optional<KernelRun> shown; // the run that gave `model`
    std::optional<KernelRun> good;  // the latest run that ran to its end
    bool on_canvas = false;         // the tab is open and the canvas shows `model`
    bool tab_open = false;          // the tab is the one shown (the page says so)
    bool rerun_on_change = false;   // settings changed: run again once idle
    int scroll_to_line = 0;         // the editor brings this line into view once

    std::optional<PuzzleCheck> check;
    std::map<std::string, sim::PuzzleVerdict> verdicts; // by puzzle id, the latest check

    bool busy() const { return job.valid() || device_job.valid() || (check && check->job.valid()); }
};

// The page (web/, no child processes) shows this in the tab instead of the editor, and the
// reason beside it.
inline constexpr const char* kDesktopOnly = "Your kernel: use the desktop app";
inline constexpr const char* kDesktopOnlyWhy =
    "A student's kernel is compiled and run in a separate process, with a time and a memory "
    "limit, so that an endless loop or a crash cannot take the window with it; a web page can "
    "start neither a compiler nor a process.";

// Where the drafts are kept ($XDG_DATA_HOME/pplab/drafts or ~/.local/share/pplab/drafts).
std::string drafts_folder();
void drafts_load(YourKernel& y);
void drafts_save(const YourKernel& y); // errors are ignored: the editor still holds the text

// Fills the editor from the selected origin: the chapter's listing for the settings' request
// (TILE, WARPS, BINS as the launch's), or the puzzle's skeleton; a draft of it, if any, wins.
void your_kernel_fill(State& st);
// The listing again (or the skeleton), setting the draft aside.
void your_kernel_reset(State& st);
// Picks a puzzle ("" for the listing): the controls take the puzzle's example launch.
void your_kernel_pick(State& st, const std::string& puzzle);
// Starts a run of the editor's text with the controls' settings (a run in flight is cancelled).
void your_kernel_run(State& st);
void your_kernel_cancel(State& st);
// Starts the selected puzzle's check over its hidden tests.
void your_kernel_check(State& st);
// Picks the size the GPU times the kernel at (0: not timed): the latest run goes to the GPU
// again, timed there.
void your_kernel_time(State& st, int log2);
// Takes what the worker finished; puts a good trace on the canvas when the tab is open.
void your_kernel_poll(State& st);
// The tab opened or closed: the canvas shows the student's trace or the chapter's.
void your_kernel_show(State& st, bool open);
// The settings changed (the tracer has the chapter's trace for them): run the student's kernel
// again for them if it ran before.
void your_kernel_settings_changed(State& st);

// The sizes the tab offers for timing on the GPU (log2 of n), as pplab bench's.
inline constexpr int kTimeLog2[] = {16, 18, 20, 22, 24, 26, 28};

// Why the editor's kernel of algorithm `a` cannot run on the GPU here ("": it can); the
// machine is asked once (sim::gpu_missing(Algorithm) says scan-fast's own reason).
std::string gpu_why(YourKernel& y, Algorithm a);

// Whether the canvas can show a run's trace: it ran, or the simulator stopped it at a hazard it
// draws (a divergent barrier, an access out of bounds), drawn up to there and marked. A run with
// no usable trace (it does not compile, crashed, ran past its time or memory limit) leaves the
// last good run on the canvas.
bool drawable(const sim::RunResult& r);

// The lines to light for the canvas's current step, and the hazards drawn on the canvas.
std::vector<int> your_kernel_lit_lines(const State& st);
std::vector<scene::HazardMark> hazard_marks(const State& st);
// Jumps the canvas to a hazard's step and block, and the editor to its line.
void your_kernel_show_hazard(State& st, const sim::Hazard& h);

} // namespace pplab::ui
