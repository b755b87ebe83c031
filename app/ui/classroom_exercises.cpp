#include "classroom.hpp"
#include "classroom_common.hpp"
#include "pplab/files.hpp"

#include "state.hpp"

#include "pplab/backend.hpp"
#include "pplab/io.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

namespace pplab::ui {

namespace {

// Settings for a scenario, and the step that shows its point once they are traced.
void go_to_scenario(State& st, const Settings& s, scene::StepKey key, bool practise) {
    const bool same = s == st.settings;
    st.settings = s;
    st.block = std::max(key.block, 0);
    st.classroom.jump = Jump{same ? nullptr : st.model.get(), key, practise};
    if (same)
        apply_jump(st);
}

Settings generated(const Settings& from, Algorithm a, Generator g, int n, int block) {
    Settings s = switch_algorithm(from, a);
    s.input = InputMode::Generator;
    s.generator = g;
    s.seed = 1;
    s.n = n;
    s.block = block;
    s.grid = 0;
    s.pitfall = Pitfall::None;
    return s;
}

} // namespace

// ---- Exercises and pitfalls ------------------------------------------------------------

std::string_view pitfall_title(Pitfall p) {
    switch (p) {
    case Pitfall::None:
        return "none";
    case Pitfall::NonPowerOfTwo:
        return "a block that is not a power of two";
    case Pitfall::EveryLaneWrites:
        return "every lane writes s[warpId] (Exercise 2)";
    case Pitfall::PartialWarp:
        return "warpReduce from only some lanes";
    case Pitfall::NoFinalSync:
        return "no final __syncthreads() in the scan";
    }
    return "";
}

void exercise2_race(State& st) {
    // One warp: its 32 lanes' writes into the one slot, large enough to read.
    Settings s = generated(st.settings, Algorithm::ReduceFull, Generator::RandomInt, 32, 32);
    s.pitfall = Pitfall::EveryLaneWrites;
    go_to_scenario(st, s, {0, Step::WarpTotals, 0, -1}, false);
}

void exercise3_practice(State& st) {
    Settings s = switch_algorithm(st.settings, Algorithm::ScanBlelloch);
    s.input = InputMode::List;
    s.list = "1, 2, 3, 4";
    s.block = 4;
    s.inclusive = false;
    s.pitfall = Pitfall::None;
    st.classroom.practice.on = true;
    open_classroom(st, ClassroomTab::Practice);
    go_to_scenario(st, s, {0, Step::Downsweep, 0, -1}, true);
}

void exercise4_no_skip(State& st) {
    Settings s = generated(st.settings, Algorithm::HistPrivatised, Generator::Sparse, 512, 64);
    s.bins = 16;
    s.skip_empty = false;
    go_to_scenario(st, s, {0, Step::HistFold, 0, 0}, false);
}

void pitfall_toggle(State& st, Pitfall p, bool on) {
    if (!on) {
        st.settings.pitfall = Pitfall::None;
        // The kernel as the chapter writes it: a block it takes (6 becomes 8).
        st.settings = switch_algorithm(st.settings, st.settings.algorithm);
        return;
    }
    const Algorithm a = pitfall_algorithm(p);
    Settings s;
    scene::StepKey key;
    switch (p) {
    case Pitfall::NonPowerOfTwo:
        s = generated(st.settings, a, Generator::Seq, 12, 6);
        key = {0, Step::BlockTotal, 0, -1};
        break;
    case Pitfall::EveryLaneWrites:
        exercise2_race(st);
        return;
    case Pitfall::PartialWarp:
        s = generated(st.settings, a, Generator::Seq, 32, 32);
        if (s.active_lanes >= kWarpSize)
            s.active_lanes = 20;
        key = {0, Step::Shuffle, 1, -1};
        break;
    case Pitfall::NoFinalSync:
        s = generated(st.settings, a, Generator::Seq, 8, 0);
        s.inclusive = false;
        key = {0, Step::Downsweep, 2, -1};
        break;
    case Pitfall::None:
        return;
    }
    s.pitfall = p;
    go_to_scenario(st, s, key, false);
}

void global_atomics_toggle(State& st, bool privatised) {
    Settings s =
        generated(st.settings, privatised ? Algorithm::HistPrivatised : Algorithm::HistGlobal,
                  Generator::Skewed, 300, 64);
    s.bins = 16;
    s.skip_empty = true;
    go_to_scenario(st, s, {0, Step::HistAccumulate, 1, -1}, false);
}

void apply_jump(State& st) {
    std::optional<Jump>& j = st.classroom.jump;
    if (!j || !st.model || st.model.get() == j->from_model)
        return;
    const Jump jump = *j;
    j.reset();
    const int step = st.model->find(jump.key);
    if (step < 0)
        return;
    if (jump.practise) {
        st.classroom.practice.on = true;
        practice_level(st, step);
    } else {
        show_step(st, step);
    }
}

void exercise_figures(Exercises& e) {
    try {
        if (e.barriers.empty())
            for (int tile = kWarpSize; tile <= kMaxBlock; tile *= 2)
                e.barriers.push_back(exercise1_barriers(tile));
        const int key[3] = {e.n, e.bins, e.block};
        if (!std::equal(key, key + 3, e.fold_for)) {
            std::copy(key, key + 3, e.fold_for);
            e.fold.clear();
            e.error.clear();
            for (const Generator g : {Generator::UniformBytes, Generator::Sparse, Generator::Seq})
                e.fold.push_back(exercise4_fold_atomics(g, e.n, e.bins, e.block));
        }
    } catch (const InputError& err) {
        e.error = err.what();
        e.fold.clear();
    }
}

std::vector<RaceSlot> race_slots(const State& st) {
    std::vector<RaceSlot> out;
    if (!st.model || st.model->request().options.pitfall != Pitfall::EveryLaneWrites)
        return out;
    const scene::Model& m = *st.model;
    const Trace& t = m.trace();
    const int pass = t.frames.at(st.frame()).pass;
    const int slots = m.dataflow().find(Step::WarpTotals, pass, 0, st.block, -1);
    if (slots < 0)
        return out;
    const std::vector<float>& held = t.frames[static_cast<std::size_t>(slots)].values;
    for (std::size_t w = 0; w < held.size(); ++w) {
        const int last = m.dataflow().find(Step::Shuffle, pass, 5, st.block, static_cast<int>(w));
        if (last < 0)
            continue;
        RaceSlot r;
        r.warp = static_cast<int>(w);
        r.candidates = t.frames[static_cast<std::size_t>(last)].values;
        r.slot = held[w];
        for (std::size_t lane = 0; lane < r.candidates.size(); ++lane)
            if (r.candidates[lane] == r.slot)
                r.winners.push_back(static_cast<int>(lane));
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace pplab::ui
