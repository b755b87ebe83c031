#include "model.hpp"
#include "pplab/check.hpp"
#include "pplab/io.hpp"

#include "pplab/lookback.hpp"
#include "pplab/plan.hpp"

#include <algorithm>
#include <cstring>

#include <map>
#include <utility>

namespace pplab::scene {

namespace {

bool grid_wide(Step s) {
    return s == Step::HistFold || s == Step::AtomicAdd;
}

} // namespace

Model::Model(Trace t)
    : trace_(std::move(t)), dataflow_(trace_), step_of_(trace_.frames.size(), 0),
      costs_(cumulative_costs(trace_)), writes_(trace_.frames.size()),
      have_writes_(trace_.frames.size(), 0) {
    const Plan plan = make_plan(trace_.request);
    for (const Launch& l : plan.launches) {
        grids_.push_back(l.grid);
        blocks_.push_back(l.block);
    }
    rounds_ = plan.rounds;
    if (trace_.request.algorithm == Algorithm::ScanFast)
        order_events();
    else
        group_frames();
    if (step_totals_.empty())
        for (const StepGroup& g : steps_)
            step_totals_.push_back(costs_[static_cast<std::size_t>(g.last)]);
    // Barriers per block, from the running totals: frame i's own are costs_[i] - costs_[i-1].
    std::map<std::pair<int, int>, int> passed; // (pass, block) -> barriers so far
    barriers_so_far_.resize(trace_.frames.size());
    for (std::size_t i = 0; i < trace_.frames.size(); ++i) {
        const Frame& f = trace_.frames[i];
        const int own = static_cast<int>(cost_of(i).barriers);
        barriers_so_far_[i] = passed[{f.pass, f.block}] += own;
        if (f.pass == 0 && f.block <= 0)
            barriers_per_block_ += own;
    }
}

Model::Model(Trace t, const Trace& chapter) : Model(std::move(t)) {
    departs_.assign(trace_.frames.size(), std::string());
    // scan-fast's records are a schedule's (whose tile published when, who read what): the
    // student's run and the chapter's each have their own, as sim::first_difference knows,
    // which compares its output alone.
    if (chapter.request.algorithm == Algorithm::ScanFast)
        return;
    const auto value = [](float v) { return v != v ? std::string("?") : format_value(v); };
    const std::size_t frames = std::min(trace_.frames.size(), chapter.frames.size());
    for (std::size_t f = 0; f < frames; ++f) {
        const std::vector<float>& yours = trace_.frames[f].values;
        const std::vector<float>& theirs = chapter.frames[f].values;
        for (std::size_t c = 0; c < std::min(yours.size(), theirs.size()); ++c) {
            const float a = yours[c], b = theirs[c];
            if (std::memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b))
                continue;
            const int cell = static_cast<int>(c);
            departs_[f] = "Your kernel departs here: " +
                          pplab::cell_name(chapter, static_cast<int>(f), cell) + " is " + value(a) +
                          " where the chapter's kernel leaves " + value(b) +
                          ". The chapter's step: ";
            break;
        }
    }
}

std::string Model::caption(std::size_t frame) const {
    const std::string chapters = dataflow_.caption(frame);
    return frame < departs_.size() ? departs_[frame] + chapters : chapters;
}

void Model::group_frames() {
    for (std::size_t i = 0; i < trace_.frames.size(); ++i) {
        const Frame& f = trace_.frames[i];
        const bool same_kind = !steps_.empty() && steps_.back().pass == f.pass &&
                               steps_.back().step == f.step && steps_.back().level == f.level;
        if (!same_kind || grid_wide(f.step)) {
            StepGroup g;
            g.first = g.last = static_cast<int>(i);
            g.step = f.step;
            g.pass = f.pass;
            g.level = f.level;
            g.block = grid_wide(f.step) ? f.block : -1;
            steps_.push_back(g);
        } else {
            steps_.back().last = static_cast<int>(i);
        }
        step_of_[i] = static_cast<int>(steps_.size()) - 1;
    }
}

// The order the tiles acted in, not the canonical order of their records: a tile's publish
// step (its loads and scan come first: its cost counts there) at its aggregate's ticket, its
// look-back step at its inclusive prefix's. Tile 0 looks back at nothing: its look-back
// record belongs to its one publish.
void Model::order_events() {
    const std::vector<LookbackTile> tiles = lookback_tiles(trace_);
    for (const LookbackTile& tile : tiles) {
        const auto add = [&](Step step, int ticket) {
            StepGroup g;
            g.first = g.last = dataflow_.find(step, 0, 0, tile.tile, -1);
            g.step = step;
            g.block = tile.tile;
            g.ticket = ticket;
            steps_.push_back(g);
        };
        add(Step::TilePublish, tile.tile == 0 ? tile.inclusive_ticket : tile.aggregate_ticket);
        if (tile.tile > 0)
            add(Step::LookBack, tile.inclusive_ticket);
    }
    std::stable_sort(steps_.begin(), steps_.end(),
                     [](const StepGroup& a, const StepGroup& b) { return a.ticket < b.ticket; });
    Counters total;
    for (std::size_t k = 0; k < steps_.size(); ++k) {
        total += cost_of(static_cast<std::size_t>(steps_[k].first));
        step_totals_.push_back(total);
        step_of_[static_cast<std::size_t>(steps_[k].first)] = static_cast<int>(k);
    }
    if (const int look = dataflow_.find(Step::LookBack, 0, 0, 0, -1); look >= 0)
        step_of_[static_cast<std::size_t>(look)] =
            step_of_[static_cast<std::size_t>(dataflow_.find(Step::TilePublish, 0, 0, 0, -1))];
}

