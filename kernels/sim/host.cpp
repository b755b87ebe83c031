// The parent's side of a student's run: pre-process, compile (cached by content), run the
// runner in a child process under time and memory limits, read back what it found. Nothing of
// the student's code ever runs in this process.
#include "child.hpp"
#include "compile_errors.hpp"
#include "protocol.hpp"

#include "pplab/files.hpp"
#include "pplab/io.hpp"
#include "pplab/plan.hpp"
#include "pplab_sim_resources.hpp"
#include "trace/decode.hpp"

#include <csignal>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace pplab::sim {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// Flags chosen for compile speed: -O1 costs little over -O0 and runs the proxies inline.
// -fsanitize=bounds: a thread's own array indexed past its end is a hazard at its line (the
// runner answers the check, own_array_overrun), not whatever lay beside it on the stack.
constexpr const char* kFlags[] = {"-std=c++20",
                                  "-O1",
                                  "-fPIC",
                                  "-shared",
                                  "-w",
                                  "-fdiagnostics-color=never",
                                  "-fmax-errors=12",
                                  "-fsanitize=bounds",
                                  "-fno-sanitize-recover=bounds"};

// The flags as one text, for the compiled kernels' cache key.
std::string flags_text() {
    std::string text;
    for (const char* f : kFlags)
        text += std::string(f) + " ";
    return text;
}
constexpr double kCompileSeconds = 60.0;

// A runner built with AddressSanitizer (the sanitize build's tests) reserves terabytes of
// shadow address space at start: an address-space limit would stop it before the kernel runs,
// so such builds run it with none.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif
constexpr std::size_t kPrintedBytes = 64 * 1024;

std::string_view header_text() {
    const auto* r = sim_files::find("pplab_cuda_sim.hpp");
    if (!r)
        throw std::logic_error("the build lost pplab_cuda_sim.hpp");
    return r->text();
}

// The runner beside pplab (a build folder's layout), in ../libexec/pplab (an installed one, as
// `cmake --install` lays it out), or where this build put it.
std::string runner_path() {
    std::vector<fs::path> places;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        places.push_back(self.parent_path() / "pplab-sim-runner");
        places.push_back(self.parent_path().parent_path() / PPLAB_SIM_LIBEXEC / "pplab-sim-runner");
    }
    places.emplace_back(PPLAB_SIM_RUNNER);
    std::string looked;
    for (const fs::path& p : places) {
        if (::access(p.c_str(), X_OK) == 0)
            return p.string();
        looked += (looked.empty() ? "" : ", ") + p.string();
    }
    throw InputError("pplab's kernel runner (pplab-sim-runner) is not installed: looked for " +
                     looked);
}

// Where the runner said the kernel was when the time or memory limit stopped it (STOPPED.txt: "line
// block thread pass low high"); "" when it said nothing (killed before it could).
// `rounds`: with the lines it was going round (a limit's loop; a crash's last lines are not one).
std::string where_stopped(const RunFolder& run, RunResult& res, bool rounds = true) {
    std::istringstream in(read_all(run / "stopped.txt"));
    int line = 0, block = -1, thread = -1, pass = 0, low = 0, high = 0;
    if (!(in >> line >> block >> thread >> pass >> low >> high))
        return "";
    if (line <= 0)
        return " before its first loop, access to memory, barrier or shuffle";
    res.stopped_line = line;
    std::string s = " at line " + std::to_string(line);
    if (block >= 0 && thread >= 0)
        s += " (thread " + std::to_string(thread) + " of block " + std::to_string(block);
    if (rounds && low > 0 && high > low)
        s += ", going round lines " + std::to_string(low) + "-" + std::to_string(high);
    if (block >= 0 && thread >= 0)
        s += ")";
    return s;
}

