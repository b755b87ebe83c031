#include "your_kernel.hpp"

#include "state.hpp"

#include "pplab/backend.hpp"
#include "pplab/files.hpp"
#include "pplab/listing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>

namespace pplab::ui {

namespace fs = std::filesystem;

namespace {

template <typename T>
bool ready(const std::future<T>& f) {
    return f.valid() && f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

std::string origin_of(const State& st) {
    const YourKernel& y = st.your;
    return y.puzzle.empty() ? "listing:" + std::string(info(st.settings.algorithm).id)
                            : "puzzle:" + y.puzzle;
}

// The listing as this launch runs it; without a valid launch (a bad input typed), as the
// chapter writes it.
std::string listing_text(const Settings& s) {
    Listing l;
    try {
        l = listing(normalize_trace(s.request()));
    } catch (const InputError&) {
        l = listing(s.algorithm);
    }
    std::string text;
    for (const std::string& line : l.lines)
        text += line + "\n";
    return text;
}

std::string draft_file(const std::string& origin) {
    std::string name = origin;
    for (char& c : name)
        if (c == ':')
            c = '-';
    return (fs::path(drafts_folder()) / (name + ".cu")).string();
}

// A student's kernel never runs with a pitfall: the pitfalls are the chapter's mistakes, shown
// on the chapter's kernel.
Request student_request(const Settings& s) {
    Request r = s.request();
    r.options.pitfall = Pitfall::None;
    r.options.active_lanes = kWarpSize;
    return r;
}

KernelRun run_in_background(const Settings& s, const std::string& source, double seconds,
                            const std::shared_ptr<std::atomic<bool>>& cancel) {
    KernelRun out;
    out.settings = s;
    out.source = source;
    try {
        const Request r = normalize_trace(student_request(s));
        sim::Limits limits;
        limits.seconds = seconds;
        limits.cancel = cancel.get();
        out.result = sim::run_kernel(r, source, limits);
        if (!drawable(out.result))
            return out;
        const Trace chapter = make_cpu_backend()->trace(r);
        const sim::Difference d = sim::first_difference(out.result.trace, chapter);
        out.same_as_chapter = d.same;
        out.difference = sim::describe(d);
        const std::string chapter_text = listing_text(s);
        const sim::RunResult listed =
            chapter_text == source ? out.result : sim::run_kernel(r, chapter_text, limits);
        if (listed.ok() && listed.hazards.empty())
            out.chapter_counted = listed.counted;
        out.model = std::make_shared<const scene::Model>(out.result.trace, chapter);
    } catch (const InputError& e) {
        out.error = e.what();
    } catch (const std::exception& e) { // a bug: said inline, never a crash
        out.error = std::string("error: ") + e.what();
    }
    return out;
}

// A run that went to its end: the same file on the GPU, off the UI thread, as "Run on" asks
// ("auto": where there is one; "cuda": said when there is none).
void to_the_device(YourKernel& y, const KernelRun& run) {
    y.device.reset();
    y.device_note.clear();
    const Settings& s = run.settings;
    if (s.backend == "cpu" || !run.error.empty() || !run.result.ok() || !run.model)
        return;
    if (const std::string why = gpu_why(y, run.result.trace.request.algorithm); !why.empty()) {
        y.device_note =
            (s.backend == "cuda" ? "Not run on the GPU: " : "Simulator only: ") + why + ".";
        return;
    }
    if (!y.cancel || y.cancel->load()) // a cancelled run's flag would stop this one at once
        y.cancel = std::make_shared<std::atomic<bool>>(false);
    const Request r = run.result.trace.request;
    std::optional<Request> timed;
    if (y.time_log2 > 0)
        timed = sim::at_timing_size(r, s.generator, s.seed, 1LL << y.time_log2, 0);
    y.device_job =
        std::async(std::launch::async, [r, timed, source = run.source,
                                        simulated = run.result.trace.result, cancel = y.cancel] {
            sim::GpuOptions o;
            o.cancel = cancel.get();
            return sim::check_on_device(r, simulated, source, timed, o);
        });
}

// "race: threads 3 and 7, line 12": what the canvas writes under a hazard's cell.
std::string hazard_label(const sim::Hazard& h) {
    std::string what;
    switch (h.kind) {
    case sim::HazardKind::Race:
        what = "race";
        break;
    case sim::HazardKind::UninitialisedRead:
        what = "read before any write";
        break;
    case sim::HazardKind::OutOfBounds:
        what = "out of bounds";
        break;
    default:
        what = std::string(sim::hazard_id(h.kind));
    }
    std::string threads;
    for (std::size_t k = 0; k < h.threads.size() && k < 2; ++k)
        threads += (k ? " and " : "") + std::to_string(h.threads[k]);
    return what + ": thread" + (h.threads.size() > 1 ? "s " : " ") + threads + ", line " +
           std::to_string(h.line);
}

// The frame and cell that show element `h.index` of the hazard's array: per-warp copies are
// frames of their own.
std::pair<int, int> hazard_cell(const Trace& t, const sim::Hazard& h) {
    // A float read before it had a value has no element: drawn on its thread's cell too.
    const bool a_register = h.memory == "register";
    if (h.frame < 0 || (h.index < 0 && !a_register) || h.frame >= static_cast<int>(t.frames.size()))
        return {-1, -1};
    const Frame& first = t.frames[static_cast<std::size_t>(h.frame)];
    if (first.buffer != Buffer::Shared && first.buffer != Buffer::PrivateHist)
        return {-1, -1};
    const auto size = static_cast<long long>(first.values.size());
    if (size == 0)
        return {-1, -1};
    // An access outside the array the frame shows (a global, heap or thread's own one's, or past
    // its end) is drawn on the cell of the thread that made it: where its value would have gone.
    const bool elsewhere = !h.memory.empty() && h.memory != "shared";
    if (first.warp < 0 && (h.kind == sim::HazardKind::OutOfBounds || a_register) &&
        (h.index >= size || elsewhere) && !h.threads.empty() && h.threads.front() < size)
        return {h.frame, h.threads.front()};
    if (elsewhere) // not an element of the frame's shared array
        return {-1, -1};
    const int warp = first.warp >= 0 ? static_cast<int>(h.index / size) : -1;
    for (std::size_t f = static_cast<std::size_t>(h.frame); f < t.frames.size(); ++f) {
        const Frame& fr = t.frames[f];
        if (fr.pass != first.pass || fr.step != first.step || fr.level != first.level ||
            fr.block != first.block)
            break;
        if (fr.warp == warp)
            return {static_cast<int>(f), static_cast<int>(warp >= 0 ? h.index % size : h.index)};
    }
    return {-1, -1};
}

} // namespace

std::string drafts_folder() {
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        return (fs::path(xdg) / "pplab" / "drafts").string();
    if (const char* home = std::getenv("HOME"); home && *home)
        return (fs::path(home) / ".local" / "share" / "pplab" / "drafts").string();
    return (fs::temp_directory_path() / "pplab-drafts").string();
}

void drafts_load(YourKernel& y) {
    y.drafts_loaded = true;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(drafts_folder(), ec)) {
        const std::string name = entry.path().stem().string();
        const auto dash = name.find('-');
        if (entry.path().extension() != ".cu" || dash == std::string::npos)
            continue;
        try {
            y.drafts[name.substr(0, dash) + ":" + name.substr(dash + 1)] =
                read_text_file(entry.path().string());
        } catch (const InputError&) { // unreadable: the listing is there instead
        }
    }
}

void drafts_save(const YourKernel& y) {
    if (y.drafts.empty())
        return;
    std::error_code ec;
    fs::create_directories(drafts_folder(), ec);
    for (const auto& [origin, text] : y.drafts) {
        try {
            write_atomically(draft_file(origin), text);
        } catch (const InputError&) { // a full disk: the editor still holds the text
        }
    }
}

void your_kernel_fill(State& st) {
    YourKernel& y = st.your;
    if (!y.drafts_loaded)
        drafts_load(y);
    y.origin = origin_of(st);
    if (const auto it = y.drafts.find(y.origin); it != y.drafts.end()) {
        y.source = it->second;
        y.edited = true;
        return;
    }
    y.source = y.puzzle.empty() ? listing_text(st.settings) : sim::find_puzzle(y.puzzle).skeleton();
    y.edited = false;
}

void your_kernel_reset(State& st) {
    YourKernel& y = st.your;
    y.drafts.erase(origin_of(st));
    std::error_code ec;
    fs::remove(draft_file(origin_of(st)), ec);
    your_kernel_fill(st);
}

void your_kernel_pick(State& st, const std::string& puzzle) {
    YourKernel& y = st.your;
    if (y.edited)
        y.drafts[y.origin] = y.source;
    y.puzzle = puzzle;
    y.show_hint = false;
    y.show_answer = false;
    if (!puzzle.empty())
        st.settings = settings_for(normalize(sim::find_puzzle(puzzle).example), st.settings);
    your_kernel_fill(st);
    // The part to write, in view.
    const std::string& text = y.source;
    if (const auto at = text.find("// Your code here"); at != std::string::npos)
        y.scroll_to_line =
            static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n')) +
            1;
}

void your_kernel_run(State& st) {
    YourKernel& y = st.your;
    your_kernel_cancel(st);
    if (y.edited)
        y.drafts[y.origin] = y.source;
    drafts_save(y);
    y.cancel = std::make_shared<std::atomic<bool>>(false);
    y.job_settings = st.settings;
    y.rerun_on_change = false;
    y.job = std::async(std::launch::async, run_in_background, st.settings, y.source, y.seconds,
                       y.cancel);
}

void your_kernel_time(State& st, int log2) {
    YourKernel& y = st.your;
    y.time_log2 = log2;
    if (y.last && !y.job.valid()) {
        if (y.device_job.valid())
            y.device_retired.push_back(std::move(y.device_job));
        to_the_device(y, *y.last);
    }
}

void your_kernel_cancel(State& st) {
    YourKernel& y = st.your;
    if (y.cancel)
        y.cancel->store(true);
    if (y.job.valid())
        y.retired.push_back(std::move(y.job));
    if (y.device_job.valid())
        y.device_retired.push_back(std::move(y.device_job));
    if (y.check && y.check->job.valid())
        y.check.reset(); // the future's destructor waits: the child is already killed
}

void your_kernel_check(State& st) {
    YourKernel& y = st.your;
    if (y.puzzle.empty())
        return;
    your_kernel_cancel(st);
    if (y.edited)
        y.drafts[y.origin] = y.source;
    drafts_save(y);
    y.cancel = std::make_shared<std::atomic<bool>>(false);
    PuzzleCheck c;
    c.puzzle = y.puzzle;
    c.done = std::make_shared<std::atomic<int>>(0);
    const sim::Puzzle& p = sim::find_puzzle(y.puzzle);
    c.total = static_cast<int>(p.tests.size());
    c.job = std::async(std::launch::async, [&p, source = y.source, seconds = y.seconds,
                                            cancel = y.cancel, done = c.done] {
        sim::Limits limits;
        limits.seconds = seconds;
        limits.cancel = cancel.get();
        return sim::check_puzzle(p, source, limits, [done](int k, int) { done->store(k); });
    });
    y.check = std::move(c);
}

void your_kernel_poll(State& st) {
    YourKernel& y = st.your;
    std::erase_if(y.retired, [](const std::future<KernelRun>& f) { return ready(f); });
    std::erase_if(y.device_retired,
                  [](const std::future<sim::DeviceCheck>& f) { return ready(f); });
    if (ready(y.device_job))
        y.device = y.device_job.get();
    if (ready(y.job)) {
        y.last = y.job.get();
        to_the_device(y, *y.last);
        if (y.last->model && y.last->result.ok())
            y.good = y.last;
        y.shown = y.last->model ? y.last : y.good;
        y.model = y.shown ? y.shown->model : nullptr;
        if (y.on_canvas && y.model) // without one, your_kernel_show puts the chapter's back
            show_model(st, y.model);
        const sim::RunResult& r = y.last->result;
        if (!r.errors.empty())
            y.scroll_to_line = r.errors.front().line;
        else if (r.stopped_line > 0)
            y.scroll_to_line = r.stopped_line;
        else if (!r.hazards.empty())
            y.scroll_to_line = r.hazards.front().line;
    }
    if (y.check && y.check->job.valid() &&
        y.check->job.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        y.verdicts[y.check->puzzle] = y.check->job.get();
        const sim::PuzzleVerdict& v = y.verdicts[y.check->puzzle];
        if (!v.errors.empty())
            y.scroll_to_line = v.errors.front().line;
        y.check.reset();
    }
    if (y.rerun_on_change && !y.job.valid())
        your_kernel_run(st);
}

void your_kernel_show(State& st, bool open) {
    YourKernel& y = st.your;
    y.tab_open = open;
    if (open && y.source.empty())
        your_kernel_fill(st);
    const bool want = open && y.model != nullptr;
    if (want == y.on_canvas)
        return;
    y.on_canvas = want;
    if (want)
        show_model(st, y.model);
    else if (st.chapter)
        show_model(st, st.chapter);
}

void your_kernel_settings_changed(State& st) {
    YourKernel& y = st.your;
    if (y.puzzle.empty() && !y.edited && !y.source.empty())
        y.source = listing_text(st.settings); // the launch's constants follow the controls
    y.origin = origin_of(st);
    if (y.puzzle.empty() && !y.edited && y.drafts.count(y.origin))
        your_kernel_fill(st); // another algorithm, with a draft of its own
    if (y.on_canvas || y.job.valid())
        y.rerun_on_change = true;
}

std::string gpu_why(YourKernel& y, Algorithm a) {
    if (a == Algorithm::ScanFast)
        return sim::gpu_missing(a);
    if (!y.gpu_why) // nvcc's place and the device are looked for once
        y.gpu_why = sim::gpu_missing();
    return *y.gpu_why;
}

bool drawable(const sim::RunResult& r) {
    if (r.trace.frames.empty())
        return false;
    if (r.ok())
        return true;
    return r.status == sim::RunResult::Status::Faulted &&
           std::any_of(r.hazards.begin(), r.hazards.end(),
                       [](const sim::Hazard& h) { return h.fatal && h.frame >= 0; });
}

std::vector<int> your_kernel_lit_lines(const State& st) {
    const YourKernel& y = st.your;
    if (!y.on_canvas || !y.shown || !st.model || st.model != y.model)
        return {};
    const scene::StepGroup& g = st.model->steps().at(static_cast<std::size_t>(st.playback.step));
    for (const sim::StepLines& l : y.shown->result.step_lines)
        if (l.pass == g.pass && l.step == g.step && l.level == g.level)
            return l.lines;
    return {};
}

std::vector<scene::HazardMark> hazard_marks(const State& st) {
    const YourKernel& y = st.your;
    std::vector<scene::HazardMark> marks;
    if (!y.on_canvas || !y.shown || st.model != y.model)
        return marks;
    for (const sim::Hazard& h : y.shown->result.hazards) {
        const auto [frame, cell] = hazard_cell(y.shown->result.trace, h);
        if (frame >= 0)
            marks.push_back({frame, cell, h.kind == sim::HazardKind::Race, hazard_label(h)});
    }
    return marks;
}

void your_kernel_show_hazard(State& st, const sim::Hazard& h) {
    YourKernel& y = st.your;
    y.scroll_to_line = h.line;
    if (!y.on_canvas || st.model != y.model || h.frame < 0)
        return;
    const auto [frame, cell] = hazard_cell(y.shown->result.trace, h);
    st.block = h.block;
    st.playback.go_to(st.model->step_of(static_cast<std::size_t>(frame >= 0 ? frame : h.frame)),
                      st.steps());
    st.playback.playing = false;
}

} // namespace pplab::ui
