// A student's kernel, run: the chapter's listing as the editor shows it, edited, compiled with
// the host C++ compiler against pplab's CUDA-on-CPU header and run in a child process (each
// CUDA thread a fiber), giving the same Trace the built-in kernels give, plus the hazards
// (races, divergent barriers, bad shuffle masks, out-of-bounds accesses) it ran into.
#pragma once

#include "pplab/stats.hpp"
#include "pplab/trace.hpp"

#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pplab::sim {

// ---- The source pre-processor (pure: text in, text or a located error out) -----------------

struct SourceError {
    int line = 0; // from 1, in the student's file
    int column = 0;
    std::string message;
};

struct Rewritten {
    std::string text;                 // compiles against cuda_sim.hpp; `#line` keeps the lines
    std::vector<std::string> kernels; // the __global__ functions, in order
    // The launch's constants (TILE, WARPS, BINS) the file uses without defining or declaring
    // them: the runner defines them with the launch's values, so a puzzle's skeleton (or a
    // listing whose `#define` was deleted) runs at any block size.
    std::vector<std::string> launch_constants;
    // The launch constants the file defines as a plain number (`#define TILE 256`).
    std::vector<std::pair<std::string, long long>> defined_constants;
};

struct Preprocessed {
    bool ok = false;
    Rewritten rewritten;
    SourceError error;
};

// `__shared__` arrays (static and extern) and pointers become watched `ptr<T>`s, every use of
// them carries its line, `float` variables become `reg`s, and each kernel is registered so the
// runner can launch it. Never throws on any input.
Preprocessed preprocess(std::string_view source);

// ---- What a run reports --------------------------------------------------------------------

enum class HazardKind {
    Race,              // racecheck: two threads, one writing, no barrier between
    DivergentBarrier,  // synccheck: a barrier not reached by every thread of the block
    BadShuffleMask,    // a shuffle (or __syncwarp, vote) whose mask names lanes not executing it
    OutOfBounds,       // a shared or global access outside its array
    UninitialisedRead, // a read of shared memory no thread of the block has written
    Fault,             // the kernel could not go on (an exception, a bad launch)
};
std::string_view hazard_id(HazardKind k); // "race", "divergent-barrier", ...

struct Hazard {
    HazardKind kind = HazardKind::Race;
    int line = 0;       // the student's source line of the access or barrier
    int other_line = 0; // the other access of a race; 0 when none
    int pass = 0;
    int block = 0;
    std::vector<int> threads; // threadIdx.x of the threads involved (first: the one that acted)
    std::string array;        // the array's name ("s", "in"); empty for barriers and masks
    // Where the array is: "shared", "global" (the launch's buffers), "heap" (new, malloc) or
    // "own" (a thread's own array), "register" (a float variable: `array` is its name, no
    // index); empty for barriers and masks. Only a shared array's cells are drawn, so only there
    // does `index` name a cell of the canvas.
    std::string memory;
    long long index = -1;   // the element; -1 when not an access
    long long address = -1; // byte offset within the array
    int frame = -1;         // the trace frame it belongs to (drawn there); -1: none
    bool fatal = false;     // the run stopped here
    int count = 1;          // how many times the same kind struck the same lines
    std::string message;    // one sentence in the chapter's words
};

struct CompileError {
    int line = 0; // 0: not tied to a line of the student's file
    int column = 0;
    std::string message;
};

// The source lines that did one step's work (the accesses to shared memory between two
// barriers and the barrier that began them, the shuffle, the reads of the input, the final
// writes): what the window lights for that step of a student's trace.
struct StepLines {
    int pass = 0;
    Step step = Step::Load;
    int level = 0;
    std::vector<int> lines; // from 1, ascending
};

