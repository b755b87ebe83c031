// What the user asks for: an algorithm of the chapter, its launch configuration and its input.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pplab {

// A problem with what the user asked for, worded for a student. Caught at the edge:
// the CLI prints it and exits with code 2, the GUI shows it inline.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class Family { Reduce, Scan, Histogram };
std::string_view family_name(Family f); // "Reduction", "Scan", "Histogram"

// The chapter's kernels, in the order the chapter develops them. The id strings are what
// the CLI, the GUI and the tests use.
enum class Algorithm {
    ReduceNaive,      // §8.2
    ReduceTree,       // §8.3
    ReduceCoarsened,  // §8.4
    ReduceShuffle,    // §8.5
    ReduceFull,       // §8.6
    ReduceAtomic,     // §8.6 "Determinism"
    ScanBlelloch,     // §8.7
    ScanMultiblock,   // §8.7 "Larger arrays"
    ScanHillisSteele, // beyond the chapter
    HistGlobal,       // §8.8 naive
    HistPrivatised,   // §8.8
    HistPerWarp,      // §8.8 next-level fix
    ReduceFast,       // production: 16-byte loads, one launch (timed, not traced)
    ScanFast, // production: single pass, decoupled look-back (timed; traced at classroom sizes)
    HistFast, // production: lane-interleaved private copies (timed, not traced)
};

// What an algorithm needs of its launch; the validation and the UI read it from here.
struct AlgorithmInfo {
    Algorithm algorithm;
    std::string_view id;
    std::string_view title;   // the chapter's kernel name
    std::string_view section; // where the chapter develops it
    Family family;
    std::string_view summary; // one line for `pplab list`
    std::string_view doc;     // one paragraph: what it fixes and what it costs
    bool power_of_two_block;  // halving trees need TILE = 2^k
    bool warp_multiple_block; // warp shuffles need whole warps
    bool single_block;        // scans one block: n <= block size
    bool grid_stride;         // the grid is a free parameter (coarsened loops)
    bool traced = true;       // false: a production kernel, timed and checked, not traced
    // Timed at production sizes (block 256, n up to 2^28) by `pplab bench` and `run`; scan-fast
    // is also traced, at classroom sizes (normalize_trace).
    bool production = false;
};

std::span<const AlgorithmInfo> algorithms();
const AlgorithmInfo& info(Algorithm a);
// Throws InputError naming the known ids.
const AlgorithmInfo& find_algorithm(std::string_view id);

inline constexpr int kWarpSize = 32;
inline constexpr int kMaxBlock = 1024;
// The chapter's #define ELEMS_PER_THREAD 4: a default grid leaves each thread about four
// elements of the grid-stride loop.
inline constexpr int kElemsPerThread = 4;
// The production kernels' block size (kernels/cuda/fast.cu).
inline constexpr int kFastBlock = 256;
// reduce-fast's default grid: 8 blocks of 256 threads on each of the H200's 132 SMs, and at
// least four 16-byte loads per thread (bench/NOTES.md: fastest at 2^20).
inline constexpr int kFastReduceMaxGrid = 8 * 132;
inline constexpr int kFastReduceMinLoads = 4;
// hist-fast's block: 1024 threads, two blocks a SM, so 64 warps share each SM's two 32 KB sets
// of copies (at 256 threads six blocks gave 48 warps: 88% of the read roof on uniform data
// where 1024 gives 96%; bench/NOTES.md, issue 14), and as many as reside on the H200.
inline constexpr int kFastHistBlock = 1024;
inline constexpr int kFastHistMaxGrid = 2 * 132;
// The block a production kernel runs: it is tuned for it.
constexpr int production_block(Algorithm a) {
    return a == Algorithm::HistFast ? kFastHistBlock : kFastBlock;
}
// scanFast's tile: 256 threads x 16 rounds x 4 elements (bench/NOTES.md: the fastest).
inline constexpr int kScanFastTile = kFastBlock * 16 * 4;
// The production kernels are run, not traced: their inputs may be as large as the bench's.
inline constexpr int kMaxRunN = 1 << 28;
// Shared memory a block may use without opting in; private histograms must fit in it.
inline constexpr int kSharedBytesPerBlock = 48 * 1024;
// A trace records every level of every block; these caps keep one under 64 MiB and turn an
// oversized request into an error before anything runs.
inline constexpr int kMaxTraceN = 1 << 20;
inline constexpr std::uint64_t kMaxTraceWords = std::uint64_t{1} << 24;

