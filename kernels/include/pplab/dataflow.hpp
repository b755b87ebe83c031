// Which thread wrote each cell of a snapshot, from which cells, and what the step means.
//
// Derived from (step, level, request) alone, never recorded: the scene builder draws its
// arrows from here and the hand-trace checker explains mistakes from here, so a picture and
// an explanation can never disagree with each other or with the kernel's code.
#pragma once

#include "pplab/plan.hpp"
#include "pplab/trace.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace pplab {

// A cell of an earlier frame of the trace, or (frame == kInput) of the input of the frame's
// launch: the request's input for the first launch; the block totals of the launch before for
// reduce-full's second pass and each deeper level of the multi-block scan.
struct CellRef {
    static constexpr int kInput = -1;
    int frame = kInput;
    int cell = 0;
    bool operator==(const CellRef&) const = default;
};

struct CellWrite {
    int thread = -1;           // threadIdx.x, or the lane where writer_name says so; -1: unchanged
    std::vector<CellRef> from; // what the writer read, in the order of the expression
    std::string expression;    // in the kernel's names: "s[3] = s[3] + s[1]"
    bool keeps_own = false;    // shuffle whose source lane is out of range: adds its own value
    int atomics = 0;           // atomicAdds that landed on this cell in this step
    // The pitfalls: several threads' writes raced for the cell (one won, which is undefined);
    // the value is undefined behaviour; or a later read of the cell is not ordered after
    // this write (hazard says who reads it, unprotected).
    bool race = false;
    bool undefined = false;
    std::string hazard;
};

// Who wrote a cell of `f`, in the chapter's words: "lane 5" where the writer is a lane of one
// warp (per-warp frames; scan-fast's records, which the look-back warp publishes and reads),
// "thread 5" where it is a thread of the block.
std::string writer_name(const Frame& f, int thread);

// The cell most atomicAdds of one step landed on (the first of equals); -1 where none took
// more than one. A histogram step's caption names it, and the view that follows it shows it.
int busiest_cell(const std::vector<CellWrite>& writes);

class Dataflow {
public:
    explicit Dataflow(const Trace& t);

    // One entry per value of frames[index].
    std::vector<CellWrite> writes(std::size_t index) const;

    // The frame this step updated in place (same buffer, same block and warp); -1 when the
    // step starts a buffer afresh from other data.
    int predecessor(std::size_t index) const;

    // The chapter's description of the step: "Level 2: threads 0–63 add s[t+64] into s[t];
    // one barrier".
    std::string caption(std::size_t index) const;

    // What the caption leaves out to stay two lines on a projector, for `pplab trace`'s text
    // and markdown: scan-fast's every value added, polls, reads past the prefix, events and
    // who chose the order. Empty where the caption says it all (every other algorithm).
    std::string caption_details(std::size_t index) const;

    // Index of the frame with this key; -1 when the trace has none.
    int find(Step step, int pass, int level, int block, int warp) const;

    const Trace& trace() const { return t_; }
    const Plan& plan() const { return plan_; }

private:
    const Trace& t_;
    Plan plan_;
    std::map<std::tuple<int, int, int, int, int>, int> index_; // (pass, step, level, block, warp)
    std::vector<int> predecessor_;
};

} // namespace pplab
