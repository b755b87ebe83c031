#include "pplab/request.hpp"
#include "pplab/lookback.hpp"
#include "pplab/quote.hpp"

#include "pplab/rng.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace pplab {

namespace {

using A = Algorithm;
using F = Family;

// clang-format off
constexpr std::array kAlgorithms{
    AlgorithmInfo{A::ReduceNaive, "reduce-naive", "reduceNaive", "§8.2", F::Reduce,
        "one thread adds every element: the serial reference",
        "Stage 0. Thread 0 of one block walks the whole array with n serial additions. Correct, "
        "and the reference the other kernels are checked against, but it uses one thread out of "
        "thousands.",
        false, false, false, false},
    AlgorithmInfo{A::ReduceTree, "reduce-tree", "reduceTree", "§8.3", F::Reduce,
        "each block halves its shared array level by level: log2(TILE) barriers",
        "Stage 1. Each thread loads one element into shared memory; at every level the lower half "
        "of the active threads adds the upper half (s[t] += s[t + stride]). log2(TILE) levels, one "
        "__syncthreads() before each, and half the remaining threads fall idle at every level.",
        true, false, false, false},
    AlgorithmInfo{A::ReduceCoarsened, "reduce-coarsened", "reduceCoarsened", "§8.4", F::Reduce,
        "a grid-stride loop sums several elements per thread in a register, then one tree",
        "Stage 2. Thread coarsening: each thread first adds its share of the array in a register "
        "(a coalesced grid-stride loop, no barriers, independent loads in flight), then the block "
        "runs one shared-memory tree. Fewer blocks, fewer partial results to combine.",
        true, false, false, true},
    AlgorithmInfo{A::ReduceShuffle, "reduce-shuffle", "reduceShuffle", "§8.5", F::Reduce,
        "each warp folds its 32 lanes with __shfl_down_sync: 5 steps, no barrier",
        "Stage 3. A warp's 32 lanes exchange values through registers: __shfl_down_sync with "
        "offsets 16, 8, 4, 2, 1 leaves the warp's total in lane 0. No shared memory and no "
        "barrier; every lane must execute every shuffle.",
        false, true, false, false},
    AlgorithmInfo{A::ReduceFull, "reduce-full", "reduceFull", "§8.6", F::Reduce,
        "coarsen, shuffle within warps, one barrier, shuffle the warp totals; then a second pass",
        "The complete block reduction: grid-stride accumulation, warp shuffles, lane 0 of each "
        "warp writes s[warpId], the only barrier, and the first warp shuffles the warp totals. A "
        "second launch of the same kernel over the block totals finishes the single sum.",
        false, true, false, true},
    AlgorithmInfo{A::ReduceAtomic, "reduce-atomic", "reduceAtomic", "beyond the chapter (§8.6 Determinism)", F::Reduce,
        "block totals combined with atomicAdd: the order, and so the float sum, varies",
        "Each block reduces as reduceFull does, then atomicAdd adds its total into the one result. "
        "Blocks arrive in whatever order the hardware runs them, and float addition is not "
        "associative, so the sum can differ from run to run. The CPU model draws the order from a "
        "seed.",
        false, true, false, true},
    AlgorithmInfo{A::ScanBlelloch, "scan-blelloch", "scanBlelloch", "§8.7", F::Scan,
        "work-efficient exclusive scan of one block: upsweep, clear the root, downsweep",
        "Blelloch's scan of one block in shared memory. The upsweep is a tree reduction that keeps "
        "its internal nodes; the root is cleared to the identity; the downsweep passes each carry "
        "unchanged to the left child and carry + left sum to the right. 2 log2(n) barrier levels.",
        true, false, true, false},
    AlgorithmInfo{A::ScanMultiblock, "scan-multiblock", "scanBlocks + addCarries", "beyond the chapter (§8.7 larger arrays)",
        F::Scan,
        "block scans, a scan of the block totals, then each block adds its carry",
        "Arrays larger than one block: every block scans its tile and writes its total; the totals "
        "are scanned the same way (recursively, until one block holds them); then each block adds "
        "the scanned total of the blocks before it.",
        true, false, false, false},
    AlgorithmInfo{A::ScanHillisSteele, "scan-hillis-steele", "scanHillisSteele", "beyond the chapter",
        F::Scan,
        "inclusive scan in log2(n) steps that each touch every element: more work than Blelloch",
        "Hillis and Steele's scan: at step k every thread t >= 2^k adds s[t - 2^k]. Only log2(n) "
        "steps, but about n log2(n) additions against Blelloch's 2n, and two barriers a step.",
        false, false, true, false},
    AlgorithmInfo{A::HistGlobal, "hist-global", "histogramGlobal", "beyond the chapter (§8.8 naive)", F::Histogram,
        "one global atomicAdd per element: contended bins serialise",
        "The naive histogram of Chapter 5: every element is one atomicAdd on a global bin. When "
        "many threads hit the same bin the hardware serialises their read-modify-write cycles.",
        false, false, false, true},
    AlgorithmInfo{A::HistPrivatised, "hist-privatised", "histogramPrivatised", "§8.8", F::Histogram,
        "a private histogram per block in shared memory, folded into global memory once",
        "Privatisation: each block counts into its own shared-memory histogram, where atomics are "
        "about ten times cheaper, then folds it into the global bins once, skipping empty bins. "
        "Two barriers: after zeroing and before the fold.",
        false, false, false, true},
    AlgorithmInfo{A::HistPerWarp, "hist-per-warp", "histogramPerWarp", "beyond the chapter (§8.8 next-level fix)",
        F::Histogram,
        "one private histogram per warp: skewed data contends only within a warp",
        "The next-level fix for skewed data: each warp counts into its own copy, so same-bin "
        "atomics contend within one warp, not the whole block; the copies are merged per bin and "
        "folded into global memory as in the privatised kernel.",
        false, true, false, true},
    AlgorithmInfo{A::ReduceFast, "reduce-fast", "reduceFast", "production", F::Reduce,
        "reduceFull taken to the limit: 16-byte loads, one launch, the last block adds up",
        "The production reduction: four independent 16-byte loads in flight per thread, a grid "
        "sized to the SMs, and one launch: the last block to finish adds the block totals in a "
        "fixed order (strided per thread, then the shuffle tree), so the sum is still "
        "bit-reproducible. Timed beside CUB; not traced.",
        false, false, false, true, false, true},
    AlgorithmInfo{A::ScanFast, "scan-fast", "scanFast", "production", F::Scan,
        "single-pass scan with decoupled look-back: input read once, output written once",
        "Merrill and Garland's single pass: each tile publishes its total at once and its "
        "inclusive prefix when known; a tile adds up the totals of up to 32 predecessors per "
        "step until it meets a published prefix. Timed beside CUB with tiles of 16384; traced "
        "at classroom sizes (tiles of block x 4, at most 64), where the order tiles publish and "
        "look back is the GPU's own, or on the CPU model a schedule chosen by its seed.",
        false, true, false, false, true, true},
    AlgorithmInfo{A::HistFast, "hist-fast", "histogramFast", "production", F::Histogram,
        "16-byte loads; 32 interleaved copies of every bin, one per lane: no bank conflicts",
        "The production histogram: each thread reads 16 bytes at a time, and every bin has 32 "
        "copies interleaved so that lane l always counts into copy l: a warp's atomics land in "
        "32 different banks and never on one address, whatever the data. Sixteen equal bytes "
        "count with one atomic. Timed beside CUB; not traced.",
        false, false, false, true, false, true},
};
// clang-format on

std::string list_ids() {
    std::string s;
    for (const auto& a : kAlgorithms) {
        if (!s.empty())
            s += ", ";
        s += a.id;
    }
    return s;
}

int ceil_div(long long a, long long b) {
    return static_cast<int>((a + b - 1) / b);
}

int default_block(const Request& r) {
    const auto& i = info(r.algorithm);
    if (i.production)
        return production_block(r.algorithm);
    if (i.single_block) {
        // The chapter's scanBlock scans blockDim.x elements: the smallest block that holds n.
        // At most the largest block: a larger n is refused as n, not as a block never asked for
        // ("block size 8192 is out of range" for scan-blelloch with n 5000).
        const int n = std::clamp(r.n(), 1, kMaxBlock);
        return i.power_of_two_block ? static_cast<int>(std::bit_ceil(static_cast<unsigned>(n))) : n;
    }
    return 256; // the chapter's TILE
}

void check_block(const Request& r) {
    const auto& i = info(r.algorithm);
    const std::string who = std::string(i.id);
    if (i.production && r.block != production_block(r.algorithm))
        throw InputError(who + " runs blocks of " + std::to_string(production_block(r.algorithm)) +
                         " threads: it is tuned for them");
    if (r.block < 1 || r.block > kMaxBlock)
        throw InputError("block size " + std::to_string(r.block) +
                         " is out of range: a block has 1 to 1024 threads");
    const bool any_block = r.options.pitfall == Pitfall::NonPowerOfTwo;
    if (i.power_of_two_block && !any_block && !std::has_single_bit(static_cast<unsigned>(r.block)))
        throw InputError(who + " halves its tree at every level, so TILE must be a power of two; " +
                         std::to_string(r.block) + " is not (try " +
                         std::to_string(std::bit_floor(static_cast<unsigned>(r.block))) + " or " +
                         std::to_string(std::bit_ceil(static_cast<unsigned>(r.block))) + ")");
    if (i.warp_multiple_block && r.block % kWarpSize != 0)
        throw InputError(who + " works in whole warps: the block size must be a multiple of 32; " +
                         std::to_string(r.block) + " is not");
    if (i.single_block && r.n() > r.block)
        throw InputError(who + " scans one block: n (" + std::to_string(r.n()) +
                         ") must be at most the block size (" + std::to_string(r.block) +
                         "); use scan-multiblock for larger arrays");
    if (r.algorithm == A::ScanMultiblock && r.block < 2)
        throw InputError("scan-multiblock needs at least 2 threads per block: with one, the "
                         "block totals are as many as the elements and never shrink");
}

void check_grid(Request& r) {
    const auto& i = info(r.algorithm);
    const int natural = natural_grid(r.algorithm, r.n(), r.block);
    if (r.grid == 0) {
        r.grid = natural;
        return;
    }
    if (r.grid < 0)
        throw InputError("grid size " + std::to_string(r.grid) + " is out of range: at least 1");
    if (i.grid_stride) {
        if (r.grid > 65535)
            throw InputError("grid size " + std::to_string(r.grid) +
                             " is out of range for a trace: at most 65535 blocks");
        return;
    }
    if (r.grid != natural) {
        const std::string why =
            r.algorithm == A::ReduceNaive || i.single_block ? std::string("runs one block")
            : r.algorithm == A::ScanFast
                ? "scans one tile of " + std::to_string(kScanFastTile) +
                      " elements per block, so the grid is ceil(n / " +
                      std::to_string(kScanFastTile) + ") = " + std::to_string(natural)
                : "reads one element per thread, so the grid is ceil(n / block) = " +
                      std::to_string(natural);
        throw InputError(std::string(i.id) + " does not take --grid: its kernel " + why);
    }
}

void check_input(const Request& r) {
    const auto& i = info(r.algorithm);
    if (r.input.empty())
        throw InputError("the input is empty: give at least one element (n >= 1)");
    if (!i.production && r.n() > kMaxTraceN)
        throw InputError("n = " + std::to_string(r.n()) + " is too large for a trace: at most " +
                         std::to_string(kMaxTraceN) + " elements");
    if (i.production && r.n() > kMaxRunN)
        throw InputError("n = " + std::to_string(r.n()) + " is too large: at most " +
                         std::to_string(kMaxRunN) + " elements");
    for (std::size_t k = 0; k < r.input.size(); ++k) {
        const float v = r.input[k];
        if (!std::isfinite(v))
            throw InputError("element " + std::to_string(k) +
                             " is not a finite number: sums of NaN or infinity teach nothing");
        if (i.family == F::Histogram &&
            (v < 0 || v >= static_cast<float>(r.bins) || v != std::floor(v)))
            throw InputError("element " + std::to_string(k) + " (" + std::to_string(v) +
                             ") is not a bin: histogram input must be whole numbers from 0 to " +
                             std::to_string(r.bins - 1));
    }
    if (i.family == F::Histogram)
        return;
    // Finite elements can still sum to infinity, which a trace cannot show (nor JSON hold).
    // A partial sum in any order is at most the sum of the magnitudes, times 1.07 for the
    // rounding of 2^20 additions; warpReduce's out-of-warp lanes double their value at each
    // of five shuffles (32x). A margin of 64x covers both.
    double magnitude = 0;
    for (const float v : r.input)
        magnitude += std::fabs(static_cast<double>(v));
    if (magnitude > static_cast<double>(std::numeric_limits<float>::max()) / 64) {
        char total[32];
        std::snprintf(total, sizeof total, "%.3g", magnitude);
        throw InputError(std::string("the elements' magnitudes add up to ") + total +
                         ": partial sums would overflow fp32 to infinity (keep the total below "
                         "5e36)");
    }
}

void check_bins(const Request& r) {
    if (info(r.algorithm).family != F::Histogram)
        return;
    if (r.bins < 1)
        throw InputError("bins must be at least 1");
    if (r.algorithm == A::HistGlobal)
        return; // its atomics go straight to global memory: no private copy to fit
    const int copies = r.algorithm == A::HistPerWarp ? r.block / kWarpSize : 1;
    const long long bytes = 4LL * r.bins * copies;
    if (r.algorithm == A::HistFast && r.bins > 256)
        throw InputError("hist-fast counts bytes: at most 256 bins");
    if (bytes > kSharedBytesPerBlock)
        throw InputError(std::to_string(r.bins) + " bins" +
                         (copies > 1 ? " x " + std::to_string(copies) + " warps" : std::string()) +
                         " x 4 bytes = " + std::to_string(bytes) +
                         " bytes of private histogram: more than the 49152 bytes of shared "
                         "memory a block may use");
}

} // namespace