// The chapter's pitfalls and Exercise 2, each a deliberate mistake in one kernel, so the class
// can see what goes wrong. A value the kernel leaves undefined is recorded as NaN (text "?",
// JSON null): the trace never invents a number.
enum class Pitfall {
    None,
    NonPowerOfTwo,   // reduce-tree with a block that is not a power of two: elements never added
    EveryLaneWrites, // reduce-full, Exercise 2: every lane writes s[warpId]; the writes race
    PartialWarp,     // reduce-shuffle: warpReduce called by the first active_lanes lanes only
    NoFinalSync,     // scan-blelloch without the final __syncthreads(): reads before writes
};
inline constexpr int kPitfallCount = 5;

std::string_view pitfall_id(Pitfall p);    // "non-power-of-two", ...
Pitfall find_pitfall(std::string_view id); // throws InputError
// The algorithm whose kernel the pitfall changes (Pitfall::None: any).
Algorithm pitfall_algorithm(Pitfall p);
// Whether a GPU may run it: a race or undefined behaviour is shown on the CPU model only,
// except Exercise 2's race, whose outcome on the device is the point.
bool pitfall_runs_on_gpu(Pitfall p);

// Whether the CPU model's order of the blocks is chosen by Options::order_seed, standing in for
// the order a GPU happens to run them: reduce-atomic's arrival order, scan-fast's schedule.
bool has_schedule(Algorithm a);

struct Options {
    bool inclusive = false;       // scans: shift the exclusive result into an inclusive one
    bool skip_empty = true;       // histograms: the fold's `if (s_hist[b] != 0)` (Exercise 4)
    std::uint64_t order_seed = 0; // the CPU model's order (has_schedule): which one
    Pitfall pitfall = Pitfall::None;
    int active_lanes = kWarpSize; // PartialWarp: lanes 0..active_lanes-1 call warpReduce
    bool operator==(const Options&) const = default;
};

struct Request {
    Algorithm algorithm = Algorithm::ReduceFull;
    int block = 0; // threads per block; 0: the algorithm's default
    int grid = 0;  // blocks; 0: the algorithm's default
    int bins = 256;
    Options options;
    std::vector<float> input;

    int n() const { return static_cast<int>(input.size()); }
    bool operator==(const Request&) const = default;
};

// Fills in defaults and checks every rule the kernel relies on. Throws InputError.
Request normalize(Request r);

// The grid an algorithm launches for n elements when none is asked for (its kernel's natural
// one: one element per thread, ELEMS_PER_THREAD per thread for grid-stride loops, one block).
int natural_grid(Algorithm a, long long n, int block);

// The rules of a trace: normalize's, except scan-fast, whose traced twin scans classroom-sized
// tiles (normalize_lookback: block x 4 elements a tile, at most 64 tiles, the schedule's seed
// kept). Every path that traces (the back ends, the CLI, the window, trace files) uses it.
Request normalize_trace(Request r);

// Throws InputError for a production kernel (reduce-fast, hist-fast): timed and checked, never
// traced. normalize_trace asks it first, so the refusal comes before any note of a back end.
void require_traced(Algorithm a);

// Bytes of shared memory the algorithm's kernel uses per block for this request.
int shared_bytes(const Request& r);

// ---- Inputs ----------------------------------------------------------------------------

enum class Generator { Seq, Ones, RandomInt, RandomFloat, UniformBytes, OneBin, Skewed, Sparse };

std::string_view generator_id(Generator g);
std::span<const Generator> generators();
Generator find_generator(std::string_view id); // throws InputError

// Deterministic for a seed on every platform (splitmix64, no std distributions).
// `bins` bounds the bin-valued generators (histogram input is whole bin numbers).
std::vector<float> generate(Generator g, int n, std::uint64_t seed, int bins);

// Parses "1,2,3,4" (commas and/or white space). Throws InputError on anything else.
// allow_unknown: "?" reads as NaN, an undefined value (hand-traces of the pitfalls).
std::vector<float> parse_list(std::string_view text, bool allow_unknown = false);

} // namespace pplab
