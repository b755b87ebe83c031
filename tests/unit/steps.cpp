#include "steps.hpp"

#include "reference.hpp"
#include "shape.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

namespace pplab::steps {

namespace {

constexpr int kWarp = 32;
using Values = std::vector<double>;

class Frames {
public:
    explicit Frames(const Trace& t) {
        for (const Frame& f : t.frames)
            by_key_[{f.pass, static_cast<int>(f.step), f.level, f.block, f.warp}] = &f;
    }
    const Frame& at(int pass, Step s, int level, int block, int warp = -1) const {
        const auto it = by_key_.find({pass, static_cast<int>(s), level, block, warp});
        if (it == by_key_.end())
            throw std::runtime_error("the trace has no frame pass " + std::to_string(pass) + " " +
                                     std::string(step_id(s)) + " level " + std::to_string(level) +
                                     " block " + std::to_string(block) + " warp " +
                                     std::to_string(warp));
        return *it->second;
    }

private:
    std::map<std::tuple<int, int, int, int, int>, const Frame*> by_key_;
};

// Reports the first wrong cell of a frame, and stops after a few frames so that one broken
// step does not bury the log.
class Checker {
public:
    void expect(const Frame& f, const Values& want, const char* rule) {
        if (reports_ >= 5)
            return;
        const std::string where = shape::describe(shape::key_of(f));
        if (f.values.size() != want.size()) {
            ADD_FAILURE() << where << ": " << f.values.size() << " values, expected "
                          << want.size();
            ++reports_;
            return;
        }
        for (std::size_t c = 0; c < want.size(); ++c)
            if (static_cast<double>(f.values[c]) != want[c]) {
                ADD_FAILURE() << where << ", cell " << c << ": " << f.values[c] << ", expected "
                              << want[c] << " (" << rule << ")";
                ++reports_;
                return;
            }
    }

private:
    int reports_ = 0;
};

Values as_values(const std::vector<float>& v) {
    return {v.begin(), v.end()};
}

// P[j] = v[0] + ... + v[j-1]
Values prefix(const Values& v) {
    Values p(v.size() + 1, 0.0);
    for (std::size_t i = 0; i < v.size(); ++i)
        p[i + 1] = p[i] + v[i];
    return p;
}

Values tile(const Values& in, std::size_t first, std::size_t count) {
    Values out(count, 0.0);
    for (std::size_t k = 0; k < count && first + k < in.size(); ++k)
        out[k] = in[first + k];
    return out;
}

int rounds(std::size_t n, int grid, int block) {
    const auto stride = static_cast<std::size_t>(grid) * static_cast<std::size_t>(block);
    return static_cast<int>((n + stride - 1) / stride);
}

// The halving tree (§8.3): after level k only threads t < TILE >> k have written, and
// s[t] is the sum of the loaded elements congruent to t modulo TILE >> k.
double expect_tree(Checker& c, const Frames& fr, int pass, int block, const Values& load) {
    const int B = static_cast<int>(load.size());
    Values s = load;
    for (int k = 1; (B >> k) >= 1; ++k) {
        const int width = B >> k;
        for (int t = 0; t < width; ++t) {
            double sum = 0;
            for (int j = t; j < B; j += width)
                sum += load[static_cast<std::size_t>(j)];
            s[static_cast<std::size_t>(t)] = sum;
        }
        // Tree levels count from 0, as the chapter's comments do: row k is level k - 1.
        c.expect(fr.at(pass, Step::TreeLevel, k - 1, block), s,
                 "s[t] sums the loaded elements congruent to t mod TILE >> (level + 1)");
    }
    return s[0];
}

// The grid-stride loop: after round r, thread t's register holds the elements
// ((r' * gridDim + block) * blockDim + t) for r' < r.
Values expect_accumulate(Checker& c, const Frames& fr, int pass, int block, const Values& in, int G,
                         int B) {
    Values sum(static_cast<std::size_t>(B), 0.0);
    for (int r = 1; r <= rounds(in.size(), G, B); ++r) {
        for (int t = 0; t < B; ++t) {
            const auto i = (static_cast<std::size_t>(r - 1) * static_cast<std::size_t>(G) +
                            static_cast<std::size_t>(block)) *
                               static_cast<std::size_t>(B) +
                           static_cast<std::size_t>(t);
            if (i < in.size())
                sum[static_cast<std::size_t>(t)] += in[i];
        }
        c.expect(fr.at(pass, Step::Accumulate, r, block), sum,
                 "each thread's register adds its element of this grid-stride round");
    }
    return sum;
}

// __shfl_down_sync(mask, val, offset) gives lane l the value of lane l + offset, or its own
// value when l + offset is outside the warp; every lane adds what it gets. Offsets 16..1.
Values expect_shuffles(Checker& c, const Frames& fr, int pass, Step step, int block, int warp,
                       Values lanes) {
    for (int k = 1; k <= 5; ++k) {
        const int offset = kWarp >> k;
        Values next(kWarp);
        for (int l = 0; l < kWarp; ++l) {
            const int src = l + offset < kWarp ? l + offset : l;
            next[static_cast<std::size_t>(l)] =
                lanes[static_cast<std::size_t>(l)] + lanes[static_cast<std::size_t>(src)];
        }
        lanes = std::move(next);
        c.expect(fr.at(pass, step, k, block, warp), lanes,
                 "val += __shfl_down_sync(val, offset); out-of-warp lanes add their own value");
    }
    return lanes;
}

// scanBlock (§8.7) on one tile, in closed form. P[j] is the sum of the tile's first j elements.
void expect_scan_block(Checker& c, const Frames& fr, int pass, int block, const Values& load,
                       bool inclusive, bool totals) {
    const std::size_t B = load.size();
    const Values P = prefix(load);
    c.expect(fr.at(pass, Step::Load, 0, block), load, "s[t] = in[blockIdx.x * TILE + t], 0 past n");
    Values s = load;
    // Upsweep level k (from 0): each slot that ends a run of 2^(k+1) elements (a right child)
    // holds their sum, the chapter's "After level k, s[i] holds the sum of the 2^(k+1) elements
    // ending at i".
    for (int k = 0; (std::size_t{2} << k) <= B; ++k) {
        const std::size_t span = std::size_t{2} << k;
        for (std::size_t i = span - 1; i < B; i += span)
            s[i] = P[i + 1] - P[i + 1 - span];
        c.expect(fr.at(pass, Step::Upsweep, k, block), s,
                 "after upsweep level k, s[i] holds the sum of the 2^(k+1) elements ending at i");
    }
    s[B - 1] = 0;
    c.expect(fr.at(pass, Step::ClearRoot, 0, block), s, "the root's carry is 0");
    // Downsweep level k (from 0; stride TILE >> (k+1)): each slot that ends a subtree of
    // `stride` elements holds the sum of everything before that subtree; the others keep their
    // upsweep value.
    for (int k = 0; (B >> (k + 1)) >= 1; ++k) {
        const std::size_t stride = B >> (k + 1);
        for (std::size_t i = stride - 1; i < B; i += stride)
            s[i] = P[i + 1 - stride];
        c.expect(fr.at(pass, Step::Downsweep, k, block), s,
                 "s[i] holds the sum before the subtree of `stride` elements ending at i");
    }
    if (inclusive) {
        for (std::size_t i = 0; i < B; ++i)
            s[i] = P[i + 1];
        c.expect(fr.at(pass, Step::InclusiveShift, 0, block), s, "inclusive: a_0 + ... + a_i");
    }
    if (totals)
        c.expect(fr.at(pass, Step::BlockTotal, 0, block), {P[B]}, "the tile's total");
}

void expect_reductions(Checker& c, const Frames& fr, const Trace& t) {
    const Request& r = t.request;
    const Values in = as_values(r.input);
    const int B = r.block, G = r.grid, W = B / kWarp;
    const auto Bz = static_cast<std::size_t>(B);
    switch (r.algorithm) {
    case Algorithm::ReduceTree:
        for (int b = 0; b < G; ++b) {
            const Values load = tile(in, static_cast<std::size_t>(b) * Bz, Bz);
            c.expect(fr.at(0, Step::Load, 0, b), load,
                     "s[t] = in[blockIdx.x * TILE + t], 0 past n");
            const double total = expect_tree(c, fr, 0, b, load);
            c.expect(fr.at(0, Step::BlockTotal, 0, b), {total}, "out[blockIdx.x] = s[0]");
        }
        break;
    case Algorithm::ReduceCoarsened:
        for (int b = 0; b < G; ++b) {
            const Values sum = expect_accumulate(c, fr, 0, b, in, G, B);
            c.expect(fr.at(0, Step::Load, 0, b), sum, "s[threadIdx.x] = sum");
            const double total = expect_tree(c, fr, 0, b, sum);
            c.expect(fr.at(0, Step::BlockTotal, 0, b), {total}, "out[blockIdx.x] = s[0]");
        }
        break;
    case Algorithm::ReduceShuffle:
        for (int b = 0; b < G; ++b)
            for (int w = 0; w < W; ++w) {
                const Values lanes =
                    tile(in, static_cast<std::size_t>(b) * Bz + static_cast<std::size_t>(w) * kWarp,
                         kWarp);
                c.expect(fr.at(0, Step::Load, 0, b, w), lanes, "val = in[i], 0 past n");
                expect_shuffles(c, fr, 0, Step::Shuffle, b, w, lanes);
            }
        break;
    case Algorithm::ReduceFull: {
        Values pass_in = in;
        for (int pass = 0; pass < (G > 1 ? 2 : 1); ++pass) {
            const int grid = pass == 0 ? G : 1;
            Values totals(static_cast<std::size_t>(grid));
            for (int b = 0; b < grid; ++b) {
                const Values sum = expect_accumulate(c, fr, pass, b, pass_in, grid, B);
                Values warp_totals(static_cast<std::size_t>(W));
                for (int w = 0; w < W; ++w) {
                    const Values lanes = tile(sum, static_cast<std::size_t>(w) * kWarp, kWarp);
                    warp_totals[static_cast<std::size_t>(w)] =
                        expect_shuffles(c, fr, pass, Step::Shuffle, b, w, lanes)[0];
                }
                c.expect(fr.at(pass, Step::WarpTotals, 0, b), warp_totals,
                         "lane 0 of each warp writes s[warpId]");
                const Values first = tile(warp_totals, 0, kWarp); // lanes >= WARPS load 0
                c.expect(fr.at(pass, Step::FinalShuffle, 0, b), first,
                         "v = lane < WARPS ? s[lane] : 0");
                const double total =
                    expect_shuffles(c, fr, pass, Step::FinalShuffle, b, -1, first)[0];
                c.expect(fr.at(pass, Step::BlockTotal, 0, b), {total}, "out[blockIdx.x] = sum");
                totals[static_cast<std::size_t>(b)] = total;
            }
            pass_in = totals; // the second launch reduces the block totals
        }
        break;
    }
    case Algorithm::ReduceAtomic: {
        const Values sums = ref::grid_stride_block_sums(r.input, G, B);
        for (int b = 0; b < G; ++b)
            c.expect(fr.at(0, Step::BlockTotal, 0, b), {sums[static_cast<std::size_t>(b)]},
                     "the block's total over its grid-stride share");
        break;
    }
    default:
        break;
    }
}

void expect_scans(Checker& c, const Frames& fr, const Trace& t) {
    const Request& r = t.request;
    const int B = r.block;
    const auto Bz = static_cast<std::size_t>(B);
    const bool inclusive = r.options.inclusive;
    switch (r.algorithm) {
    case Algorithm::ScanBlelloch:
        expect_scan_block(c, fr, 0, 0, tile(as_values(r.input), 0, Bz), inclusive, false);
        break;
    case Algorithm::ScanMultiblock: {
        // Level k scans the block totals of level k - 1 until one block holds them all; the
        // carries are added back in the opposite order, deepest level first.
        std::vector<Values> level_in{as_values(r.input)};
        while (level_in.back().size() > Bz) {
            const Values& v = level_in.back();
            Values totals((v.size() + Bz - 1) / Bz, 0.0);
            for (std::size_t i = 0; i < v.size(); ++i)
                totals[i / Bz] += v[i];
            level_in.push_back(totals);
        }
        const int levels = static_cast<int>(level_in.size());
        for (int k = 0; k < levels; ++k) {
            const Values& v = level_in[static_cast<std::size_t>(k)];
            const std::size_t grid = (v.size() + Bz - 1) / Bz;
            for (std::size_t b = 0; b < grid; ++b)
                expect_scan_block(c, fr, k, static_cast<int>(b), tile(v, b * Bz, Bz),
                                  inclusive && k == 0, grid > 1);
            if (grid == 1)
                continue;
            const int carry_pass = levels + (levels - 2 - k);
            const Values P = prefix(tile(v, 0, grid * Bz));
            for (std::size_t b = 0; b < grid; ++b) {
                Values want(Bz);
                for (std::size_t i = 0; i < Bz; ++i)
                    want[i] = P[b * Bz + i + (inclusive && k == 0 ? 1 : 0)];
                c.expect(fr.at(carry_pass, Step::AddCarries, 0, static_cast<int>(b)), want,
                         "the block's scan plus its carry: the scan of the whole level");
            }
        }
        break;
    }
    case Algorithm::ScanHillisSteele: {
        const Values load = tile(as_values(r.input), 0, Bz);
        const Values P = prefix(load);
        c.expect(fr.at(0, Step::Load, 0, 0), load, "s[t] = in[t], 0 past n");
        for (int k = 1; (1 << (k - 1)) < B; ++k) {
            const std::size_t reach = std::size_t{1} << k;
            Values s(Bz);
            for (std::size_t i = 0; i < Bz; ++i)
                s[i] = P[i + 1] - P[i + 1 >= reach ? i + 1 - reach : 0];
            c.expect(fr.at(0, Step::HillisSteele, k, 0), s,
                     "after step k, s[i] sums the 2^k elements ending at i");
        }
        break;
    }
    default:
        break;
    }
}

void expect_histograms(Checker& c, const Frames& fr, const Trace& t) {
    const Request& r = t.request;
    const std::size_t n = r.input.size();
    const int B = r.block, G = r.grid, W = B / kWarp;
    const auto K = static_cast<std::size_t>(r.bins);
    const auto bin = [&](std::size_t i) { return static_cast<std::size_t>(r.input[i]); };
    const int R = rounds(n, G, B);
    const auto element = [&](int round, int block, int thread) {
        return (static_cast<std::size_t>(round) * static_cast<std::size_t>(G) +
                static_cast<std::size_t>(block)) *
                   static_cast<std::size_t>(B) +
               static_cast<std::size_t>(thread);
    };
    if (r.algorithm == Algorithm::HistGlobal) {
        // Round r has counted every element below r * gridDim * blockDim.
        Values g(K, 0.0);
        for (int round = 0; round < R; ++round) {
            for (int b = 0; b < G; ++b)
                for (int th = 0; th < B; ++th)
                    if (element(round, b, th) < n)
                        g[bin(element(round, b, th))] += 1;
            c.expect(fr.at(0, Step::HistAccumulate, round + 1, -1), g,
                     "g_hist counts every element of the rounds so far");
        }
        return;
    }
    const int copies = r.algorithm == Algorithm::HistPerWarp ? W : 1;
    const int warp_id = r.algorithm == Algorithm::HistPerWarp ? 0 : -1;
    std::vector<std::vector<Values>> priv(
        static_cast<std::size_t>(G),
        std::vector<Values>(static_cast<std::size_t>(copies), Values(K, 0.0)));
    for (int b = 0; b < G; ++b)
        for (int w = 0; w < copies; ++w)
            c.expect(fr.at(0, Step::HistZero, 0, b, warp_id + w), Values(K, 0.0), "s_hist[b] = 0");
    for (int round = 0; round < R; ++round)
        for (int b = 0; b < G; ++b) {
            for (int th = 0; th < B; ++th)
                if (element(round, b, th) < n)
                    priv[static_cast<std::size_t>(b)][static_cast<std::size_t>(
                        copies > 1 ? th / kWarp : 0)][bin(element(round, b, th))] += 1;
            for (int w = 0; w < copies; ++w)
                c.expect(fr.at(0, Step::HistAccumulate, round + 1, b, warp_id + w),
                         priv[static_cast<std::size_t>(b)][static_cast<std::size_t>(w)],
                         "the private copy counts its threads' elements of the rounds so far");
        }
    Values global(K, 0.0);
    for (int b = 0; b < G; ++b) {
        Values block_counts(K, 0.0);
        for (const Values& copy : priv[static_cast<std::size_t>(b)])
            for (std::size_t k = 0; k < K; ++k)
                block_counts[k] += copy[k];
        if (r.algorithm == Algorithm::HistPerWarp)
            c.expect(fr.at(0, Step::HistMerge, 0, b), block_counts,
                     "the warp copies summed per bin");
        for (std::size_t k = 0; k < K; ++k)
            global[k] += block_counts[k];
        c.expect(fr.at(0, Step::HistFold, 0, b), global,
                 "g_hist after the folds of blocks 0..b, in block order");
    }
}

} // namespace

void expect_frames_follow_the_kernel(const Trace& t) {
    if (t.request.algorithm == Algorithm::ReduceNaive)
        return; // one running sum: expect_fixed_order_sums checks it for any input
    const Frames fr(t);
    Checker c;
    switch (info(t.request.algorithm).family) {
    case Family::Reduce:
        expect_reductions(c, fr, t);
        break;
    case Family::Scan:
        expect_scans(c, fr, t);
        break;
    case Family::Histogram:
        expect_histograms(c, fr, t);
        break;
    }
}

void expect_fixed_order_sums(const Trace& t) {
    const Request& r = t.request;
    if (r.algorithm == Algorithm::ReduceNaive) {
        // Thread 0's running sum after addition k: `sum += in[i]` in fp32, in index order.
        float sum = 0.0f;
        int reports = 0;
        for (std::size_t k = 0; k < t.frames.size() && k < r.input.size() && reports < 5; ++k) {
            sum += r.input[k];
            if (t.frames[k].values.size() != 1 || t.frames[k].values[0] != sum) {
                ADD_FAILURE() << "serial-add " << k + 1 << " is not the fp32 sum of in[0.." << k
                              << "]";
                ++reports;
            }
        }
        return;
    }
    if (r.algorithm != Algorithm::ReduceAtomic)
        return;
    // Each atomicAdd adds one block's total, as that block wrote it, to the running fp32 sum.
    std::map<int, float> totals;
    for (const Frame& f : t.frames)
        if (f.step == Step::BlockTotal)
            totals[f.block] = f.values.at(0);
    std::vector<int> arrived;
    float sum = 0.0f;
    for (const Frame& f : t.frames) {
        if (f.step != Step::AtomicAdd)
            continue;
        arrived.push_back(f.block);
        ASSERT_TRUE(totals.contains(f.block)) << "atomicAdd by block " << f.block;
        sum += totals[f.block];
        EXPECT_EQ(f.values.at(0), totals[f.block])
            << "atomicAdd " << f.level << " adds block " << f.block << "'s total";
        EXPECT_EQ(f.values.at(1), sum) << "atomicAdd " << f.level << " leaves the running fp32 sum";
    }
    std::sort(arrived.begin(), arrived.end());
    for (std::size_t k = 0; k < arrived.size(); ++k) {
        ASSERT_EQ(arrived[k], static_cast<int>(k)) << "every block adds its total exactly once";
    }
    ASSERT_EQ(t.result.size(), 1u);
    EXPECT_EQ(t.result[0], sum) << "the result is the sum after the last atomicAdd";
}

} // namespace pplab::steps
