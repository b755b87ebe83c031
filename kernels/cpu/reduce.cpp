// CPU lockstep models of the chapter's reductions (§8.2-§8.6).
//
// Each model runs the kernel's steps for every thread of a block before the next step, as
// the barriers force on the GPU, with the same fp32 additions in the same order as
// kernels/cuda/reduce.cu. Floating-point addition is commutative but not associative: the
// order of the *pairs* is what must match, and it is fixed by the code.
#include "cpu/recorder.hpp"
#include "pplab/rng.hpp"

#include <limits>
#include <vector>

namespace pplab::cpu {

namespace {

using record::Step;
constexpr int kWarp = kWarpSize;

// Stands in for Recorder where a step runs but is not part of the trace (reduce-atomic's
// block reduction), as the null recorder does in the CUDA kernels.
struct NullRecorder {
    void operator()(Step, int, int, int, std::span<const float>) const {}
};

// warpReduce (§8.5) on one warp's lanes, recording after each step. __shfl_down_sync returns
// the caller's own value when lane + offset is outside the warp, so those lanes add their
// own value: their results are garbage, and only lane 0 is used.
//
// Pitfall (partial warp): only lanes below `active` call it. A lane that does not call the
// shuffle keeps its value; a calling lane whose source lane did not call it reads an
// undefined value, recorded as NaN, and so does everything computed from it.
template <class OnStep>
void warp_reduce(std::vector<float>& lanes, OnStep on_step, int active = kWarp) {
    const float undefined = std::numeric_limits<float>::quiet_NaN();
    int level = 1;
    for (int offset = 16; offset > 0; offset >>= 1, ++level) {
        std::vector<float> next = lanes;
        for (int lane = 0; lane < active; ++lane) {
            const int src = lane + offset;
            const float other = src >= kWarp ? lanes[lane] : src < active ? lanes[src] : undefined;
            next[lane] = lanes[lane] + other;
        }
        lanes = std::move(next);
        on_step(level, lanes);
    }
}

// The halving tree of §8.3 over a block's shared array.
void tree(std::vector<float>& s, int block, Recorder& rec) {
    int level = 0;
    for (int stride = static_cast<int>(s.size()) / 2; stride > 0; stride >>= 1, ++level) {
        for (int t = 0; t < stride; ++t)
            s[t] += s[t + stride];
        rec(Step::TreeLevel, level, block, -1, s);
    }
}

// Grid-stride accumulation, round by round (every thread runs the same number of rounds).
template <class Rec>
std::vector<float> accumulate(const std::vector<float>& in, int block, int block_dim, int grid_dim,
                              Rec& rec) {
    const int n = static_cast<int>(in.size());
    const long long stride = static_cast<long long>(grid_dim) * block_dim;
    std::vector<float> sum(block_dim, 0.0f);
    const int rounds = grid_stride_rounds(n, grid_dim, block_dim);
    for (int r = 0; r < rounds; ++r) {
        for (int t = 0; t < block_dim; ++t) {
            const long long i = r * stride + static_cast<long long>(block) * block_dim + t;
            if (i < n)
                sum[t] += in[static_cast<std::size_t>(i)];
        }
        rec(Step::Accumulate, r + 1, block, -1, sum);
    }
    return sum;
}

// reduceFull's work for one block (§8.6); returns the block total.
//
// Exercise 2 (every lane writes s[warpId]): 32 writes race for one slot; one wins, and the
// code does not say which, so the CPU model records the slot as undefined (NaN).
template <class Rec>
float full_block(const std::vector<float>& in, int block, int block_dim, int grid_dim, Rec& rec,
                 bool every_lane_writes = false) {
    const int warps = block_dim / kWarp;
    const std::vector<float> sum = accumulate(in, block, block_dim, grid_dim, rec);
    std::vector<float> s(warps);
    for (int w = 0; w < warps; ++w) {
        std::vector<float> lanes(sum.begin() + w * kWarp, sum.begin() + (w + 1) * kWarp);
        warp_reduce(lanes, [&](int level, const std::vector<float>& v) {
            rec(Step::Shuffle, level, block, w, v);
        });
        s[w] = every_lane_writes ? std::numeric_limits<float>::quiet_NaN()
                                 : lanes[0]; // lane 0 of each warp writes ONE value
    }
    rec(Step::WarpTotals, 0, block, -1, s);
    std::vector<float> lanes(kWarp);
    for (int lane = 0; lane < kWarp; ++lane)
        lanes[lane] = lane < warps ? s[lane] : 0.0f; // identity beyond the warp totals
    rec(Step::FinalShuffle, 0, block, -1, lanes);
    warp_reduce(lanes, [&](int level, const std::vector<float>& v) {
        rec(Step::FinalShuffle, level, block, -1, v);
    });
    return lanes[0];
}

std::vector<float> reduce_full_pass(const std::vector<float>& in, const Launch& l,
                                    std::vector<std::uint32_t>& words, bool every_lane_writes) {
    Recorder rec(words, l);
    std::vector<float> out(l.grid);
    for (int b = 0; b < l.grid; ++b) {
        out[b] = full_block(in, b, l.block, l.grid, rec, every_lane_writes);
        rec(Step::BlockTotal, 0, b, -1, std::span(&out[b], 1));
    }
    return out;
}

} // namespace

std::vector<float> run_reduce(const Request& r, const Plan& plan,
                              std::vector<std::uint32_t>& words) {
    const std::vector<float>& in = r.input;
    const int n = r.n(), block_dim = r.block, grid_dim = r.grid;
    const Launch& main = plan.launches.front();
    switch (r.algorithm) {
    case Algorithm::ReduceNaive: {
        Recorder rec(words, main);
        float sum = 0.0f;
        for (int i = 0; i < n; ++i) {
            sum += in[i];
            rec(Step::SerialAdd, i + 1, 0, -1, std::span(&sum, 1));
        }
        return {sum};
    }
    case Algorithm::ReduceTree: {
        Recorder rec(words, main);
        std::vector<float> out(grid_dim);
        for (int b = 0; b < grid_dim; ++b) {
            std::vector<float> s(block_dim);
            for (int t = 0; t < block_dim; ++t) {
                const long long i = static_cast<long long>(b) * block_dim + t;
                s[t] = i < n ? in[static_cast<std::size_t>(i)] : 0.0f;
            }
            rec(Step::Load, 0, b, -1, s);
            tree(s, b, rec);
            out[b] = s[0];
            rec(Step::BlockTotal, 0, b, -1, std::span(&out[b], 1));
        }
        return out;
    }
    case Algorithm::ReduceCoarsened: {
        Recorder rec(words, main);
        std::vector<float> out(grid_dim);
        for (int b = 0; b < grid_dim; ++b) {
            std::vector<float> s = accumulate(in, b, block_dim, grid_dim, rec);
            rec(Step::Load, 0, b, -1, s); // s[threadIdx.x] = sum
            tree(s, b, rec);
            out[b] = s[0];
            rec(Step::BlockTotal, 0, b, -1, std::span(&out[b], 1));
        }
        return out;
    }
    case Algorithm::ReduceShuffle: {
        Recorder rec(words, main);
        const int warps = block_dim / kWarp;
        std::vector<float> out(static_cast<std::size_t>(grid_dim) * warps);
        for (int b = 0; b < grid_dim; ++b)
            for (int w = 0; w < warps; ++w) {
                std::vector<float> lanes(kWarp);
                for (int lane = 0; lane < kWarp; ++lane) {
                    const long long i = static_cast<long long>(b) * block_dim + w * kWarp + lane;
                    lanes[lane] = i < n ? in[static_cast<std::size_t>(i)] : 0.0f;
                }
                rec(Step::Load, 0, b, w, lanes);
                warp_reduce(
                    lanes,
                    [&](int level, const std::vector<float>& v) {
                        rec(Step::Shuffle, level, b, w, v);
                    },
                    r.options.active_lanes);
                out[static_cast<std::size_t>(b) * warps + w] = lanes[0];
            }
        return out;
    }
    case Algorithm::ReduceFull: {
        const bool race = r.options.pitfall == Pitfall::EveryLaneWrites;
        std::vector<float> totals = reduce_full_pass(in, main, words, race);
        if (plan.launches.size() > 1)
            totals = reduce_full_pass(totals, plan.launches[1], words, race);
        return totals;
    }
    case Algorithm::ReduceAtomic: {
        Recorder rec(words, main);
        std::vector<float> totals(grid_dim);
        NullRecorder inner; // the block's own reduction is reduce-full's; here only its total
        for (int b = 0; b < grid_dim; ++b) {
            totals[b] = full_block(in, b, block_dim, grid_dim, inner);
            rec(Step::BlockTotal, 0, b, -1, std::span(&totals[b], 1));
        }
        float sum = 0.0f;
        const std::vector<int> order = arrival_order(grid_dim, r.options.order_seed);
        for (int k = 0; k < grid_dim; ++k) {
            const int b = order[k];
            sum += totals[b];
            const float v[2] = {totals[b], sum};
            rec(Step::AtomicAdd, k + 1, b, -1, v);
        }
        return {sum};
    }
    default:
        throw std::logic_error("run_reduce called for another family");
    }
}

} // namespace pplab::cpu
