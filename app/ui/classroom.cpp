#include "classroom.hpp"
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

// "?" for a value the code leaves undefined, as the checker reads it back.
std::string value_text(float v) {
    return std::isnan(v) ? std::string("?") : format_value(v);
}

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos)
        return {};
    return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

int step_count(const State& st) {
    return st.steps();
}

void show_step(State& st, int step) {
    st.playback.go_to(step, step_count(st));
    st.playback.t = 1.0f;
    st.playback.playing = false;
}

// The level of playback step `step`, without moving the playback.
void set_level(State& st, int step) {
    Practice& p = st.classroom.practice;
    p.level = PracticeLevel{};
    p.model = st.model.get();
    p.block = st.block;
    if (!st.model || step < 1 || step >= step_count(st))
        return; // the step shown is the last: there is no next level to type
    const scene::Model& m = *st.model;
    const Trace& t = m.trace();
    const scene::StepGroup& g = m.steps().at(static_cast<std::size_t>(step));
    PracticeLevel& L = p.level;
    L.step = step;
    for (int f = g.first; f <= g.last; ++f)
        if (t.frames[static_cast<std::size_t>(f)].block == st.block)
            L.frames.push_back(f);
    if (L.frames.empty())
        L.frames.push_back(static_cast<int>(m.frame_at(step, st.block)));
    const LabelParts parts = label_parts(t);
    for (const int f : L.frames) {
        const Frame& fr = t.frames[static_cast<std::size_t>(f)];
        L.labels.push_back(frame_label(fr, parts));
        L.typed.emplace_back(fr.values.size());
        L.verdicts.emplace_back(fr.values.size(), scene::Verdict::Typed);
        L.why.emplace_back(fr.values.size());
    }
    if (L.cells() > kPracticeMaxCells) {
        L.error = "this level has " + std::to_string(L.cells()) +
                  " values, too many to type: practise with a smaller input (at most " +
                  std::to_string(kPracticeMaxCells) + " values a level)";
        L.typed.clear();
        L.verdicts.clear();
        L.why.clear();
    }
}

void finish_level(Practice& p, bool revealed) {
    PracticeLevel& L = p.level;
    if (L.right || L.revealed)
        return; // already counted
    PracticeRecord r;
    for (const std::string& l : L.labels)
        r.label += (r.label.empty() ? "" : ", ") + l;
    r.first_time = !revealed && L.attempts == 1;
    r.revealed = revealed;
    p.done.push_back(std::move(r));
}

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

std::size_t PracticeLevel::cells() const {
    std::size_t n = 0;
    for (const auto& row : verdicts)
        n += row.size();
    return n;
}

int Practice::first_time() const {
    return static_cast<int>(std::count_if(done.begin(), done.end(),
                                          [](const PracticeRecord& r) { return r.first_time; }));
}

void open_classroom(State& st, ClassroomTab tab) {
    st.view.show_source = true;   // the column the classroom shares with the source
    st.view.source_drawer = true; // opens over the stage where the column is folded
    st.classroom.show = true;
    st.classroom.tab = tab;
    st.classroom.select_tab = true;
}

// ---- Practice --------------------------------------------------------------------------

void practice_start(State& st) {
    Practice& p = st.classroom.practice;
    p.on = true;
    const int steps = step_count(st);
    const int next = st.playback.step + 1 < steps ? st.playback.step + 1 : 1;
    practice_level(st, next);
}

void practice_level(State& st, int step) {
    set_level(st, step);
    if (st.classroom.practice.level.step >= 0)
        show_step(st, step - 1);
}

void practice_follow(State& st) {
    Practice& p = st.classroom.practice;
    if (!p.on || !st.model)
        return;
    const PracticeLevel& L = p.level;
    const int shown = st.playback.step;
    const bool expected = L.step < 0
                              ? shown + 1 >= step_count(st)
                              : shown == L.step - 1 || ((L.right || L.revealed) && shown == L.step);
    if (p.model == st.model.get() && p.block == st.block && expected)
        return;
    set_level(st, shown + 1);
}

