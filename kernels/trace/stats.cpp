#include "pplab/stats.hpp"
#include "pplab/lookback.hpp"

#include "pplab/plan.hpp"

#include <algorithm>
#include <bit>

namespace pplab {

namespace {

std::int64_t clamp_count(long long remaining, long long width) {
    return std::clamp<long long>(remaining, 0, width);
}

// The launch a frame belongs to, in the chapter's names.
struct LaunchShape {
    const Frame& frame;
    const Launch& launch;
    long long block = 0, grid = 0, n = 0, warps = 0, bins = 0;
    int levels = 0; // halving levels of a block: log2(blockDim.x)

    // Elements a block (or a warp) reads in grid-stride round `round` (1-based).
    std::int64_t in_round(int round, long long offset, long long width) const {
        return clamp_count(n - ((round - 1) * grid + frame.block) * block - offset, width);
    }
};

class CostModel {
public:
    explicit CostModel(const Trace& t) : t_(t), plan_(make_plan(t.request)) {}

    Counters cost(std::size_t index) const {
        const Frame& f = t_.frames[index];
        const Launch& l = plan_.launches.at(static_cast<std::size_t>(f.pass));
        LaunchShape shape{f, l};
        shape.block = l.block;
        shape.grid = l.grid;
        shape.n = l.n;
        shape.warps = l.block / kWarpSize;
        shape.bins = t_.request.bins;
        shape.levels = std::bit_width(static_cast<unsigned>(l.block)) - 1;
        switch (info(t_.request.algorithm).family) {
        case Family::Reduce:
            return reduction(shape);
        case Family::Scan:
            return scan(shape, index);
        case Family::Histogram:
            return histogram(shape, index);
        }
        return {};
    }

private:
    Counters reduction(const LaunchShape& at) const {
        const Frame& f = at.frame;
        const Request& r = t_.request;
        Counters c;
        switch (f.step) {
        case Step::SerialAdd:
            c.global_reads = 1;
            c.additions = 1;
            c.global_writes = f.level == at.n ? 1 : 0;
            break;
        case Step::Load:
            if (r.algorithm == Algorithm::ReduceShuffle) {
                c.global_reads =
                    clamp_count(at.n - f.block * at.block - f.warp * kWarpSize, kWarpSize);
            } else if (r.algorithm == Algorithm::ReduceCoarsened) {
                c.shared_writes = at.block; // s[threadIdx.x] = sum
            } else {
                c.global_reads = clamp_count(at.n - f.block * at.block, at.block);
                c.shared_writes = at.block;
            }
            break;
        case Step::Accumulate:
            c.global_reads = c.additions = at.in_round(f.level, 0, at.block);
            break;
        case Step::TreeLevel: // level k (from 0): blockDim.x >> (k + 1) threads each add two
            tree_level(c, at);
            break;
        case Step::Shuffle:
            c.shuffles = 1;
            c.additions = kWarpSize;
            break;
        case Step::WarpTotals:
            // lane 0 of each warp (Exercise 2's mistake: every lane)
            c.shared_writes = r.options.pitfall == Pitfall::EveryLaneWrites ? at.block : at.warps;
            c.barriers = 1; // the ONLY barrier per block
            break;
        case Step::FinalShuffle:
            if (f.level == 0) {
                c.shared_reads = at.warps;
            } else {
                c.shuffles = 1;
                c.additions = kWarpSize;
            }
            break;
        case Step::BlockTotal:
            block_total(c, at);
            break;
        case Step::AtomicAdd:
            c.global_atomics = 1;
            c.additions = 1;
            break;
        default:
            break;
        }
        return c;
    }

    static void tree_level(Counters& c, const LaunchShape& at) {
        const long long active = at.block >> (at.frame.level + 1);
        c.barriers = 1;
        c.shared_reads = 2 * active;
        c.shared_writes = c.additions = active;
    }

    void block_total(Counters& c, const LaunchShape& at) const {
        const Algorithm algorithm = t_.request.algorithm;
        if (algorithm == Algorithm::ReduceAtomic) {
            // reduceFull's block reduction, which this trace does not record step by step
            // (grid-stride loop, 5 shuffles per warp and 5 more, its one barrier); the
            // total then goes to the atomicAdd, not to out[blockIdx.x].
            for (int round = 1; round <= plan_.rounds; ++round)
                c.global_reads += at.in_round(round, 0, at.block);
            c.shuffles = (at.warps + 1) * 5;
            c.additions = c.global_reads + c.shuffles * kWarpSize;
            c.shared_writes = at.warps;
            c.shared_reads = at.warps;
            c.barriers = 1;
            return;
        }
        c.global_writes = 1;
        if (algorithm == Algorithm::ReduceTree || algorithm == Algorithm::ReduceCoarsened)
            c.shared_reads = 1;
    }

