#include "pplab/plan.hpp"
#include "pplab/lookback.hpp"

#include <bit>
#include <stdexcept>
#include <string>

namespace pplab {

using record::Buffer;
using record::Segment;
using record::Step;

namespace {

int log2_floor(int x) {
    return std::bit_width(static_cast<unsigned>(x)) - 1;
}
int log2_ceil(int x) {
    return x <= 1 ? 0 : std::bit_width(static_cast<unsigned>(x - 1));
}
constexpr int kShuffleSteps = 5; // offsets 16, 8, 4, 2, 1

// Starts a launch in the plan and appends its segments, allocating each its words of the
// trace buffer. Use it until the next launch is begun.
class LaunchBuilder {
public:
    LaunchBuilder(Plan& plan, std::string kernel, int grid, int block, int n) : plan_(plan) {
        Launch l;
        l.kernel = std::move(kernel);
        l.grid = grid;
        l.block = block;
        l.n = n;
        l.layout.pass = static_cast<int>(plan.launches.size());
        plan.launches.push_back(std::move(l));
    }

    // levels == 0 adds nothing: a one-thread block has no tree levels.
    LaunchBuilder& add(Step step, Buffer buffer, int level0, int levels, int blocks, int warps,
                       int count) {
        if (levels <= 0)
            return *this;
        auto& layout = plan_.launches.back().layout;
        if (layout.segments == record::kMaxSegments)
            throw std::logic_error("launch records more segments than the layout holds");
        Segment s{};
        s.base = plan_.words;
        s.count = static_cast<std::uint32_t>(count);
        s.level0 = level0;
        s.levels = levels;
        s.blocks = blocks;
        s.warps = warps;
        s.step = static_cast<std::uint8_t>(step);
        s.buffer = static_cast<std::uint8_t>(buffer);
        layout.seg[layout.segments++] = s;
        plan_.words += record::segment_words(s);
        return *this;
    }

private:
    Plan& plan_;
};

// reduceFull's block reduction: shared by reduce-full (both passes) and reduce-atomic.
void add_full_block(LaunchBuilder& b, int grid, int block, int rounds) {
    const int warps = block / kWarpSize;
    b.add(Step::Accumulate, Buffer::Registers, 1, rounds, grid, 0, block)
        .add(Step::Shuffle, Buffer::Lanes, 1, kShuffleSteps, grid, warps, kWarpSize)
        .add(Step::WarpTotals, Buffer::Shared, 0, 1, grid, 0, warps)
        .add(Step::FinalShuffle, Buffer::Lanes, 0, kShuffleSteps + 1, grid, 0, kWarpSize)
        .add(Step::BlockTotal, Buffer::Global, 0, 1, grid, 0, 1);
}

void add_scan_block(LaunchBuilder& b, int grid, int block, bool inclusive, bool totals) {
    const int tree_levels = log2_floor(block);
    b.add(Step::Load, Buffer::Shared, 0, 1, grid, 0, block)
        .add(Step::Upsweep, Buffer::Shared, 0, tree_levels, grid, 0, block)
        .add(Step::ClearRoot, Buffer::Shared, 0, 1, grid, 0, block)
        .add(Step::Downsweep, Buffer::Shared, 0, tree_levels, grid, 0, block);
    if (inclusive)
        b.add(Step::InclusiveShift, Buffer::Shared, 0, 1, grid, 0, block);
    if (totals)
        b.add(Step::BlockTotal, Buffer::Global, 0, 1, grid, 0, 1);
}

} // namespace

Plan make_lookback_plan(const Request& r) {
    Plan plan;
    LaunchBuilder(plan, "scanFast", r.grid, r.block, r.n())
        .add(Step::TilePublish, Buffer::Global, 0, 1, r.grid, 0, kPublishValues)
        .add(Step::LookBack, Buffer::Global, 0, 1, r.grid, 0, kReadValues * r.grid);
    return plan;
}

int lookback_tile_size(const Request& r) {
    return r.block * kLookbackItems;
}

int Launch::segment(record::Step s) const {
    for (int i = 0; i < layout.segments; ++i)
        if (layout.seg[i].step == static_cast<std::uint8_t>(s))
            return i;
    return -1;
}

std::size_t result_size(const Request& r) {
    switch (r.algorithm) {
    case Algorithm::ReduceTree:
    case Algorithm::ReduceCoarsened:
        return static_cast<std::size_t>(r.grid);
    case Algorithm::ReduceShuffle:
        return static_cast<std::size_t>(r.grid) * static_cast<std::size_t>(r.block / kWarpSize);
    case Algorithm::ReduceNaive:
    case Algorithm::ReduceFull:
    case Algorithm::ReduceAtomic:
    case Algorithm::ReduceFast:
        return 1;
    case Algorithm::ScanBlelloch:
    case Algorithm::ScanMultiblock:
    case Algorithm::ScanHillisSteele:
    case Algorithm::ScanFast:
        return static_cast<std::size_t>(r.n());
    case Algorithm::HistGlobal:
    case Algorithm::HistPrivatised:
    case Algorithm::HistPerWarp:
    case Algorithm::HistFast:
        return static_cast<std::size_t>(r.bins);
    }
    return 0;
}

int grid_stride_rounds(int n, int grid, int block) {
    const long long stride = static_cast<long long>(grid) * block;
    return static_cast<int>((n + stride - 1) / stride);
}

std::vector<ScanLevel> scan_levels(int n, int block) {
    std::vector<ScanLevel> levels;
    int pass = 0;
    for (int m = n;;) {
        ScanLevel s;
        s.n = m;
        s.grid = (m + block - 1) / block;
        s.scan_pass = pass++;
        levels.push_back(s);
        if (s.grid == 1)
            break;
        m = s.grid;
    }
    for (auto it = levels.rbegin(); it != levels.rend(); ++it)
        if (it->grid > 1)
            it->carry_pass = pass++;
    return levels;
}

Plan make_plan(const Request& r) {
    require_traced(r.algorithm);
    Plan plan;
    const int block = r.block, grid = r.grid, n = r.n();
    const int warps = block / kWarpSize;
    const int tree_levels = log2_floor(block);
    switch (r.algorithm) {
    case Algorithm::ReduceNaive:
        LaunchBuilder(plan, "reduceNaive", 1, block, n)
            .add(Step::SerialAdd, Buffer::Registers, 1, n, 1, 0, 1);
        break;
    case Algorithm::ReduceTree:
        LaunchBuilder(plan, "reduceTree", grid, block, n)
            .add(Step::Load, Buffer::Shared, 0, 1, grid, 0, block)
            .add(Step::TreeLevel, Buffer::Shared, 0, tree_levels, grid, 0, block)
            .add(Step::BlockTotal, Buffer::Global, 0, 1, grid, 0, 1);
        break;
    case Algorithm::ReduceCoarsened:
        plan.rounds = grid_stride_rounds(n, grid, block);
        LaunchBuilder(plan, "reduceCoarsened", grid, block, n)
            .add(Step::Accumulate, Buffer::Registers, 1, plan.rounds, grid, 0, block)
            .add(Step::Load, Buffer::Shared, 0, 1, grid, 0, block)
            .add(Step::TreeLevel, Buffer::Shared, 0, tree_levels, grid, 0, block)
            .add(Step::BlockTotal, Buffer::Global, 0, 1, grid, 0, 1);
        break;
    case Algorithm::ReduceShuffle:
        LaunchBuilder(plan, "reduceShuffle", grid, block, n)
            .add(Step::Load, Buffer::Lanes, 0, 1, grid, warps, kWarpSize)
            .add(Step::Shuffle, Buffer::Lanes, 1, kShuffleSteps, grid, warps, kWarpSize);
        break;
    case Algorithm::ReduceFull: {
        plan.rounds = grid_stride_rounds(n, grid, block);
        {
            LaunchBuilder b(plan, "reduceFull", grid, block, n);
            add_full_block(b, grid, block, plan.rounds);
        }
        if (grid > 1) { // the second pass: one block over the block totals
            LaunchBuilder b(plan, "reduceFull", 1, block, grid);
            add_full_block(b, 1, block, grid_stride_rounds(grid, 1, block));
        }
        break;
    }
    case Algorithm::ReduceAtomic:
        plan.rounds = grid_stride_rounds(n, grid, block);
        LaunchBuilder(plan, "reduceAtomic", grid, block, n)
            .add(Step::BlockTotal, Buffer::Global, 0, 1, grid, 0, 1)
            .add(Step::AtomicAdd, Buffer::Global, 1, grid, 0, 0, 2);
        break;
    case Algorithm::ScanBlelloch: {
        LaunchBuilder b(plan, "scanBlelloch", 1, block, n);
        add_scan_block(b, 1, block, r.options.inclusive, false);
        break;
    }
    case Algorithm::ScanMultiblock: {
        const auto levels = scan_levels(n, block);
        for (std::size_t k = 0; k < levels.size(); ++k) {
            LaunchBuilder b(plan, "scanBlocks", levels[k].grid, block, levels[k].n);
            // Only the user's array is scanned inclusively; block totals become carries,
            // which must be exclusive.
            add_scan_block(b, levels[k].grid, block, r.options.inclusive && k == 0,
                           levels[k].grid > 1);
        }
        for (auto it = levels.rbegin(); it != levels.rend(); ++it)
            if (it->grid > 1)
                LaunchBuilder(plan, "addCarries", it->grid, block, it->n)
                    .add(Step::AddCarries, Buffer::Global, 0, 1, it->grid, 0, block);
        break;
    }
    case Algorithm::ScanHillisSteele:
        LaunchBuilder(plan, "scanHillisSteele", 1, block, n)
            .add(Step::Load, Buffer::Shared, 0, 1, 1, 0, block)
            .add(Step::HillisSteele, Buffer::Shared, 1, log2_ceil(block), 1, 0, block);
        break;
    case Algorithm::HistGlobal:
        plan.rounds = grid_stride_rounds(n, grid, block);
        LaunchBuilder(plan, "histogramGlobal", grid, block, n)
            .add(Step::HistAccumulate, Buffer::Global, 1, plan.rounds, 0, 0, r.bins);
        break;
    case Algorithm::HistPrivatised:
        plan.rounds = grid_stride_rounds(n, grid, block);
        LaunchBuilder(plan, "histogramPrivatised", grid, block, n)
            .add(Step::HistZero, Buffer::PrivateHist, 0, 1, grid, 0, r.bins)
            .add(Step::HistAccumulate, Buffer::PrivateHist, 1, plan.rounds, grid, 0, r.bins)
            .add(Step::HistFold, Buffer::Global, 0, 1, grid, 0, r.bins);
        break;
    case Algorithm::ScanFast: // classroom-sized tiles: r comes from normalize_trace
        return make_lookback_plan(r);
    case Algorithm::ReduceFast:
    case Algorithm::HistFast:
        break;
    case Algorithm::HistPerWarp:
        plan.rounds = grid_stride_rounds(n, grid, block);
        LaunchBuilder(plan, "histogramPerWarp", grid, block, n)
            .add(Step::HistZero, Buffer::PrivateHist, 0, 1, grid, warps, r.bins)
            .add(Step::HistAccumulate, Buffer::PrivateHist, 1, plan.rounds, grid, warps, r.bins)
            .add(Step::HistMerge, Buffer::PrivateHist, 0, 1, grid, 0, r.bins)
            .add(Step::HistFold, Buffer::Global, 0, 1, grid, 0, r.bins);
        break;
    }
    if (plan.words > kMaxTraceWords) {
        const auto mib = (plan.words * 4 + (1u << 20) - 1) >> 20;
        throw InputError("this trace would record " + std::to_string(plan.words) + " words (" +
                         std::to_string(mib) + " MiB): more than the " +
                         std::to_string(kMaxTraceWords) +
                         " words (64 MiB) a trace may hold; choose a smaller n, a smaller grid "
                         "or fewer bins");
    }
    return plan;
}

} // namespace pplab
