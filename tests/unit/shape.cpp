#include "shape.hpp"

#include "pplab/plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pplab::shape {

namespace {

constexpr int kWarp = 32;
constexpr int kShuffleSteps = 5; // offsets 16, 8, 4, 2, 1

int ceil_div(long long a, long long b) {
    return static_cast<int>((a + b - 1) / b);
}

// Appends frames in canonical order: level-major, then block, then warp, as the host sorts
// them (DESIGN.md, "Canonical order").
class Builder {
public:
    explicit Builder(std::vector<Key>& out) : out_(out) {}

    Builder& pass(int p) {
        pass_ = p;
        return *this;
    }
    // levels first..last; blocks 0..blocks-1 (blocks < 0: one frame with that block id);
    // warps 0..warps-1 (warps == 0: not per warp).
    Builder& add(Step step, Buffer buffer, int first, int last, int blocks, int warps,
                 std::size_t count) {
        for (int level = first; level <= last; ++level)
            for (int b = 0; b < (blocks < 0 ? 1 : blocks); ++b)
                for (int w = 0; w < (warps > 0 ? warps : 1); ++w)
                    out_.push_back(Key{pass_, step, level, blocks < 0 ? blocks : b,
                                       warps > 0 ? w : -1, buffer, count});
        return *this;
    }

private:
    std::vector<Key>& out_;
    int pass_ = 0;
};

int rounds(const Pass& p) {
    return ceil_div(p.n, static_cast<long long>(p.grid) * p.block);
}

void full_block(Builder& b, const Pass& p) {
    const int W = p.block / kWarp;
    b.add(Step::Accumulate, Buffer::Registers, 1, rounds(p), p.grid, 0, p.block)
        .add(Step::Shuffle, Buffer::Lanes, 1, kShuffleSteps, p.grid, W, kWarp)
        .add(Step::WarpTotals, Buffer::Shared, 0, 0, p.grid, 0, W)
        .add(Step::FinalShuffle, Buffer::Lanes, 0, kShuffleSteps, p.grid, 0, kWarp)
        .add(Step::BlockTotal, Buffer::Global, 0, 0, p.grid, 0, 1);
}

void scan_block(Builder& b, const Pass& p, bool inclusive, bool totals) {
    const int L = log2_exact(p.block);
    const auto B = static_cast<std::size_t>(p.block);
    b.add(Step::Load, Buffer::Shared, 0, 0, p.grid, 0, B)
        .add(Step::Upsweep, Buffer::Shared, 0, L - 1, p.grid, 0, B)
        .add(Step::ClearRoot, Buffer::Shared, 0, 0, p.grid, 0, B)
        .add(Step::Downsweep, Buffer::Shared, 0, L - 1, p.grid, 0, B);
    if (inclusive)
        b.add(Step::InclusiveShift, Buffer::Shared, 0, 0, p.grid, 0, B);
    if (totals)
        b.add(Step::BlockTotal, Buffer::Global, 0, 0, p.grid, 0, 1);
}

// The multi-block scan's levels: the input, then the block totals of each level until one
// block holds them all.
std::vector<Pass> scan_tiles(int n, int block) {
    std::vector<Pass> levels;
    for (int m = n;;) {
        levels.push_back(Pass{ceil_div(m, block), block, m});
        if (levels.back().grid == 1)
            return levels;
        m = levels.back().grid;
    }
}

} // namespace

int log2_exact(int x) {
    int k = 0;
    while ((1 << k) < x)
        ++k;
    if ((1 << k) != x)
        throw std::logic_error("not a power of two");
    return k;
}

int log2_ceil(int x) {
    int k = 0;
    while ((1 << k) < x)
        ++k;
    return k;
}

int default_grid(Algorithm a, int n, int block) {
    switch (a) {
    case Algorithm::ReduceTree:
    case Algorithm::ReduceShuffle:
    case Algorithm::ScanMultiblock:
        return ceil_div(n, block);
    case Algorithm::ReduceCoarsened:
    case Algorithm::ReduceFull:
    case Algorithm::ReduceAtomic:
    case Algorithm::HistGlobal:
    case Algorithm::HistPrivatised:
    case Algorithm::HistPerWarp:
        return ceil_div(n, 4LL * block);
    case Algorithm::ReduceNaive:
    case Algorithm::ScanBlelloch:
    case Algorithm::ScanHillisSteele:
        return 1;
    // The production kernels: reduceFast and scanFast run blocks of 256, histogramFast of
    // 1024 (fast.cu). reduceFast: at least kFastReduceMinLoads 16-byte loads per thread, at
    // most kFastReduceMaxGrid blocks (8 on each of the H200's 132 SMs).
    case Algorithm::ReduceFast:
        return std::clamp(ceil_div(n, 4LL * kFastBlock * kFastReduceMinLoads), 1,
                          kFastReduceMaxGrid);
    // scanFast: one tile of kScanFastTile elements per block; histogramFast: 16 bytes per
    // thread of 1024 per round, at most two blocks on each of the 132 SMs.
    case Algorithm::ScanFast:
        return ceil_div(n, kScanFastTile);
    case Algorithm::HistFast:
        return std::clamp(ceil_div(n, 16LL * 1024), 1, 2 * 132);
    }
    return 1;
}

std::vector<Pass> passes(const Request& r) {
    const int n = r.n(), B = r.block, G = r.grid;
    switch (r.algorithm) {
    case Algorithm::ReduceFull:
        if (G > 1)
            return {Pass{G, B, n}, Pass{1, B, G}}; // the second launch reduces the block totals
        return {Pass{G, B, n}};
    case Algorithm::ScanMultiblock: {
        const std::vector<Pass> tiles = scan_tiles(n, B);
        std::vector<Pass> out = tiles;
        for (auto it = tiles.rbegin(); it != tiles.rend(); ++it) // carries go back up
            if (it->grid > 1)
                out.push_back(*it);
        return out;
    }
    default:
        return {Pass{G, B, n}};
    }
}

