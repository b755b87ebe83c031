// CPU lockstep models of the histograms (§8.8). Counts are integers, so the order in which
// atomics land cannot change them; only the grid-stride rounds and the fold order (block
// order, which the traced kernels enforce) shape the snapshots.
#include "cpu/recorder.hpp"

#include <vector>

namespace pplab::cpu {

namespace {

using record::Step;

std::vector<float> as_values(const std::vector<int>& counts) {
    return {counts.begin(), counts.end()}; // exact: counts stay below 2^24 (kMaxTraceN)
}

// Element index of thread t of block b in grid-stride round r, or -1 past the end.
long long element(int r, int b, int t, int block_dim, int grid_dim, int n) {
    const long long i = (static_cast<long long>(r) * grid_dim + b) * block_dim + t;
    return i < n ? i : -1;
}

// The fold, block by block in block order: with or without the empty-bin skip (Exercise 4).
void fold(std::vector<int>& global, const std::vector<std::vector<int>>& privates, bool skip_empty,
          Recorder& rec) {
    for (std::size_t b = 0; b < privates.size(); ++b) {
        for (std::size_t bin = 0; bin < global.size(); ++bin)
            if (!skip_empty || privates[b][bin] != 0)
                global[bin] += privates[b][bin];
        rec(Step::HistFold, 0, static_cast<int>(b), -1, as_values(global));
    }
}

} // namespace

std::vector<float> run_histogram(const Request& r, const Plan& plan,
                                 std::vector<std::uint32_t>& words) {
    const int n = r.n(), block_dim = r.block, grid_dim = r.grid, bins = r.bins;
    const int rounds = plan.rounds;
    Recorder rec(words, plan.launches.front());
    std::vector<int> global(bins, 0);
    const auto bin_of = [&](long long i) {
        return static_cast<int>(r.input[static_cast<std::size_t>(i)]);
    };

    switch (r.algorithm) {
    case Algorithm::HistGlobal:
        for (int round = 0; round < rounds; ++round) {
            for (int b = 0; b < grid_dim; ++b)
                for (int t = 0; t < block_dim; ++t)
                    if (const long long i = element(round, b, t, block_dim, grid_dim, n); i >= 0)
                        ++global[bin_of(i)];
            rec(Step::HistAccumulate, round + 1, -1, -1, as_values(global));
        }
        break;
    case Algorithm::HistPrivatised: {
        std::vector<std::vector<int>> s_hist(grid_dim, std::vector<int>(bins, 0));
        for (int b = 0; b < grid_dim; ++b)
            rec(Step::HistZero, 0, b, -1, as_values(s_hist[b]));
        for (int round = 0; round < rounds; ++round)
            for (int b = 0; b < grid_dim; ++b) {
                for (int t = 0; t < block_dim; ++t)
                    if (const long long i = element(round, b, t, block_dim, grid_dim, n); i >= 0)
                        ++s_hist[b][bin_of(i)];
                rec(Step::HistAccumulate, round + 1, b, -1, as_values(s_hist[b]));
            }
        fold(global, s_hist, r.options.skip_empty, rec);
        break;
    }
    case Algorithm::HistPerWarp: {
        const int warps = block_dim / kWarpSize;
        // s_hist[b][w]: warp w's private copy in block b.
        std::vector<std::vector<std::vector<int>>> s_hist(
            grid_dim, std::vector<std::vector<int>>(warps, std::vector<int>(bins, 0)));
        for (int b = 0; b < grid_dim; ++b)
            for (int w = 0; w < warps; ++w)
                rec(Step::HistZero, 0, b, w, as_values(s_hist[b][w]));
        for (int round = 0; round < rounds; ++round)
            for (int b = 0; b < grid_dim; ++b) {
                for (int t = 0; t < block_dim; ++t)
                    if (const long long i = element(round, b, t, block_dim, grid_dim, n); i >= 0)
                        ++s_hist[b][t / kWarpSize][bin_of(i)];
                for (int w = 0; w < warps; ++w)
                    rec(Step::HistAccumulate, round + 1, b, w, as_values(s_hist[b][w]));
            }
        std::vector<std::vector<int>> merged(grid_dim, std::vector<int>(bins, 0));
        for (int b = 0; b < grid_dim; ++b) {
            for (int bin = 0; bin < bins; ++bin)
                for (int w = 0; w < warps; ++w)
                    merged[b][bin] += s_hist[b][w][bin];
            rec(Step::HistMerge, 0, b, -1, as_values(merged[b]));
        }
        fold(global, merged, r.options.skip_empty, rec);
        break;
    }
    default:
        throw std::logic_error("run_histogram called for another family");
    }
    return as_values(global);
}

} // namespace pplab::cpu
