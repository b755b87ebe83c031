// The puzzles (pplab/puzzles.hpp): their statements, hidden tests and the verdict.
#include "pplab/puzzles.hpp"

#include "pplab/backend.hpp"
#include "pplab_sim_resources.hpp"

#include <algorithm>

namespace pplab::sim {

namespace {

struct Input {
    Generator gen = Generator::RandomFloat;
    int n = 0;
    int block = 0;
    int grid = 0; // 0: the algorithm's default
    int bins = 256;
};

Request launch(Algorithm a, const Input& in, std::uint64_t seed) {
    Request r;
    r.algorithm = a;
    r.block = in.block;
    r.grid = in.grid;
    r.bins = in.bins;
    const bool histogram = info(a).family == Family::Histogram;
    r.input = generate(in.gen, in.n, seed, histogram ? in.bins : 0);
    return r;
}

Request listed(Algorithm a, std::vector<float> input, int block) {
    Request r;
    r.algorithm = a;
    r.block = block;
    r.input = std::move(input);
    return r;
}

// Hidden tests: the seed is fixed per puzzle and test, so a verdict repeats exactly.
std::vector<PuzzleTest> tests(Algorithm a, std::uint64_t seed,
                              std::vector<std::pair<std::string, Input>> inputs) {
    std::vector<PuzzleTest> out;
    for (auto& [what, in] : inputs)
        out.push_back({std::move(what), launch(a, in, seed + out.size())});
    return out;
}

using A = Algorithm;
using G = Generator;

// §8.2-§8.6.
void reduction_puzzles(std::vector<Puzzle>& p) {
    p.push_back(
        {"naive", "One thread does it all", "§8.2", A::ReduceNaive,
         "Write reduceNaive. Thread 0 adds in[0], in[1], ..., in[n-1], in that order, keeping "
         "the running sum in a register, and writes the sum to out[0]; every other thread does "
         "nothing. The kernel is correct but uses one thread: it is the reference the optimised "
         "kernels are checked against, so its order of additions is part of the answer.",
         "Which one thread does the work, and where does its running sum live between additions? "
         "Each other thread does nothing at all. Write out[0] once, when every element is in the "
         "sum: for floats, the order of the additions is part of the answer.",
         "if (threadIdx.x == 0) { float sum = 0.0f; for (int i = 0; i < n; ++i) sum += in[i]; "
         "out[0] = sum; }",
         listed(A::ReduceNaive, {3, 1, 4, 1, 5, 9, 2, 6}, 32),
         tests(A::ReduceNaive, 101,
               {{"one element", {G::RandomFloat, 1, 32}},
                {"7 whole numbers", {G::RandomInt, 7, 32}},
                {"1000 floats", {G::RandomFloat, 1000, 64}},
                {"4097 floats (odd n)", {G::RandomFloat, 4097, 256}}})});
    p.push_back(
        {"tree-loop", "The tree's loop", "§8.3", A::ReduceTree,
         "Complete reduceTree with the tree. The load is done: s[t] holds the block's elements "
         "(0 past n). Addition is associative, so the additions can be reordered into a tree: at "
         "level 0, threads 0..TILE/2-1 each add s[t] and s[t + TILE/2]; each level halves the "
         "number of active threads (threadIdx.x < stride), until s[0] holds the block's total. At "
         "each level, thread t reads a partial sum written by thread t + stride at the level "
         "before: a barrier must make those writes visible first.",
         "Each level is one pass of a loop over the stride: where does it start, and how does it "
         "change from level to level? Before a thread reads a partial sum, the thread that wrote "
         "it must have finished: put the barrier where every thread of the block reaches it, "
         "active or not.",
         "for (int stride = TILE / 2; stride > 0; stride >>= 1), with __syncthreads() at the top "
         "of the loop body, before the active threads add.",
         listed(A::ReduceTree, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, 16),
         tests(A::ReduceTree, 202,
               {{"64 floats, one full block of 64", {G::RandomFloat, 64, 64}},
                {"1000 floats in blocks of 256: the last block is partial",
                 {G::RandomFloat, 1000, 256}},
                {"33 floats in blocks of 32: the second block holds one element",
                 {G::RandomFloat, 33, 32}},
                {"3000 floats in blocks of 1024", {G::RandomFloat, 3000, 1024}}})});
    p.push_back(
        {"grid-stride", "The grid-stride accumulation", "§8.4", A::ReduceCoarsened,
         "Complete reduceCoarsened with thread coarsening: before the tree, each thread sums its "
         "share of the array in a grid-stride loop, starting at its index in the grid "
         "(blockIdx.x * blockDim.x + threadIdx.x) and stepping by the number of threads in the "
         "grid (gridDim.x * blockDim.x), while the index is below n. The serial additions into a "
         "register need no barrier and no shared memory, and the loop makes the kernel correct "
         "for any n, not only multiples of the grid size.",
         "Two numbers make the loop: where a thread starts (its place among all the grid's "
         "threads) and how far it jumps each time (how many threads the grid has). The loop's "
         "condition, not the launch, makes any n right.",
         "const int stride = gridDim.x * blockDim.x; then for (int i = blockIdx.x * blockDim.x + "
         "threadIdx.x; i < n; i += stride) sum += in[i];",
         [] {
             Request r = listed(A::ReduceCoarsened, generate(G::RandomInt, 40, 3, 0), 8);
             r.grid = 2;
             return r;
         }(),
         tests(A::ReduceCoarsened, 303,
               {{"1000 floats, blocks of 256, the default grid", {G::RandomFloat, 1000, 256}},
                {"5000 floats, 7 blocks of 64 (not a multiple of the grid)",
                 {G::RandomFloat, 5000, 64, 7}},
                {"100 floats, 8 blocks of 32: some threads have no element",
                 {G::RandomFloat, 100, 32, 8}},
                {"4099 floats, 3 blocks of 128", {G::RandomFloat, 4099, 128, 3}}})});
    p.push_back(
        {"warp-reduce", "warpReduce", "§8.5", A::ReduceShuffle,
         "Write warpReduce: reduce a warp's 32 lanes to lane 0 using only shuffles, with no "
         "shared memory and no barrier. __shfl_down_sync(mask, value, delta) moves value from "
         "lane lane + delta to lane lane, through the register file; mask names the lanes that "
         "take part, and all 32 must (0xffffffffu). The steps move data by 16, 8, 4, 2, 1, the "
         "warp-size equivalents of the tree's strides: the first folds lanes 16..31 into 0..15.",
         "It is the tree's loop without shared memory: the offset takes the warp's strides, "
         "largest first, and each step adds the value that arrives from offset lanes above. "
         "Every lane takes part in every shuffle, so the mask names all 32.",
         "for (int offset = 16; offset > 0; offset >>= 1) val += __shfl_down_sync(0xffffffffu, "
         "val, offset);",
         listed(A::ReduceShuffle, generate(G::RandomInt, 32, 4, 0), 32),
         tests(A::ReduceShuffle, 404,
               {{"32 floats, one warp", {G::RandomFloat, 32, 32}},
                {"5 floats: most lanes take part with 0", {G::RandomFloat, 5, 32}},
                {"100 floats in blocks of 64: the last warp is partial", {G::RandomFloat, 100, 64}},
                {"1000 floats in blocks of 256", {G::RandomFloat, 1000, 256}}})});
    p.push_back(
        {"shared-round", "reduceFull's one shared round", "§8.6", A::ReduceFull,
         "Complete reduceFull. The accumulation and the warp reduction are done: lane 0 of each "
         "warp holds its warp's total. Write the one shared-memory round: lane 0 of each warp "
         "writes its total to s[warpId] (one value per warp, not one per lane); one "
         "__syncthreads(), the only barrier per block, makes them visible; then the first warp "
         "combines them: lane < WARPS loads a warp total, the other lanes load the identity 0.0f, "
         "warpReduce shuffles again, and lane 0 writes the block's total to out[blockIdx.x].",
         "One lane per warp writes, one slot per warp. One barrier, which every thread of the "
         "block reaches, separates those writes from the reads. The first warp then reads at "
         "most WARPS totals: what must its other lanes hold so that the sum does not change?",
         "if (lane == 0) s[warpId] = sum; __syncthreads(); then if (warpId == 0) { const float v "
         "= (lane < WARPS) ? s[lane] : 0.0f; sum = warpReduce(v); if (lane == 0) "
         "out[blockIdx.x] = sum; }",
         listed(A::ReduceFull, generate(G::RandomInt, 256, 5, 0), 64),
         tests(A::ReduceFull, 505,
               {{"4096 floats, blocks of 256: a second launch reduces the block totals",
                 {G::RandomFloat, 4096, 256}},
                {"1000 floats, blocks of 64", {G::RandomFloat, 1000, 64}},
                {"17 floats, one warp per block (WARPS = 1)", {G::RandomFloat, 17, 32}},
                {"3000 floats, blocks of 1024 (32 warps)", {G::RandomFloat, 3000, 1024}}})});
}

// §8.7.
void scan_puzzles(std::vector<Puzzle>& p) {
    const std::vector<std::pair<std::string, Input>> scans = {
        {"8 whole numbers, one block of 8", {G::RandomInt, 8, 8}},
        {"100 floats in a block of 128: n is not a power of two", {G::RandomFloat, 100, 128}},
        {"33 floats in a block of 64", {G::RandomFloat, 33, 64}},
        {"1000 floats in a block of 1024", {G::RandomFloat, 1000, 1024}}};
    const auto exercise3 = [&](std::uint64_t seed) {
        std::vector<PuzzleTest> t{
            {"Exercise 3: [1, 2, 3, 4]", listed(A::ScanBlelloch, {1, 2, 3, 4}, 4)}};
        for (PuzzleTest& more : tests(A::ScanBlelloch, seed, scans))
            t.push_back(std::move(more));
        return t;
    };
    p.push_back(
        {"upsweep", "The Blelloch scan's upsweep", "§8.7", A::ScanBlelloch,
         "Write phase 1 of scanBlock, the upsweep: a tree reduction that stores the internal "
         "nodes instead of discarding them. For stride = 1, 2, 4, ... below n, the right child of "
         "each pair, t = (threadIdx.x + 1) * 2 * stride - 1, adds its left child t - stride: "
         "after level k, s[i] holds the sum of the 2^(k+1) elements ending at i. Each level "
         "performs disjoint writes, and reads what the level before wrote.",
         "The stride doubles from 1 while it is below n. From threadIdx.x and the stride, work "
         "out the index of the right child this thread updates: a thread whose index is past the "
         "end does nothing. Each level reads what the level before wrote: where does the barrier "
         "go?",
         "for (int stride = 1; stride < n; stride <<= 1) { __syncthreads(); const int t = "
         "(threadIdx.x + 1) * 2 * stride - 1; if (t < n) s[t] += s[t - stride]; }",
         listed(A::ScanBlelloch, {1, 2, 3, 4, 5, 6, 7, 8}, 8), exercise3(606)});
    p.push_back(
        {"downsweep", "The Blelloch scan's downsweep", "§8.7", A::ScanBlelloch,
         "Write phase 2 of scanBlock, the downsweep, after the upsweep. First the root's carry is "
         "the identity: s[n - 1] = 0. Then walk the tree top-down, stride = n/2, ..., 1: the pair "
         "rooted at right child t (left child t - stride) receives its carry, which the parent "
         "level stored in s[t]; the left child inherits the carry unchanged, the right child gets "
         "carry + its old value, the left subtree's sum. Read s[t] into the carry before s[t - "
         "stride] is overwritten, and make the last writes visible before anyone reads them.",
         "One thread clears the root before the walk down, then the stride halves from n / 2. "
         "Both writes of a pair need the old s[t]: keep it in a register first. Count the "
         "barriers: one before each level, and one more so the last level's writes are seen.",
         "if (threadIdx.x == 0) s[n - 1] = 0.0f; for (int stride = n / 2; stride > 0; stride >>= "
         "1) { __syncthreads(); t as in the upsweep; if (t < n) { const float carry = s[t]; s[t] "
         "= carry + s[t - stride]; s[t - stride] = carry; } } and a final __syncthreads().",
         listed(A::ScanBlelloch, {1, 2, 3, 4}, 4), exercise3(707)});
}

// §8.8.
void histogram_puzzles(std::vector<Puzzle>& p) {
    Puzzle fold{
        "privatised-fold",
        "The privatised histogram's fold",
        "§8.8",
        A::HistPrivatised,
        "Write the fold of histogramPrivatised. Each block has counted its elements into its "
        "private histogram s_hist in shared memory. When every count is complete (a barrier), "
        "the block's threads share the bins (b = threadIdx.x, b += TILE) and add each bin's "
        "count to g_hist in global memory with one atomicAdd, skipping the empty bins: less "
        "global traffic (Exercise 4). The fold touches each bin once per block.",
        "Wait until every thread has counted. Then the block's threads share out the bins as a "
        "loop over the block's threads shares out an array, and each bin is added to g_hist "
        "once per block. Which bins need no atomicAdd at all?",
        "__syncthreads(); for (int b = threadIdx.x; b < BINS; b += TILE) if (s_hist[b] != 0) "
        "atomicAdd(&g_hist[b], s_hist[b]);",
        [] {
            Request r = listed(A::HistPrivatised, generate(G::Skewed, 64, 8, 16), 32);
            r.bins = 16;
            return r;
        }(),
        tests(A::HistPrivatised, 808,
              {{"1000 bytes, 256 bins, skewed (90% one value)", {G::Skewed, 1000, 256}},
               {"300 values, all in one of 16 bins, blocks of 64", {G::OneBin, 300, 64, 0, 16}},
               {"5000 bytes, 256 bins, most of them empty, blocks of 128", {G::Sparse, 5000, 128}},
               {"4099 bytes, 256 bins, uniform, 3 blocks of 64", {G::UniformBytes, 4099, 64, 3}}})};
    fold.counts_global_atomics = true;
    p.push_back(std::move(fold));
    p.push_back(
        {"per-warp", "The per-warp histogram", "§8.8", A::HistPerWarp,
         "For highly skewed data, all elements fall in one bin and the block's shared atomics "
         "still contend: the next-level fix is one private histogram per warp. Each warp counts "
         "into its own copy, s_hist[warpId * BINS + bin], in a grid-stride loop; after a barrier, "
         "one thread per bin sums the WARPS copies of that bin into warp 0's copy (s_hist[bin]), "
         "which the fold then adds into g_hist.",
         "Each warp's copy is BINS counts long, one after another in s_hist: count into your "
         "warp's, never another's. After a barrier, share the bins out among the block's "
         "threads: each adds up one bin's WARPS copies and leaves the total in warp 0's copy, "
         "where the fold reads it.",
         "int* mine = s_hist + warpId * BINS; grid-stride loop: atomicAdd(&mine[data[i]], 1); "
         "__syncthreads(); for (int b = threadIdx.x; b < BINS; b += blockDim.x) { int sum = "
         "s_hist[b]; for (int w = 1; w < WARPS; ++w) sum += s_hist[w * BINS + b]; s_hist[b] = "
         "sum; }",
         [] {
             Request r = listed(A::HistPerWarp, generate(G::Skewed, 128, 9, 8), 64);
             r.bins = 8;
             return r;
         }(),
         tests(A::HistPerWarp, 909,
               {{"2000 values all in one of 64 bins, blocks of 128", {G::OneBin, 2000, 128, 0, 64}},
                {"1000 bytes, 256 bins, skewed, blocks of 256", {G::Skewed, 1000, 256}},
                {"777 values, 32 bins, uniform, blocks of 64", {G::UniformBytes, 777, 64, 0, 32}},
                {"3000 values, 200 bins, most of them empty, blocks of 32",
                 {G::Sparse, 3000, 32, 0, 200}}})});
}

std::vector<Puzzle> make_puzzles() {
    std::vector<Puzzle> p;
    reduction_puzzles(p);
    scan_puzzles(p);
    histogram_puzzles(p);
    return p;
}

// A test's verdict from its run, against the chapter kernel's trace of the same launch.
TestVerdict verdict(const Puzzle& p, const PuzzleTest& t, const RunResult& res) {
    TestVerdict v;
    v.what = t.what;
    v.ran = true;
    if (!res.ok()) {
        v.why = res.message;
        v.first_hazard_line = res.hazards.empty() ? 0 : res.hazards.front().line;
        return v;
    }
    if (!res.hazards.empty()) {
        const Hazard& h = res.hazards.front();
        v.first_hazard_line = h.line;
        v.why = "line " + std::to_string(h.line) + ": " + h.message;
        return v;
    }
    const Trace chapter = make_cpu_backend()->trace(res.trace.request);
    const Difference d = first_difference(res.trace, chapter);
    if (!d.same) {
        v.why = describe(d);
        if (!res.notes.empty()) // why levels are missing ("?"), in the runner's words
            v.why += " (" + res.notes.front() + ")";
        return v;
    }
    if (p.counts_global_atomics) {
        const std::int64_t want = summarize(chapter).total.global_atomics;
        if (res.counted.global_atomics == 0 && want > 0) {
            v.why = "Every bin is right here, but your kernel adds into g_hist without "
                    "atomicAdd: the blocks add into the same global bins, so the fold must use "
                    "atomicAdd (the chapter's kernel issues " +
                    std::to_string(want) + ", one for each bin that is not empty).";
            return v;
        }
        if (res.counted.global_atomics != want) {
            v.why = "Every level and bin is right, but your kernel issued " +
                    std::to_string(res.counted.global_atomics) +
                    " atomicAdds on g_hist where the chapter's kernel issues " +
                    std::to_string(want) + ": it skips the bins that are empty (Exercise 4).";
            return v;
        }
    }
    v.passed = true;
    return v;
}

} // namespace

std::string Puzzle::skeleton() const {
    const auto* r = sim_files::find("puzzles/" + std::string(id) + ".cu");
    if (!r)
        throw std::logic_error("the build lost the skeleton of puzzle " + std::string(id));
    return std::string(r->text());
}

std::span<const Puzzle> puzzles() {
    static const std::vector<Puzzle> all = make_puzzles();
    return all;
}

const Puzzle& find_puzzle(std::string_view id) {
    std::string ids;
    for (const Puzzle& p : puzzles()) {
        if (p.id == id)
            return p;
        ids += (ids.empty() ? "" : ", ") + std::string(p.id);
    }
    throw InputError("no puzzle '" + std::string(id) + "': the puzzles are " + ids);
}

int PuzzleVerdict::passed() const {
    return static_cast<int>(
        std::count_if(tests.begin(), tests.end(), [](const TestVerdict& t) { return t.passed; }));
}

bool PuzzleVerdict::solved() const {
    return compiled && !cancelled && !tests.empty() && passed() == static_cast<int>(tests.size());
}

PuzzleVerdict check_puzzle(const Puzzle& p, std::string_view source, const Limits& limits,
                           const std::function<void(int, int)>& progress) {
    PuzzleVerdict out;
    const int total = static_cast<int>(p.tests.size());
    for (const PuzzleTest& t : p.tests)
        out.tests.push_back({t.what, false, false, "", 0});
    for (int k = 0; k < total; ++k) {
        if (progress)
            progress(k, total);
        const PuzzleTest& t = p.tests[static_cast<std::size_t>(k)];
        RunResult res;
        try {
            res = run_kernel(t.request, source, limits);
        } catch (const InputError& e) { // the cache folder or the runner, not the file
            out.message = e.what();
            return out;
        }
        if (res.status == RunResult::Status::CompileFailed) {
            out.compiled = false;
            out.errors = res.errors;
            out.message = res.message;
            return out;
        }
        if (res.status == RunResult::Status::Cancelled) {
            out.cancelled = true;
            out.message = "cancelled";
            return out;
        }
        out.tests[static_cast<std::size_t>(k)] = verdict(p, t, res);
    }
    if (progress)
        progress(total, total);
    return out;
}

} // namespace pplab::sim
