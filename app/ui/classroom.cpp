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

std::string trim(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

int step_count(const State& st) {
    return st.steps();
}

void show_step(State& st, int step) {
    st.playback.go_to(step, step_count(st));
    st.playback.t = 1.0f;
    st.playback.playing = false;
}

void open_classroom(State& st, ClassroomTab tab) {
    st.view.show_source = true;   // the column the classroom shares with the source
    st.view.source_drawer = true; // opens over the stage where the column is folded
    st.classroom.show = true;
    st.classroom.tab = tab;
    st.classroom.select_tab = true;
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
