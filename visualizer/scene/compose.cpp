#include "compose.hpp"
#include "compose_internal.hpp"

#include "pplab/io.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

namespace pplab::scene {

std::string cell_text(float v) {
    if (std::isnan(v))
        return "?"; // a value the kernel leaves undefined: the trace never invents one
    std::string s = format_value(v);
    if (s.size() <= 6)
        return s;
    char buf[32];
    const float a = std::fabs(v);
    if (a >= 1e6f || (a > 0 && a < 1e-3f))
        std::snprintf(buf, sizeof buf, "%.2g", static_cast<double>(v));
    else
        std::snprintf(buf, sizeof buf, "%.5g", static_cast<double>(v));
    s = buf;
    // "%.5g" of 1234.56 is "1234.6": six characters at most, five significant digits.
    if (s.size() > 6 && s.find('.') != std::string::npos && s.find('e') == std::string::npos)
        s.resize(6);
    if (!s.empty() && s.back() == '.')
        s.pop_back();
    return s;
}

namespace detail {

Rect Grid::rect(int i) const {
    const int p = offset + i;
    if (p >= 0 && static_cast<std::size_t>(p) < xs.size())
        return {xs[static_cast<std::size_t>(p)], y, cell_w, cell_h};
    const int col = p % cols, row = p / cols;
    const float gx = group > 0 ? static_cast<float>(col / group) * group_gap : 0.0f;
    return {x + static_cast<float>(col) * pitch_x + gx, y + static_cast<float>(row) * pitch_y,
            cell_w, cell_h};
}

Rect Grid::span(int first, int count) const {
    const Rect a = rect(first - offset), b = rect(first + count - 1 - offset);
    return {a.x, a.y, b.right() - a.x, cell_h};
}

Grid fitted(float x, float y, int cols, float width, float cell_h) {
    Grid g;
    g.x = x;
    g.y = y;
    g.cols = std::max(cols, 1);
    g.pitch_x = width / static_cast<float>(g.cols);
    g.cell_w = g.pitch_x * (kCell / kPitch);
    g.cell_h = cell_h;
    return g;
}

Grid unit_row(float x, float y, int cols, bool warps) {
    Grid g;
    g.x = x;
    g.y = y;
    g.cols = std::max(cols, 1);
    if (warps && cols > kWarpSize) {
        g.group = kWarpSize;
        g.group_gap = kWarpGap;
    }
    return g;
}

std::vector<float> pass_input(const Model& m, int pass) {
    if (pass == 0)
        return m.request().input;
    std::vector<float> v;
    for (const Frame& f : m.trace().frames)
        if (f.pass == pass - 1 && f.step == Step::BlockTotal)
            v.push_back(f.values.at(0));
    return v;
}

Composer::Composer(const Model& model, std::size_t frame_, const ViewOptions& o, float anim_)
    : m(model), t(model.trace()), r(model.request()), pal(palette(o.theme)), opt(o), frame(frame_),
      cur(model.trace().frames.at(frame_)), step(model.step_of(frame_)),
      block(std::max(cur.block, 0)), anim(std::clamp(anim_, 0.0f, 1.0f)),
      input_(pass_input(model, cur.pass)) {
    s.background = pal.background;
    s.text_scale = o.text_scale;
    s.pixels_per_unit = o.pixels_per_unit;
    s.caption = m.caption(frame);
    label_size =
        std::clamp(kLabelPx * opt.text_scale / std::max(opt.pixels_per_unit, 1e-3f), 0.42f, 1.7f);
    two_line_labels = label_size <= kTwoLineEm;
    label_em = world(label_px());
    label_em_x = label_px() / std::max(opt.pixels_per_unit, 1e-3f);
}

float Composer::line_units(float units) const {
    return std::min(units, world(50.0f * units * opt.text_scale));
}

float Composer::world(float pixels) const {
    return pixels / std::max(opt.pixels_per_unit * std::max(opt.row_stretch, 1.0f), 1e-3f);
}

float Composer::label_px(float factor) const {
    return std::max(kLabelPx * factor, kMinTextPx + 1.0f) * opt.text_scale;
}

Progress Composer::progress_of(int f) const {
    const int sf = m.step_of(static_cast<std::size_t>(f));
    return sf < step ? Progress::Done : sf == step ? Progress::Current : Progress::Future;
}

std::vector<int> Composer::frames_of(Step st, int pass, int block_, int warp) const {
    std::vector<int> out;
    for (std::size_t i = 0; i < t.frames.size(); ++i) {
        const Frame& f = t.frames[i];
        if (f.step == st && f.pass == pass && f.block == block_ && f.warp == warp)
            out.push_back(static_cast<int>(i));
    }
    return out;
}

float Composer::value_em(const Cell& c) const {
    return static_cast<float>(c.text.size()) * opt.digit_em; // digits, '-', '.'
}

bool Composer::draws_a_value(const std::vector<Cell>& row) const {
    const float k = opt.pixels_per_unit, least = kMinTextPx * opt.text_scale;
    return std::any_of(row.begin(), row.end(), [&](const Cell& c) {
        const float em = value_em(c);
        return !c.text.empty() && c.role != CellRole::Future &&
               value_px(c.text_size * k, em, c.rect.w * k, c.rect.h * k, least) > 0;
    });
}

Cell Composer::value_cell(const Rect& rect, float v, const Rgba& fill, CellRole role) const {
    Cell c;
    c.rect = rect;
    c.fill = fill;
    c.border = pal.cell_border;
    c.border_width = 0.04f * std::min(rect.w, rect.h) + 0.01f;
    c.radius = 0.12f * std::min(rect.w, rect.h);
    c.text = cell_text(v);
    c.text_color = text_on(fill);
    c.text_size = 0.42f * std::min(rect.h, 1.6f * rect.w);
    c.role = role;
    return c;
}

Scene Composer::finish() {
    // Borders grow with their cell up to a few pixels (twice that for a cell marked with a
    // pitfall): a part of them fixed in world units drew a slab at a close zoom (hist-per-warp's
    // bins read at 976 pixels a unit: 10 px of a 56 px count cell, the landing bar's 12).
    const float cap = kBorderPx * opt.text_scale / std::max(opt.pixels_per_unit, 1e-3f);
    for (Cell& c : s.cells) {
        const bool marked = !(c.marks == Marks{}) || c.role == CellRole::KeepsOwn;
        c.border_width = std::min(c.border_width, marked ? 2 * cap : cap);
    }
    for (const auto& [f, p] : placed_) {
        if (f < 0 || p.shown != f)
            continue;
        const Progress w = progress_of(f);
        if (w == Progress::Current)
            connect(f, true);
        else if (w == Progress::Done && opt.past_arrows && p.style.past_flow && !p.slot)
            connect(f, false);
    }
    s.movers = kept_apart(std::move(s.movers), std::move(own_movers_));
    Rect bounds;
    for (const Cell& c : s.panels)
        bounds = unite(bounds, c.rect);
    for (const Cell& c : s.cells)
        bounds = unite(bounds, c.rect);
    for (const Label& l : s.labels) {
        if (l.px > 0)
            continue; // sized in pixels: the camera gives them room (camera::fit_labelled)
        const float w = 0.56f * l.size * static_cast<float>(utf8_length(l.text));
        const float x = l.align == Align::Left    ? l.pos.x
                        : l.align == Align::Right ? l.pos.x - w
                                                  : l.pos.x - w / 2;
        bounds = unite(bounds, Rect{x, l.pos.y - l.size, w, l.size * 1.25f});
    }
    s.bounds = inflate(bounds, 0.6f, 0.6f);
    // Focus: the rows of the step being shown and of every frame it reads (every cell drawn for
    // them: a chart's bars and its counts); detail: the cells themselves.
    std::map<int, Rect> drawn; // by frame
    for (const Cell& c : s.cells)
        if (c.ref && c.ref->frame >= 0)
            drawn[c.ref->frame] = unite(drawn[c.ref->frame], c.rect);
    Rect rows, cells, written;
    if (const auto it = shown_.find(static_cast<int>(frame)); it != shown_.end()) {
        const auto& writes = m.writes(frame);
        std::vector<int> sources = {static_cast<int>(frame)};
        for (const Rect& rc : it->second.rects)
            rows = unite(rows, rc);
        for (std::size_t c = 0; c < it->second.rects.size() && c < writes.size(); ++c) {
            if (writes[c].thread < 0)
                continue;
            cells = unite(cells, it->second.rects[c]);
            written = unite(written, it->second.rects[c]);
            for (const CellRef& ref : writes[c].from) {
                if (const Rect* rc = where(ref))
                    cells = unite(cells, *rc);
                if (std::find(sources.begin(), sources.end(), ref.frame) == sources.end())
                    sources.push_back(ref.frame);
            }
        }
        for (const int f : sources) {
            if (const auto src = shown_.find(f); src != shown_.end())
                for (const Rect& rc : src->second.rects)
                    rows = unite(rows, rc);
            if (const auto d = drawn.find(f); d != drawn.end())
                rows = unite(rows, d->second);
        }
    }
    // A name's height and a half round them, in pixels at this zoom: the labels' world size
    // is held to 0.42 units, which at 200% on 256 bins (224 pixels a unit) padded the rows with
    // 141 pixels of nothing, and the follow view framed that under the histogram's table.
    const float pad_x = 1.5f * label_em_x, pad_y = 1.5f * label_em;
    s.focus = rows.empty() ? s.bounds : inflate(rows, pad_x, pad_y);
    s.detail = cells.empty() ? s.focus : inflate(cells, pad_x, pad_y);
    s.written = written.empty() ? s.detail : inflate(written, pad_x, pad_y);
    if (cur.step == Step::HistAccumulate)
        if (const int bin = busiest_cell(m.writes(frame)); bin >= 0)
            if (const Rect* rc = where(CellRef{static_cast<int>(frame), bin}))
                s.named = *rc;
    // A merge writes every bin: where the first ones are empty, its bins that hold a count are
    // shown, from the first (n = 7 at 200% showed bins 0-6 of the merged chart, all 0).
    if (cur.step == Step::HistMerge && !cur.values.empty() && cur.values.front() == 0.0f)
        for (std::size_t bin = 0; bin < cur.values.size(); ++bin)
            if (cur.values[bin] != 0.0f)
                if (const Rect* rc = where(CellRef{static_cast<int>(frame), static_cast<int>(bin)}))
                    s.named = s.named.empty() ? *rc : unite(s.named, *rc);
    if (!focus_rows.empty()) {
        s.focus = focus_rows;
        s.detail = focus_cells;
        s.written = focus_written;
    }
    // Cells a row of thousands squeezes into a strip never hold their values: they do not count.
    // Nor does a cell merged into a heat strip, which is wider the farther out the scene is
    // built: counted, the zoom it asked for grew as it was built farther out, and a framing
    // built near it asked for another (scan-multiblock's add-carries swung between 28 and 65
    // pixels a unit, settling nowhere). The closest zoom is per value cell (value_width), as
    // the camera reads it: per unit, a histogram's five-digit counts (a bin 0.25 units wide)
    // asked for 163 pixels, not the 41 a bin they need, and went uncounted: hist-global's
    // busiest bin, the one its caption names, read "…" at 150% in 1280x720.
    for (const Cell& c : s.cells)
        if (c.role == CellRole::Written && c.merged == 1 && !c.text.empty() && c.rect.w > 0) {
            const float zoom = value_em(c) / (kValueFill * c.rect.w);
            if (zoom * kMinTextPx * s.value_width <= kClosestPx)
                s.written_values_zoom = std::max(s.written_values_zoom, zoom);
        }
    stretch_rows(std::max(opt.row_stretch, 1.0f));
    return std::move(s);
}

void Composer::stretch_rows(float by) {
    s.row_stretch = by;
    if (by == 1.0f)
        return;
    const auto rect = [by](Rect& box) {
        box.y *= by;
        box.h *= by;
    };
    for (std::vector<Cell>* layer : {&s.panels, &s.cells, &s.movers})
        for (Cell& c : *layer)
            rect(c.rect);
    for (Arrow& a : s.arrows) {
        a.from.y *= by;
        a.to.y *= by;
        rect(a.source);
        rect(a.target);
    }
    for (Label& l : s.labels)
        l.pos.y *= by;
    for (Rect* box : {&s.bounds, &s.focus, &s.detail, &s.written, &s.named})
        rect(*box);
}

} // namespace detail
} // namespace pplab::scene
