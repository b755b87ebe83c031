// The command-line front end: `pplab list | trace | check | run | puzzle | render | bench`.
#pragma once

#include "pplab/request.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

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
    bool order_seed_given = false;
    std::string pitfall = "none";
    int active_lanes = 32;
    std::string backend = "auto";

    void add_to(CLI::App& cmd, bool with_backend = true);
    // Throws InputError for anything the user got wrong.
    Request build() const;
};

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
void add_run(CLI::App& app);    // a student's kernel (kernels/sim)
void add_puzzle(CLI::App& app); // the puzzles (pplab/puzzles.hpp)

// Parses and runs; returns the exit code. `window` runs when no subcommand is given.
int run(int argc, char** argv, int (*window)());

} // namespace pplab::cli
