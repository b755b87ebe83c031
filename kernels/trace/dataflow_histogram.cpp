// Who wrote which bin, and what each step means, in the histograms of §8.8: global atomics,
// the privatised histogram (zero, count, fold, with and without the empty-bin skip) and pplab's
// per-warp copies (zero, count, merge, fold).
#include "trace/dataflow_steps.hpp"

#include <algorithm>
#include <string>

namespace pplab::dataflow {

namespace {

void zero(const StepView& v, std::vector<CellWrite>& w) {
    const int bins = v.request.bins;
    for (std::size_t c = 0; c < w.size(); ++c) {
        const long long slot =
            static_cast<long long>(std::max(v.frame.warp, 0)) * bins + static_cast<long long>(c);
        w[c].thread = static_cast<int>(slot % v.block_size);
        w[c].expression =
            (v.frame.warp >= 0 ? cell_name("s_hist", v.frame.warp) : std::string("s_hist")) + "[" +
            std::to_string(c) + "] = 0";
    }
}

// The elements this round (and this block or warp) reads: [first, first + count) of the input,
// and the thread that reads `first`.
struct RoundSpan {
    long long first = 0, count = 0;
    int thread0 = 0;
};

RoundSpan round_span(const StepView& v) {
    const long long round0 = static_cast<long long>(v.frame.level - 1) * v.grid * v.block_size;
    RoundSpan s{round0, static_cast<long long>(v.grid) * v.block_size, 0};
    if (v.frame.block >= 0) {
        s.first = round0 + static_cast<long long>(v.frame.block) * v.block_size;
        s.count = v.block_size;
        if (v.frame.warp >= 0) {
            s.first += v.frame.warp * kWarpSize;
            s.count = kWarpSize;
            s.thread0 = v.frame.warp * kWarpSize;
        }
    }
    return s;
}

void accumulate(const StepView& v, std::vector<CellWrite>& w) {
    const RoundSpan span = round_span(v);
    const char* target = v.request.algorithm == Algorithm::HistGlobal ? "g_hist" : "s_hist";
    for (long long i = span.first; i < std::min<long long>(span.first + span.count, v.n); ++i) {
        const int bin = static_cast<int>(v.request.input[static_cast<std::size_t>(i)]);
        CellWrite& c = w[static_cast<std::size_t>(bin)];
        if (c.atomics == 0) {
            c.thread = span.thread0 + static_cast<int>((i - span.first) % v.block_size);
            if (v.predecessor >= 0)
                c.from.push_back(v.before(bin));
        }
        ++c.atomics;
        c.from.push_back(StepView::input(i));
    }
    for (std::size_t b = 0; b < w.size(); ++b)
        if (w[b].atomics > 0)
            w[b].expression = std::to_string(w[b].atomics) + " atomicAdd(&" + target + "[" +
                              std::to_string(b) + "], 1)";
    v.unchanged_from_predecessor(w);
}

// The private histogram a block folds: its per-warp merge, or its last count (or its zeroing
// when it counted nothing).
int private_histogram(const StepView& v) {
    if (v.request.algorithm == Algorithm::HistPerWarp)
        return v.find(Step::HistMerge, 0);
    const int rounds = v.flow.plan().rounds;
    return rounds > 0 ? v.find(Step::HistAccumulate, rounds) : v.find(Step::HistZero, 0);
}

void merge(const StepView& v, std::vector<CellWrite>& w) {
    const int rounds = v.flow.plan().rounds;
    for (std::size_t c = 0; c < w.size(); ++c) {
        w[c].thread = static_cast<int>(c % static_cast<std::size_t>(v.block_size));
        for (int warp = 0; warp < v.warps; ++warp) {
            const int copy = rounds > 0 ? v.find(Step::HistAccumulate, rounds, warp)
                                        : v.find(Step::HistZero, 0, warp);
            w[c].from.push_back(CellRef{copy, static_cast<int>(c)});
        }
        w[c].expression =
            "sum of s_hist[0.." + std::to_string(v.warps - 1) + "][" + std::to_string(c) + "]";
    }
}

void fold(const StepView& v, std::vector<CellWrite>& w) {
    const int copy = private_histogram(v);
    const auto& counts = v.flow.trace().frames[static_cast<std::size_t>(copy)].values;
    for (std::size_t c = 0; c < w.size(); ++c) {
        if (v.request.options.skip_empty && counts[c] == 0.0f)
            continue;
        const int bin = static_cast<int>(c);
        w[c].thread = static_cast<int>(c % static_cast<std::size_t>(v.block_size));
        w[c].atomics = 1;
        w[c].from = v.predecessor >= 0 ? std::vector<CellRef>{v.before(bin), CellRef{copy, bin}}
                                       : std::vector<CellRef>{CellRef{copy, bin}};
        w[c].expression = "atomicAdd(&g_hist[" + std::to_string(c) + "], s_hist[" +
                          std::to_string(c) + "]) by block " + std::to_string(v.frame.block);
    }
    v.unchanged_from_predecessor(w);
}

std::string accumulate_caption(const StepView& v) {
    // The bin is named: the contention row on screen may show only part of the bins, and a
    // count without its bin cannot be checked against the picture.
    const auto& writes = v.flow.writes(v.index);
    int counted = 0;
    for (const CellWrite& w : writes)
        counted += w.atomics;
    const int busiest_bin = busiest_cell(writes);
    const std::string who =
        v.where() +
        (v.frame.warp >= 0 ? "Warp " + std::to_string(v.frame.warp) + ", r" : std::string("R")) +
        "ound " + std::to_string(v.frame.level) + ": ";
    if (counted == 0)
        return who + "no element is left for " +
               (v.frame.warp >= 0    ? "this warp"
                : v.frame.block >= 0 ? "this block"
                                     : "the grid") +
               " in this round (past n): nothing to count";
    const std::string target =
        v.request.algorithm == Algorithm::HistGlobal ? "global" : "shared-memory";
    // Two lines at 200% in 1280x720: a third pushed the bars under the picture's edge.
    const std::string counts = who + "one " + target + " atomicAdd per element";
    if (busiest_bin < 0)
        return counts + "; no two threads hit one bin, so none waited";
    return counts + "; the busiest bin, bin " + std::to_string(busiest_bin) + ", took " +
           count_of(writes[static_cast<std::size_t>(busiest_bin)].atomics, "atomic", "atomics");
}

std::string fold_caption(const StepView& v) {
    int atomics = 0;
    for (const CellWrite& c : v.flow.writes(v.index))
        atomics += c.atomics;
    const bool skip = v.request.options.skip_empty;
    const std::string head =
        "Block " + std::to_string(v.frame.block) + " folds its private histogram into global ";
    if (atomics == 0)
        return head + "memory: every bin of its copy is empty, so the skip leaves all " +
               std::to_string(v.request.bins) + " bins alone";
    return head + "memory: " + count_of(atomics, "atomicAdd", "atomicAdds") +
           (skip ? " (empty bins skipped)" : " (every bin, empty or not)");
}

} // namespace

void histogram_writes(const StepView& v, std::vector<CellWrite>& w) {
    switch (v.frame.step) {
    case Step::HistZero:
        zero(v, w);
        break;
    case Step::HistAccumulate:
        accumulate(v, w);
        break;
    case Step::HistMerge:
        merge(v, w);
        break;
    case Step::HistFold:
        fold(v, w);
        break;
    default:
        break;
    }
}

std::string histogram_caption(const StepView& v) {
    switch (v.frame.step) {
    case Step::HistZero:
        return v.where() +
               (v.frame.warp >= 0
                    ? "Warp " + std::to_string(v.frame.warp) + "'s private histogram zeroed"
                    : std::string("Private histogram zeroed by all threads")) +
               "; one barrier before counting";
    case Step::HistAccumulate:
        return accumulate_caption(v);
    case Step::HistMerge:
        return v.where() + "One thread per bin sums the " +
               count_of(v.warps, "warp copy", "warp copies");
    case Step::HistFold:
        return fold_caption(v);
    default:
        return {};
    }
}

} // namespace pplab::dataflow

namespace pplab {

int busiest_cell(const std::vector<CellWrite>& writes) {
    int busiest = -1, most = 1;
    for (std::size_t c = 0; c < writes.size(); ++c)
        if (writes[c].atomics > most) {
            most = writes[c].atomics;
            busiest = static_cast<int>(c);
        }
    return busiest;
}

} // namespace pplab
