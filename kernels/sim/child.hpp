// What both ways of running a student's file share: a child process under limits (the runner,
// the compilers, the GPU program), a folder of its own for each run, names by content.
#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace pplab::sim {

struct ChildExit {
    bool timed_out = false;
    bool cancelled = false;
    bool exited = false;
    int code = 0;
    int signal = 0;
    double seconds = 0;
};

// Runs argv (argv[0] a path: never a shell, never PATH) with its stdout and stderr in `output`,
// sent SIGXCPU after `seconds` (the runner then says where it was and exits) and killed with its
// process group half a second later, or at once when `cancel` is set; `memory` bytes of
// address space (0: no limit, for CUDA, which maps far more than it uses).
ChildExit run_child(const std::vector<std::string>& argv, const std::string& output, double seconds,
                    std::size_t memory, const std::atomic<bool>* cancel);

std::string read_all(const std::string& path); // "" when it cannot be read
std::string hex_hash(std::string_view text);   // FNV-1a, 16 hex digits: a name by content

// The run's own folder in the cache, removed with everything in it when the run is over.
class RunFolder {
public:
    explicit RunFolder(const std::filesystem::path& cache); // throws InputError
    ~RunFolder();
    RunFolder(const RunFolder&) = delete;
    RunFolder& operator=(const RunFolder&) = delete;
    std::string operator/(const char* name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

} // namespace pplab::sim