std::string status_message(const ChildExit& e, const Limits& limits, const std::string& where) {
    if (e.timed_out) {
        std::ostringstream seconds;
        seconds << limits.seconds;
        return "the kernel did not finish within " + seconds.str() + " s and was stopped" + where +
               ": an endless loop (a loop whose condition never changes, or a stride that "
               "never reaches 0)?";
    }
    if (e.signal == SIGSEGV || e.signal == SIGBUS)
        return "the kernel crashed (segmentation fault): a pointer used outside pplab's watched "
               "arrays, or a recursion too deep for a thread's stack";
    if (e.signal == SIGXCPU || e.signal == SIGKILL)
        return "the kernel used more CPU time than its limit and was stopped";
    if (e.signal != 0)
        return "the kernel's process ended with signal " + std::to_string(e.signal);
    if (e.code == 127) // the loader's code: the runner itself could not start
        return "the simulator's runner could not start (exit 127): a library it needs is "
               "missing on this machine; what it printed is above";
    return "the kernel's process ended with code " + std::to_string(e.code) +
           " (out of memory? the limit is " + std::to_string(limits.memory_bytes >> 20) + " MiB)";
}

// Compiles the source into a library unless the cache has it; its path, or empty when it
// does not compile (`res` says why).
fs::path compile(const std::string& text, std::string_view student_source, const fs::path& folder,
                 const Limits& limits, RunResult& res) {
    const fs::path include = folder / ("include-" + hex_hash(header_text()));
    const std::string key =
        hex_hash(std::string(header_text()) + text + PPLAB_SIM_CXX + " " + flags_text());
    const fs::path dir = folder / ("k-" + key);
    const fs::path so = dir / "kernel.so";
    if (fs::exists(so)) {
        res.compiled_from_cache = true;
        return so;
    }
    fs::create_directories(include);
    fs::create_directories(dir);
    if (!fs::exists(include / "pplab_cuda_sim.hpp")) {
        const fs::path part = include / ("pplab_cuda_sim.hpp." + std::to_string(::getpid()));
        write_atomically(part.string(), header_text());
        fs::rename(part, include / "pplab_cuda_sim.hpp");
    }
    // Names of this process's own: two runs (a window and a CLI, parallel tests) may compile
    // the same kernel at once; each renames a complete library into place.
    const std::string mine = std::to_string(::getpid());
    const fs::path source = dir / ("kernel-" + mine + ".cpp");
    const fs::path log = dir / ("compile-" + mine + ".txt");
    write_atomically(source.string(), text);
    std::vector<std::string> argv{PPLAB_SIM_CXX};
    for (const char* f : kFlags)
        argv.emplace_back(f);
    const std::string part = so.string() + "." + mine + ".part";
    argv.insert(argv.end(), {"-I", include.string(), "-o", part, source.string()});
    const auto start = Clock::now();
    const ChildExit e = run_child(argv, log.string(), kCompileSeconds, 0, limits.cancel);
    res.compile_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (e.exited && e.code == 0) {
        move_into_place(part, so.string());
        return so;
    }
    std::error_code ec;
    fs::remove(part, ec);
    if (e.cancelled) {
        res.status = RunResult::Status::Cancelled;
        res.message = "cancelled";
        return {};
    }
    res.status = RunResult::Status::CompileFailed;
    res.errors = e.timed_out ? std::vector<CompileError>{{0, 0, "the compiler took too long"}}
                             : compiler_errors(read_all(log.string()), student_source, text);
    const CompileError& first = res.errors.front();
    res.message = first.line > 0 ? "line " + std::to_string(first.line) + ": " + first.message
                                 : first.message;
    return {};
}

// The file as compiled: the launch's constants it uses without defining them, defined with the
// launch's values above its first line (`#line` keeps its numbering).
std::string with_launch_constants(const Rewritten& rw, const Request& r) {
    std::string defines;
    for (const std::string& name : rw.launch_constants) {
        const int value = name == "TILE" ? r.block : name == "WARPS" ? r.block / kWarpSize : r.bins;
        defines += "#define " + name + " " + std::to_string(value) + "\n";
    }
    std::string text = rw.text;
    text.insert(text.find('\n') + 1, defines); // after the header's #include
    return text;
}