int natural_grid(Algorithm a, long long n, int block) {
    const auto& i = info(a);
    if (a == A::ReduceNaive || i.single_block)
        return 1;
    if (a == A::ReduceFast) // at least kFastReduceMinLoads float4 per thread
        return std::clamp(ceil_div(n, 4LL * kFastBlock * kFastReduceMinLoads), 1,
                          kFastReduceMaxGrid);
    if (a == A::ScanFast) // one tile per block
        return ceil_div(n, kScanFastTile);
    if (a == A::HistFast) // 16 bytes per thread per round, as many as reside
        return std::clamp(ceil_div(n, 16LL * kFastHistBlock), 1, kFastHistMaxGrid);
    if (i.grid_stride)
        return std::max(1, ceil_div(n, static_cast<long long>(block) * kElemsPerThread));
    return ceil_div(n, block); // one element per thread
}

std::span<const AlgorithmInfo> algorithms() {
    return kAlgorithms;
}

std::string_view family_name(Family f) {
    switch (f) {
    case F::Reduce:
        return "Reduction";
    case F::Scan:
        return "Scan";
    case F::Histogram:
        return "Histogram";
    }
    return "";
}

namespace {
constexpr std::array<std::string_view, kPitfallCount> kPitfallIds{
    "none", "non-power-of-two", "every-lane-writes", "partial-warp", "no-final-sync"};
}

