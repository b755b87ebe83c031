// Who wrote which cell, and what each step means, in the scans: §8.7's Blelloch scanBlock
// (upsweep, clear the root, downsweep), pplab's inclusive shift, the multi-block scan's block
// totals and carries, and Hillis-Steele.
#include "trace/dataflow_steps.hpp"

#include <string>

namespace pplab::dataflow {

namespace {

void upsweep(const StepView& v, std::vector<CellWrite>& w) {
    const int stride = 1 << v.frame.level;
    for (int thread = 0;; ++thread) {
        const int t = (thread + 1) * 2 * stride - 1; // right child
        if (t >= v.block_size)
            break;
        w[t].thread = thread;
        w[t].from = {v.before(t), v.before(t - stride)};
        w[t].expression =
            cell_name("s", t) + " = " + cell_name("s", t) + " + " + cell_name("s", t - stride);
    }
    v.unchanged_from_predecessor(w);
}

void clear_root(const StepView& v, std::vector<CellWrite>& w) {
    const int root = v.block_size - 1;
    w[root].thread = 0;
    w[root].expression = cell_name("s", root) + " = 0 (the root's carry)";
    v.unchanged_from_predecessor(w);
}

// Without the final barrier, whoever reads a slot next may run before its writer.
void mark_unordered_reads(const StepView& v, std::vector<CellWrite>& w) {
    const bool inclusive = v.request.options.inclusive;
    for (int c = 0; c < v.block_size; ++c) {
        const int reader = inclusive ? c - 1 : c;
        if (reader >= 0 && w[c].thread >= 0 && w[c].thread != reader)
            w[c].hazard =
                "thread " + std::to_string(reader) + " reads " + cell_name("s", c) +
                (inclusive ? " for the inclusive shift" : " for out[" + std::to_string(c) + "]") +
                " with no barrier after thread " + std::to_string(w[c].thread) +
                " wrote it: it may see the old value";
    }
}

void downsweep(const StepView& v, std::vector<CellWrite>& w) {
    const int stride = v.block_size >> (v.frame.level + 1);
    for (int thread = 0;; ++thread) {
        const int t = (thread + 1) * 2 * stride - 1;
        if (t >= v.block_size)
            break;
        w[t].thread = thread;
        w[t].from = {v.before(t), v.before(t - stride)};
        w[t].expression = cell_name("s", t) + " = carry + " + cell_name("s", t - stride) +
                          " (carry = old " + cell_name("s", t) + ")";
        w[t - stride].thread = thread;
        w[t - stride].from = {v.before(t)};
        w[t - stride].expression =
            cell_name("s", t - stride) + " = carry (old " + cell_name("s", t) + ")";
    }
    v.unchanged_from_predecessor(w);
    if (v.request.options.pitfall == Pitfall::NoFinalSync && v.frame.level == v.levels - 1)
        mark_unordered_reads(v, w);
}

// The upsweep's root: the block total, which scanBlock keeps before clearing it.
int root_frame(const StepView& v) {
    return v.levels > 0 ? v.find(Step::Upsweep, v.levels - 1) : v.find(Step::Load, 0);
}

void inclusive_shift(const StepView& v, std::vector<CellWrite>& w) {
    const int root = root_frame(v);
    for (int t = 0; t < v.block_size; ++t) {
        w[t].thread = t;
        if (t + 1 < v.block_size) {
            w[t].from = {v.before(t + 1)};
            w[t].expression = cell_name("s", t) + " = " + cell_name("s", t + 1);
        } else {
            w[t].from = {CellRef{root, v.block_size - 1}};
            w[t].expression = cell_name("s", t) + " = the block total (kept in " +
                              cell_name("s", v.block_size) + ")";
        }
    }
}

void block_total(const StepView& v, std::vector<CellWrite>& w) {
    w[0].thread = 0;
    w[0].from = {CellRef{root_frame(v), v.block_size - 1}};
    w[0].expression = cell_name("totals", v.frame.block) + " = " + cell_name("s", v.block_size) +
                      " (the upsweep's root, kept by scanBlock)";
}

// The last frame of a block's scan at a level of the recursion.
int scan_result(const Dataflow& flow, int pass, int block, int levels, bool shifted) {
    if (shifted)
        return flow.find(Step::InclusiveShift, pass, 0, block, -1);
    return levels > 0 ? flow.find(Step::Downsweep, pass, levels - 1, block, -1)
                      : flow.find(Step::ClearRoot, pass, 0, block, -1);
}

void add_carries(const StepView& v, std::vector<CellWrite>& w) {
    // Which recursion level this pass adds carries to, and where its carries were scanned.
    const auto levels = scan_levels(v.request.n(), v.request.block);
    std::size_t k = 0;
    while (levels[k].carry_pass != v.frame.pass)
        ++k;
    const ScanLevel& next = levels[k + 1];
    const int own = scan_result(v.flow, levels[k].scan_pass, v.frame.block, v.levels,
                                k == 0 && v.request.options.inclusive);
    const int carry_block = v.frame.block / v.block_size;
    const int carry_cell = v.frame.block % v.block_size;
    const int carry = next.grid > 1
                          ? v.flow.find(Step::AddCarries, next.carry_pass, 0, carry_block, -1)
                          : scan_result(v.flow, next.scan_pass, 0, v.levels, false);
    for (int t = 0; t < v.block_size; ++t) {
        const long long i = static_cast<long long>(v.frame.block) * v.block_size + t;
        w[t].thread = t;
        w[t].from = {CellRef{own, t}, CellRef{carry, carry_cell}};
        w[t].expression = cell_name("out", i) + " = " + cell_name("out", i) + " + " +
                          cell_name("carries", v.frame.block);
    }
}

void hillis_steele(const StepView& v, std::vector<CellWrite>& w) {
    const int offset = 1 << (v.frame.level - 1);
    for (int t = offset; t < v.block_size; ++t) {
        w[t].thread = t;
        w[t].from = {v.before(t), v.before(t - offset)};
        w[t].expression =
            cell_name("s", t) + " = " + cell_name("s", t) + " + " + cell_name("s", t - offset);
    }
    v.unchanged_from_predecessor(w);
}

std::string downsweep_caption(const StepView& v) {
    const int stride = v.block_size >> (v.frame.level + 1);
    const int active = v.block_size / (2 * stride);
    std::string after;
    if (v.frame.level == v.levels - 1)
        after = v.request.options.pitfall == Pitfall::NoFinalSync
                    ? "; the final barrier is MISSING: the reads that follow may run before "
                      "these writes (marked)"
                    : "; then the final barrier";
    return v.where() + level_of("Downsweep level", v.frame.level, v.levels) + " (stride " +
           std::to_string(stride) + "): " + count_of(active, "thread passes", "threads pass") +
           " the carry s[t] unchanged to the left child and carry + left sum to the right "
           "child" +
           after;
}

} // namespace

void scan_writes(const StepView& v, std::vector<CellWrite>& w) {
    switch (v.frame.step) {
    case Step::Load:
        load_writes(v, w);
        break;
    case Step::Upsweep:
        upsweep(v, w);
        break;
    case Step::ClearRoot:
        clear_root(v, w);
        break;
    case Step::Downsweep:
        downsweep(v, w);
        break;
    case Step::InclusiveShift:
        inclusive_shift(v, w);
        break;
    case Step::BlockTotal:
        block_total(v, w);
        break;
    case Step::AddCarries:
        add_carries(v, w);
        break;
    case Step::HillisSteele:
        hillis_steele(v, w);
        break;
    case Step::TilePublish:
    case Step::LookBack:
        lookback_writes(v, w);
        break;
    default:
        break;
    }
}

std::string scan_caption(const StepView& v) {
    switch (v.frame.step) {
    case Step::Load:
        return load_caption(v);
    case Step::Upsweep: {
        const int stride = 1 << v.frame.level;
        const int active = v.block_size / (2 * stride);
        return v.where() + level_of("Upsweep level", v.frame.level, v.levels) + " (stride " +
               std::to_string(stride) +
               "): " + count_of(active, "thread adds", "threads each add") + " s[t-" +
               std::to_string(stride) + "] into the right child s[t]; one barrier";
    }
    case Step::ClearRoot:
        return v.where() + "Clear the root: s[" + std::to_string(v.block_size - 1) +
               "] = 0, the carry of the empty sequence before the array";
    case Step::Downsweep:
        return downsweep_caption(v);
    case Step::InclusiveShift:
        return v.where() + "Inclusive result: every slot takes its right neighbour's exclusive "
                           "sum; the last takes the block total";
    case Step::BlockTotal:
        return v.where() +
               "Block total (the upsweep's root, kept before clear-root) written to "
               "totals[" +
               std::to_string(v.frame.block) + "] for the scan of the totals";
    case Step::AddCarries:
        return "Block " + std::to_string(v.frame.block) +
               " adds its carry, the sum of every block before it, to each of its elements";
    case Step::HillisSteele: {
        const int offset = 1 << (v.frame.level - 1);
        return "Step " + std::to_string(v.frame.level) + " (offset " + std::to_string(offset) +
               "): " + thread_range(offset, v.block_size - 1) +
               (offset == v.block_size - 1 ? " adds" : " add") + " s[t-" + std::to_string(offset) +
               "] into s[t]; two barriers";
    }
    case Step::TilePublish:
    case Step::LookBack:
        return lookback_caption(v);
    default:
        return {};
    }
}

} // namespace pplab::dataflow
