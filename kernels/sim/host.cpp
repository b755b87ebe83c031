// The parent's side of a student's run: pre-process, compile (cached by content), run the
// runner in a child process under time and memory limits, read back what it found. Nothing of
// the student's code ever runs in this process.
#include "protocol.hpp"

#include "pplab/files.hpp"
#include "pplab/io.hpp"
#include "pplab/plan.hpp"
#include "pplab_sim_resources.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

namespace pplab::sim {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// Flags chosen for compile speed: -O1 costs little over -O0 and runs the proxies inline.
constexpr const char* kFlags[] = {
    "-std=c++20", "-O1", "-fPIC", "-shared", "-w", "-fdiagnostics-color=never", "-fmax-errors=12"};
constexpr double kCompileSeconds = 60.0;
constexpr std::size_t kPrintedBytes = 64 * 1024;

std::string hex_hash(std::string_view text) {
    std::uint64_t h = 1469598103934665603ull; // FNV-1a
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

std::string_view header_text() {
    const auto* r = sim_files::find("pplab_cuda_sim.hpp");
    if (!r)
        throw std::logic_error("the build lost pplab_cuda_sim.hpp");
    return r->text();
}

struct ChildExit {
    bool timed_out = false;
    bool exited = false;
    int code = 0;
    int signal = 0;
    double seconds = 0;
};

// Runs argv with its output (stdout and stderr) in `output`, under the limits; never a shell.
ChildExit run_child(const std::vector<std::string>& argv, const std::string& output, double seconds,
                    std::size_t memory) {
    // Everything the child needs is made before fork: after it, only system calls.
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const auto start = Clock::now();
    const pid_t pid = ::fork();
    if (pid < 0)
        throw InputError("could not start a process to run the kernel (fork failed)");
    if (pid == 0) {
        ::setpgid(0, 0);
        if (memory > 0) {
            const rlimit as{memory, memory};
            ::setrlimit(RLIMIT_AS, &as);
        }
        const auto cpu = static_cast<rlim_t>(seconds) + 1;
        const rlimit cpu_limit{cpu, cpu + 1};
        ::setrlimit(RLIMIT_CPU, &cpu_limit);
        const rlimit no_core{0, 0};
        ::setrlimit(RLIMIT_CORE, &no_core);
        const int fd = ::open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            ::dup2(fd, 1);
            ::dup2(fd, 2);
            ::close(fd);
        }
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    ChildExit e;
    int status = 0;
    for (;;) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        e.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        if (done == pid)
            break;
        if (e.seconds > seconds) {
            ::kill(-pid, SIGKILL);
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            e.timed_out = true;
            return e;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    e.exited = WIFEXITED(status);
    e.code = e.exited ? WEXITSTATUS(status) : 0;
    e.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return e;
}

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// "kernel.cu:12:5: error: 'x' was not declared in this scope" -> line 12, column 5.
std::vector<CompileError> compiler_errors(const std::string& text) {
    std::vector<CompileError> errors;
    static const std::regex located(R"(^kernel\.cu:(\d+):(\d+): (?:fatal )?error: (.*)$)");
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_match(line, m, located))
            errors.push_back({std::stoi(m[1]), std::stoi(m[2]), m[3]});
    }
    if (errors.empty()) { // an error inside pplab's header: its first lines say why
        std::istringstream again(text);
        std::string first;
        for (int k = 0; k < 6 && std::getline(again, line); ++k)
            if (line.find("error") != std::string::npos) {
                first = line.substr(line.find("error"));
                break;
            }
        errors.push_back({0, 0, first.empty() ? "the kernel does not compile" : first});
    }
    return errors;
}

std::string runner_path() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path beside = self.parent_path() / "pplab-sim-runner";
        if (fs::exists(beside))
            return beside.string();
    }
    return PPLAB_SIM_RUNNER;
}