std::string_view pitfall_id(Pitfall p) {
    return kPitfallIds.at(static_cast<std::size_t>(p));
}

Pitfall find_pitfall(std::string_view id) {
    for (std::size_t i = 0; i < kPitfallIds.size(); ++i)
        if (kPitfallIds[i] == id)
            return static_cast<Pitfall>(i);
    throw InputError("unknown pitfall " + quote(id) +
                     ": choose non-power-of-two (reduce-tree), every-lane-writes (reduce-full), "
                     "partial-warp (reduce-shuffle) or no-final-sync (scan-blelloch)");
}

Algorithm pitfall_algorithm(Pitfall p) {
    switch (p) {
    case Pitfall::NonPowerOfTwo:
        return A::ReduceTree;
    case Pitfall::EveryLaneWrites:
        return A::ReduceFull;
    case Pitfall::PartialWarp:
        return A::ReduceShuffle;
    case Pitfall::NoFinalSync:
        return A::ScanBlelloch;
    case Pitfall::None:
        break;
    }
    return A::ReduceFull;
}

bool has_schedule(Algorithm a) {
    return a == A::ReduceAtomic || a == A::ScanFast;
}

bool pitfall_runs_on_gpu(Pitfall p) {
    return p == Pitfall::None || p == Pitfall::NonPowerOfTwo || p == Pitfall::EveryLaneWrites;
}