// A constant the file sets to another value than the launch's: the kernel then indexes its
// arrays and loops for another block (or bin count) than it runs with. Said, not refused: it
// may be the student's experiment.
std::vector<std::string> launch_mismatches(const Rewritten& rw, const Request& r) {
    std::vector<std::string> notes;
    for (const auto& [name, value] : rw.defined_constants) {
        const long long want = name == "TILE"    ? r.block
                               : name == "WARPS" ? r.block / kWarpSize
                                                 : r.bins;
        if (value == want)
            continue;
        const std::string what = name == "BINS" ? std::to_string(r.bins) + " bins"
                                 : name == "TILE"
                                     ? "blocks of " + std::to_string(r.block) + " threads"
                                     : std::to_string(want) + " warps per block";
        notes.push_back("your file defines " + name + " as " + std::to_string(value) +
                        ", but this launch has " + what + ": set it to " + std::to_string(want) +
                        ", or delete the #define and pplab sets it to the launch's value");
    }
    return notes;
}

// What a failed assert() printed, in the student's words: glibc names the rewritten source
// ("pplab-sim-runner: kernel.cu:12: void reduceTree(pplab::sim::ptr<const float>, …): Assertion
// `s.at(12)[0] < 0.0f' failed.") -> "line 12: assert(s[0] < 0.0f) failed".
std::string plain_asserts(const std::string& printed) {
    static const std::regex failed(R"(^[^:\n]*: [^:\n]+:(\d+): [^\n]*: Assertion `(.*)' failed\.$)",
                                   std::regex::multiline);
    static const std::regex use(R"(\.at\(\d+\))");
    std::string out;
    std::size_t from = 0;
    for (std::sregex_iterator m(printed.begin(), printed.end(), failed), end; m != end; ++m) {
        out += printed.substr(from, static_cast<std::size_t>(m->position()) - from);
        out += "line " + (*m)[1].str() + ": assert(" + std::regex_replace((*m)[2].str(), use, "") +
               ") failed";
        from = static_cast<std::size_t>(m->position() + m->length());
    }
    return out + printed.substr(from);
}

void read_runner(const RunFolder& run, ChildExit e, const Limits& limits, const Plan& plan,
                 RunResult& res) {
    if (e.exited && e.code == kStoppedExit) // its own CPU-time limit stopped it
        e.timed_out = true;
    res.printed = read_all(run / "printed.txt");
    if (res.printed.size() > kPrintedBytes)
        res.printed.resize(kPrintedBytes);
    res.printed = plain_asserts(res.printed);
    if (e.cancelled) {
        res.status = RunResult::Status::Cancelled;
        res.message = "cancelled";
        return;
    }
    if (e.exited && e.code == kMemoryExit) {
        res.status = RunResult::Status::OutOfMemory;
        res.message = "the kernel used more memory than its limit (" +
                      std::to_string(limits.memory_bytes >> 20) + " MiB) and was stopped" +
                      where_stopped(run, res) +
                      ": a huge array, or memory allocated (new, malloc) in a loop?";
        return;
    }
    if (e.exited && (e.code == kCrashExit || e.code == kDivideExit || e.code == kAbortExit)) {
        res.status = RunResult::Status::Crashed;
        const std::string where = where_stopped(run, res, false);
        // The line is the last one seen, not where it crashed: said, not marked as a limit's.
        res.last_seen_line = res.stopped_line;
        res.stopped_line = 0;
        const std::string seen = where.empty() ? "" : ", last seen" + where;
        res.message =
            e.code == kDivideExit
                ? "the kernel divided an integer by zero" + seen +
                      ": a divisor that can be 0 (an index or a stride?); a GPU does not stop "
                      "there but gives an undefined number"
            : e.code == kAbortExit
                ? "the kernel stopped itself (abort or trap)" + seen +
                      ": an assert() that failed (what it printed is above), or __trap()"
                : "the kernel crashed (segmentation fault)" + seen +
                      ": a recursion too deep for a thread's stack (one that never ends?), or a "
                      "pointer used outside pplab's watched memory";
        return;
    }
    if (e.timed_out || !e.exited || e.code != 0 || !fs::exists(run / "result.json")) {
        res.status = e.timed_out ? RunResult::Status::TimedOut : RunResult::Status::Crashed;
        res.message = status_message(e, limits, e.timed_out ? where_stopped(run, res) : "");
        return;
    }
    const RunnerOutput out = output_from_json(read_all(run / "result.json"), plan.words);
    if (!out.error.empty()) {
        res.status = RunResult::Status::Faulted;
        res.message = out.error;
        return;
    }
    Recording rec = recording_from_bytes(read_all(run / "trace.bin"));
    if (rec.words.size() != plan.words || rec.result.size() != result_size(res.trace.request))
        throw InputError("the runner's recording does not fit the request's plan");
    res.trace.backend = "sim";
    res.trace.device = "CUDA-on-CPU simulator (your kernel)";
    res.trace.frames = decode(plan, rec.words);
    res.trace.result = std::move(rec.result);
    res.hazards = out.hazards;
    res.notes = out.notes;
    res.counted = out.counted;
    res.step_lines = out.step_lines;
    if (out.faulted) {
        res.status = RunResult::Status::Faulted;
        for (const Hazard& h : res.hazards)
            if (h.fatal)
                res.message =
                    (h.line > 0 ? "line " + std::to_string(h.line) + ": " : "") + h.message;
        if (res.message.empty())
            res.message = "the kernel stopped with a fault";
    }
}

} // namespace

