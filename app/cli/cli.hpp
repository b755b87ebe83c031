// The command-line front end: `pplab list | trace | check | listing | run | puzzle | render |
// bench`.
#pragma once

#include "pplab/request.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pplab::cli {

// Exit codes: 0 done (all right), 1 a hand-trace has mistakes, 2 bad input.
inline constexpr int kExitWrong = 1;
inline constexpr int kExitBadInput = 2;

// The options every command that runs an algorithm takes, in one place.
struct RequestOptions {
    std::string algo;
    std::string input;      // --input 1,2,3,4
    std::string input_file; // --input-file FILE
    int n = 0;              // --n N (with --gen, --seed)
    std::string gen = "random-int";
    std::uint64_t seed = 1;
    int block = 0;
    int grid = 0;
    int bins = 256;
    bool inclusive = false;
    bool no_skip_empty = false;
    std::uint64_t order_seed = 0;
    std::string pitfall = "none";
    int active_lanes = 32;
    std::string backend = "auto";

    void add_to(CLI::App& cmd, bool with_backend = true);
    // The request, normalized: throws InputError for anything the user got wrong, including
    // an option the request would ignore (--bins for a reduction, --active-lanes without its
    // pitfall), before any note is printed.
    Request build() const;
    // The back end to ask for: the CPU model when --order-seed picks its arrival order.
    std::string backend_choice() const;
    // For a command that runs nothing (`pplab listing`): an option only a run uses is refused.
    void refuse_run_options(const std::string& command) const;

private:
    // Options whose presence matters: given for a request that cannot use them is an error.
    struct Given {
        CLI::Option *input = nullptr, *file = nullptr, *n = nullptr, *gen = nullptr,
                    *seed = nullptr, *bins = nullptr, *inclusive = nullptr,
                    *no_skip_empty = nullptr, *order_seed = nullptr, *active_lanes = nullptr,
                    *backend = nullptr;
    } given_;
    std::vector<float> input_values(bool histogram) const;
    void check_options_apply(const Request& r) const;
};

// Writes `text` to standard output and checks that it got there (a full disk, a closed
// pipe): InputError otherwise.
void print(std::string_view text);

// Writes `text` to `path` through a temporary file and a rename, so a failure never leaves a
// half-written file; "-" writes to standard output. Throws InputError.
void write_output(const std::string& path, const std::string& text);

void add_list(CLI::App& app);
void add_trace(CLI::App& app);
void add_check(CLI::App& app);
#if defined(PPLAB_HAVE_GUI)
void add_render(CLI::App& app);
#endif
void add_bench(CLI::App& app);
void add_run(CLI::App& app);     // a student's kernel (kernels/sim)
void add_listing(CLI::App& app); // the listing a student's kernel starts from
void add_puzzle(CLI::App& app);  // the puzzles (pplab/puzzles.hpp)

// Parses and runs; returns the exit code. `window` runs when no subcommand is given.
int run(int argc, char** argv, int (*window)());

} // namespace pplab::cli
