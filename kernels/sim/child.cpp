#include "child.hpp"

#include "pplab/request.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace pplab::sim {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
constexpr double kGraceSeconds = 0.5;

// Runs argv with its output (stdout and stderr) in `output`, under the limits; never a shell.
ChildExit run_child(const std::vector<std::string>& argv, const std::string& output, double seconds,
                    std::size_t memory, const std::atomic<bool>* cancel) {
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
        const bool cancelled = cancel && cancel->load();
        // At the time limit the child is first asked (SIGXCPU, as its CPU-time limit would) to
        // say where it is and exit; killed if it has not within kGraceSeconds.
        if (e.seconds > seconds && !e.timed_out) {
            e.timed_out = true;
            ::kill(pid, SIGXCPU);
        }
        if (cancelled || e.seconds > seconds + kGraceSeconds) {
            ::kill(-pid, SIGKILL);
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            e.cancelled = cancelled;
            e.timed_out = !cancelled;
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

RunFolder::RunFolder(const fs::path& cache) {
    std::string dir = (cache / "run-XXXXXX").string();
    if (!::mkdtemp(dir.data()))
        throw InputError("cannot make a folder for the run in " + cache.string());
    path_ = dir;
}

RunFolder::~RunFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

} // namespace pplab::sim
