// Dataflow: the frames' index, the predecessor of each frame, and the dispatch to the family
// that knows its steps (dataflow_reduce.cpp, dataflow_scan.cpp, dataflow_histogram.cpp).
#include "pplab/dataflow.hpp"

#include "trace/dataflow_steps.hpp"

#include <algorithm>
#include <bit>
#include <string>

namespace pplab {

namespace dataflow {

StepView::StepView(const Dataflow& f, std::size_t i)
    : flow(f), request(f.trace().request), frame(f.trace().frames.at(i)), index(i),
      predecessor(f.predecessor(i)),
      launch(f.plan().launches.at(static_cast<std::size_t>(frame.pass))), block_size(launch.block),
      grid(launch.grid), n(launch.n), warps(launch.block / kWarpSize),
      levels(std::bit_width(static_cast<unsigned>(launch.block)) - 1) {}

int StepView::find(Step step, int level, int warp) const {
    return flow.find(step, frame.pass, level, frame.block, warp);
}

std::string StepView::where() const {
    return frame.block >= 0 && grid > 1 ? "Block " + std::to_string(frame.block) + ": " : "";
}

void StepView::unchanged_from_predecessor(std::vector<CellWrite>& w) const {
    if (predecessor < 0)
        return;
    for (std::size_t c = 0; c < w.size(); ++c)
        if (w[c].thread < 0) {
            w[c].from = {before(static_cast<int>(c))};
            w[c].expression = "unchanged";
        }
}

std::string cell_name(const char* array, long long i) {
    return std::string(array) + "[" + std::to_string(i) + "]";
}

std::string thread_range(long long first, long long last, bool lanes) {
    if (first == last)
        return std::string(lanes ? "lane " : "thread ") + std::to_string(first);
    return std::string(lanes ? "lanes " : "threads ") + std::to_string(first) + "–" +
           std::to_string(last);
}

std::string count_of(long long k, const char* one, const char* many) {
    return std::to_string(k) + " " + (k == 1 ? one : many);
}

std::string level_of(const char* name, int level, int levels) {
    const int nth = level + 1;
    const char* suffix = (nth % 100 >= 11 && nth % 100 <= 13) ? "th"
                         : nth % 10 == 1                      ? "st"
                         : nth % 10 == 2                      ? "nd"
                         : nth % 10 == 3                      ? "rd"
                                                              : "th";
    // "Upsweep level 3, the 4th of 5": a bracket here would meet the stride's that follows.
    return std::string(name) + " " + std::to_string(level) + ", the " + std::to_string(nth) +
           suffix + " of " + std::to_string(levels);
}

void load_writes(const StepView& v, std::vector<CellWrite>& w) {
    const bool lanes = v.frame.buffer == Buffer::Lanes;
    const long long base = static_cast<long long>(std::max(v.frame.block, 0)) * v.block_size +
                           (v.frame.warp >= 0 ? v.frame.warp * kWarpSize : 0);
    for (std::size_t c = 0; c < w.size(); ++c) {
        const long long i = base + static_cast<long long>(c);
        const std::string target = lanes ? std::string("val") : cell_name("s", c);
        w[c].thread = static_cast<int>(c);
        if (i < v.n) {
            w[c].from = {StepView::input(i)};
            w[c].expression = target + " = " + cell_name("in", i);
        } else {
            w[c].expression = target + " = 0.0f (" + cell_name("in", i) + " is past n)";
        }
    }
}

std::string load_caption(const StepView& v) {
    if (v.frame.buffer == Buffer::Lanes)
        return v.where() + "Warp " + std::to_string(v.frame.warp) +
               ": each lane loads one element into its register; lanes past n load 0";
    return v.where() + "Load: each of the " + std::to_string(v.block_size) +
           " threads copies one element into s[threadIdx.x]; elements past n load 0";
}

} // namespace dataflow

std::string writer_name(const Frame& f, int thread) {
    const bool lane =
        f.buffer == Buffer::Lanes || f.step == Step::TilePublish || f.step == Step::LookBack;
    return (lane ? "lane " : "thread ") + std::to_string(thread);
}

Dataflow::Dataflow(const Trace& t)
    : t_(t), plan_(make_plan(t.request)), predecessor_(t.frames.size(), -1) {
    // Grid-wide state (global bins, the single atomic sum) is carried from step to step
    // across blocks; everything else lives in one block's (or one warp's) buffer.
    std::map<std::tuple<int, int, int, int>, int> last_in_scope; // (pass, block, warp, buffer)
    std::map<std::pair<int, int>, int> last_of_step;             // (pass, step)
    for (std::size_t i = 0; i < t.frames.size(); ++i) {
        const Frame& f = t.frames[i];
        const int at = static_cast<int>(i);
        index_[{f.pass, static_cast<int>(f.step), f.level, f.block, f.warp}] = at;
        const bool grid_wide = f.step == Step::HistFold || f.step == Step::AtomicAdd;
        if (grid_wide) {
            const auto key = std::pair{f.pass, static_cast<int>(f.step)};
            if (const auto it = last_of_step.find(key); it != last_of_step.end())
                predecessor_[i] = it->second;
            last_of_step[key] = at;
        } else {
            const auto key = std::tuple{f.pass, f.block, f.warp, static_cast<int>(f.buffer)};
            if (const auto it = last_in_scope.find(key); it != last_in_scope.end())
                predecessor_[i] = it->second;
            last_in_scope[key] = at;
        }
    }
}

int Dataflow::find(Step step, int pass, int level, int block, int warp) const {
    const auto it = index_.find({pass, static_cast<int>(step), level, block, warp});
    return it == index_.end() ? -1 : it->second;
}

int Dataflow::predecessor(std::size_t index) const {
    return predecessor_.at(index);
}

std::vector<CellWrite> Dataflow::writes(std::size_t index) const {
    const dataflow::StepView v(*this, index);
    std::vector<CellWrite> w(v.frame.values.size());
    switch (info(t_.request.algorithm).family) {
    case Family::Reduce:
        dataflow::reduce_writes(v, w);
        break;
    case Family::Scan:
        dataflow::scan_writes(v, w);
        break;
    case Family::Histogram:
        dataflow::histogram_writes(v, w);
        break;
    }
    return w;
}

std::string Dataflow::caption(std::size_t index) const {
    const dataflow::StepView v(*this, index);
    switch (info(t_.request.algorithm).family) {
    case Family::Reduce:
        return dataflow::reduce_caption(v);
    case Family::Scan:
        return dataflow::scan_caption(v);
    case Family::Histogram:
        return dataflow::histogram_caption(v);
    }
    return {};
}

std::string Dataflow::caption_details(std::size_t index) const {
    if (t_.request.algorithm != Algorithm::ScanFast)
        return {};
    return dataflow::lookback_details(dataflow::StepView(*this, index));
}

} // namespace pplab
