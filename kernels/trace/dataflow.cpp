#include "pplab/dataflow.hpp"

#include "pplab/plan.hpp"

#include <algorithm>
#include <bit>
#include <string>

namespace pplab {

namespace {

std::string idx(const char* array, long long i) {
    return std::string(array) + "[" + std::to_string(i) + "]";
}

std::string range(long long first, long long last, const char* what = "threads") {
    if (first == last)
        return std::string(what == std::string("threads") ? "thread" : "lane") + " " +
               std::to_string(first);
    return std::string(what) + " " + std::to_string(first) + "–" + std::to_string(last);
}

int log2_floor(int x) {
    return std::bit_width(static_cast<unsigned>(x)) - 1;
}

// Levels count from 0, as the chapter's comments do ("Level 0: threads 0..TILE/2-1 ..."):
// "Level 0 (1st of 3)".
std::string level_of(const char* name, int level, int levels) {
    const int nth = level + 1;
    const char* suffix = (nth % 100 >= 11 && nth % 100 <= 13) ? "th"
                         : nth % 10 == 1                      ? "st"
                         : nth % 10 == 2                      ? "nd"
                         : nth % 10 == 3                      ? "rd"
                                                              : "th";
    return std::string(name) + " " + std::to_string(level) + " (" + std::to_string(nth) + suffix +
           " of " + std::to_string(levels) + ")";
}

} // namespace

Dataflow::Dataflow(const Trace& t) : t_(t), predecessor_(t.frames.size(), -1) {
    // Grid-wide state (global bins, the single atomic sum) is carried from step to step
    // across blocks; everything else lives in one block's (or one warp's) buffer.
    std::map<std::tuple<int, int, int, int>, int> last_in_scope; // (pass, block, warp, buffer)
    std::map<std::pair<int, int>, int> last_of_step;             // (pass, step)
    for (std::size_t i = 0; i < t.frames.size(); ++i) {
        const Frame& f = t.frames[i];
        const int at = static_cast<int>(i);
        index_[{f.pass, static_cast<int>(f.step), f.level, f.block, f.warp}] = at;
        const bool grid_wide = f.step == Step::HistFold || f.step == Step::AtomicAdd;
        if (grid_wide) {
            const auto key = std::pair{f.pass, static_cast<int>(f.step)};
            if (const auto it = last_of_step.find(key); it != last_of_step.end())
                predecessor_[i] = it->second;
            last_of_step[key] = at;
        } else {
            const auto key = std::tuple{f.pass, f.block, f.warp, static_cast<int>(f.buffer)};
            if (const auto it = last_in_scope.find(key); it != last_in_scope.end())
                predecessor_[i] = it->second;
            last_in_scope[key] = at;
        }
    }
}

int Dataflow::find(Step step, int pass, int level, int block, int warp) const {
    const auto it = index_.find({pass, static_cast<int>(step), level, block, warp});
    return it == index_.end() ? -1 : it->second;
}

int Dataflow::predecessor(std::size_t index) const {
    return predecessor_.at(index);
}

std::vector<CellWrite> Dataflow::writes(std::size_t index) const {
    const Frame& f = t_.frames[index];
    const Request& r = t_.request;
    const int pred = predecessor(index);
    const auto P = [&](int cell) { return CellRef{pred, cell}; };
    const auto input = [](long long i) { return CellRef{CellRef::kInput, static_cast<int>(i)}; };

    // Geometry of this frame's launch.
    const Plan plan = make_plan(r);
    const Launch& l = plan.launches.at(static_cast<std::size_t>(f.pass));
    const int B = l.block, G = l.grid, n = l.n, W = B / kWarpSize, L = log2_floor(B);

    std::vector<CellWrite> w(f.values.size());
    const auto unchanged_from_pred = [&] {
        for (std::size_t c = 0; c < w.size(); ++c)
            if (w[c].thread < 0 && pred >= 0) {
                w[c].from = {P(static_cast<int>(c))};
                w[c].expression = "unchanged";
            }
    };

    switch (f.step) {
    case Step::SerialAdd: {
        const int i = f.level - 1;
        w[0].thread = 0;
        w[0].from =
            pred >= 0 ? std::vector<CellRef>{P(0), input(i)} : std::vector<CellRef>{input(i)};
        w[0].expression =
            pred >= 0 ? "sum = sum + " + idx("in", i) : "sum = 0.0f + " + idx("in", i);
        break;
    }
    case Step::Load:
        if (r.algorithm == Algorithm::ReduceCoarsened) {
            const int acc = find(Step::Accumulate, f.pass, plan.rounds, f.block, -1);
            for (int t = 0; t < B; ++t) {
                w[t].thread = t;
                w[t].from = {CellRef{acc, t}};
                w[t].expression = idx("s", t) + " = sum";
            }
            break;
        }
        for (std::size_t c = 0; c < w.size(); ++c) {
            const long long base = static_cast<long long>(std::max(f.block, 0)) * B +
                                   (f.warp >= 0 ? f.warp * kWarpSize : 0);
            const long long i = base + static_cast<long long>(c);
            const char* dst = f.buffer == Buffer::Lanes ? "val" : "s";
            w[c].thread = static_cast<int>(c);
            if (i < n) {
                w[c].from = {input(i)};
                w[c].expression =
                    (f.buffer == Buffer::Lanes ? std::string("val")
                                               : idx(dst, static_cast<long long>(c))) +
                    " = " + idx("in", i);
            } else {
                w[c].expression =
                    (f.buffer == Buffer::Lanes ? std::string("val")
                                               : idx(dst, static_cast<long long>(c))) +
                    " = 0.0f (" + idx("in", i) + " is past n)";
            }
        }
        break;
    case Step::Accumulate:
        for (int t = 0; t < B; ++t) {
            const long long i = (static_cast<long long>(f.level - 1) * G + f.block) * B + t;
            if (i >= n)
                continue;
            w[t].thread = t;
            w[t].from =
                pred >= 0 ? std::vector<CellRef>{P(t), input(i)} : std::vector<CellRef>{input(i)};
            w[t].expression = "sum = sum + " + idx("in", i);
        }
        unchanged_from_pred();
        break;
    case Step::TreeLevel: {
        const int stride = B >> (f.level + 1);
        for (int t = 0; t < stride; ++t) {
            w[t].thread = t;
            w[t].from = {P(t), P(t + stride)};
            w[t].expression = idx("s", t) + " = " + idx("s", t) + " + " + idx("s", t + stride);
        }
        unchanged_from_pred();
        break;
    }
    case Step::Shuffle:
    case Step::FinalShuffle: {
        if (f.step == Step::FinalShuffle && f.level == 0) {
            const int totals = find(Step::WarpTotals, f.pass, 0, f.block, -1);
            for (int lane = 0; lane < kWarpSize; ++lane) {
                w[lane].thread = lane;
                if (lane < W) {
                    w[lane].from = {CellRef{totals, lane}};
                    w[lane].expression = "v = " + idx("s", lane);
                } else {
                    w[lane].expression = "v = 0.0f (lane >= WARPS: the identity)";
                }
            }
            break;
        }
        const int offset = kWarpSize >> f.level;
        // The first shuffle of reduceFull reads the registers the grid-stride loop left.
        int src = pred;
        int base = 0;
        if (pred < 0) {
            src = find(Step::Accumulate, f.pass, grid_stride_rounds(n, G, B), f.block, -1);
            base = f.warp * kWarpSize;
        }
        const int active = f.step == Step::Shuffle ? r.options.active_lanes : kWarpSize;
        for (int lane = 0; lane < kWarpSize; ++lane) {
            const int from_lane = lane + offset;
            if (lane >= active) { // did not call warpReduce: keeps its value
                w[lane].from = {CellRef{src, base + lane}};
                w[lane].expression =
                    "unchanged: lane " + std::to_string(lane) + " does not call warpReduce";
                continue;
            }
            w[lane].thread = lane;
            if (from_lane < kWarpSize && from_lane >= active) {
                w[lane].from = {CellRef{src, base + lane}};
                w[lane].undefined = true;
                w[lane].expression = "undefined: lane " + std::to_string(from_lane) +
                                     " did not call __shfl_down_sync, so the value it returns "
                                     "is undefined (all 32 lanes must take part)";
            } else if (from_lane < kWarpSize) {
                w[lane].from = {CellRef{src, base + lane}, CellRef{src, base + from_lane}};
                w[lane].expression = "val = val + __shfl_down_sync(0xffffffff, val, " +
                                     std::to_string(offset) + ") from lane " +
                                     std::to_string(from_lane);
            } else {
                w[lane].from = {CellRef{src, base + lane}, CellRef{src, base + lane}};
                w[lane].keeps_own = true;
                w[lane].expression =
                    "val = val + val (lane " + std::to_string(from_lane) +
                    " is outside the warp: the shuffle returns the lane's own value)";
            }
        }
        break;
    }
    case Step::WarpTotals:
        for (int warp = 0; warp < W; ++warp) {
            const int last = find(Step::Shuffle, f.pass, 5, f.block, warp);
            w[warp].thread = warp * kWarpSize; // lane 0 of the warp
            if (r.options.pitfall == Pitfall::EveryLaneWrites) {
                for (int lane = 0; lane < kWarpSize; ++lane)
                    w[warp].from.push_back(CellRef{last, lane});
                w[warp].race = true;
                w[warp].expression = idx("s", warp) + " = sum by all 32 lanes of warp " +
                                     std::to_string(warp) +
                                     ": the writes race, one wins, and the code does not say which";
                continue;
            }
            w[warp].from = {CellRef{last, 0}};
            w[warp].expression =
                idx("s", warp) + " = sum (lane 0 of warp " + std::to_string(warp) + ")";
        }
        break;
    case Step::BlockTotal: {
        w[0].thread = 0;
        CellRef src{};
        std::string expr = idx("out", f.block) + " = " + idx("s", 0);
        if (r.algorithm == Algorithm::ReduceTree || r.algorithm == Algorithm::ReduceCoarsened) {
            const int last = L > 0 ? find(Step::TreeLevel, f.pass, L - 1, f.block, -1)
                                   : find(Step::Load, f.pass, 0, f.block, -1);
            src = {last, 0};
        } else if (r.algorithm == Algorithm::ReduceFull) {
            src = {find(Step::FinalShuffle, f.pass, 5, f.block, -1), 0};
            expr = idx("out", f.block) + " = sum (lane 0 of the first warp)";
        } else if (info(r.algorithm).family == Family::Scan) {
            const int root = L > 0 ? find(Step::Upsweep, f.pass, L - 1, f.block, -1)
                                   : find(Step::Load, f.pass, 0, f.block, -1);
            src = {root, B - 1};
            expr = idx("totals", f.block) + " = " + idx("s", B - 1) + " (the upsweep's root)";
        } else {
            expr = "the block's total, reduced as reduceFull does";
        }
        if (src.frame >= 0)
            w[0].from = {src};
        w[0].expression = expr;
        break;
    }
    case Step::AtomicAdd: {
        const int total = find(Step::BlockTotal, f.pass, 0, f.block, -1);
        w[0].thread = 0;
        w[0].from = {CellRef{total, 0}};
        w[0].expression = "the total of block " + std::to_string(f.block);
        w[1].thread = 0;
        w[1].from = pred >= 0 ? std::vector<CellRef>{CellRef{pred, 1}, CellRef{total, 0}}
                              : std::vector<CellRef>{CellRef{total, 0}};
        w[1].expression =
            pred >= 0 ? "sum = sum + total (atomicAdd by block " + std::to_string(f.block) + ")"
                      : "sum = 0.0f + total (the first atomicAdd, by block " +
                            std::to_string(f.block) + ")";
        w[1].atomics = 1;
        break;
    }
    case Step::Upsweep: {
        const int stride = 1 << f.level;
        for (int tid = 0;; ++tid) {
            const int t = (tid + 1) * 2 * stride - 1; // right child
            if (t >= B)
                break;
            w[t].thread = tid;
            w[t].from = {P(t), P(t - stride)};
            w[t].expression = idx("s", t) + " = " + idx("s", t) + " + " + idx("s", t - stride);
        }
        unchanged_from_pred();
        break;
    }
    case Step::ClearRoot:
        w[B - 1].thread = 0;
        w[B - 1].expression = idx("s", B - 1) + " = 0 (the root's carry)";
        unchanged_from_pred();
        break;
    case Step::Downsweep: {
        const int stride = B >> (f.level + 1);
        for (int tid = 0;; ++tid) {
            const int t = (tid + 1) * 2 * stride - 1;
            if (t >= B)
                break;
            w[t].thread = tid;
            w[t].from = {P(t), P(t - stride)};
            w[t].expression = idx("s", t) + " = carry + " + idx("s", t - stride) +
                              " (carry = old " + idx("s", t) + ")";
            w[t - stride].thread = tid;
            w[t - stride].from = {P(t)};
            w[t - stride].expression = idx("s", t - stride) + " = carry (old " + idx("s", t) + ")";
        }
        unchanged_from_pred();
        if (r.options.pitfall == Pitfall::NoFinalSync && f.level == L - 1) {
            // Without the final barrier, whoever reads a slot next may run before its writer.
            for (int c = 0; c < B; ++c) {
                const int reader = r.options.inclusive ? c - 1 : c;
                if (reader >= 0 && w[c].thread >= 0 && w[c].thread != reader)
                    w[c].hazard = "thread " + std::to_string(reader) + " reads " + idx("s", c) +
                                  (r.options.inclusive ? " for the inclusive shift"
                                                       : " for out[" + std::to_string(c) + "]") +
                                  " with no barrier after thread " + std::to_string(w[c].thread) +
                                  " wrote it: it may see the old value";
            }
        }
        break;
    }
    case Step::InclusiveShift: {
        const int root = L > 0 ? find(Step::Upsweep, f.pass, L - 1, f.block, -1)
                               : find(Step::Load, f.pass, 0, f.block, -1);
        for (int t = 0; t < B; ++t) {
            w[t].thread = t;
            if (t + 1 < B) {
                w[t].from = {P(t + 1)};
                w[t].expression = idx("s", t) + " = " + idx("s", t + 1);
            } else {
                w[t].from = {CellRef{root, B - 1}};
                w[t].expression = idx("s", t) + " = the block total";
            }
        }
        break;
    }
    case Step::AddCarries: {
        // Which recursion level this pass adds carries to, and where its carries were scanned.
        const auto levels = scan_levels(r.n(), r.block);
        std::size_t k = 0;
        while (levels[k].carry_pass != f.pass)
            ++k;
        const ScanLevel& next = levels[k + 1];
        const int own =
            k == 0 && r.options.inclusive
                ? find(Step::InclusiveShift, levels[k].scan_pass, 0, f.block, -1)
                : (L > 0 ? find(Step::Downsweep, levels[k].scan_pass, L - 1, f.block, -1)
                         : find(Step::ClearRoot, levels[k].scan_pass, 0, f.block, -1));
        const int carry_block = f.block / B, carry_cell = f.block % B;
        const int carry = next.grid > 1
                              ? find(Step::AddCarries, next.carry_pass, 0, carry_block, -1)
                              : (L > 0 ? find(Step::Downsweep, next.scan_pass, L - 1, 0, -1)
                                       : find(Step::ClearRoot, next.scan_pass, 0, 0, -1));
        for (int t = 0; t < B; ++t) {
            w[t].thread = t;
            w[t].from = {CellRef{own, t}, CellRef{carry, carry_cell}};
            w[t].expression = idx("out", static_cast<long long>(f.block) * B + t) + " = " +
                              idx("out", static_cast<long long>(f.block) * B + t) + " + " +
                              idx("carries", f.block);
        }
        break;
    }
    case Step::HillisSteele: {
        const int offset = 1 << (f.level - 1);
        for (int t = offset; t < B; ++t) {
            w[t].thread = t;
            w[t].from = {P(t), P(t - offset)};
            w[t].expression = idx("s", t) + " = " + idx("s", t) + " + " + idx("s", t - offset);
        }
        unchanged_from_pred();
        break;
    }
    case Step::HistZero:
        for (std::size_t c = 0; c < w.size(); ++c) {
            const long long slot =
                static_cast<long long>(std::max(f.warp, 0)) * r.bins + static_cast<long long>(c);
            w[c].thread = static_cast<int>(slot % B);
            w[c].expression = (f.warp >= 0 ? idx("s_hist", f.warp) : std::string("s_hist")) + "[" +
                              std::to_string(c) + "] = 0";
        }
        break;
    case Step::HistAccumulate: {
        // The elements this round (and this block or warp) read, and the bins they hit.
        const long long round0 = static_cast<long long>(f.level - 1) * G * B;
        long long first = round0, count = static_cast<long long>(G) * B;
        int thread0 = 0;
        if (f.block >= 0) {
            first = round0 + static_cast<long long>(f.block) * B;
            count = B;
            if (f.warp >= 0) {
                first += f.warp * kWarpSize;
                count = kWarpSize;
                thread0 = f.warp * kWarpSize;
            }
        }
        const char* target = r.algorithm == Algorithm::HistGlobal ? "g_hist" : "s_hist";
        for (long long i = first; i < std::min<long long>(first + count, n); ++i) {
            const int bin = static_cast<int>(r.input[static_cast<std::size_t>(i)]);
            CellWrite& c = w[static_cast<std::size_t>(bin)];
            if (c.atomics == 0) {
                c.thread = thread0 + static_cast<int>((i - first) % B);
                if (pred >= 0)
                    c.from.push_back(P(bin));
            }
            ++c.atomics;
            c.from.push_back(input(i));
        }
        for (std::size_t b = 0; b < w.size(); ++b)
            if (w[b].atomics > 0)
                w[b].expression = std::to_string(w[b].atomics) + " atomicAdd(&" + target + "[" +
                                  std::to_string(b) + "], 1)";
        unchanged_from_pred();
        break;
    }
    case Step::HistMerge: {
        const int rounds = plan.rounds;
        for (std::size_t c = 0; c < w.size(); ++c) {
            w[c].thread = static_cast<int>(c % static_cast<std::size_t>(B));
            for (int warp = 0; warp < W; ++warp) {
                const int src = rounds > 0
                                    ? find(Step::HistAccumulate, f.pass, rounds, f.block, warp)
                                    : find(Step::HistZero, f.pass, 0, f.block, warp);
                w[c].from.push_back(CellRef{src, static_cast<int>(c)});
            }
            w[c].expression =
                "sum of s_hist[0.." + std::to_string(W - 1) + "][" + std::to_string(c) + "]";
        }
        break;
    }
    case Step::HistFold: {
        const int rounds = plan.rounds;
        const int priv = r.algorithm == Algorithm::HistPerWarp
                             ? find(Step::HistMerge, f.pass, 0, f.block, -1)
                             : (rounds > 0 ? find(Step::HistAccumulate, f.pass, rounds, f.block, -1)
                                           : find(Step::HistZero, f.pass, 0, f.block, -1));
        const auto& priv_values = t_.frames[static_cast<std::size_t>(priv)].values;
        for (std::size_t c = 0; c < w.size(); ++c) {
            if (r.options.skip_empty && priv_values[c] == 0.0f)
                continue;
            w[c].thread = static_cast<int>(c % static_cast<std::size_t>(B));
            w[c].atomics = 1;
            w[c].from = pred >= 0 ? std::vector<CellRef>{P(static_cast<int>(c)),
                                                         CellRef{priv, static_cast<int>(c)}}
                                  : std::vector<CellRef>{CellRef{priv, static_cast<int>(c)}};
            w[c].expression = "atomicAdd(&g_hist[" + std::to_string(c) + "], s_hist[" +
                              std::to_string(c) + "]) by block " + std::to_string(f.block);
        }
        unchanged_from_pred();
        break;
    }
    }
    return w;
}

std::string Dataflow::caption(std::size_t index) const {
    const Frame& f = t_.frames[index];
    const Request& r = t_.request;
    const Plan plan = make_plan(r);
    const Launch& l = plan.launches.at(static_cast<std::size_t>(f.pass));
    const int B = l.block, G = l.grid, W = B / kWarpSize, L = log2_floor(B);
    const std::string where =
        f.block >= 0 && G > 1 ? "Block " + std::to_string(f.block) + ": " : "";
    const std::string pass =
        f.pass > 0 && r.algorithm == Algorithm::ReduceFull
            ? "Second pass (one block over the " + std::to_string(l.n) + " block totals): "
            : "";
    const auto plural = [](long long k, const char* one, const char* many) {
        return std::to_string(k) + " " + (k == 1 ? one : many);
    };
    switch (f.step) {
    case Step::SerialAdd:
        return "Addition " + std::to_string(f.level) + " of " + std::to_string(l.n) +
               ": thread 0 adds in[" + std::to_string(f.level - 1) +
               "] to its running sum; every other thread idles";
    case Step::Load:
        if (r.algorithm == Algorithm::ReduceCoarsened)
            return where + "Each thread stores its register sum in s[threadIdx.x]";
        if (f.buffer == Buffer::Lanes)
            return where + "Warp " + std::to_string(f.warp) +
                   ": each lane loads one element into its register; lanes past n load 0";
        return pass + where + "Load: each of the " + std::to_string(B) +
               " threads copies one element into s[threadIdx.x]; elements past n load 0";
    case Step::Accumulate:
        return pass + where + "Grid-stride round " + std::to_string(f.level) + " of " +
               std::to_string(grid_stride_rounds(l.n, G, B)) +
               ": each thread adds in[i] to its register sum (i += " + std::to_string(G * B) +
               " each round); no barrier";
    case Step::TreeLevel: {
        const int stride = B >> (f.level + 1);
        return where + level_of("Level", f.level, L) + ": " + range(0, stride - 1) +
               (stride == 1 ? " adds" : " add") + " s[t+" + std::to_string(stride) +
               "] into s[t]; one barrier";
    }
    case Step::Shuffle: {
        const int offset = kWarpSize >> f.level;
        if (r.options.active_lanes < kWarpSize)
            return where + "Warp " + std::to_string(f.warp) + ", shuffle " +
                   std::to_string(f.level) + " of 5 (offset " + std::to_string(offset) +
                   "): only lanes 0–" + std::to_string(r.options.active_lanes - 1) +
                   " call warpReduce; a lane reading from one that does not gets an undefined "
                   "value (marked ?)";
        return pass + where + "Warp " + std::to_string(f.warp) + ", shuffle " +
               std::to_string(f.level) + " of 5 (offset " + std::to_string(offset) +
               "): " + range(0, kWarpSize - offset - 1, "lanes") + " add lane+" +
               std::to_string(offset) + "; " + range(kWarpSize - offset, kWarpSize - 1, "lanes") +
               (offset == 1 ? " reads outside the warp and adds its own value; no barrier"
                            : " read outside the warp and add their own value; no barrier");
    }
    case Step::WarpTotals:
        if (r.options.pitfall == Pitfall::EveryLaneWrites)
            return pass + where +
                   "Every lane writes its sum to s[warpId]: 32 writes race for each "
                   "slot; one wins, and the code does not say which (Exercise 2)";
        return pass + where + "Lane 0 of each warp writes its total to s[warpId] (" +
               plural(W, "slot", "slots") + "); then the block's only barrier";
    case Step::FinalShuffle:
        if (f.level == 0)
            return pass + where + "The first warp loads the " +
                   plural(W, "warp total", "warp totals") + "; lanes " + std::to_string(W) +
                   "–31 load the identity 0";
        return pass + where + "First warp, shuffle " + std::to_string(f.level) + " of 5 (offset " +
               std::to_string(kWarpSize >> f.level) + ") over the warp totals";
    case Step::BlockTotal:
        if (r.options.pitfall == Pitfall::NonPowerOfTwo) {
            // Which slots of the loaded array reach s[0] through the halving loop.
            std::vector<bool> reaches(static_cast<std::size_t>(B), false);
            std::vector<std::vector<int>> held(static_cast<std::size_t>(B));
            for (int t = 0; t < B; ++t)
                held[static_cast<std::size_t>(t)] = {t};
            for (int stride = B / 2; stride > 0; stride >>= 1)
                for (int t = 0; t < stride; ++t)
                    for (int k : held[static_cast<std::size_t>(t + stride)])
                        held[static_cast<std::size_t>(t)].push_back(k);
            for (int k : held[0])
                reaches[static_cast<std::size_t>(k)] = true;
            std::string lost;
            for (int t = 0; t < B; ++t)
                if (!reaches[static_cast<std::size_t>(t)])
                    lost += (lost.empty() ? "" : ", ") + idx("s", t);
            return where + "Thread 0 writes s[0] to out[" + std::to_string(f.block) + "], but " +
                   lost + " never reached s[0]: with TILE = " + std::to_string(B) +
                   ", not a power of two, the halving loop skips them and the sum is wrong";
        }
        if (info(r.algorithm).family == Family::Scan)
            return where + "Block total (the upsweep's root) written to totals[" +
                   std::to_string(f.block) + "] for the scan of the totals";
        return pass + where + "Thread 0 writes the block total to out[" + std::to_string(f.block) +
               "]";
    case Step::AtomicAdd:
        return "atomicAdd " + std::to_string(f.level) + " of " + std::to_string(G) + ": block " +
               std::to_string(f.block) +
               " adds its total to the single sum (arrival order is the "
               "hardware's choice)";
    case Step::Upsweep: {
        const int stride = 1 << f.level;
        const int active = B / (2 * stride);
        return where + level_of("Upsweep level", f.level, L) + " (stride " +
               std::to_string(stride) + "): " + plural(active, "thread adds", "threads each add") +
               " s[t-" + std::to_string(stride) + "] into the right child s[t]; one barrier";
    }
    case Step::ClearRoot:
        return where + "Clear the root: s[" + std::to_string(B - 1) +
               "] = 0, the carry of the empty sequence before the array";
    case Step::Downsweep: {
        const int stride = B >> (f.level + 1);
        const int active = B / (2 * stride);
        const bool missing = r.options.pitfall == Pitfall::NoFinalSync;
        return where + level_of("Downsweep level", f.level, L) + " (stride " +
               std::to_string(stride) + "): " + plural(active, "thread passes", "threads pass") +
               " the carry s[t] unchanged to the left child and carry + left sum to the right "
               "child" +
               (f.level == L - 1 ? missing
                                       ? "; the final barrier is MISSING: the reads that follow "
                                         "may run before these writes (marked)"
                                       : "; then the final barrier"
                                 : "");
    }
    case Step::InclusiveShift:
        return where + "Inclusive result: every slot takes its right neighbour's exclusive sum; "
                       "the last takes the block total";
    case Step::AddCarries:
        return "Block " + std::to_string(f.block) +
               " adds its carry, the sum of every block before it, to each of its elements";
    case Step::HillisSteele: {
        const int offset = 1 << (f.level - 1);
        return "Step " + std::to_string(f.level) + " (offset " + std::to_string(offset) +
               "): " + range(offset, B - 1) + (offset == B - 1 ? " adds" : " add") + " s[t-" +
               std::to_string(offset) + "] into s[t]; two barriers";
    }
    case Step::HistZero:
        return where +
               (f.warp >= 0 ? "Warp " + std::to_string(f.warp) + "'s private histogram zeroed"
                            : std::string("Private histogram zeroed by all threads")) +
               "; one barrier before counting";
    case Step::HistAccumulate: {
        int busiest = 0;
        const auto writes_now = writes(index);
        for (const auto& c : writes_now)
            busiest = std::max(busiest, c.atomics);
        const std::string target =
            r.algorithm == Algorithm::HistGlobal ? "global" : "shared-memory";
        return where + (f.warp >= 0 ? "Warp " + std::to_string(f.warp) + ", r" : std::string("R")) +
               "ound " + std::to_string(f.level) + ": each thread counts its element with a " +
               target + " atomicAdd; the busiest bin took " + plural(busiest, "atomic", "atomics");
    }
    case Step::HistMerge:
        return where + "One thread per bin sums the " + plural(W, "warp copy", "warp copies");
    case Step::HistFold: {
        int atomics = 0;
        for (const auto& c : writes(index))
            atomics += c.atomics;
        return "Block " + std::to_string(f.block) +
               " folds its private histogram into global memory: " +
               plural(atomics, "atomicAdd", "atomicAdds") +
               (r.options.skip_empty ? " (empty bins skipped)" : " (every bin, empty or not)");
    }
    }
    return {};
}

} // namespace pplab