struct RunResult {
    enum class Status { Ran, CompileFailed, Faulted, TimedOut, OutOfMemory, Crashed, Cancelled };
    Status status = Status::Ran;
    Trace trace;                      // frames as the chapter's kernel names them
    std::vector<Hazard> hazards;      // in the order they happened
    std::vector<std::string> notes;   // where the kernel's shape differs from the chapter's
    std::vector<CompileError> errors; // Status::CompileFailed
    std::string message;              // one line: what went wrong, for anything but Ran
    int stopped_line = 0; // TimedOut, OutOfMemory: the line it was last seen at (0: unknown)
    // Crashed: the line it was last seen at, which is near the crash but may not be it (0:
    // unknown); the editor goes there on a click, without marking it as a limit's line.
    int last_seen_line = 0;
    std::string printed; // what the kernel printed (printf), cut to 64 KiB
    // What the kernel did, counted as it ran: barriers (per block), shared reads and writes,
    // shuffles (per warp), atomics, global reads and writes; additions are not observed.
    Counters counted;
    std::vector<StepLines> step_lines;
    double compile_seconds = 0, run_seconds = 0;
    bool compiled_from_cache = false;

    bool ok() const { return status == Status::Ran; }
};

// The most snapshots of shared memory one block may record (one at each barrier, a few more
// when a step writes a cell twice). The chapter's kernels pass a barrier per level, log2 of the
// block (reduce-tree: 11 at block 1024), and every listing runs under it at n 65536 (the wide
// listing-equality test); a block past it is going round a loop that passes a barrier without
// end, and is stopped there with that barrier's line instead of growing to the memory limit.
inline constexpr int kMostSnapshotsPerBlock = 4096;

struct Limits {
    double seconds = 10.0;                 // wall clock for the run (compile has its own)
    std::size_t memory_bytes = 2ull << 30; // address space of the child
    // Set by another thread (the window's Cancel): the compiler or the runner is killed at
    // once and the result is Status::Cancelled.
    const std::atomic<bool>* cancel = nullptr;
};

// The trace's JSON (pplab trace --format json's, which sessions and the checker read) with the
// run's hazards, notes and counts added beside it ("hazards", "notes", "counted"), and whether
// it ran: "status" (status_id), "message", "stopped_line", "errors" (the compiler's, by line).
// One shape whether the kernel ran or not: a run that stopped has the frames it reached.
std::string to_json(const RunResult& r);
// "ran", "compile-failed", "faulted", "timed-out", "out-of-memory", "crashed", "cancelled".
std::string_view status_id(RunResult::Status s);

// Compiles `source` (cached by content) and runs the request's launches through it.
// Throws InputError for a request the algorithm cannot run (as Backend::trace does); every
// problem of the kernel itself is a RunResult status, never an exception.
RunResult run_kernel(const Request& request, std::string_view source, const Limits& limits = {});

// ---- The student's trace against the chapter's ---------------------------------------------

struct Difference {
    bool same = true; // every frame and the result, bit for bit
    int frames = 0;   // levels the chapter's kernel records
    int frame = -1;   // the first frame that differs (-1: only the result, or none)
    int cell = -1;    // its first differing cell
    float expected = 0, got = 0;
    std::string label;       // the frame's label ("tree-level 3", "block 1 upsweep 2")
    std::string cell_name;   // "s[3]", "lane 5", "g_hist[7]"
    std::string explanation; // which thread wrote the cell from which cells, in the chapter
    int frames_differing = 0;
    bool result_differs = false;
    int result_index = -1; // the first output value that differs (-1: none, or the sizes)
    float result_expected = 0, result_got = 0;
    // scan-fast: the output alone is compared; its records (who published and read what, and
    // when) follow the order the tiles ran, which no two runs share.
    bool result_only = false;
    // scan-fast with values that are not whole numbers: a tile's carry adds its predecessors'
    // sums in the order the tiles ran, so the output is compared within that rounding (1e-5 of
    // the prefix's magnitude), and this says some value differed by no more.
    bool within_rounding = false;
};

