// Puzzles: the chapter's kernels with one part left for the student to write, in the chapter's
// order. Each has a statement in the chapter's words, a skeleton that compiles and runs (and is
// wrong), a hint, and hidden tests: launches the student does not see the values of (sizes that
// are not multiples of the block, n that is not a power of two, skewed histograms). A test
// passes when the student's kernel, run through the simulator, records every level and leaves
// the result exactly as the chapter's kernel does, with no hazard.
#pragma once

#include "pplab/sim.hpp"

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pplab::sim {

struct PuzzleTest {
    std::string what; // what the hidden input is like, never its values
    Request request;
};

struct Puzzle {
    std::string_view id;      // "tree-loop": the CLI's and the window's name
    std::string_view title;   // "The tree's loop"
    std::string_view section; // "§8.3"
    Algorithm algorithm;      // whose launches run it and whose trace it must give
    std::string_view statement;
    // A nudge that names the idea, no code; then, asked for again, the lines that do it.
    std::string_view hint;
    std::string_view answer;
    // The launch the window runs it with before checking: small enough to read on the canvas.
    Request example;
    std::vector<PuzzleTest> tests;
    // The fold's empty-bin skip is part of the answer: the global atomics the kernel issued
    // must be the chapter's too (the values alone cannot tell).
    bool counts_global_atomics = false;

    std::string skeleton() const; // the file the student starts from
};

// In the chapter's order.
std::span<const Puzzle> puzzles();
// Throws InputError naming the puzzles there are.
const Puzzle& find_puzzle(std::string_view id);

struct TestVerdict {
    std::string what;
    bool passed = false;
    bool ran = false; // false: it did not compile, or it was cancelled before this test
    std::string why;  // a failure, explained: the first difference, the hazard, the fault
    int first_hazard_line = 0;
};

struct PuzzleVerdict {
    bool compiled = true;
    bool cancelled = false;
    std::vector<CompileError> errors; // when it did not compile
    std::string message;              // one line: what went wrong before any test ran
    std::vector<TestVerdict> tests;

    int passed() const;
    bool solved() const; // every test passed
};

// Runs the student's file over every hidden test (each in the child process, as
// run_kernel does), calling `progress(done, total)` between tests. Never throws for
// anything in the file.
PuzzleVerdict check_puzzle(const Puzzle& p, std::string_view source, const Limits& limits = {},
                           const std::function<void(int, int)>& progress = {});

} // namespace pplab::sim
