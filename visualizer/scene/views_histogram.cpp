// The histograms of §8.8: global atomics, a private histogram per block, one per warp.
//
// A chart is the bars of the latest of its frames reached, the arrows of the step landing on
// their tops; under its axis, out of the arrows' way, a table: the bin numbers, the counts
// (the trace's values, lit when the step writes them, colour when too narrow to read: hover
// shows them) and the atomics that queued on each bin.
#include "views.hpp"

#include "pplab/plan.hpp"

#include <algorithm>

namespace pplab::scene::detail {

namespace {

// Arrows from the elements into their bins: enough to show the pattern, not a solid sheet.
constexpr std::size_t kHistogramArrows = 400;

float max_of(const Model& m, const std::vector<int>& frames) {
    float mx = 0;
    for (const int f : frames)
        for (const float v : m.trace().frames[static_cast<std::size_t>(f)].values)
            mx = std::max(mx, v);
    return mx;
}

// The rows under a chart's axis, in world units at the current zoom: tall enough for their
// text at its size in pixels.
struct Table {
    float bins_baseline = 0; // the bin numbers
    float counts = 0;        // top of the counts' row
    float contention = 0;    // top of the atomics' row
    float row_h = 0;         // height of a row of cells
    float bottom = 0;
};

Table table_under(const Composer& c, float axis, bool contention) {
    const float s = c.opt.text_scale;
    const float bin_px = c.label_px(0.7f);
    Table t;
    t.row_h = c.world(30.0f * s);
    t.bins_baseline = axis + c.world(4.0f * s + 0.8f * bin_px);
    t.counts = axis + c.world(8.0f * s + 1.1f * bin_px);
    t.contention = t.counts + t.row_h + c.world(12.0f * s); // room for two-line names
    t.bottom = contention ? t.contention + t.row_h : t.counts + t.row_h;
    return t;
}

// Bin numbers under a chart's axis, every bin or every few when they are narrow.
void bin_numbers(Composer& c, const Grid& g, float baseline) {
    const float px = g.pitch_x * c.opt.pixels_per_unit / c.opt.text_scale;
    const int every = px >= 22 ? 1 : px >= 11 ? 2 : px >= 5 ? 8 : 32;
    for (int b = 0; b < g.cols; b += every)
        c.note({g.rect(b).center().x, baseline}, std::to_string(b), c.pal.muted, Align::Center,
               0.7f);
}

// Atomics per bin in the accumulate step a chart shows: the contention privatisation spreads.
void contention_row(Composer& c, const std::vector<int>& frames, Grid g, bool label) {
    int shown = -1;
    for (const int f : frames)
        if (c.progress_of(f) != Progress::Future &&
            c.t.frames[static_cast<std::size_t>(f)].step == Step::HistAccumulate)
            shown = f;
    const int bins = g.cols;
    std::vector<int> atomics(static_cast<std::size_t>(bins), 0);
    int busiest = 0;
    if (shown >= 0) {
        const auto& w = c.m.writes(static_cast<std::size_t>(shown));
        for (int b = 0; b < bins; ++b) {
            atomics[static_cast<std::size_t>(b)] = w[static_cast<std::size_t>(b)].atomics;
            busiest = std::max(busiest, atomics[static_cast<std::size_t>(b)]);
        }
    }
    std::vector<Rgba> fills;
    std::vector<std::string> texts;
    for (const int a : atomics) {
        const float heat = busiest > 0 ? static_cast<float>(a) / static_cast<float>(busiest) : 0.0f;
        fills.push_back(a == 0 ? mix(c.pal.cell, c.pal.background, 0.5f)
                               : mix(c.pal.cell, c.pal.carry, 0.25f + 0.75f * heat));
        texts.push_back(a == 0 ? "" : std::to_string(a));
    }
    c.strip(g, fills, texts, CellRole::Heat);
    if (busiest > 0)
        c.legend(mix(c.pal.cell, c.pal.carry, 0.9f), "contention: atomics that queue on one bin");
    if (label)
        c.row_label(g, "contention",
                    shown >= 0
                        ? "atomics per bin, round " +
                              std::to_string(c.t.frames[static_cast<std::size_t>(shown)].level)
                        : "atomics per bin");
}

struct Chart {
    std::string name, sub; // the bars' row name ("s_hist[]", "shared, block 0")
    bool names = true;     // the rows' names (only the first chart of a row of charts)
    bool contention = false;
    float max = 0; // the count a full-height bar stands for
};

// Bars of `frames` over `width` at (x, y), `height` tall, with the table under them. Returns
// the y below it.
float chart(Composer& c, const std::vector<int>& frames, float x, float y, float width,
            float height, const Chart& ch) {
    const int bins = c.r.bins;
    const Grid bars = fitted(x, y, bins, width);
    // The values' width the camera reads: the step's own chart's, else the narrowest chart's
    // (hist-per-warp's merge, its bins four times a warp chart's, was read at the warps' zoom:
    // one bin of 256 on screen at 200%).
    const bool steps_chart =
        std::find(frames.begin(), frames.end(), static_cast<int>(c.frame)) != frames.end();
    if (steps_chart || !c.value_width_of_step)
        c.s.value_width = steps_chart || c.s.value_width == 1.0f
                              ? bars.cell_w
                              : std::min(c.s.value_width, bars.cell_w);
    c.value_width_of_step = c.value_width_of_step || steps_chart;
    const Table t = table_under(c, y + height, ch.contention);
    Grid counts = bars;
    counts.y = t.counts;
    counts.cell_h = t.row_h;
    // The counts first, as a row of the trace's values; the bars then take the arrows.
    c.place_slot(frames, counts, RowStyle{.by_value = false});
    c.place_bars(frames, bars, height, ch.max, true);
    bin_numbers(c, bars, t.bins_baseline);
    if (ch.names) {
        // The name at the bars' foot, astride the axis (two lines: the name over it, what it is
        // under it): bars grow from there, so it stays by its row whatever the counts (centred
        // on the chart, it floated above short bars, and stayed on screen with the bars off
        // it), and it stands no taller than short bars where the canvas is short.
        Grid foot = bars;
        foot.cell_h = 0;
        foot.y = y + height - (c.two_line_labels ? 0.25f : 0.65f) * c.label_em;
        c.row_label(foot, ch.name, ch.sub);
        c.row_label(counts, "count", "per bin");
    }
    if (ch.contention) {
        Grid atomics = counts;
        atomics.y = t.contention;
        contention_row(c, frames, atomics, ch.names);
    }
    return t.bottom;
}

// Pixels a chart takes under its axis: its table, and the last row's two-line name reaching
// below its cells (Composer::row_label).
float table_px(const Composer& c, bool contention) {
    const Table t = table_under(c, 0, contention);
    const float px = 1.0f / c.world(1.0f);
    const float name_px = 0.95f * c.label_px() + 0.3f * c.label_px(0.78f) + 4.0f;
    return t.bottom * px + std::max(name_px - t.row_h * px / 2, 0.0f);
}

// A view's charts: the height of their bars, and whether the step's chart has its contention
// row.
struct ChartFit {
    float bar_h = 0;
    bool contention = true;
};

// A gap between a view's parts: `units` world units at the usual zoom, at most 20 pixels a
// unit's worth (part_gap_px) where the bins are read close (256 bins at 130 pixels a unit left
// 400 pixels of nothing between the private histogram and the fold, and the fold alone on screen).
float part_gap_px(const Composer& c, float units) {
    return 20.0f * units * c.opt.text_scale;
}
float part_gap(const Composer& c, float units) {
    return std::min(units, c.world(part_gap_px(c, units)));
}

// Bars about 180 pixels tall at whatever zoom (a legible close-up does not make towers), less
// where the canvas is short: bars and their table within the room the canvas keeps for rows
// (ViewOptions::room_px). At 200% in 1280x720, 360-pixel bars were the row the canvas's edge
// cut, and the histogram was drawn without them. Where even the shortest bars leave no room
// for the contention row, it is left out (the counts and their bars are the histogram), and
// the notice says so. One height for every chart of a view.
ChartFit fit_charts(const Composer& c) {
    constexpr float kWantedPx = 180.0f, kFewestPx = 20.0f, kGapPx = 4.0f, kTwoChartsPx = 60.0f;
    const float s = c.opt.text_scale;
    ChartFit fit;
    float px = kWantedPx * s;
    if (c.opt.room_px > 0) {
        const float room = c.opt.room_px - 2 * kGapPx * s;
        fit.contention = room - table_px(c, true) >= kFewestPx * s;
        px = std::clamp(room - table_px(c, fit.contention), kFewestPx * s, px);
        // A step that reads one chart and writes the next (the merge, the fold) shows both
        // where bars of a fair height allow: bars sized for one chart left the warp's copy
        // above the merge out at 150% in 1920x1080, over an empty band of zero bars.
        if (c.r.algorithm != Algorithm::HistGlobal) {
            // The gaps between two charts at their widest (per_warp_charts' title and gaps,
            // part_gap at its cap): pixels alone, so the bars come out one height at every
            // zoom and Fit all frames them as Follow.
            const float between =
                10.0f * s + 1.4f * c.label_px(0.8f) + part_gap_px(c, 1.0f) + part_gap_px(c, 3.2f);
            const float two =
                (room - table_px(c, fit.contention) - table_px(c, false) - between) / 2;
            if (two >= kTwoChartsPx * s)
                px = std::min(px, two);
        }
    }
    fit.bar_h = std::min(c.world(px), 11.0f); // zoomed far out, no taller than 11 units
    return fit;
}

// The input as grid-stride rounds, coloured by bin; returns the y below it.
float data_rows(Composer& c, float width, bool global) {
    const int block_size = c.m.block_size(0), grid = c.m.grid(0), n = c.r.n();
    const int rounds = grid_stride_rounds(n, grid, block_size);
    const Grid in = rounds_grid(c, 0, n, grid * block_size, width);
    c.title(0, -0.55f * c.label_em,
            "data[]: n = " + std::to_string(n) + " in " + std::to_string(rounds) +
                (rounds == 1 ? " round" : " rounds") + " of " + std::to_string(grid) + " × " +
                std::to_string(block_size) + " threads; colour = bin",
            1.0f);
    c.place_input(in, c.r.input, ColourBy::Bin, global ? -1 : c.block * block_size,
                  global ? 0 : block_size);
    for (int round = 0; round < rounds; ++round) {
        Grid rg = in;
        rg.y = static_cast<float>(round) * in.pitch_y;
        c.row_label(rg, "round " + std::to_string(round + 1));
    }
    return static_cast<float>(rounds) * in.pitch_y;
}

// histogramPerWarp: one chart per warp, side by side in rows of at most four, each titled
// under its table; then their merge. Returns the y below the merge.
float per_warp_charts(Composer& c, float y, float width, const ChartFit& fit) {
    const int warps = c.m.block_size(0) / kWarpSize, b = c.block;
    const int per_row = std::min(warps, 4);
    const float gap = 2.0f;
    const float cw = (width - gap * static_cast<float>(per_row - 1)) / static_cast<float>(per_row);
    const float bar_h = fit.bar_h; // one height for every chart (fit_charts)
    float mx = 0;
    for (int w = 0; w < warps; ++w)
        mx = std::max(mx, max_of(c.m, c.frames_of(Step::HistAccumulate, 0, b, w)));
    const float title_px = c.label_px(0.8f);
    // A row of charts under the next, a gap apart (a world unit was 224 pixels read close).
    const float block_h = table_under(c, bar_h, fit.contention).bottom +
                          c.world(10.0f * c.opt.text_scale) + c.world(1.4f * title_px) +
                          part_gap(c, 1.0f);
    for (int w = 0; w < warps; ++w) {
        const float x = static_cast<float>(w % per_row) * (cw + gap);
        const float top = y + static_cast<float>(w / per_row) * block_h;
        std::vector<int> frames = c.frames_of(Step::HistZero, 0, b, w);
        for (const int f : c.frames_of(Step::HistAccumulate, 0, b, w))
            frames.push_back(f);
        const float below =
            chart(c, frames, x, top, cw, bar_h,
                  {"private", "one per warp", w % per_row == 0, fit.contention, mx});
        c.note({x, below + c.world(6.0f * c.opt.text_scale) + c.world(0.85f * title_px)},
               "warp " + std::to_string(w) + ": its own s_hist", c.pal.muted, Align::Left, 0.8f);
    }
    y += static_cast<float>((warps + per_row - 1) / per_row) * block_h + part_gap(c, 1.5f);
    c.barrier(y - part_gap(c, 1.2f), 0, width, "__syncthreads()");
    const int merge = c.find(Step::HistMerge, 0, 0, b);
    const float below =
        chart(c, {merge}, 0, y, width, bar_h,
              {"merged", "block " + std::to_string(b), true, false, max_of(c.m, {merge})});
    return below + part_gap(c, 3.2f);
}

} // namespace

void view_histogram(Composer& c) {
    const Model& m = c.m;
    const int block_size = m.block_size(0), grid = m.grid(0), b = c.block;
    const bool global = c.r.algorithm == Algorithm::HistGlobal;
    const float width =
        std::clamp(static_cast<float>(grid * block_size) * kPitch, 24 * kPitch, 64 * kPitch);
    const ChartFit fit = fit_charts(c);
    const float bar_h = fit.bar_h;
    c.max_arrows = kHistogramArrows;
    if (!fit.contention)
        c.s.left_out = "no room for the contention row at this size";

    float y = data_rows(c, width, global) + part_gap(c, 3.5f);
    if (global) {
        const std::vector<int> frames = c.frames_of(Step::HistAccumulate, 0, -1);
        chart(c, frames, 0, y, width, bar_h,
              {"g_hist[]", "global atomics", true, fit.contention, max_of(m, frames)});
        return;
    }
    if (c.r.algorithm == Algorithm::HistPerWarp) {
        y = per_warp_charts(c, y, width, fit);
    } else {
        std::vector<int> frames = c.frames_of(Step::HistZero, 0, b);
        for (const int f : c.frames_of(Step::HistAccumulate, 0, b))
            frames.push_back(f);
        std::vector<int> finals; // every block's full private histogram: one scale for all
        for (int bb = 0; bb < grid; ++bb)
            if (const auto acc = c.frames_of(Step::HistAccumulate, 0, bb); !acc.empty())
                finals.push_back(acc.back());
        y = chart(c, frames, 0, y, width, bar_h,
                  {"s_hist[]", "shared, block " + std::to_string(b), true, fit.contention,
                   max_of(m, finals)}) +
            part_gap(c, 3.2f);
        c.barrier(y - part_gap(c, 1.4f), 0, width, "__syncthreads()");
    }
    std::vector<int> folds; // one per block, in block order: the global bins after each
    for (int bb = 0; bb < grid; ++bb)
        folds.push_back(c.find(Step::HistFold, 0, 0, bb));
    chart(c, folds, 0, y, width, bar_h,
          {"g_hist[]", c.r.options.skip_empty ? "fold, empty bins skipped" : "fold, every bin",
           true, false, max_of(m, {folds.back()})});
}

} // namespace pplab::scene::detail