std::string cache_folder() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return (fs::path(xdg) / "pplab" / "sim").string();
    if (const char* home = std::getenv("HOME"); home && *home)
        return (fs::path(home) / ".cache" / "pplab" / "sim").string();
    return (fs::temp_directory_path() / ("pplab-sim-" + std::to_string(::getuid()))).string();
}

RunResult run_kernel(const Request& request, std::string_view source, const Limits& limits) {
    RunResult res;
    res.trace.request = normalize_trace(request);
    const Plan plan = make_plan(res.trace.request); // the same refusals as the built-in kernels
    if (info(request.algorithm).family == Family::Histogram && res.trace.request.bins > 256)
        throw InputError("the chapter's histogram kernels read bytes (const unsigned char* "
                         "data), so your kernel runs with at most 256 bins; this launch has " +
                         std::to_string(res.trace.request.bins));
    const Preprocessed pre = preprocess(source);
    if (!pre.ok) {
        res.status = RunResult::Status::CompileFailed;
        res.errors = {{pre.error.line, pre.error.column, pre.error.message}};
        res.message = "line " + std::to_string(pre.error.line) + ": " + pre.error.message;
        return res;
    }
    const fs::path folder = cache_folder();
    try {
        fs::create_directories(folder);
        const fs::path so = compile(with_launch_constants(pre.rewritten, res.trace.request), source,
                                    folder, limits, res);
        if (so.empty())
            return res;
        const RunFolder run(folder);
        write_atomically(run / "request.json", request_to_json(res.trace.request));
        const auto start = Clock::now();
        const ChildExit e = run_child({runner_path(), so.string(), run / "request.json",
                                       run / "trace.bin", run / "result.json", run / "stopped.txt"},
                                      run / "printed.txt", limits.seconds,
                                      kSanitized ? 0 : limits.memory_bytes, limits.cancel);
        res.run_seconds = std::chrono::duration<double>(Clock::now() - start).count();
        read_runner(run, e, limits, plan, res);
        const std::vector<std::string> mismatches =
            launch_mismatches(pre.rewritten, res.trace.request);
        res.notes.insert(res.notes.begin(), mismatches.begin(), mismatches.end());
    } catch (const fs::filesystem_error& e) {
        throw InputError(std::string("pplab's kernel cache is not usable: ") + e.what());
    }
    return res;
}

} // namespace pplab::sim
