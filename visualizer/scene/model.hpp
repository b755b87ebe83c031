// Everything the views derive from one trace, computed once when the trace arrives:
// the data flow, the playback steps and the running cost counters.
#pragma once

#include "pplab/dataflow.hpp"
#include "pplab/stats.hpp"
#include "pplab/trace.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace pplab::scene {

// One step of playback: the frames of one (pass, step, level) across every block and warp,
// in canonical order. A step that carries grid-wide state from block to block (the fold,
// the atomic sum) is one playback step per block. scan-fast's steps are its tiles' events in
// ticket order, one record each: a tile publishing its aggregate (tile-publish; tile 0's is its
// inclusive prefix too), and its look-back, which ends in publishing its inclusive prefix.
struct StepGroup {
    int first = 0; // frames [first, last] of the trace
    int last = 0;
    Step step = Step::Load;
    int pass = 0;
    int level = 0;
    int block = -1;  // the one block this step covers; -1: every block (or none)
    int ticket = -1; // scan-fast: the event's ticket; every event up to it has happened
};

// Where playback stands, in terms that survive a re-trace with other options.
struct StepKey {
    int pass = 0;
    Step step = Step::Load;
    int level = 0;
    int block = -1;
};

class Model {
public:
    explicit Model(Trace t);
    // A student's trace beside the chapter kernel's of the same launch (the same frames, in
    // the same order): a step's caption, the chapter's words, then says where yours departs.
    Model(Trace t, const Trace& chapter);
    Model(const Model&) = delete;
    Model& operator=(const Model&) = delete;

    const Trace& trace() const { return trace_; }
    const Request& request() const { return trace_.request; }
    const Dataflow& dataflow() const { return dataflow_; }
    // The step's caption as the window and every picture show it: the chapter's description
    // (Dataflow::caption), headed, for a student's trace where this frame departs from the
    // chapter's, by its first differing cell ("Your kernel departs here: s[3] is 7 where the
    // chapter's kernel leaves 12. The chapter's step: ...").
    std::string caption(std::size_t frame) const;
    const std::vector<StepGroup>& steps() const { return steps_; }
    int step_of(std::size_t frame) const { return step_of_[frame]; }
    StepKey key(int step) const;
    // The step matching `k`, or the first step of the same kind and pass, or -1.
    int find(const StepKey& k) const;

    // The frame a view shows for a playback step and a selected block: that block's first
    // frame in the step, or the step's first frame when the block has none in it.
    std::size_t frame_at(int step, int block) const;
    // frame_at for a step counted from 1 as the transport counts (0: the first), and a block
    // from 0, as a user asks for them (`pplab render`, the page's address): InputError, in the
    // same words everywhere, for a step or a block the trace does not have.
    std::size_t frame_asked(int step, int block) const;
    // Blocks of a launch (pass).
    int grid(int pass) const;
    int block_size(int pass) const;
    int passes() const { return static_cast<int>(grids_.size()); }
    int rounds() const { return rounds_; } // grid-stride rounds of the main launch

    // Running totals through a frame, and what the frame's own step cost.
    const Counters& cost_through(std::size_t frame) const { return costs_[frame]; }
    Counters cost_of(std::size_t frame) const;

    // The counters at a playback step, as the window and every picture show them: through
    // the whole step (every block has done it), and what the step itself added.
    const Counters& counters_at(int step) const;
    Counters step_counters(int step) const;
    // Barriers one block of the main launch passes in the whole run (Exercise 1's number),
    // and those frames[frame]'s block has passed so far.
    int barriers_per_block() const { return barriers_per_block_; }
    int barriers_so_far(std::size_t frame) const { return barriers_so_far_[frame]; }

    // Who reads element `element` of pass `pass`'s input: the first frame of the pass whose
    // writes read it, that frame's block and the thread (reduceNaive's thread 0 at addition
    // 35605 for in[35604]; a tooltip that divided by the block size named thread 4). Frame -1
    // where no thread reads it.
    struct InputReader {
        int frame = -1, block = -1, thread = -1;
    };
    InputReader reader_of_input(int pass, int element) const;

    // The writes of frames[frame], cached because every redraw asks for the same frames.
    // The cache makes a Model single-threaded once built: one thread draws from it.
    const std::vector<CellWrite>& writes(std::size_t frame) const;

private:
    void group_frames();
    void order_events(); // scan-fast

    Trace trace_;
    Dataflow dataflow_;
    std::vector<StepGroup> steps_;
    std::vector<int> step_of_;
    std::vector<Counters> costs_;
    std::vector<Counters> step_totals_; // counters through each playback step
    std::vector<int> grids_, blocks_;
    int barriers_per_block_ = 0;
    std::vector<int> barriers_so_far_;
    int rounds_ = 0;
    std::vector<std::string> departs_; // per frame: where a student's trace departs, or ""
    mutable std::vector<std::vector<CellWrite>> writes_;
    mutable std::vector<char> have_writes_;
};

// The tooltip's words for who reads an input element (Model::reader_of_input), with the
// playback step, counted from 1, at which it does: "block 3 (thread 5) reads it at step 1;
// click to show that block", "thread 0 reads it at step 35605" for one block.
std::string input_reader_text(const Model& m, int pass, int element);

// What happened between two running totals: a - b, counter by counter.
Counters difference(const Counters& a, const Counters& b);

} // namespace pplab::scene