void practice_check(State& st) {
    Practice& p = st.classroom.practice;
    PracticeLevel& L = p.level;
    if (L.step < 0 || !st.model || L.typed.empty())
        return;
    L.error.clear();
    std::vector<AnswerLine> lines;
    int empty = 0;
    for (std::size_t k = 0; k < L.frames.size(); ++k) {
        AnswerLine a;
        a.line_number = static_cast<int>(k) + 1;
        a.label = L.labels[k];
        for (std::size_t c = 0; c < L.typed[k].size(); ++c) {
            const std::string text = trim(L.typed[k][c]);
            if (text.empty()) {
                ++empty;
                a.values.push_back(0.0f);
                continue;
            }
            std::vector<float> v;
            try {
                v = parse_list(text, true);
            } catch (const InputError&) {
                L.error = L.labels[k] + ", cell " + std::to_string(c) + ": '" + text +
                          "' is not a number (write ? for a value the code leaves undefined)";
                return;
            }
            if (v.size() != 1) {
                L.error = L.labels[k] + ", cell " + std::to_string(c) + ": '" + text +
                          "' is more than one value; type one value a cell";
                return;
            }
            a.values.push_back(v[0]);
        }
        lines.push_back(std::move(a));
    }
    if (empty > 0) {
        L.error = std::to_string(empty) + (empty == 1 ? " cell is" : " cells are") +
                  " empty: type every value (? for one the code leaves undefined)";
        return;
    }
    const Trace& t = st.model->trace();
    CheckResult result;
    try {
        result = check_answer(t, lines);
    } catch (const InputError& e) {
        L.error = e.what();
        return;
    }
    ++L.attempts;
    for (std::size_t k = 0; k < L.frames.size(); ++k) {
        std::fill(L.verdicts[k].begin(), L.verdicts[k].end(), scene::Verdict::Right);
        std::fill(L.why[k].begin(), L.why[k].end(), std::string());
        for (const int c : result.levels.at(k).wrong_cells) {
            const auto cc = static_cast<std::size_t>(c);
            L.verdicts[k][cc] = scene::Verdict::Wrong;
            L.why[k][cc] = explain_cell(t, L.frames[k], c, lines[k].values[cc]);
        }
    }
    if (result.all_right()) {
        finish_level(p, false);
        L.right = true;
        st.playback.go_to(L.step, step_count(st)); // the level appears, animated
        st.playback.playing = false;
    }
}

void practice_reveal(State& st) {
    Practice& p = st.classroom.practice;
    if (p.level.step < 0 || p.level.typed.empty())
        return;
    finish_level(p, true);
    p.level.revealed = true;
    p.level.error.clear();
    st.playback.go_to(p.level.step, step_count(st));
    st.playback.playing = false;
}

void practice_next(State& st) {
    const PracticeLevel& L = st.classroom.practice.level;
    if (L.step >= 0)
        practice_level(st, L.step + 1); // past the last: "the last step is on screen"
}

void practice_copy_above(State& st) {
    PracticeLevel& L = st.classroom.practice.level;
    if (!st.model || L.typed.empty())
        return;
    const scene::Model& m = *st.model;
    for (std::size_t k = 0; k < L.frames.size(); ++k) {
        const int pred = m.dataflow().predecessor(static_cast<std::size_t>(L.frames[k]));
        if (pred < 0)
            continue; // the level starts afresh: nothing above it to keep
        const std::vector<float>& v = m.trace().frames[static_cast<std::size_t>(pred)].values;
        for (std::size_t c = 0; c < L.typed[k].size() && c < v.size(); ++c)
            L.typed[k][c] = value_text(v[c]);
    }
}

std::vector<scene::AnswerRow> answer_rows(const State& st) {
    std::vector<scene::AnswerRow> rows;
    if (!st.model)
        return rows;
    const Practice& p = st.classroom.practice;
    if (p.on && p.model == st.model.get() && p.level.step >= 0)
        for (std::size_t k = 0; k < p.level.typed.size(); ++k)
            rows.push_back({p.level.frames[k], p.level.typed[k], p.level.verdicts[k], true});
    const HandTrace& h = st.classroom.hand;
    if (h.result && h.model == st.model.get())
        for (std::size_t i = 0; i < h.result->levels.size() && i < h.answer.size(); ++i) {
            const LevelVerdict& v = h.result->levels[i];
            scene::AnswerRow row;
            row.frame = v.frame;
            for (const float x : h.answer[i].values)
                row.given.push_back(value_text(x));
            row.verdicts.assign(row.given.size(), scene::Verdict::Right);
            for (const int c : v.wrong_cells)
                row.verdicts.at(static_cast<std::size_t>(c)) = scene::Verdict::Wrong;
            rows.push_back(std::move(row));
        }
    return rows;
}