const AlgorithmInfo& info(Algorithm a) {
    for (const auto& i : kAlgorithms)
        if (i.algorithm == a)
            return i;
    throw std::logic_error("algorithm missing from the catalogue");
}

const AlgorithmInfo& find_algorithm(std::string_view id) {
    for (const auto& i : kAlgorithms)
        if (i.id == id)
            return i;
    throw InputError("unknown algorithm " + quote(id) + ": choose one of " + list_ids());
}

Request normalize(Request r) {
    if (r.options.pitfall != Pitfall::None && pitfall_algorithm(r.options.pitfall) != r.algorithm)
        throw InputError("the pitfall " + std::string(pitfall_id(r.options.pitfall)) + " changes " +
                         std::string(info(pitfall_algorithm(r.options.pitfall)).id) + ", not " +
                         std::string(info(r.algorithm).id));
    if (r.options.pitfall == Pitfall::PartialWarp &&
        (r.options.active_lanes < 1 || r.options.active_lanes > kWarpSize))
        throw InputError("active lanes must be 1 to 32: the lanes that call warpReduce");
    if (r.options.pitfall != Pitfall::PartialWarp)
        r.options.active_lanes = kWarpSize;
    if (r.block == 0)
        r.block = default_block(r);
    // The bins before the input: an element is checked against them.
    check_block(r);
    check_bins(r);
    check_input(r);
    check_grid(r);
    if (info(r.algorithm).family != F::Histogram)
        r.bins = 0; // meaningless outside histograms; keeps equal requests equal
    if (info(r.algorithm).family != F::Scan || r.algorithm == A::ScanFast) // scanFast: exclusive
        r.options.inclusive = false;
    if (r.algorithm == A::ScanHillisSteele)
        r.options.inclusive = true; // inclusive by construction, whatever was asked
    if (r.algorithm != A::HistPrivatised && r.algorithm != A::HistPerWarp)
        r.options.skip_empty = true; // hist-fast's fold always skips empty bins
    if (r.algorithm != A::ReduceAtomic)
        r.options.order_seed = 0;
    return r;
}