// Compares level by level in the canonical order; both traces are of the same request.
Difference first_difference(const Trace& yours, const Trace& chapter);
std::string describe(const Difference& d); // a paragraph for the CLI and the window

// ---- The same file on the GPU (nvcc, a child process) ----------------------------------------

struct GpuOptions {
    std::string arch = "native"; // nvcc's -arch: the device's own where one answers
    int runs = 20, warmups = 3;  // timed runs (the median is reported) after warm-ups
    double seconds = 60;         // the child's wall clock (the compile has its own)
    bool compile_only = false;   // check that it compiles (a machine without a device)
    const std::atomic<bool>* cancel = nullptr;
};

struct GpuRun {
    enum class Status { Ran, Compiled, Skipped, CompileFailed, Failed, TimedOut };
    Status status = Status::Skipped;
    std::string message; // why it was skipped or failed, in a line
    std::vector<CompileError> errors;
    std::string device;
    std::vector<float> result; // the output buffer, as the trace's result holds it
    double ms = 0;             // median of the timed runs of every launch of the request
    double bytes = 0;          // bytes that must move, as pplab bench counts them
    double compile_seconds = 0;
};

// Where nvcc is ($PPLAB_NVCC, then PATH, then /usr/local/cuda/bin); empty with `why` filled in.
std::string nvcc_path(std::string& why);

// Why a student's file cannot run on the GPU here (no nvcc, no device); empty: it can.
std::string gpu_missing();
// Why a student's kernel of algorithm `a` cannot run on the GPU here: scan-fast's never (its
// look-back needs tile descriptors the driver does not set up), the others as gpu_missing().
std::string gpu_missing(Algorithm a);

// Compiles the student's file with nvcc beside a small driver (cached by content) and runs the
// request's launches on the device in a child process, then times them. `r` is a request as
// the CLI builds it; unlike a trace, it may hold up to 2^28 elements. Status::Skipped (with
// why) without nvcc or without a device; never throws for anything in the file.
GpuRun run_on_gpu(const Request& r, std::string_view source, const GpuOptions& o = {});

// ---- Compared and timed: pplab run --backend cuda and the window's Your kernel tab ------------

struct TimedRow {
    std::string what; // "your kernel", "the chapter's reduce-tree", "CUB"
    double ms = 0;    // the median
    double bytes = 0; // that must move, as pplab bench counts them
};

struct DeviceCheck {
    GpuRun run;             // the traced request on the device (Skipped: run.message says why)
    std::string difference; // where its output parts from the simulator's; empty: bit for bit
    long long timed_n = 0;  // the timing size; 0: not timed
    int timed_block = 0, runs = 0, warmups = 0; // its launch, the median of `runs`
    GpuRun timed;                               // the run at the timing size
    std::string not_validated;  // the timed output against a serial sum: its first wrong value
    std::vector<TimedRow> rows; // your kernel, then the chapter's kernel and CUB
    std::string beside_note;    // why the chapter's kernel and CUB were not timed
    double copy_gbps = 0;       // cudaMemcpy's read + write, the same run
};

// The traced request at the timing size: its launch (its block; `grid` when one was asked for,
// else the kernel's natural grid for n), input from the generator.
Request at_timing_size(const Request& traced, Generator g, std::uint64_t seed, long long n,
                       int grid);

// After the simulator's run of `source` (its result `simulated`): the same file on the device,
// its output compared with the simulator's, then, with `timed`, timed there (CUDA events, the
// median) and checked against a serial sum, beside the chapter's kernel and CUB.
DeviceCheck check_on_device(const Request& traced, const std::vector<float>& simulated,
                            std::string_view source, const std::optional<Request>& timed,
                            const GpuOptions& o = {});

// Where compiled kernels and the header are kept ($XDG_CACHE_HOME/pplab/sim or ~/.cache/...).
std::string cache_folder();

} // namespace pplab::sim