std::string explain_answer(const State& st, const CellRef& ref) {
    if (!st.model || ref.frame < 0)
        return {};
    const auto cell = static_cast<std::size_t>(ref.cell);
    const Practice& p = st.classroom.practice;
    if (p.on && p.model == st.model.get())
        for (std::size_t k = 0; k < p.level.frames.size() && k < p.level.why.size(); ++k)
            if (p.level.frames[k] == ref.frame && cell < p.level.why[k].size() &&
                !p.level.why[k][cell].empty())
                return p.level.why[k][cell];
    const HandTrace& h = st.classroom.hand;
    if (h.result && h.model == st.model.get())
        for (std::size_t i = 0; i < h.result->levels.size() && i < h.answer.size(); ++i)
            if (h.result->levels[i].frame == ref.frame && cell < h.answer[i].values.size() &&
                std::count(h.result->levels[i].wrong_cells.begin(),
                           h.result->levels[i].wrong_cells.end(), ref.cell) > 0)
                return explain_cell(st.model->trace(), ref.frame, ref.cell,
                                    h.answer[i].values[cell]);
    return {};
}

// ---- Hand-trace ------------------------------------------------------------------------

void hand_trace_read(HandTrace& h) {
    h.error.clear();
    try {
        h.text = read_text_file(trim(h.path));
    } catch (const InputError& e) {
        h.error = e.what();
    }
}

void hand_trace_check(State& st) {
    HandTrace& h = st.classroom.hand;
    h.error.clear();
    h.result.reset();
    h.answer.clear();
    if (!st.model) {
        h.error = "no trace on screen yet to compare the hand-trace with";
        return;
    }
    try {
        h.answer = parse_answer(h.text);
        h.result = check_answer(st.model->trace(), h.answer);
        h.model = st.model.get();
    } catch (const InputError& e) {
        h.error = e.what();
        h.answer.clear();
    }
}

void hand_trace_show_first_mistake(State& st) {
    const HandTrace& h = st.classroom.hand;
    if (!h.result || h.model != st.model.get() || h.result->first_wrong() < 0)
        return;
    const int frame = h.result->levels[static_cast<std::size_t>(h.result->first_wrong())].frame;
    const Frame& f = st.model->trace().frames.at(static_cast<std::size_t>(frame));
    if (f.block >= 0)
        st.block = f.block;
    show_step(st, st.model->step_of(static_cast<std::size_t>(frame)));
}

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

std::vector<TimingPair> timing_pairs(const TimingReport& r, std::string_view a,
                                     std::string_view b) {
    // Per distribution, the largest size measured, at the chapter's TILE where it was.
    std::vector<std::pair<const TimingRow*, const TimingRow*>> best;
    const auto better = [](const TimingRow& x, const TimingRow& than) {
        if (x.size != than.size)
            return x.size > than.size;
        return x.block == 256 && than.block != 256;
    };
    for (const TimingRow& x : r.rows) {
        if (x.stage != a)
            continue;
        const auto partner = std::find_if(r.rows.begin(), r.rows.end(), [&](const TimingRow& y) {
            return y.stage == b && y.distribution == x.distribution && y.size == x.size &&
                   y.block == x.block;
        });
        if (partner == r.rows.end())
            continue;
        const auto same = std::find_if(best.begin(), best.end(), [&](const auto& p) {
            return p.first->distribution == x.distribution;
        });
        if (same == best.end())
            best.emplace_back(&x, &*partner);
        else if (better(x, *same->first))
            *same = {&x, &*partner};
    }
    std::vector<TimingPair> out;
    for (const auto& [x, y] : best)
        out.push_back({x->distribution, x->size, x->ms, y->ms});
    return out;
}