void require_traced(Algorithm a) {
    if (!info(a).traced)
        throw InputError(std::string(info(a).id) +
                         " is a production kernel: it is timed (`pplab bench`) and checked, "
                         "not traced; trace the chapter's stages instead");
}

Request normalize_trace(Request r) {
    require_traced(r.algorithm);
    return r.algorithm == A::ScanFast ? normalize_lookback(std::move(r)) : normalize(std::move(r));
}

Request normalize_lookback(Request r) {
    if (r.algorithm != A::ScanFast)
        throw std::logic_error("normalize_lookback is for scan-fast");
    if (r.options.pitfall != Pitfall::None)
        throw InputError("the pitfall " + std::string(pitfall_id(r.options.pitfall)) + " changes " +
                         std::string(info(pitfall_algorithm(r.options.pitfall)).id) +
                         ", not scan-fast");
    if (r.block == 0)
        r.block = 256;
    if (r.block < kWarpSize || r.block > kMaxBlock || r.block % kWarpSize != 0)
        throw InputError("scan-fast looks back with one warp and scans in whole warps: the block "
                         "size must be a multiple of 32 from 32 to 1024; " +
                         std::to_string(r.block) + " is not");
    check_input(r);
    const int tile = r.block * kLookbackItems;
    const int tiles = ceil_div(r.n(), tile);
    if (tiles > kMaxLookbackTiles)
        throw InputError("scan-fast is traced at classroom sizes: at most " +
                         std::to_string(kMaxLookbackTiles) + " tiles of " +
                         std::to_string(r.block) + " threads x " + std::to_string(kLookbackItems) +
                         " = " + std::to_string(tile) +
                         " elements (n <= " + std::to_string(kMaxLookbackTiles * tile) +
                         "); n = " + std::to_string(r.n()) + " makes " + std::to_string(tiles) +
                         " tiles. `pplab bench` times it at any size");
    if (r.grid != 0 && r.grid != tiles)
        throw InputError("scan-fast does not take --grid: one block scans each tile of " +
                         std::to_string(tile) + " elements, so the grid is ceil(n / " +
                         std::to_string(tile) + ") = " + std::to_string(tiles));
    r.grid = tiles;
    r.bins = 0;
    r.options.inclusive = false; // exclusive, as the production kernel
    r.options.skip_empty = true;
    r.options.active_lanes = kWarpSize;
    return r; // order_seed kept: the CPU model's schedule
}

