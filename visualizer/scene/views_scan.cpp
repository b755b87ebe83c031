// The scans of §8.7: Blelloch's upsweep / clear-root / downsweep in one block, the
// multi-block scheme (block scans, a scan of the totals, carries added back), Hillis-Steele.
#include "views.hpp"

#include "pplab/plan.hpp"

#include <algorithm>
#include <bit>

namespace pplab::scene::detail {

namespace {

int log2i(int x) {
    return std::bit_width(static_cast<unsigned>(x)) - 1;
}

// scanBlock's rows for one block of one launch, from y; returns the y below them.
float blelloch_chain(Composer& c, int pass, int block, float y, const Grid& row) {
    const int block_dim = c.m.block_size(pass), tree_levels = log2i(block_dim);
    const float view_width = row.width();
    const auto put = [&](int f, const std::string& label, const std::string& sub, bool threads,
                         const char* barrier_before) {
        if (f < 0)
            return;
        Grid g = row;
        g.y = y;
        if (barrier_before)
            c.barrier(y - 0.95f, row.x, row.x + view_width, barrier_before);
        c.place(f, g, RowStyle{.threads = threads, .past_flow = threads});
        c.row_label(g, label, sub);
        y += kRowPitch;
    };
    put(c.find(Step::Load, pass, 0, block), "s[] load", "block " + std::to_string(block), false,
        nullptr);
    for (int level = 0; level < tree_levels; ++level)
        put(c.find(Step::Upsweep, pass, level, block), "upsweep " + std::to_string(level),
            "stride " + std::to_string(1 << level), true, "__syncthreads()");
    put(c.find(Step::ClearRoot, pass, 0, block), "clear root",
        "s[" + std::to_string(block_dim - 1) + "] = 0", true, nullptr);
    for (int level = 0; level < tree_levels; ++level)
        put(c.find(Step::Downsweep, pass, level, block), "downsweep " + std::to_string(level),
            "stride " + std::to_string(block_dim >> (level + 1)), true, "__syncthreads()");
    // Only the downsweep's arrows wear these (an upsweep step's legend explained them, nothing
    // on screen in their colours).
    if (tree_levels > 0 && c.cur.step == Step::Downsweep) {
        c.legend(c.pal.carry, "carry: the old s[t], passed down");
        c.legend(c.pal.left_sum, "left sum s[t−stride], added on the right");
    }
    const int shift = c.find(Step::InclusiveShift, pass, 0, block);
    const char* final_barrier = "__syncthreads(): the final barrier";
    if (c.r.options.pitfall == Pitfall::NoFinalSync && tree_levels > 0) {
        // The pitfall: where the final barrier belongs, nothing; the reads after it race.
        c.note({row.x, y - 0.95f + 0.3f * c.label_em},
               "no __syncthreads() here: the reads that follow are not ordered after the writes",
               c.pal.hazard, Align::Left, 0.8f);
        final_barrier = nullptr;
    }
    if (shift >= 0) {
        put(shift, "inclusive", "s[t] = s[t+1]", false, final_barrier);
    } else if (final_barrier && tree_levels > 0) {
        c.barrier(y - 0.95f, row.x, row.x + view_width, final_barrier);
    }
    return y;
}

constexpr float kWideCell = 2.2f * kCell;

// A block of the level above wider than this (world units) is not seen whole where its values
// can be read: its total stands at its start, where the camera following the block begins.
constexpr float kWholeBlock = 12.0f;

// The row of a level's `count` elements, each one total of a block of `parent` (the level
// above, `parent_count` elements in blocks of `block_dim`): element j stands centred over
// block j (the last block's over its own elements), or at its start when the block is too wide
// to be seen whole. So a block's total sits under its block, and its carry over the block's
// out[], at every level and every block the camera follows (at 1024 the carry stood at the
// block's middle, past the edge of the picture that began at the block's first element).
Grid under_blocks(const Grid& parent, int parent_count, float y, int count, int block_dim) {
    const float seg = parent.rect(block_dim).x - parent.rect(0).x; // a block of the level above
    Grid g;
    g.y = y;
    g.cols = std::max(1, (count + block_dim - 1) / block_dim) * block_dim;
    g.pitch_x = seg;
    // Wider than a cell where there is room: a total holds a block's worth of digits.
    g.cell_w = std::min(kWideCell, seg * (kCell / kPitch));
    // The row's name stands left of the level above's, in one column: the first cell's place
    // put it among the arrows into out[] (xs places the cells).
    g.x = parent.x;
    g.group = block_dim;
    g.group_gap = 0.0f; // the spacing already sets the blocks apart
    g.xs.reserve(static_cast<std::size_t>(count));
    for (int j = 0; j < count; ++j) {
        const int begin = j * block_dim, end = std::min(parent_count, begin + block_dim) - 1;
        const float left = parent.rect(begin).x;
        g.xs.push_back(
            seg > kWholeBlock ? left : 0.5f * (left + parent.rect(end).right()) - 0.5f * g.cell_w);
    }
    return g;
}

// A row's positions handed out a block at a time: each part is the row without the other
// blocks' positions (a copy of every block's per frame cost 2048 x 2048 floats for 65536
// elements in blocks of 32). The row is copied whole, so a field added to Grid comes along.
class Parts {
public:
    explicit Parts(Grid row) : xs_(std::move(row.xs)), row_(std::move(row)) { row_.xs.clear(); }
    // Positions [first, first + count) as a grid of their own.
    Grid operator()(int first, int count) const {
        Grid part = row_;
        if (xs_.empty()) {
            part.offset += first;
            return part;
        }
        const auto at = [&](int i) {
            return xs_.begin() + std::clamp<std::ptrdiff_t>(i, 0, std::ssize(xs_));
        };
        part.xs.assign(at(first), at(first + count)); // its own positions, from 0
        part.offset = 0;
        return part;
    }

private:
    std::vector<float> xs_;
    Grid row_;
};

// Where the detail of the block whose tile starts at position `first` of `source` stands
// (`unit_cells`: the source is in[] at one unit a cell):
// under its tile, so the loads fall straight down and its scan falls straight into its block
// of out[] (at block 0's place, block 2's sums crossed the totals and carries on a slant to
// reach out[]). Where the source is not one unit a cell (in[] squeezed, a level's totals spread
// over their blocks), the detail begins under the tile's first element, kept within in[]'s
// `width`: centred under the tile, it stood away from a level's first totals, and the camera
// framed it with none of the values it loads.
float detail_x(const Grid& source, int first, bool unit_cells, float detail_w, float width) {
    const float x = source.rect(first).x;
    return unit_cells ? x : std::clamp(x, 0.0f, std::max(0.0f, width - detail_w));
}

} // namespace

void view_blelloch(Composer& c) {
    const int block_dim = c.m.block_size(0), n = c.r.n();
    Grid row = unit_row(0, 0, block_dim, block_dim > kWarpSize);
    Grid in = unit_row(0, 0, n, block_dim > kWarpSize);
    c.place_input(in, c.r.input, ColourBy::Plain);
    c.row_label(in, "in[]", "n = " + std::to_string(n));
    blelloch_chain(c, 0, 0, kRowPitch, row);
}

void view_multiblock(Composer& c) {
    const int n = c.r.n(), block_dim = c.r.block;
    const std::vector<ScanLevel> levels = scan_levels(n, block_dim);
    Grid row = unit_row(0, 0, block_dim, block_dim > kWarpSize);
    const float view_width = std::max(row.width() + 8.0f, std::min(n, 64) * kPitch);
    // Which level's block the detail shows: the launch being traced, or level 0 while carries
    // flow back.
    std::size_t detail_level = 0;
    for (std::size_t k = 0; k < levels.size(); ++k)
        if (levels[k].scan_pass == c.cur.pass)
            detail_level = k;
    const int detail_pass = levels[detail_level].scan_pass;
    const int detail_block = c.block;

    float y = 0;
    const bool in_unit_cells = n * kPitch <= view_width * 1.001f;
    Grid in = in_unit_cells ? unit_row(0, y, n) : fitted(0, y, n, view_width);
    in.group = block_dim;
    in.group_gap = in_unit_cells ? 0.4f : 0.0f;
    in.cols = levels[0].grid * block_dim; // the last block's padding never wraps to a new row
    // Each level's row: element j of level k stands over block j of level k - 1.
    std::vector<Grid> level_row{in};
    const int first = detail_level == 0 ? detail_block * block_dim : 0;
    c.place_input(in, c.r.input, ColourBy::Block, detail_level == 0 ? first : -1,
                  detail_level == 0 ? std::max(0, std::min(block_dim, n - first)) : 0);
    c.row_label(in, "in[]",
                "n = " + std::to_string(n) + ", blocks of " + std::to_string(block_dim));
    y += kRowPitch;
    // The detail sits under the array it scans: in[] for level 0, else the totals of the
    // level above. Its rows are reserved here and placed once the totals they read are.
    const int tree_levels = log2i(block_dim);
    const bool inclusive0 = c.r.options.inclusive;
    const int detail_rows = 2 * tree_levels + 2 + ((inclusive0 && detail_level == 0) ? 1 : 0);
    const float detail_h = static_cast<float>(detail_rows) * kRowPitch + 0.8f;
    float detail_y = y;
    float source_y = in.y; // the row the detail's block loads its tile from
    if (detail_level == 0)
        y += detail_h;

    // Totals of each level, going down the recursion.
    std::vector<std::vector<int>> totals(levels.size());
    for (std::size_t k = 0; k + 1 < levels.size(); ++k) {
        const ScanLevel& lv = levels[k];
        if (detail_level == k + 1)
            y += 1.4f; // room above the row for the detail's title
        level_row.push_back(under_blocks(level_row.back(), lv.n, y, lv.grid, block_dim));
        const Grid& g = level_row.back();
        const Parts part_of(g);
        for (int b = 0; b < lv.grid; ++b)
            totals[k].push_back(c.find(Step::BlockTotal, lv.scan_pass, 0, b));
        const auto range = c.range_of(totals[k]); // one row: its cells coloured on one scale
        for (int b = 0; b < lv.grid; ++b)
            c.place(totals[k][static_cast<std::size_t>(b)], part_of(b, 1),
                    RowStyle{.past_flow = k == detail_level && b == detail_block, .range = range});
        c.row_label(g, "totals[]", "level " + std::to_string(k + 1) + ": one per block", "block");
        y += kRowPitch;
        if (detail_level == k + 1) {
            source_y = g.y;
            detail_y = y;
            y += detail_h;
        }
    }
    // The detail: the scan of one block of the level being traced. Its title stands over the
    // row it loads from, clear of the outline round the tile: between that row and the load
    // row the loads' arrows crossed it.
    if (detail_level > 0)
        c.alias_input(totals[detail_level - 1]);
    c.title(0, source_y - 0.15f - 0.4f * c.label_em,
            detail_level == 0
                ? "level 0: block " + std::to_string(detail_block) + " scans its tile of in[]"
                : "level " + std::to_string(detail_level) + ": block " +
                      std::to_string(detail_block) + " scans its tile of totals[]",
            0.9f);
    row.x = detail_x(level_row[detail_level], detail_block * block_dim,
                     detail_level == 0 && in_unit_cells, row.width(), in.span(0, n).right());
    blelloch_chain(c, detail_pass, detail_block, detail_y, row);

    // Carries coming back up: each level's final scan, then the sums with carries added.
    for (std::size_t k = levels.size(); k-- > 1;) {
        const ScanLevel& lv = levels[k];
        if (lv.grid == 1) {
            if (k == detail_level)
                continue; // already in the detail rows
            const int f = c.find(Step::Downsweep, lv.scan_pass, tree_levels - 1, 0);
            Grid g = level_row[k];
            g.y = y;
            // The scan's slots past the level's totals are padding: not carries of any block.
            c.place(f, g, RowStyle{.past_flow = false, .cells = lv.n});
            c.row_label(g, "carries", "level " + std::to_string(k) + ": scan of the totals",
                        "block");
            y += kRowPitch;
        }
    }
    for (std::size_t k = levels.size() - 1; k-- > 0;) {
        const ScanLevel& lv = levels[k];
        Grid g = level_row[k];
        g.y = y;
        const Parts part_of(g);
        for (int b = 0; b < lv.grid; ++b) {
            c.place(c.find(Step::AddCarries, lv.carry_pass, 0, b),
                    part_of(b * block_dim, block_dim),
                    RowStyle{.past_flow = b == c.block, .cells = lv.n - b * block_dim});
        }
        c.row_label(g, k == 0 ? "out[]" : "carries",
                    k == 0 ? "block scan + carries[block]"
                           : "level " + std::to_string(k) + ", carries added",
                    k == 0 ? "" : "block");
        y += kRowPitch;
    }
    // The carry's arrow wears the downsweep's carry colour; only one of the two is drawn at a time.
    if (c.cur.step == Step::AddCarries)
        c.legend(c.pal.carry,
                 "carries[block]: the sum of the blocks before, added to each element");
}

void view_hillis_steele(Composer& c) {
    const int block_dim = c.m.block_size(0), n = c.r.n(), tree_levels = log2i(block_dim);
    Grid row = unit_row(0, 0, block_dim, block_dim > kWarpSize);
    Grid in = unit_row(0, 0, n, block_dim > kWarpSize);
    c.place_input(in, c.r.input, ColourBy::Plain);
    c.row_label(in, "in[]", "n = " + std::to_string(n));
    float y = kRowPitch;
    for (int level = 0; level <= tree_levels; ++level) {
        Grid g = row;
        g.y = y;
        const int f =
            level == 0 ? c.find(Step::Load, 0, 0, 0) : c.find(Step::HillisSteele, 0, level, 0);
        if (level > 0)
            c.barrier(y - 0.95f, 0, row.width(), "2 × __syncthreads()");
        c.place(f, g, RowStyle{.threads = level > 0});
        c.row_label(g, level == 0 ? "s[] load" : "step " + std::to_string(level),
                    level == 0 ? "" : "offset " + std::to_string(1 << (level - 1)));
        y += kRowPitch;
    }
}

} // namespace pplab::scene::detail
