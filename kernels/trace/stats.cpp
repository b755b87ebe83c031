#include "pplab/stats.hpp"

#include "pplab/plan.hpp"

#include <algorithm>
#include <bit>

namespace pplab {

namespace {

std::int64_t clamp_count(long long remaining, long long width) {
    return std::clamp<long long>(remaining, 0, width);
}

class CostModel {
public:
    explicit CostModel(const Trace& t) : t_(t), plan_(make_plan(t.request)) {}

    Counters cost(std::size_t index) const {
        const Frame& f = t_.frames[index];
        const Request& r = t_.request;
        const Launch& l = plan_.launches.at(static_cast<std::size_t>(f.pass));
        const long long B = l.block, G = l.grid, n = l.n;
        const long long W = B / kWarpSize, K = r.bins;
        const int levels = std::bit_width(static_cast<unsigned>(B)) - 1;
        // Elements a block (or a warp) reads in grid-stride round `round` (1-based).
        const auto in_round = [&](int round, long long offset, long long width) {
            return clamp_count(n - ((round - 1) * G + f.block) * B - offset, width);
        };
        Counters c;
        switch (f.step) {
        case Step::SerialAdd:
            c.global_reads = 1;
            c.additions = 1;
            c.global_writes = f.level == n ? 1 : 0;
            break;
        case Step::Load:
            if (r.algorithm == Algorithm::ReduceShuffle) {
                c.global_reads = clamp_count(n - f.block * B - f.warp * kWarpSize, kWarpSize);
            } else if (r.algorithm == Algorithm::ReduceCoarsened) {
                c.shared_writes = B; // s[threadIdx.x] = sum
            } else {
                c.global_reads = clamp_count(n - f.block * B, B);
                c.shared_writes = B;
            }
            break;
        case Step::Accumulate:
            c.global_reads = c.additions = in_round(f.level, 0, B);
            break;
        case Step::TreeLevel:
        case Step::Upsweep: { // level k (from 0): B >> (k + 1) threads each add two values
            const long long active = B >> (f.level + 1);
            c.barriers = 1;
            c.shared_reads = 2 * active;
            c.shared_writes = c.additions = active;
            break;
        }
        case Step::Shuffle:
            c.shuffles = 1;
            c.additions = kWarpSize;
            break;
        case Step::WarpTotals:
            // lane 0 of each warp (Exercise 2's mistake: every lane)
            c.shared_writes = r.options.pitfall == Pitfall::EveryLaneWrites ? B : W;
            c.barriers = 1; // the ONLY barrier per block
            break;
        case Step::FinalShuffle:
            if (f.level == 0) {
                c.shared_reads = W;
            } else {
                c.shuffles = 1;
                c.additions = kWarpSize;
            }
            break;
        case Step::BlockTotal:
            if (r.algorithm == Algorithm::ReduceAtomic) {
                // reduceFull's block reduction, which this trace does not record step by step
                // (grid-stride loop, 5 shuffles per warp and 5 more, its one barrier); the
                // total then goes to the atomicAdd, not to out[blockIdx.x].
                for (int round = 1; round <= plan_.rounds; ++round)
                    c.global_reads += in_round(round, 0, B);
                c.shuffles = (W + 1) * 5;
                c.additions = c.global_reads + c.shuffles * kWarpSize;
                c.shared_writes = W;
                c.shared_reads = W;
                c.barriers = 1;
                break;
            }
            c.global_writes = 1;
            if (r.algorithm == Algorithm::ReduceTree || r.algorithm == Algorithm::ReduceCoarsened)
                c.shared_reads = 1;
            break;
        case Step::AtomicAdd:
            c.global_atomics = 1;
            c.additions = 1;
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
            if (levels == 0) {  // no downsweep level: what follows the last one happens here
                c.barriers = 1; // the final __syncthreads()
                if (l.segment(Step::InclusiveShift) < 0)
                    add_output(c, f, l);
            }
            break;
        case Step::Downsweep: {
            const long long active = 1LL << f.level;
            c.barriers = 1;
            c.shared_reads = 2 * active;
            c.shared_writes = 2 * active;
            c.additions = active;
            if (f.level == levels - 1) {
                // the final __syncthreads() before the result is read (the pitfall omits it)
                c.barriers += r.options.pitfall == Pitfall::NoFinalSync ? 0 : 1;
                if (l.segment(Step::InclusiveShift) < 0)
                    add_output(c, f, l);
            }
            break;
        }
        case Step::InclusiveShift:
            c.barriers = 1; // every thread reads s[t + 1] before any writes s[t]
            c.shared_reads = B;
            c.shared_writes = B;
            add_output(c, f, l);
            break;
        case Step::AddCarries:
            c.global_reads = B + 1;
            c.global_writes = B;
            c.additions = B;
            break;
        case Step::HillisSteele: {
            const long long offset = 1LL << (f.level - 1);
            const long long active = std::max(0LL, B - offset);
            c.barriers = 2; // read, then write
            c.shared_reads = B + active;
            c.shared_writes = B;
            c.additions = active;
            if (index + 1 == t_.frames.size())
                c.global_writes = n;
            break;
        }
        case Step::HistZero:
            c.shared_writes = K;
            c.barriers = f.warp <= 0 ? 1 : 0; // one barrier per block, not per warp
            break;
        case Step::HistAccumulate: {
            std::int64_t e = 0;
            if (f.block < 0)
                e = clamp_count(n - (f.level - 1) * G * B, G * B);
            else if (f.warp >= 0)
                e = in_round(f.level, f.warp * kWarpSize, kWarpSize);
            else
                e = in_round(f.level, 0, B);
            c.global_reads = e;
            (r.algorithm == Algorithm::HistGlobal ? c.global_atomics : c.shared_atomics) = e;
            c.additions = e;
            break;
        }
        case Step::HistMerge:
            c.barriers = 1; // all counts complete before merging
            c.shared_reads = W * K;
            c.additions = (W - 1) * K;
            break;
        case Step::HistFold: {
            if (r.algorithm == Algorithm::HistPrivatised) {
                c.barriers = 1; // all counts complete before folding
                c.shared_reads = K;
            }
            std::int64_t atomics = K;
            if (r.options.skip_empty) {
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
            break;
        }
        }
        return c;
    }

private:
    // A scan block writes its tile to global memory after its last step.
    static void add_output(Counters& c, const Frame&, const Launch& l) {
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