int shared_bytes(const Request& r) {
    switch (r.algorithm) {
    case A::ReduceTree:
    case A::ReduceCoarsened:
    case A::ScanBlelloch:
    case A::ScanMultiblock:
    case A::ScanHillisSteele:
        return 4 * r.block;
    case A::ReduceFull:
    case A::ReduceAtomic:
        return 4 * (r.block / kWarpSize);
    case A::HistPrivatised:
        return 4 * r.bins;
    case A::HistPerWarp:
        return 4 * r.bins * (r.block / kWarpSize);
    case A::HistFast:
        return 4 * r.bins * kWarpSize; // one copy per lane
    default:
        return 0;
    }
}

namespace {
constexpr std::array kGenerators{
    Generator::Seq,          Generator::Ones,   Generator::RandomInt, Generator::RandomFloat,
    Generator::UniformBytes, Generator::OneBin, Generator::Skewed,    Generator::Sparse};
}

std::string_view generator_id(Generator g) {
    switch (g) {
    case Generator::Seq:
        return "seq";
    case Generator::Ones:
        return "ones";
    case Generator::RandomInt:
        return "random-int";
    case Generator::RandomFloat:
        return "random-float";
    case Generator::UniformBytes:
        return "uniform-bytes";
    case Generator::OneBin:
        return "one-bin";
    case Generator::Skewed:
        return "skewed";
    case Generator::Sparse:
        return "sparse";
    }
    return "?";
}

std::span<const Generator> generators() {
    return kGenerators;
}

Generator find_generator(std::string_view id) {
    std::string names;
    for (Generator g : kGenerators) {
        if (generator_id(g) == id)
            return g;
        names += (names.empty() ? "" : ", ") + std::string(generator_id(g));
    }
    throw InputError("unknown generator " + quote(id) + ": choose one of " + names);
}

std::vector<float> generate(Generator g, int n, std::uint64_t seed, int bins) {
    if (n < 1)
        throw InputError("n must be at least 1");
    // Bin-valued generators stay inside [0, range): the bins of a histogram, or byte values.
    const auto range = static_cast<std::uint32_t>(bins > 0 ? bins : 256);
    SplitMix rng{seed};
    const std::uint32_t favourite_int = SplitMix{seed ^ 0xB1Bu}.below(range);
    const auto favourite = static_cast<float>(favourite_int);
    std::vector<float> v(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        float x = 0;
        switch (g) {
        case Generator::Seq: // 1, 2, 3, ... (bins: 0, 1, ..., bins-1, 0, ...)
            x = bins > 0 ? static_cast<float>(i % bins) : static_cast<float>(i + 1);
            break;
        case Generator::Ones:
            x = bins > 0 ? static_cast<float>(1 % bins) : 1.0f;
            break;
        case Generator::RandomInt: // small whole numbers: sums stay exact in fp32
            x = static_cast<float>(rng.below(bins > 0 ? range : 10u));
            break;
        case Generator::RandomFloat:
            x = rng.unit();
            break;
        case Generator::UniformBytes:
            x = static_cast<float>(rng.below(range));
            break;
        case Generator::OneBin:
            x = favourite;
            break;
        case Generator::Skewed: // 90% one value, the rest uniform
            x = rng.below(10) < 9 ? favourite : static_cast<float>(rng.below(range));
            break;
        case Generator::Sparse: // one value in 16 of the range: most bins stay empty
            x = static_cast<float>((favourite_int + 16 * rng.below((range + 15) / 16)) % range);
            break;
        }
        v[static_cast<std::size_t>(i)] = x;
    }
    return v;
}

} // namespace pplab
