// The reductions of §8.2-§8.6: one thread, the shared-memory tree, coarsening, warp
// shuffles, the complete kernel and the atomic variant.
#include "views.hpp"

#include "pplab/plan.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <set>
#include <utility>

namespace pplab::scene::detail {

namespace {

int log2i(int x) {
    return std::bit_width(static_cast<unsigned>(x)) - 1;
}

float warp_x(int w) {
    return static_cast<float>(w) * (kWarpSize * kPitch + kWarpGap);
}

// A warp's name over its first row, its text clear of the arrowheads that land on the row
// (reduce-full's "warp 0" sat on lane 0's head): the shafts above run under it, on its chip.
void warp_name(Composer& c, float x, float row_y, int w) {
    constexpr float kSize = 0.8f;
    constexpr float kHeads = 0.4f; // the longest head (0.28) and its gap to the cell (0.05)
    // A text's box reaches a quarter of its em under the baseline.
    c.note({x, row_y - kHeads - 0.25f * c.world(c.label_px(kSize))}, "warp " + std::to_string(w),
           c.pal.muted, Align::Left, kSize);
}

// The input strip over `width`, the selected block's slice outlined, a funnel from it to
// `row`, which is placed under the strip: returns its y.
float input_strip(Composer& c, float y, float width, int block_size, const Grid& row) {
    const std::vector<float> in = pass_input(c.m, c.cur.pass);
    const int n = static_cast<int>(in.size());
    Grid g = n * kPitch <= width * 1.001f ? unit_row(0, y, n) : fitted(0, y, n, width);
    const int first = c.block * block_size;
    const int count = std::max(0, std::min(block_size, n - first));
    c.place_input(g, in, ColourBy::Block, first, count);
    c.row_label(g, "in[]", "n = " + std::to_string(n));
    if (count > 0) {
        Grid r = row;
        r.y = y + g.cell_h + 3.0f;
        c.funnel(g.span(first, count), r.span(0, count));
        return r.y;
    }
    return y + g.cell_h + kRowGap;
}

// The grid-stride input, one row per round, each element coloured by the thread that reads it.
float rounds_strip(Composer& c, float y, float width, const std::string& what) {
    const int p = c.cur.pass;
    const int block_dim = c.m.block_size(p), grid_dim = c.m.grid(p);
    const std::vector<float> in = pass_input(c.m, p);
    const int n = static_cast<int>(in.size());
    const int rounds = grid_stride_rounds(n, grid_dim, block_dim);
    Grid g = rounds_grid(c, y, n, grid_dim * block_dim, width);
    c.title(0, y - 0.55f * c.label_em,
            what + ": n = " + std::to_string(n) + ", read in " + std::to_string(rounds) +
                (rounds == 1 ? " round" : " rounds") + " of " + std::to_string(grid_dim) + " × " +
                std::to_string(block_dim) + " threads; colour = the reading thread",
            1.0f);
    c.place_input(g, in, ColourBy::Thread, c.block * block_dim, block_dim);
    for (int round = 0; round < rounds; ++round) {
        Grid rg = g;
        rg.y = y + static_cast<float>(round) * g.pitch_y;
        c.row_label(rg, "round " + std::to_string(round + 1));
    }
    return y + static_cast<float>(rounds) * g.pitch_y + kRowGap;
}

// Out[] of a pass: each block's total, in block order.
float totals_row(Composer& c, float y, float width, int pass, const std::string& sub) {
    const int grid_dim = c.m.grid(pass);
    Grid g = grid_dim * kPitch <= width * 1.001f ? unit_row(0, y, grid_dim)
                                                 : fitted(0, y, grid_dim, width);
    for (int b = 0; b < grid_dim; ++b) {
        Grid one = g;
        one.offset = b;
        c.place(c.find(Step::BlockTotal, pass, 0, b), one, RowStyle{.past_flow = b == c.block});
    }
    c.row_label(g, "out[]", sub, "block");
    return y + g.cell_h + kRowGap;
}

// Every cell whose value reaches a block's total, walking the data flow back from it.
std::set<std::pair<int, int>> reaching(const Composer& c, int total) {
    std::set<std::pair<int, int>> seen;
    std::vector<CellRef> todo = {CellRef{total, 0}};
    while (!todo.empty()) {
        const CellRef ref = todo.back();
        todo.pop_back();
        if (ref.frame < 0 || !seen.insert({ref.frame, ref.cell}).second)
            continue;
        for (const CellRef& from : c.m.writes(static_cast<std::size_t>(ref.frame))
                                       .at(static_cast<std::size_t>(ref.cell))
                                       .from)
            todo.push_back(from);
    }
    return seen;
}

// The first pitfall: with a block that is not a power of two the halving loop leaves values
// behind. A cell is marked when the value it holds (traced back to where it was written or
// loaded) never reaches s[0]; beside the total, the wrong sum against the right one.
void never_added(Composer& c, float y) {
    const int load = c.find(Step::Load, 0, 0, c.block);
    const int total = c.find(Step::BlockTotal, 0, 0, c.block);
    if (load < 0 || total < 0)
        return;
    const std::set<std::pair<int, int>> seen = reaching(c, total);
    const int block_dim = c.m.block_size(0);
    std::vector<int> chain = {load};
    for (int level = 0;; ++level) {
        const int f = c.find(Step::TreeLevel, 0, level, c.block);
        if (f < 0)
            break;
        chain.push_back(f);
    }
    // Where a cell's value was written: back through the levels that left it unchanged.
    const auto origin = [&](int f, int cell) {
        CellRef ref{f, cell};
        for (;;) {
            const CellWrite& w = c.m.writes(static_cast<std::size_t>(ref.frame))
                                     .at(static_cast<std::size_t>(ref.cell));
            if (w.thread >= 0 || ref.frame == load || w.from.empty())
                return ref;
            ref = w.from.front();
        }
    };
    std::vector<CellRef> lost;
    std::string slots;
    double right = 0;
    const std::vector<float>& loaded = c.t.frames[static_cast<std::size_t>(load)].values;
    for (int k = 0; k < block_dim; ++k) {
        right += static_cast<double>(loaded[static_cast<std::size_t>(k)]);
        if (seen.count({load, k}))
            continue;
        slots += (slots.empty() ? "s[" : ", s[") + std::to_string(k) + "]";
        const int element = c.block * block_dim + k;
        if (element < c.r.n())
            lost.push_back({CellRef::kInput, element});
    }
    if (slots.empty())
        return;
    for (const int f : chain)
        for (int k = 0; k < block_dim; ++k) {
            const CellRef o = origin(f, k);
            if (!seen.count({o.frame, o.cell}))
                lost.push_back({f, k});
        }
    c.mark_never_added(lost);
    const float got = c.t.frames[static_cast<std::size_t>(total)].values.at(0);
    c.note({0, y + 0.9f * c.label_em}, slots + " never added", c.pal.never_added, Align::Left,
           0.95f);
    c.note({0, y + 2.1f * c.label_em},
           "out[" + std::to_string(c.block) + "] = " + cell_text(got) + ", not " +
               cell_text(static_cast<float>(right)),
           c.pal.never_added, Align::Left, 0.95f);
}

} // namespace

namespace {

// reduceNaive's rows are at most 48 cells wide. Past that, the whole of in[] and of the sums is
// drawn as colour (each cell still a value on hover) over the width of 16 cells, and under it
// the 16 elements round the step as cells with their numbers, the window ringed on the strip
// (n 65536 showed colour alone: the step adding in[2] was a sliver no one could see). As wide
// as the magnified rows, the strip and its ring are on screen wherever those rows are whole.
constexpr int kNaiveWidth = 48, kLens = 16;
// The magnified rows closer than rows of a tree (their arrows run straight down): at 200% in
// 1280x720 the six-digit sums need 85 px cells, and in[] with its arrows did not fit above them.
constexpr float kLensGap = 1.0f;

// The first element of the magnified part at addition `now`: pages that overlap by one, so
// the sum the step adds to is always beside it.
int naive_window(int now, int n) {
    constexpr int kStride = kLens - 1;
    const int first = std::max(now - 1, 0) / kStride * kStride;
    return std::clamp(first, 0, std::max(n - kLens, 0));
}

// The whole of in[] and the sums so far, each a cell to hover, coloured by value where too
// narrow for it: returns the ring drawn round both rows over the magnified window from `window`.
Rect naive_overview(Composer& c, int window) {
    const int n = c.r.n();
    // Thinner and closer than rows of cells (no arrow runs between them), so that the whole of
    // the picture fits a 1280x720 canvas at the zoom its numbers need.
    constexpr float kStripH = 0.7f, kStripGap = 0.55f;
    const Grid in = fitted(0, 0, n, unit_row(0, 0, kLens).width(), kStripH);
    c.place_input(in, c.r.input, ColourBy::Plain); // placed again, in part, by the lens
    c.row_label(in, "in[]", "n = " + std::to_string(n));
    Grid sums = in;
    sums.y = in.cell_h + kStripGap;
    std::vector<int> additions(static_cast<std::size_t>(n));
    std::iota(additions.begin(), additions.end(), 0);
    c.place_strip(additions, sums);
    c.row_label(sums, "sum", "after each addition");
    const Rect ring = unite(in.span(window, kLens), sums.span(window, kLens));
    const float clear = c.line_units(0.1f);
    const Rect drawn = inflate(ring, clear, clear); // a few pixels wide however long in[] is
    c.outline(drawn, c.pal.selection, c.line_units(0.08f));
    return drawn;
}

} // namespace

void view_naive(Composer& c) {
    const int n = c.r.n(), block_dim = c.m.block_size(0);
    const bool lens = n > kNaiveWidth;
    const int shown = lens ? kLens : n;
    const float width = static_cast<float>(shown) * kPitch;
    Grid in = unit_row(0, 0, shown), sums = in;
    sums.y = in.cell_h + kRowGap;
    int first = 0, count = n;
    if (lens) {
        first = naive_window(static_cast<int>(c.frame), n);
        count = kLens;
        const Rect ring = naive_overview(c, first);
        in.y = ring.bottom() + 1.8f; // room for the funnel
        sums.y = in.y + in.cell_h + kLensGap;
        in.offset = sums.offset = -first;
        c.funnel(ring, in.span(0, count)); // positions: the lens starts at 0
    }
    c.place_input(in, c.r.input, ColourBy::Plain, -1, 0, first, count);
    const std::string part =
        "[" + std::to_string(first) + "–" + std::to_string(first + count - 1) + "]";
    if (lens)
        c.row_label(in, "in" + part, "magnified", {}, first, n);
    else
        c.row_label(in, "in[]", "n = " + std::to_string(n));
    for (int i = first; i < first + count; ++i) {
        Grid one = sums;
        one.offset = i - first;
        c.place(i, one);
    }
    if (lens) {
        c.row_label(sums, "sum",
                    "after additions " + std::to_string(first + 1) + "–" +
                        std::to_string(first + count),
                    {}, first, n);
        // Followed where too wide to show whole: the magnified rows from their first cell, or
        // the view ending at the step's (addition 30000 at 200% in 1920x1080 showed
        // in[29998–30000] and two thirds of a canvas of nothing); the strip above them in focus.
        const float pad_x = 1.5f * c.label_em_x, pad_y = 1.5f * c.label_em;
        const Rect magnified = unite(in.span(0, count), sums.span(0, count));
        c.focus_rows = inflate(unite(magnified, Rect{0, 0, magnified.w, 1}), pad_x, pad_y);
        c.focus_cells = inflate(magnified, pad_x, pad_y);
        c.focus_written = inflate(sums.rect(static_cast<int>(c.frame)), pad_x, pad_y);
    } else {
        c.row_label(sums, "sum", "after each addition");
    }
    Grid threads = block_dim * kPitch <= width * 1.001f ? unit_row(0, 0, block_dim)
                                                        : fitted(0, 0, block_dim, width);
    threads.y = sums.y + sums.cell_h + kRowGap;
    threads.cell_h = 0.45f;
    std::vector<Rgba> fills(static_cast<std::size_t>(block_dim), c.pal.idle_warp);
    fills[0] = c.pal.arrow;
    c.strip(threads, fills, {}, CellRole::IdleWarp);
    c.row_label(threads, "threads",
                block_dim > 1 ? "1 works, " + std::to_string(block_dim - 1) + " idle" : "1 works");
}

void view_tree(Composer& c) {
    const int block_dim = c.m.block_size(0), b = c.block, tree_levels = log2i(block_dim);
    const bool coarse = c.r.algorithm == Algorithm::ReduceCoarsened;
    Grid row = unit_row(0, 0, block_dim, block_dim > kWarpSize);
    const float view_width = row.width();
    float y = 0;
    if (coarse) {
        y = rounds_strip(c, y, view_width, "in[]");
        Grid reg = row;
        reg.y = y;
        c.place_slot(c.frames_of(Step::Accumulate, 0, b), reg, RowStyle{.past_flow = false});
        c.row_label(reg, "sum", "registers");
        y += kRowPitch;
    } else {
        y = input_strip(c, y, view_width, block_dim, row);
    }
    // Row 0 is the load; row k + 1 is tree level k (levels count from 0, as in the chapter).
    for (int row_index = 0; row_index <= tree_levels; ++row_index) {
        const bool loaded = row_index == 0;
        const int level = row_index - 1;
        const int f = loaded ? c.find(Step::Load, 0, 0, b) : c.find(Step::TreeLevel, 0, level, b);
        Grid g = row;
        g.y = y;
        if (!loaded)
            c.barrier(y - 0.95f, 0, view_width, "__syncthreads()");
        c.place(
            f, g,
            RowStyle{.dim_unchanged = !loaded, .threads = !loaded, .past_flow = !loaded || coarse});
        if (loaded)
            c.row_label(g, coarse ? "s[t] = sum" : "s[] load", "block " + std::to_string(b));
        else
            c.row_label(g, "level " + std::to_string(level),
                        "stride " + std::to_string(block_dim >> (level + 1)));
        y += kRowPitch;
    }
    const float below = totals_row(c, y, view_width, 0, "block totals");
    if (c.r.options.pitfall == Pitfall::NonPowerOfTwo)
        never_added(c, below - kRowGap);
}

void view_shuffle(Composer& c) {
    const int block_dim = c.m.block_size(0), warps = block_dim / kWarpSize, b = c.block;
    const float view_width = warp_x(warps - 1) + kWarpSize * kPitch - (kPitch - kCell);
    Grid lanes = unit_row(0, 0, block_dim, true);
    float y = input_strip(c, 0, view_width, block_dim, lanes);
    for (int w = 0; w < warps; ++w) {
        Grid g = unit_row(warp_x(w), y, kWarpSize);
        warp_name(c, g.x, y, w);
        for (int level = 0; level <= 5; ++level) {
            g.y = y + static_cast<float>(level) * kRowPitch;
            const int f =
                level == 0 ? c.find(Step::Load, 0, 0, b, w) : c.find(Step::Shuffle, 0, level, b, w);
            c.place(f, g, RowStyle{.past_flow = level > 0});
            if (w == 0)
                c.row_label(g, level == 0 ? "val" : "shuffle " + std::to_string(level),
                            level == 0 ? "in[i] per lane"
                                       : "offset " + std::to_string(kWarpSize >> level),
                            "thread"); // every warp's lanes, level with warp 0's
        }
    }
    const float last = y + 5 * kRowPitch;
    c.note({0, last + kCell + 0.9f * c.label_em},
           "lane 0 of each warp holds the warp's total; no barrier, no shared memory", c.pal.muted,
           Align::Left, 0.85f);
}

void view_full(Composer& c) {
    const int p = c.cur.pass, block_dim = c.m.block_size(p), grid_dim = c.m.grid(p),
              warps = block_dim / kWarpSize, b = c.block;
    const float view_width =
        std::max(warp_x(warps - 1) + kWarpSize * kPitch - (kPitch - kCell), 24 * kPitch);
    float y = rounds_strip(c, 0, view_width,
                           p == 0 ? "in[]" : "Second pass: the first pass's block totals");
    Grid reg = unit_row(0, y, block_dim, true);
    c.place_slot(c.frames_of(Step::Accumulate, p, b), reg, RowStyle{.past_flow = false});
    c.row_label(reg, "sum", "registers, block " + std::to_string(b));
    y += kRowPitch + 0.5f;
    for (int w = 0; w < warps; ++w) {
        Grid g = unit_row(warp_x(w), y, kWarpSize);
        warp_name(c, g.x, y, w);
        for (int level = 1; level <= 5; ++level) {
            g.y = y + static_cast<float>(level - 1) * kRowPitch;
            c.place(c.find(Step::Shuffle, p, level, b, w), g);
            if (w == 0)
                c.row_label(g, "shuffle " + std::to_string(level),
                            "offset " + std::to_string(kWarpSize >> level), "thread");
        }
    }
    y += 5 * kRowPitch;
    Grid slots = unit_row(0, y, warps);
    slots.pitch_x = kWarpSize * kPitch + kWarpGap;
    c.place(c.find(Step::WarpTotals, p, 0, b), slots);
    const bool race = c.r.options.pitfall == Pitfall::EveryLaneWrites;
    c.row_label(slots, "s[WARPS]", race ? "every lane writes" : "lane 0 of each warp");
    if (race) // Exercise 2: what comes out of the race, never an invented number
        c.note({slots.rect(0).right() + 0.8f, y + 0.5f + 0.3f * c.label_em},
               c.t.backend == "cpu"
                   ? "32 writes race for each slot; one wins, the code does not say which: "
                     "? = one of the 32 lane sums"
                   : "32 writes race for each slot: this run of the device kept one of them, "
                     "another run may keep another",
               c.pal.race, Align::Left, 0.85f);
    y += kCell + 0.75f;
    c.barrier(y, 0, view_width, "__syncthreads(): the only barrier");
    y += 0.7f;
    for (int level = 0; level <= 5; ++level) {
        Grid g = unit_row(0, y, kWarpSize);
        c.place(c.find(Step::FinalShuffle, p, level, b), g, RowStyle{.past_flow = level > 0});
        c.row_label(g, level == 0 ? "first warp" : "shuffle " + std::to_string(level),
                    level == 0 ? "v = s[lane] or 0"
                               : "offset " + std::to_string(kWarpSize >> level),
                    "lane");
        y += kRowPitch;
    }
    y = totals_row(c, y, view_width, p, grid_dim > 1 ? "block totals" : "the sum");
    if (p == 0 && c.m.passes() > 1)
        c.note({0, y - kRowGap + 0.9f * c.label_em},
               "a second launch of the same kernel reduces these " + std::to_string(grid_dim) +
                   " totals",
               c.pal.muted, Align::Left, 0.85f);
}

void view_atomic(Composer& c) {
    const int grid_dim = c.m.grid(0);
    const float pitch = 1.7f;
    const float view_width = std::max(grid_dim * pitch, 16 * kPitch);
    // Each block reads its share as reduceFull does, in grid-stride rounds: one slice outlined
    // said block 0 read elements 0-255 of 1000 where it reads them all.
    float y = rounds_strip(c, 0, view_width, "in[]");
    y = totals_row(c, y, view_width, 0, "each block reduced as reduceFull does");
    // Each arrival is tagged with its block. Tags wider than the arrivals' pitch take two lines,
    // every other one a line up (centred in one line, block 150's tag of 512 crossed its
    // neighbours' and every other tag was left out); the first starts at its cell, clear of
    // the row's name.
    constexpr float kTagLine = 1.4f; // a line and the quarter line notes keep clear
    const float tag_px = c.label_px(0.7f);
    const float tag_w = kEmPerChar * tag_px * static_cast<float>(arrival_tag(grid_dim).size());
    const float unit_px = std::max(c.opt.pixels_per_unit, 1e-3f);
    const bool two_lines = tag_w > 0.9f * pitch * unit_px;
    // Every other tag under its arrival where the gap over the sums holds a line of them: over
    // the row, a short canvas (200% in 1280x720) had room for one line of the two.
    constexpr float kSumsGap = 1.1f;
    const float under_px = 0.25f * c.label_px() + 0.85f * tag_px; // the tag's baseline
    const bool under = two_lines && kSumsGap * unit_px >= under_px + 0.65f * tag_px;
    // The second line's room whatever the zoom: kept where they take two, a scene built farther
    // out stood taller than one built closer, and neither framed where it was built.
    y += 0.6f + (grid_dim > 1 ? c.world(kTagLine * tag_px) : 0.0f);
    // The arrivals, in order: each frame's block is the block whose atomicAdd landed.
    int k = 0;
    for (std::size_t f = 0; f < c.t.frames.size(); ++f) {
        const Frame& fr = c.t.frames[f];
        if (fr.step != Step::AtomicAdd)
            continue;
        Grid g;
        g.x = static_cast<float>(k) * pitch;
        g.y = y;
        g.pitch_y = kCell + kSumsGap;
        c.place(static_cast<int>(f), g);
        const bool known = c.progress_of(static_cast<int>(f)) != Progress::Future;
        const bool first_wide = k == 0 && known && tag_w > kCell * unit_px;
        c.note({first_wide ? g.x : g.x + 0.5f, y - 0.35f * c.label_em},
               known ? arrival_tag(fr.block) : "?", c.pal.muted,
               first_wide ? Align::Left : Align::Center, 0.7f);
        if (two_lines && known && k % 2 == 1) {
            scene::Label& tag = c.s.labels.back();
            tag.pos.y = under ? y + kCell : tag.pos.y;
            tag.drop_px = under ? under_px : -kTagLine * tag_px;
        }
        ++k;
    }
    Grid top;
    top.y = y;
    c.row_label(top, "arrives", "in the order the blocks finish");
    top.y = y + kCell + kSumsGap;
    c.row_label(top, "sum", "atomicAdd(&out, total)");
}

} // namespace pplab::scene::detail
