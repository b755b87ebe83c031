// Who wrote which cell, and what each step means, in the reductions of §8.2-§8.6 (and pplab's
// reduceAtomic): the running sum, the grid-stride rounds, the tree's levels, the shuffles, the
// warp totals and the block totals.
#include "trace/dataflow_steps.hpp"

#include <string>

namespace pplab::dataflow {

namespace {

void serial_add(const StepView& v, std::vector<CellWrite>& w) {
    const int i = v.frame.level - 1;
    w[0].thread = 0;
    w[0].from = v.predecessor >= 0 ? std::vector<CellRef>{v.before(0), StepView::input(i)}
                                   : std::vector<CellRef>{StepView::input(i)};
    w[0].expression = (v.predecessor >= 0 ? "sum = sum + " : "sum = 0.0f + ") + cell_name("in", i);
}

// reduceCoarsened stores each thread's register sum; the others load the input.
void coarsened_load(const StepView& v, std::vector<CellWrite>& w) {
    const int sums = v.find(Step::Accumulate, v.flow.plan().rounds);
    for (int t = 0; t < v.block_size; ++t) {
        w[t].thread = t;
        w[t].from = {CellRef{sums, t}};
        w[t].expression = cell_name("s", t) + " = sum";
    }
}

void accumulate(const StepView& v, std::vector<CellWrite>& w) {
    for (int t = 0; t < v.block_size; ++t) {
        const long long i =
            (static_cast<long long>(v.frame.level - 1) * v.grid + v.frame.block) * v.block_size + t;
        if (i >= v.n)
            continue;
        w[t].thread = t;
        w[t].from = v.predecessor >= 0 ? std::vector<CellRef>{v.before(t), StepView::input(i)}
                                       : std::vector<CellRef>{StepView::input(i)};
        w[t].expression = "sum = sum + " + cell_name("in", i);
    }
    v.unchanged_from_predecessor(w);
}

void tree_level(const StepView& v, std::vector<CellWrite>& w) {
    const int stride = v.block_size >> (v.frame.level + 1);
    for (int t = 0; t < stride; ++t) {
        w[t].thread = t;
        w[t].from = {v.before(t), v.before(t + stride)};
        w[t].expression =
            cell_name("s", t) + " = " + cell_name("s", t) + " + " + cell_name("s", t + stride);
    }
    v.unchanged_from_predecessor(w);
}

// The first warp's load of the warp totals (reduceFull's final warpReduce, before it shuffles).
void final_load(const StepView& v, std::vector<CellWrite>& w) {
    const int totals = v.find(Step::WarpTotals, 0);
    for (int lane = 0; lane < kWarpSize; ++lane) {
        w[lane].thread = lane;
        if (lane < v.warps) {
            w[lane].from = {CellRef{totals, lane}};
            w[lane].expression = "v = " + cell_name("s", lane);
        } else {
            w[lane].expression = "v = 0.0f (lane >= WARPS: the identity)";
        }
    }
}

void shuffle(const StepView& v, std::vector<CellWrite>& w) {
    const int offset = kWarpSize >> v.frame.level;
    // The first shuffle of reduceFull reads the registers the grid-stride loop left.
    int source = v.predecessor;
    int base = 0;
    if (source < 0) {
        source = v.find(Step::Accumulate, grid_stride_rounds(v.n, v.grid, v.block_size));
        base = v.frame.warp * kWarpSize;
    }
    const int active = v.frame.step == Step::Shuffle ? v.request.options.active_lanes : kWarpSize;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const int from_lane = lane + offset;
        if (lane >= active) { // did not call warpReduce: keeps its value
            w[lane].from = {CellRef{source, base + lane}};
            w[lane].expression =
                "unchanged: lane " + std::to_string(lane) + " does not call warpReduce";
            continue;
        }
        w[lane].thread = lane;
        if (from_lane < kWarpSize && from_lane >= active) {
            w[lane].from = {CellRef{source, base + lane}};
            w[lane].undefined = true;
            w[lane].expression = "undefined: lane " + std::to_string(from_lane) +
                                 " did not call __shfl_down_sync, so the value it returns "
                                 "is undefined (all 32 lanes must take part)";
        } else if (from_lane < kWarpSize) {
            w[lane].from = {CellRef{source, base + lane}, CellRef{source, base + from_lane}};
            w[lane].expression = "val = val + __shfl_down_sync(0xffffffff, val, " +
                                 std::to_string(offset) + ") from lane " +
                                 std::to_string(from_lane);
        } else {
            w[lane].from = {CellRef{source, base + lane}, CellRef{source, base + lane}};
            w[lane].keeps_own = true;
            w[lane].expression = "val = val + val (lane " + std::to_string(from_lane) +
                                 " is outside the warp: the shuffle returns the lane's own value)";
        }
    }
}

void warp_totals(const StepView& v, std::vector<CellWrite>& w) {
    for (int warp = 0; warp < v.warps; ++warp) {
        const int last = v.find(Step::Shuffle, 5, warp);
        w[warp].thread = warp * kWarpSize; // lane 0 of the warp
        if (v.request.options.pitfall == Pitfall::EveryLaneWrites) {
            for (int lane = 0; lane < kWarpSize; ++lane)
                w[warp].from.push_back(CellRef{last, lane});
            w[warp].race = true;
            w[warp].expression = cell_name("s", warp) + " = sum by all 32 lanes of warp " +
                                 std::to_string(warp) +
                                 ": the writes race, one wins, and the code does not say which";
            continue;
        }
        w[warp].from = {CellRef{last, 0}};
        w[warp].expression =
            cell_name("s", warp) + " = sum (lane 0 of warp " + std::to_string(warp) + ")";
    }
}

void block_total(const StepView& v, std::vector<CellWrite>& w) {
    w[0].thread = 0;
    const Algorithm a = v.request.algorithm;
    if (a == Algorithm::ReduceTree || a == Algorithm::ReduceCoarsened) {
        const int last =
            v.levels > 0 ? v.find(Step::TreeLevel, v.levels - 1) : v.find(Step::Load, 0);
        w[0].from = {CellRef{last, 0}};
        w[0].expression = cell_name("out", v.frame.block) + " = " + cell_name("s", 0);
    } else if (a == Algorithm::ReduceFull) {
        w[0].from = {CellRef{v.find(Step::FinalShuffle, 5), 0}};
        w[0].expression = cell_name("out", v.frame.block) + " = sum (lane 0 of the first warp)";
    } else {
        // reduceAtomic: its block reduction is reduceFull's, not recorded step by step.
        w[0].expression = "sum: the block's total, reduced as reduceFull does (lane 0 of the "
                          "first warp), kept for the atomicAdd";
    }
}

void atomic_add(const StepView& v, std::vector<CellWrite>& w) {
    const int total = v.find(Step::BlockTotal, 0);
    w[0].thread = 0;
    w[0].from = {CellRef{total, 0}};
    w[0].expression = "the total of block " + std::to_string(v.frame.block);
    w[1].thread = 0;
    w[1].from = v.predecessor >= 0
                    ? std::vector<CellRef>{CellRef{v.predecessor, 1}, CellRef{total, 0}}
                    : std::vector<CellRef>{CellRef{total, 0}};
    w[1].expression = v.predecessor >= 0 ? "*out = *out + sum (atomicAdd by block " +
                                               std::to_string(v.frame.block) + ")"
                                         : "*out = 0.0f + sum (the first atomicAdd, by block " +
                                               std::to_string(v.frame.block) + ")";
    w[1].atomics = 1;
}

// Which slots of a block of `block` threads never reach s[0] through the halving loop.
std::string never_added(int block) {
    std::vector<std::vector<int>> held(static_cast<std::size_t>(block));
    for (int t = 0; t < block; ++t)
        held[static_cast<std::size_t>(t)] = {t};
    for (int stride = block / 2; stride > 0; stride >>= 1)
        for (int t = 0; t < stride; ++t)
            for (const int k : held[static_cast<std::size_t>(t + stride)])
                held[static_cast<std::size_t>(t)].push_back(k);
    std::vector<bool> reaches(static_cast<std::size_t>(block), false);
    for (const int k : held[0])
        reaches[static_cast<std::size_t>(k)] = true;
    std::string lost;
    for (int t = 0; t < block; ++t)
        if (!reaches[static_cast<std::size_t>(t)])
            lost += (lost.empty() ? "" : ", ") + cell_name("s", t);
    return lost;
}

std::string block_total_caption(const StepView& v, const std::string& pass) {
    const std::string out = "out[" + std::to_string(v.frame.block) + "]";
    if (v.request.options.pitfall == Pitfall::NonPowerOfTwo) {
        const std::string lost = never_added(v.block_size);
        if (lost.empty())
            return v.where() + "Thread 0 writes s[0] to " + out +
                   ": TILE = " + std::to_string(v.block_size) +
                   " is a power of two, so the halving loop adds every slot into s[0] and the "
                   "pitfall does not bite";
        return v.where() + "Thread 0 writes s[0] to " + out + ", but " + lost +
               " never reached s[0]: with TILE = " + std::to_string(v.block_size) +
               ", not a power of two, the halving loop skips them and the sum is wrong";
    }
    if (v.request.algorithm == Algorithm::ReduceAtomic)
        return v.where() + "The block's total, reduced as reduceFull does (shuffles, one "
                           "barrier), ends in lane 0 of the first warp, ready for its atomicAdd";
    return pass + v.where() + "Thread 0 writes the block total to " + out;
}

std::string atomic_caption(const StepView& v, const Trace& t) {
    const std::string by = seeded_order_by(t);
    const std::string order = !by.empty() ? "on " + by + ", an arrival order chosen with seed " +
                                                std::to_string(v.request.options.order_seed)
                                          : "the hardware's order on " + t.device;
    return "atomicAdd " + std::to_string(v.frame.level) + " of " + std::to_string(v.grid) +
           ": block " + std::to_string(v.frame.block) + " adds its total to the single sum (" +
           order + ")";
}

std::string shuffle_caption(const StepView& v, const std::string& pass) {
    const int offset = kWarpSize >> v.frame.level;
    const int active = v.request.options.active_lanes;
    const std::string head = v.where() + "Warp " + std::to_string(v.frame.warp) + ", shuffle " +
                             std::to_string(v.frame.level) + " of 5 (offset " +
                             std::to_string(offset) + ")";
    if (active < kWarpSize)
        return head + ": only " + thread_range(0, active - 1, true) +
               (active == 1 ? " calls" : " call") +
               " warpReduce; a lane reading from one that does not gets an undefined value "
               "(marked ?)";
    return pass + head + ": " + thread_range(0, kWarpSize - offset - 1, true) +
           (offset == kWarpSize - 1 ? " adds" : " add") + " lane+" + std::to_string(offset) + "; " +
           thread_range(kWarpSize - offset, kWarpSize - 1, true) +
           (offset == 1 ? " reads outside the warp and adds its own value; no barrier"
                        : " read outside the warp and add their own value; no barrier");
}

std::string final_shuffle_caption(const StepView& v, const std::string& pass) {
    if (v.frame.level > 0)
        return pass + v.where() + "First warp, shuffle " + std::to_string(v.frame.level) +
               " of 5 (offset " + std::to_string(kWarpSize >> v.frame.level) +
               ") over the warp totals";
    const std::string loads = pass + v.where() + "The first warp loads the " +
                              count_of(v.warps, "warp total", "warp totals");
    if (v.warps >= kWarpSize)
        return loads + ", one per lane";
    return loads + "; " + thread_range(v.warps, kWarpSize - 1, true) +
           (v.warps == kWarpSize - 1 ? " loads" : " load") + " the identity 0";
}

} // namespace