const Counters& Model::counters_at(int step) const {
    return step_totals_.at(static_cast<std::size_t>(step));
}

Counters Model::step_counters(int step) const {
    if (!steps_.empty() && steps_.front().ticket >= 0) // scan-fast: steps are not in frame order
        return step == 0 ? counters_at(0) : difference(counters_at(step), counters_at(step - 1));
    const StepGroup& g = steps_.at(static_cast<std::size_t>(step));
    return g.first > 0
               ? difference(counters_at(step), costs_[static_cast<std::size_t>(g.first - 1)])
               : counters_at(step);
}

StepKey Model::key(int step) const {
    const StepGroup& g = steps_.at(static_cast<std::size_t>(step));
    return {g.pass, g.step, g.level, g.block};
}

int Model::find(const StepKey& k) const {
    int same_kind = -1;
    for (std::size_t i = 0; i < steps_.size(); ++i) {
        const StepGroup& g = steps_[i];
        if (g.pass != k.pass || g.step != k.step)
            continue;
        if (g.level == k.level && g.block == k.block)
            return static_cast<int>(i);
        if (same_kind < 0)
            same_kind = static_cast<int>(i);
    }
    return same_kind;
}

std::size_t Model::frame_at(int step, int block) const {
    const StepGroup& g = steps_.at(static_cast<std::size_t>(step));
    for (int i = g.first; i <= g.last; ++i)
        if (trace_.frames[static_cast<std::size_t>(i)].block == block)
            return static_cast<std::size_t>(i);
    return static_cast<std::size_t>(g.first);
}

std::size_t Model::frame_asked(int step, int block) const {
    const auto count = static_cast<int>(steps_.size());
    if (step > count)
        throw InputError("step " + std::to_string(step) + " does not exist: this trace has " +
                         (count == 1
                              ? std::string("one step, step 1")
                              : std::to_string(count) + " steps, 1 to " + std::to_string(count)));
    if (const int blocks = grid(0); block < 0 || block >= blocks)
        throw InputError(
            "block " + std::to_string(block) + " does not exist: this launch has " +
            (blocks == 1 ? std::string("one block, block 0")
                         : std::to_string(blocks) + " blocks, 0 to " + std::to_string(blocks - 1)));
    return frame_at(std::max(step - 1, 0), block);
}

int Model::grid(int pass) const {
    return grids_.at(static_cast<std::size_t>(pass));
}
int Model::block_size(int pass) const {
    return blocks_.at(static_cast<std::size_t>(pass));
}

Counters Model::cost_of(std::size_t frame) const {
    return frame == 0 ? costs_[0] : difference(costs_[frame], costs_[frame - 1]);
}

const std::vector<CellWrite>& Model::writes(std::size_t frame) const {
    if (!have_writes_[frame]) {
        writes_[frame] = dataflow_.writes(frame);
        have_writes_[frame] = 1;
    }
    return writes_[frame];
}

Model::InputReader Model::reader_of_input(int pass, int element) const {
    const CellRef wanted{CellRef::kInput, element};
    for (std::size_t f = 0; f < trace_.frames.size(); ++f) {
        if (trace_.frames[f].pass != pass)
            continue;
        for (const CellWrite& w : writes(f))
            if (w.thread >= 0 && std::find(w.from.begin(), w.from.end(), wanted) != w.from.end())
                return {static_cast<int>(f), trace_.frames[f].block, w.thread};
    }
    return {};
}

std::string input_reader_text(const Model& m, int pass, int element) {
    const Model::InputReader r = m.reader_of_input(pass, element);
    if (r.frame < 0)
        return "no thread reads it";
    const std::string at =
        " reads it at step " + std::to_string(m.step_of(static_cast<std::size_t>(r.frame)) + 1);
    if (m.grid(pass) <= 1)
        return "thread " + std::to_string(r.thread) + at;
    return "block " + std::to_string(r.block) + " (thread " + std::to_string(r.thread) + ")" + at +
           "; click to show that block";
}

Counters difference(const Counters& a, const Counters& b) {
    Counters c;
    c.barriers = a.barriers - b.barriers;
    c.shared_reads = a.shared_reads - b.shared_reads;
    c.shared_writes = a.shared_writes - b.shared_writes;
    c.shuffles = a.shuffles - b.shuffles;
    c.shared_atomics = a.shared_atomics - b.shared_atomics;
    c.global_atomics = a.global_atomics - b.global_atomics;
    c.global_reads = a.global_reads - b.global_reads;
    c.global_writes = a.global_writes - b.global_writes;
    c.additions = a.additions - b.additions;
    return c;
}

} // namespace pplab::scene