    Counters scan(const LaunchShape& at, std::size_t index) const {
        const Frame& f = at.frame;
        const Request& r = t_.request;
        Counters c;
        switch (f.step) {
        case Step::Load:
            c.global_reads = clamp_count(at.n - f.block * at.block, at.block);
            c.shared_writes = at.block;
            break;
        case Step::Upsweep: // the same adds as the tree's level k
            tree_level(c, at);
            break;
        case Step::ClearRoot:
            // Clearing the root; scanBlock first keeps the total in s[n] where pplab's listing
            // needs it: every multi-block launch, and the inclusive shift.
            if (r.algorithm == Algorithm::ScanMultiblock || r.options.inclusive) {
                c.shared_reads = 1;
                c.shared_writes = 2;
            } else {
                c.shared_writes = 1;
            }
            if (at.levels == 0) { // no downsweep level: what follows the last one happens here
                c.barriers = 1;   // the final __syncthreads()
                if (at.launch.segment(Step::InclusiveShift) < 0)
                    add_output(c, at.launch);
            }
            break;
        case Step::Downsweep:
            downsweep(c, at);
            break;
        case Step::InclusiveShift:
            c.barriers = 1; // every thread reads s[t + 1] before any writes s[t]
            c.shared_reads = at.block;
            c.shared_writes = at.block;
            add_output(c, at.launch);
            break;
        case Step::AddCarries:
            c.global_reads = at.block + 1;
            c.global_writes = at.block;
            c.additions = at.block;
            break;
        case Step::HillisSteele: {
            const long long offset = 1LL << (f.level - 1);
            const long long active = std::max(0LL, at.block - offset);
            c.barriers = 2; // read, then write
            c.shared_reads = at.block + active;
            c.shared_writes = at.block;
            c.additions = active;
            if (index + 1 == t_.frames.size())
                c.global_writes = at.n;
            break;
        }
        case Step::TilePublish:
            tile_cost(c, at);
            break;
        case Step::LookBack:
            look_back_cost(c, f);
            break;
        default:
            break;
        }
        return c;
    }

    // scanFast's tile, as scanFastTraced runs it (the trace's own tickets not counted): one
    // tile ticket, its elements read and written once, warp totals through shared memory, three
    // barriers, its descriptor published once (tile 0: its inclusive prefix at once) or twice.
    static void tile_cost(Counters& c, const LaunchShape& at) {
        const long long tile = at.block * kLookbackItems;
        const long long elements = clamp_count(at.n - at.frame.block * tile, tile);
        c.global_atomics = 1;
        c.global_reads = elements;
        c.global_writes = elements + (at.frame.block == 0 ? 1 : 2);
        c.barriers = 3;
        c.shared_writes = at.warps + 2; // warp totals, the carry, the tile's number
        c.shared_reads = at.block * (at.warps + 2);
        c.shuffles = 7 * at.warps; // five for the warp's inclusive scan, one up, one broadcast
        // Per thread: 3 for its float4, 5 in the shuffles, 2 per warp total (its warp prefix
        // and the aggregate), 2 to add the carry and the prefixes, 4 for its outputs.
        c.additions = at.block * (14 + 2 * at.warps);
    }

    // Warp 0's look-back: every poll of a predecessor's descriptor, and per window of 32 one
    // ballot, one broadcast and warp_sum's five shuffles, with their additions.
    static void look_back_cost(Counters& c, const Frame& f) {
        long long reads = 0;
        for (std::size_t slot = 0; slot + kReadValues <= f.values.size(); slot += kReadValues) {
            if (f.values[slot + kReadState] == kNotRead)
                continue;
            ++reads;
            c.global_reads += 1 + static_cast<long long>(f.values[slot + kReadWaits]);
        }
        const long long windows = (reads + kLookbackWindow - 1) / kLookbackWindow;
        c.shuffles = 7 * windows;
        c.additions = (5 * kWarpSize + 1) * windows;
    }

    void downsweep(Counters& c, const LaunchShape& at) const {
        const long long active = 1LL << at.frame.level;
        c.barriers = 1;
        c.shared_reads = 2 * active;
        c.shared_writes = 2 * active;
        c.additions = active;
        if (at.frame.level == at.levels - 1) {
            // the final __syncthreads() before the result is read (the pitfall omits it)
            c.barriers += t_.request.options.pitfall == Pitfall::NoFinalSync ? 0 : 1;
            if (at.launch.segment(Step::InclusiveShift) < 0)
                add_output(c, at.launch);
        }
    }