void timing_read(Classroom& c) {
    c.timing_error.clear();
    try {
        c.timing = timing_from_json(read_text_file(trim(c.timing_path)));
    } catch (const InputError& e) {
        c.timing_error = e.what();
    }
}

const TimingReport* timing_report(const State& st) {
    return st.classroom.timing ? &*st.classroom.timing : nullptr;
}

// ---- Determinism -----------------------------------------------------------------------

void determinism_start(State& st) {
    DeterminismRuns& d = st.classroom.runs;
    if (d.busy())
        return;
    d.error.clear();
    d.outcome.reset();
    Request r;
    r.algorithm = Algorithm::ReduceAtomic;
    r.input = generate(Generator::RandomFloat, std::clamp(d.n, 1, kMaxN), 1, 0);
    const int times = std::clamp(d.times, 1, 64);
    const std::string backend = st.settings.backend;
    // The page has no threads: there the runs are deferred to the next frame's poll.
#if PPLAB_NO_THREADS
    constexpr std::launch kLaunch = std::launch::deferred;
#else
    constexpr std::launch kLaunch = std::launch::async;
#endif
    d.job = std::async(kLaunch, [r, times, backend] {
        BackendChoice b = choose_backend(backend);
        DeterminismRuns::Outcome o;
        o.atomic = run_repeatedly(*b.backend, r, times);
        Request full = r;
        full.algorithm = Algorithm::ReduceFull;
        o.full = run_repeatedly(*b.backend, full, times);
        o.backend = b.backend->name();
        o.device = b.backend->device();
        o.note = !b.backend->last_note().empty() ? b.backend->last_note() : b.note;
        return o;
    });
}

void determinism_poll(DeterminismRuns& d) {
    if (!d.job.valid() || d.job.wait_for(std::chrono::seconds(0)) == std::future_status::timeout)
        return; // still running on its thread; a deferred run (the page) runs in get()
    try {
        d.outcome = d.job.get();
    } catch (const std::exception& e) { // a bad request or a driver error: said inline
        d.error = e.what();
    }
}

std::string differing_bits(float v, float reference) {
    const std::string a = float_bits(v), b = float_bits(reference);
    std::string out(a.size(), ' ');
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i])
            out[i] = '^';
    return out;
}

// ---- Session files ---------------------------------------------------------------------

void session_save(State& st) {
    Classroom& c = st.classroom;
    c.session_error = true;
    if (!st.model) {
        c.session_message = "nothing to save yet: no trace on screen";
        return;
    }
    const std::string path = trim(c.session_path);
    if (path.empty()) {
        c.session_message = "name the file to save the session in";
        return;
    }
    try { // whole or not at all; in the page, a download
        write_atomically(path, to_json(st.model->trace()));
    } catch (const InputError& e) {
        c.session_message = e.what();
        return;
    }
    const Trace& t = st.model->trace();
    c.session_error = false;
    c.session_message = "saved " + path + ": " + std::string(info(t.request.algorithm).id) +
                        ", recorded by " + t.backend + " (" + t.device + ")";
}

void session_open(State& st) {
    Classroom& c = st.classroom;
    const std::string path = trim(c.session_path);
    std::shared_ptr<const scene::Model> model;
    try {
        model = std::make_shared<const scene::Model>(
            trace_from_json(read_text_file(path, kMaxTraceFileBytes)));
    } catch (const InputError& e) {
        c.session_error = true;
        c.session_message = e.what() + std::string("; the trace on screen stays");
        return;
    } catch (const std::exception& e) { // a file that parses but does not hold together
        c.session_error = true;
        c.session_message = "'" + path + "' is not a trace pplab can show (" + e.what() +
                            "); the trace on screen stays";
        return;
    }
    st.model = model;
    st.chapter = model;
    st.settings = settings_for(model->request(), st.settings);
    st.adopt_settings = true;
    st.error.clear();
    st.block = 0;
    show_step(st, 0);
    c.jump.reset();
    const Trace& t = model->trace();
    c.session_error = false;
    c.session_message = "opened " + path + ": " + std::string(info(t.request.algorithm).id) +
                        ", recorded by " + t.backend + " (" + t.device + "), not traced again";
}

} // namespace pplab::ui
