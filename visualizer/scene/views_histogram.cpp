// The histograms of §8.8: global atomics, a private histogram per block, one per warp.
#include "views.hpp"

#include "pplab/plan.hpp"

#include <algorithm>

namespace pplab::scene::detail {

namespace {

float max_of(const Model& m, const std::vector<int>& frames) {
    float mx = 0;
    for (const int f : frames)
        for (const float v : m.trace().frames[static_cast<std::size_t>(f)].values)
            mx = std::max(mx, v);
    return mx;
}

// Bin numbers under a chart's axis, when there is room to read them.
void bin_numbers(Composer& c, const Grid& g, float y) {
    const int K = g.cols;
    const float px = g.pitch_x * c.opt.pixels_per_unit;
    const int every = px >= 22 ? 1 : px >= 11 ? 2 : px >= 5 ? 8 : 32;
    for (int b = 0; b < K; b += every)
        c.note({g.rect(b).center().x, y + 0.75f * c.label_size}, std::to_string(b), c.pal.muted,
               Align::Center, 0.6f);
}

// Atomics per bin in the accumulate step a chart shows: the contention privatisation spreads.
float contention_row(Composer& c, const std::vector<int>& frames, const Grid& bars, float y,
                     bool label = true) {
    int shown = -1;
    for (const int f : frames)
        if (c.when(f) != When::Future &&
            c.t.frames[static_cast<std::size_t>(f)].step == Step::HistAccumulate)
            shown = f;
    const int K = bars.cols;
    Grid g = bars;
    g.y = y;
    g.cell_h = std::max(0.8f, 1.1f * c.label_size);
    std::vector<int> atomics(static_cast<std::size_t>(K), 0);
    int busiest = 0;
    if (shown >= 0) {
        const auto& w = c.m.writes(static_cast<std::size_t>(shown));
        for (int b = 0; b < K; ++b) {
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
    return y + g.cell_h;
}

struct Chart {
    Grid grid;
    float height = 0;
};

// A bar chart of `bins` bars over `width` world units at (x, y).
Chart chart_at(float x, float y, int bins, float width, float height) {
    Chart ch;
    ch.grid = fitted(x, y, bins, width);
    ch.height = height;
    return ch;
}

void chart_label(Composer& c, const Chart& ch, const std::string& text, const std::string& sub) {
    Grid at = ch.grid;
    at.y = ch.grid.y + ch.height / 2 - 0.5f;
    c.row_label(at, text, sub);
}

} // namespace

void view_histogram(Composer& c) {
    const Model& m = c.m;
    const int B = m.block_size(0), G = m.grid(0), K = c.r.bins, b = c.block;
    const int warps = B / kWarpSize;
    const bool global = c.r.algorithm == Algorithm::HistGlobal;
    const bool per_warp = c.r.algorithm == Algorithm::HistPerWarp;
    const int n = c.r.n();
    const float W = std::clamp(static_cast<float>(G * B) * kPitch, 24 * kPitch, 64 * kPitch);
    const float bar_h = std::clamp(W * 0.16f, 4.0f, 11.0f);
    const float under = 1.2f * c.label_size + 0.3f; // bin numbers under an axis

    const int rounds = grid_stride_rounds(n, G, B);
    Grid in = rounds_grid(c, 0, n, G * B, W);
    c.title(0, -0.55f * c.label_size,
            "data[]: n = " + std::to_string(n) + " in " + std::to_string(rounds) +
                (rounds == 1 ? " round" : " rounds") + " of " + std::to_string(G) + " × " +
                std::to_string(B) + " threads; colour = bin",
            1.0f);
    c.place_input(in, c.r.input, Tint::Bin, global ? -1 : b * B, global ? 0 : B);
    for (int round = 0; round < rounds; ++round) {
        Grid rg = in;
        rg.y = static_cast<float>(round) * in.pitch_y;
        c.row_label(rg, "round " + std::to_string(round + 1));
    }
    float y = static_cast<float>(rounds) * in.pitch_y + 3.5f;

    if (global) {
        const std::vector<int> frames = c.frames_of(Step::HistAccumulate, 0, -1);
        const Chart ch = chart_at(0, y, K, W, bar_h);
        c.place_bars(frames, ch.grid, bar_h, max_of(m, frames), true);
        chart_label(c, ch, "g_hist[]", "global atomics");
        bin_numbers(c, ch.grid, y + bar_h);
        contention_row(c, frames, ch.grid, y + bar_h + under);
        return;
    }

    if (per_warp) {
        // One chart per warp, side by side in rows of at most four.
        const int per_row = std::min(warps, 4);
        const float gap = 2.0f;
        const float cw = (W - gap * static_cast<float>(per_row - 1)) / static_cast<float>(per_row);
        const float wh = std::max(bar_h * 0.6f, 3.5f);
        float mx = 0;
        for (int w = 0; w < warps; ++w)
            mx = std::max(mx, max_of(m, c.frames_of(Step::HistAccumulate, 0, b, w)));
        const float block_h =
            wh + under + std::max(0.8f, 1.1f * c.label_size) + 2.2f + c.label_size;
        for (int w = 0; w < warps; ++w) {
            const float x = static_cast<float>(w % per_row) * (cw + gap);
            const float top = y + static_cast<float>(w / per_row) * block_h;
            std::vector<int> frames = c.frames_of(Step::HistZero, 0, b, w);
            for (const int f : c.frames_of(Step::HistAccumulate, 0, b, w))
                frames.push_back(f);
            const Chart ch = chart_at(x, top, K, cw, wh);
            c.place_bars(frames, ch.grid, wh, mx, true);
            c.note({x, top - 1.1f * c.label_size}, "warp " + std::to_string(w) + ": its own s_hist",
                   c.pal.muted, Align::Left, 0.8f);
            if (w % per_row == 0)
                chart_label(c, ch, "private", "one per warp");
            bin_numbers(c, ch.grid, top + wh);
            contention_row(c, frames, ch.grid, top + wh + under, w % per_row == 0);
        }
        y += static_cast<float>((warps + per_row - 1) / per_row) * block_h + 1.0f;
        c.barrier(y - 1.2f, 0, W, "__syncthreads()");
        const int merge = c.find(Step::HistMerge, 0, 0, b);
        const Chart ch = chart_at(0, y, K, W, bar_h);
        c.place_bars({merge}, ch.grid, bar_h, max_of(m, {merge}), true);
        chart_label(c, ch, "merged", "block " + std::to_string(b));
        bin_numbers(c, ch.grid, y + bar_h);
        y += bar_h + under + 3.0f;
    } else {
        std::vector<int> frames = c.frames_of(Step::HistZero, 0, b);
        for (const int f : c.frames_of(Step::HistAccumulate, 0, b))
            frames.push_back(f);
        std::vector<int> finals; // every block's full private histogram: one scale for all
        for (int bb = 0; bb < G; ++bb)
            if (const auto acc = c.frames_of(Step::HistAccumulate, 0, bb); !acc.empty())
                finals.push_back(acc.back());
        const Chart ch = chart_at(0, y, K, W, bar_h);
        c.place_bars(frames, ch.grid, bar_h, max_of(m, finals), true);
        chart_label(c, ch, "s_hist[]", "shared, block " + std::to_string(b));
        bin_numbers(c, ch.grid, y + bar_h);
        y = contention_row(c, frames, ch.grid, y + bar_h + under) + 3.2f;
        c.barrier(y - 1.4f, 0, W, "__syncthreads()");
    }
    std::vector<int> folds; // one per block, in block order: the global bins after each
    for (int bb = 0; bb < G; ++bb)
        folds.push_back(c.find(Step::HistFold, 0, 0, bb));
    const Chart ch = chart_at(0, y, K, W, bar_h);
    c.place_bars(folds, ch.grid, bar_h, max_of(m, {folds.back()}), true);
    chart_label(c, ch, "g_hist[]",
                c.r.options.skip_empty ? "fold, empty bins skipped" : "fold, every bin");
    bin_numbers(c, ch.grid, y + bar_h);
}

} // namespace pplab::scene::detail