    Counters histogram(const LaunchShape& at, std::size_t index) const {
        const Frame& f = at.frame;
        const Request& r = t_.request;
        Counters c;
        switch (f.step) {
        case Step::HistZero:
            c.shared_writes = at.bins;
            c.barriers = f.warp <= 0 ? 1 : 0; // one barrier per block, not per warp
            break;
        case Step::HistAccumulate: {
            std::int64_t elements = 0;
            if (f.block < 0)
                elements =
                    clamp_count(at.n - (f.level - 1) * at.grid * at.block, at.grid * at.block);
            else if (f.warp >= 0)
                elements = at.in_round(f.level, f.warp * kWarpSize, kWarpSize);
            else
                elements = at.in_round(f.level, 0, at.block);
            c.global_reads = elements;
            (r.algorithm == Algorithm::HistGlobal ? c.global_atomics : c.shared_atomics) = elements;
            c.additions = elements;
            break;
        }
        case Step::HistMerge:
            c.barriers = 1; // all counts complete before merging
            c.shared_reads = at.warps * at.bins;
            c.additions = (at.warps - 1) * at.bins;
            break;
        case Step::HistFold:
            fold(c, at, index);
            break;
        default:
            break;
        }
        return c;
    }

    void fold(Counters& c, const LaunchShape& at, std::size_t index) const {
        const Frame& f = at.frame;
        if (t_.request.algorithm == Algorithm::HistPrivatised) {
            c.barriers = 1; // all counts complete before folding
            c.shared_reads = at.bins;
        }
        std::int64_t atomics = at.bins;
        if (t_.request.options.skip_empty) {
            // Counts only grow, so a bin this block folded is one whose global count moved.
            const std::vector<float>* before =
                index > 0 && t_.frames[index - 1].step == Step::HistFold
                    ? &t_.frames[index - 1].values
                    : nullptr;
            atomics = 0;
            for (std::size_t b = 0; b < f.values.size(); ++b)
                atomics += f.values[b] != (before ? (*before)[b] : 0.0f);
        }
        c.global_atomics = atomics;
        c.additions = atomics;
    }

    // A scan block writes its tile to global memory after its last step.
    static void add_output(Counters& c, const Launch& l) {
        c.shared_reads += l.block;
        c.global_writes += l.block;
    }

    const Trace& t_;
    Plan plan_;
};

} // namespace

std::span<const CounterField> counter_fields() {
    static constexpr CounterField kFields[] = {
        {"barriers", "barriers", &Counters::barriers},
        {"shared reads", "shared_reads", &Counters::shared_reads},
        {"shared writes", "shared_writes", &Counters::shared_writes},
        {"shuffles", "shuffles", &Counters::shuffles},
        {"shared atomics", "shared_atomics", &Counters::shared_atomics},
        {"global atomics", "global_atomics", &Counters::global_atomics},
        {"global reads", "global_reads", &Counters::global_reads},
        {"global writes", "global_writes", &Counters::global_writes},
        {"additions", "additions", &Counters::additions},
    };
    return kFields;
}

Counters& Counters::operator+=(const Counters& o) {
    barriers += o.barriers;
    shared_reads += o.shared_reads;
    shared_writes += o.shared_writes;
    shuffles += o.shuffles;
    shared_atomics += o.shared_atomics;
    global_atomics += o.global_atomics;
    global_reads += o.global_reads;
    global_writes += o.global_writes;
    additions += o.additions;
    return *this;
}

Counters frame_cost(const Trace& t, std::size_t index) {
    return CostModel(t).cost(index);
}

std::vector<Counters> cumulative_costs(const Trace& t) {
    const CostModel model(t);
    std::vector<Counters> out(t.frames.size());
    Counters run;
    for (std::size_t i = 0; i < t.frames.size(); ++i) {
        run += model.cost(i);
        out[i] = run;
    }
    return out;
}

Summary summarize(const Trace& t) {
    const CostModel model(t);
    Summary s;
    for (std::size_t i = 0; i < t.frames.size(); ++i) {
        const Counters c = model.cost(i);
        s.total += c;
        const Frame& f = t.frames[i];
        if (f.pass == 0 && f.block <= 0)
            s.barriers_per_block += static_cast<int>(c.barriers);
    }
    return s;
}

int barriers_so_far(const Trace& t, std::size_t index) {
    const CostModel model(t);
    const Frame& at = t.frames[index];
    int n = 0;
    for (std::size_t i = 0; i <= index; ++i) {
        const Frame& f = t.frames[i];
        if (f.pass == at.pass && f.block == at.block)
            n += static_cast<int>(model.cost(i).barriers);
    }
    return n;
}

} // namespace pplab