void reduce_writes(const StepView& v, std::vector<CellWrite>& w) {
    switch (v.frame.step) {
    case Step::SerialAdd:
        serial_add(v, w);
        break;
    case Step::Load:
        if (v.request.algorithm == Algorithm::ReduceCoarsened)
            coarsened_load(v, w);
        else
            load_writes(v, w);
        break;
    case Step::Accumulate:
        accumulate(v, w);
        break;
    case Step::TreeLevel:
        tree_level(v, w);
        break;
    case Step::FinalShuffle:
        if (v.frame.level == 0)
            final_load(v, w);
        else
            shuffle(v, w);
        break;
    case Step::Shuffle:
        shuffle(v, w);
        break;
    case Step::WarpTotals:
        warp_totals(v, w);
        break;
    case Step::BlockTotal:
        block_total(v, w);
        break;
    case Step::AtomicAdd:
        atomic_add(v, w);
        break;
    default:
        break;
    }
}

std::string reduce_caption(const StepView& v) {
    const Request& r = v.request;
    const std::string pass =
        v.frame.pass > 0 && r.algorithm == Algorithm::ReduceFull
            ? "Second pass (one block over the " + std::to_string(v.n) + " block totals): "
            : "";
    switch (v.frame.step) {
    case Step::SerialAdd:
        return "Addition " + std::to_string(v.frame.level) + " of " + std::to_string(v.n) +
               ": thread 0 adds in[" + std::to_string(v.frame.level - 1) +
               "] to its running sum; every other thread idles";
    case Step::Load:
        if (r.algorithm == Algorithm::ReduceCoarsened)
            return v.where() + "Each thread stores its register sum in s[threadIdx.x]";
        return load_caption(v);
    case Step::Accumulate:
        return pass + v.where() + "Grid-stride round " + std::to_string(v.frame.level) + " of " +
               std::to_string(grid_stride_rounds(v.n, v.grid, v.block_size)) +
               ": each thread adds in[i] to its register sum (i += " +
               std::to_string(v.grid * v.block_size) + " each round); no barrier";
    case Step::TreeLevel: {
        const int stride = v.block_size >> (v.frame.level + 1);
        return v.where() + level_of("Level", v.frame.level, v.levels) + ": " +
               thread_range(0, stride - 1) + (stride == 1 ? " adds" : " add") + " s[t+" +
               std::to_string(stride) + "] into s[t]; one barrier";
    }
    case Step::Shuffle:
        return shuffle_caption(v, pass);
    case Step::WarpTotals:
        if (r.options.pitfall == Pitfall::EveryLaneWrites)
            return pass + v.where() +
                   "Every lane writes its sum to s[warpId]: 32 writes race for each "
                   "slot; one wins, and the code does not say which (Exercise 2)";
        return pass + v.where() + "Lane 0 of each warp writes its total to s[warpId] (" +
               count_of(v.warps, "slot", "slots") + "); then the block's only barrier";
    case Step::FinalShuffle:
        return final_shuffle_caption(v, pass);
    case Step::BlockTotal:
        return block_total_caption(v, pass);
    case Step::AtomicAdd:
        return atomic_caption(v, v.flow.trace());
    default:
        return {};
    }
}

} // namespace pplab::dataflow