std::vector<Key> expected_keys(const Request& r) {
    std::vector<Key> keys;
    Builder b(keys);
    const std::vector<Pass> ps = passes(r);
    const Pass& p = ps.front();
    const int B = r.block, W = B / kWarp;
    const auto Bz = static_cast<std::size_t>(B);
    const auto K = static_cast<std::size_t>(r.bins);
    switch (r.algorithm) {
    case Algorithm::ReduceNaive:
        b.add(Step::SerialAdd, Buffer::Registers, 1, r.n(), 1, 0, 1);
        break;
    case Algorithm::ReduceTree:
        b.add(Step::Load, Buffer::Shared, 0, 0, p.grid, 0, Bz)
            .add(Step::TreeLevel, Buffer::Shared, 0, log2_exact(B) - 1, p.grid, 0, Bz)
            .add(Step::BlockTotal, Buffer::Global, 0, 0, p.grid, 0, 1);
        break;
    case Algorithm::ReduceCoarsened:
        b.add(Step::Accumulate, Buffer::Registers, 1, rounds(p), p.grid, 0, Bz)
            .add(Step::Load, Buffer::Shared, 0, 0, p.grid, 0, Bz)
            .add(Step::TreeLevel, Buffer::Shared, 0, log2_exact(B) - 1, p.grid, 0, Bz)
            .add(Step::BlockTotal, Buffer::Global, 0, 0, p.grid, 0, 1);
        break;
    case Algorithm::ReduceShuffle:
        b.add(Step::Load, Buffer::Lanes, 0, 0, p.grid, W, kWarp)
            .add(Step::Shuffle, Buffer::Lanes, 1, kShuffleSteps, p.grid, W, kWarp);
        break;
    case Algorithm::ReduceFull:
        for (std::size_t k = 0; k < ps.size(); ++k)
            full_block(b.pass(static_cast<int>(k)), ps[k]);
        break;
    case Algorithm::ReduceAtomic:
        b.add(Step::BlockTotal, Buffer::Global, 0, 0, p.grid, 0, 1)
            .add(Step::AtomicAdd, Buffer::Global, 1, p.grid, kAnyBlock, 0, 2);
        break;
    case Algorithm::ScanBlelloch:
        scan_block(b, p, r.options.inclusive, false);
        break;
    case Algorithm::ScanMultiblock: {
        const std::vector<Pass> tiles = scan_tiles(r.n(), B);
        int pass = 0;
        for (std::size_t k = 0; k < tiles.size(); ++k)
            scan_block(b.pass(pass++), tiles[k], r.options.inclusive && k == 0, tiles[k].grid > 1);
        for (auto it = tiles.rbegin(); it != tiles.rend(); ++it)
            if (it->grid > 1)
                b.pass(pass++).add(Step::AddCarries, Buffer::Global, 0, 0, it->grid, 0, Bz);
        break;
    }
    case Algorithm::ScanHillisSteele:
        b.add(Step::Load, Buffer::Shared, 0, 0, 1, 0, Bz)
            .add(Step::HillisSteele, Buffer::Shared, 1, log2_ceil(B), 1, 0, Bz);
        break;
    case Algorithm::HistGlobal:
        b.add(Step::HistAccumulate, Buffer::Global, 1, rounds(p), -1, 0, K);
        break;
    case Algorithm::HistPrivatised:
        b.add(Step::HistZero, Buffer::PrivateHist, 0, 0, p.grid, 0, K)
            .add(Step::HistAccumulate, Buffer::PrivateHist, 1, rounds(p), p.grid, 0, K)
            .add(Step::HistFold, Buffer::Global, 0, 0, p.grid, 0, K);
        break;
    case Algorithm::HistPerWarp:
        b.add(Step::HistZero, Buffer::PrivateHist, 0, 0, p.grid, W, K)
            .add(Step::HistAccumulate, Buffer::PrivateHist, 1, rounds(p), p.grid, W, K)
            .add(Step::HistMerge, Buffer::PrivateHist, 0, 0, p.grid, 0, K)
            .add(Step::HistFold, Buffer::Global, 0, 0, p.grid, 0, K);
        break;
    case Algorithm::ReduceFast:
    case Algorithm::ScanFast:
    case Algorithm::HistFast:
        // Production kernels are timed, not traced: a request for their frames is a test bug.
        throw std::logic_error(std::string(info(r.algorithm).id) + " records no frames");
    }
    return keys;
}

Key key_of(const Frame& f) {
    return Key{f.pass, f.step,   f.level,        f.step == Step::AtomicAdd ? kAnyBlock : f.block,
               f.warp, f.buffer, f.values.size()};
}

std::string describe(const Key& k) {
    return "pass " + std::to_string(k.pass) + " " + std::string(step_id(k.step)) + " level " +
           std::to_string(k.level) + " block " + std::to_string(k.block) + " warp " +
           std::to_string(k.warp) + " (" + std::string(buffer_id(k.buffer)) + ", " +
           std::to_string(k.count) + " values)";
}

std::size_t frames_in_plan(const Request& r) {
    std::size_t total = 0;
    for (const Launch& l : make_plan(r).launches)
        for (int s = 0; s < l.layout.segments; ++s) {
            const record::Segment& seg = l.layout.seg[s];
            total += static_cast<std::size_t>(seg.levels) *
                     static_cast<std::size_t>(seg.blocks > 0 ? seg.blocks : 1) *
                     static_cast<std::size_t>(seg.warps > 0 ? seg.warps : 1);
        }
    return total;
}

} // namespace pplab::shape