std::string status_message(const ChildExit& e, const Limits& limits) {
    if (e.timed_out)
        return "the kernel did not finish within " +
               std::to_string(static_cast<int>(limits.seconds)) +
               " s and was stopped: an endless loop (a loop whose condition never changes, or a "
               "stride that never reaches 0)?";
    if (e.signal == SIGSEGV || e.signal == SIGBUS)
        return "the kernel crashed (segmentation fault): a pointer used outside pplab's watched "
               "arrays, or a recursion too deep for a thread's stack";
    if (e.signal == SIGXCPU || e.signal == SIGKILL)
        return "the kernel used more CPU time than its limit and was stopped";
    if (e.signal != 0)
        return "the kernel's process ended with signal " + std::to_string(e.signal);
    return "the kernel's process ended with code " + std::to_string(e.code) +
           " (out of memory? the limit is " + std::to_string(limits.memory_bytes >> 20) + " MiB)";
}

// Compiles the rewritten source into `so` unless the cache has it. False: `res` says why.
bool compile(const Rewritten& rw, const fs::path& folder, RunResult& res) {
    const fs::path include = folder / ("include-" + hex_hash(header_text()));
    const std::string key = hex_hash(std::string(header_text()) + rw.text + PPLAB_SIM_CXX);
    const fs::path dir = folder / ("k-" + key);
    const fs::path so = dir / "kernel.so";
    if (fs::exists(so)) {
        res.compiled_from_cache = true;
        return true;
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
    write_atomically(source.string(), rw.text);
    std::vector<std::string> argv{PPLAB_SIM_CXX};
    for (const char* f : kFlags)
        argv.emplace_back(f);
    const std::string part = so.string() + "." + mine + ".part";
    argv.insert(argv.end(), {"-I", include.string(), "-o", part, source.string()});
    const auto start = Clock::now();
    const ChildExit e = run_child(argv, log.string(), kCompileSeconds, 0);
    res.compile_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (e.exited && e.code == 0) {
        move_into_place(part, so.string());
        return true;
    }
    std::error_code ec;
    fs::remove(part, ec);
    res.status = RunResult::Status::CompileFailed;
    res.errors = e.timed_out ? std::vector<CompileError>{{0, 0, "the compiler took too long"}}
                             : compiler_errors(read_all(log.string()));
    const CompileError& first = res.errors.front();
    res.message = first.line > 0 ? "line " + std::to_string(first.line) + ": " + first.message
                                 : first.message;
    return false;
}

void read_runner(const fs::path& run, const ChildExit& e, const Limits& limits, RunResult& res) {
    res.printed = read_all((run / "printed.txt").string());
    if (res.printed.size() > kPrintedBytes)
        res.printed.resize(kPrintedBytes);
    if (e.timed_out || !e.exited || e.code != 0 || !fs::exists(run / "result.json")) {
        res.status = e.timed_out ? RunResult::Status::TimedOut : RunResult::Status::Crashed;
        res.message = status_message(e, limits);
        return;
    }
    const RunnerOutput out = output_from_json(read_all((run / "result.json").string()));
    if (!out.error.empty()) {
        res.status = RunResult::Status::Faulted;
        res.message = out.error;
        return;
    }
    res.trace = trace_from_json(out.trace_json);
    res.hazards = out.hazards;
    res.notes = out.notes;
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
    res.trace.request = normalize(request);
    make_plan(res.trace.request); // the same refusals as the built-in kernels
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
        if (!compile(pre.rewritten, folder, res))
            return res;
        const std::string key =
            hex_hash(std::string(header_text()) + pre.rewritten.text + PPLAB_SIM_CXX);
        char tmpl[] = "run-XXXXXX";
        const fs::path pattern = folder / tmpl;
        std::string dir = pattern.string();
        if (!::mkdtemp(dir.data()))
            throw InputError("cannot make a folder for the run in " + folder.string());
        const fs::path run = dir;
        write_atomically((run / "request.json").string(), request_to_json(res.trace.request));
        const auto start = Clock::now();
        const ChildExit e =
            run_child({runner_path(), (folder / ("k-" + key) / "kernel.so").string(),
                       (run / "request.json").string(), (run / "result.json").string()},
                      (run / "printed.txt").string(), limits.seconds, limits.memory_bytes);
        res.run_seconds = std::chrono::duration<double>(Clock::now() - start).count();
        read_runner(run, e, limits, res);
        std::error_code ec;
        fs::remove_all(run, ec);
    } catch (const fs::filesystem_error& e) {
        throw InputError(std::string("pplab's kernel cache is not usable: ") + e.what());
    }
    return res;
}

} // namespace pplab::sim
