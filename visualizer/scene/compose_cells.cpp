#include "compose_internal.hpp"

#include "pplab/io.hpp"

#include <set>
#include <tuple>

namespace pplab::scene::detail {

namespace {

// Cells too narrow to read become colour: by value when they show values, merged k to a
// quad when narrower than a few pixels. The highlight survives the merge. Each cell keeps its
// value's text: the renderer draws it where the cell holds it (scene::value_px) and the notice
// says where it does not, so a row of `numbers` none can hold is coloured by value instead.
// Returns whether it coloured a cell by value (the legend's value scale then says what).
bool emit_row(std::vector<Cell>& out, std::vector<Cell> row, const std::vector<float>& values,
              float px, bool numbers, const Palette& pal, bool heat,
              const std::optional<std::pair<float, float>>& range) {
    bool by_value = false;
    if (row.empty())
        return by_value;
    if (!numbers) {
        float lo = 0, hi = 0;
        bool any = false;
        if (range)
            std::tie(lo, hi) = *range;
        else
            for (std::size_t i = 0; i < row.size(); ++i)
                if (row[i].role != CellRole::Future) {
                    lo = any ? std::min(lo, values[i]) : values[i];
                    hi = any ? std::max(hi, values[i]) : values[i];
                    any = true;
                }
        for (std::size_t i = 0; i < row.size(); ++i) {
            Cell& c = row[i];
            const bool value_role = c.role == CellRole::Value || c.role == CellRole::Active ||
                                    c.role == CellRole::Unchanged;
            if (heat && value_role && hi > lo) {
                Rgba h = value_scale((values[i] - lo) / (hi - lo));
                if (c.role == CellRole::Unchanged)
                    h = mix(h, pal.background, 0.6f);
                c.fill = h;
                c.on_scale = by_value = true;
                c.text_color = text_on(h);
            }
            c.radius = std::min(c.radius, 0.05f);
            c.border_width = px < 6 ? 0.0f : c.border_width;
        }
    }
    if (px >= kMergePx) {
        for (Cell& c : row)
            out.push_back(std::move(c));
        return by_value;
    }
    const std::size_t k = static_cast<std::size_t>(std::ceil(kMergePx / std::max(px, 1e-3f)));
    for (std::size_t i = 0; i < row.size();) {
        // Its first cell's value kept: a few pixels wide, no value fits, so the renderer leaves
        // it out and the notice says values are left out.
        Cell merged = std::move(row[i]);
        std::size_t j = i + 1;
        for (; j < row.size() && j < i + k && row[j].rect.y == merged.rect.y; ++j) {
            merged.rect = unite(merged.rect, row[j].rect);
            if (priority(row[j].role) > priority(merged.role)) {
                merged.fill = row[j].fill;
                merged.role = row[j].role;
                merged.on_scale = row[j].on_scale;
            }
        }
        if (merged.role != CellRole::Future)
            merged.role = merged.role == CellRole::Written ? CellRole::Written : CellRole::Heat;
        else // the outline of a step not reached, too thin to draw: a faint band instead
            merged.fill = with_alpha(pal.future, 0.35f);
        merged.border_width = 0;
        merged.radius = 0;
        merged.merged = static_cast<int>(j - i);
        out.push_back(std::move(merged));
        i = j;
    }
    return by_value;
}

// The elements and the bars share it: an element's colour is the bar it adds to. (The bars
// are never drawn without the elements, which add the entry.)
std::string bin_scale(int bins) {
    return "bins 0–" + std::to_string(bins - 1);
}

} // namespace

void Composer::place(int f, const Grid& g, const RowStyle& style) {
    placed_[f] = Placement{g, f, false, false, style};
    const Progress w = progress_of(f);
    const Frame& fr = t.frames[static_cast<std::size_t>(f)];
    const std::vector<CellWrite>& writes = m.writes(static_cast<std::size_t>(f));
    const int pred = m.dataflow().predecessor(static_cast<std::size_t>(f));
    const bool landed = anim >= timing::kLand;
    CellsPlaced& sh = shown_[f];
    sh.rects.clear();
    std::vector<Cell> row;
    const std::size_t drawn =
        style.cells < 0 ? fr.values.size()
                        : std::min(fr.values.size(), static_cast<std::size_t>(style.cells));
    row.reserve(drawn);
    for (std::size_t i = 0; i < drawn; ++i) {
        const Rect rect = g.rect(static_cast<int>(i));
        sh.rects.push_back(rect);
        const CellWrite& cw = writes[i];
        const bool written = cw.thread >= 0;
        Cell c;
        if (w == Progress::Future) {
            c = future_cell(rect);
        } else if (w == Progress::Current && written && !landed) {
            // Before the value lands: the slot waits, outlined in the colour of the flow.
            const float before =
                pred >= 0 ? t.frames[static_cast<std::size_t>(pred)].values[i] : 0.0f;
            c = value_cell(rect, before, pal.cell, CellRole::Read);
            if (pred < 0 || t.frames[static_cast<std::size_t>(pred)].buffer != fr.buffer)
                c.text.clear();
            c.text_color = pal.muted;
            c.border = pal.arrow;
            c.border_width *= 2.0f;
        } else if (w == Progress::Current && written) {
            c = value_cell(rect, fr.values[i], pal.highlight, CellRole::Written);
            legend(pal.highlight, "written by this step");
        } else if (written) {
            c = value_cell(rect, fr.values[i], pal.active, CellRole::Active);
        } else if (style.in_place) {
            c = value_cell(rect, fr.values[i], pal.cell, CellRole::Value);
        } else {
            c = value_cell(rect, fr.values[i], pal.cell, CellRole::Unchanged);
            if (style.dim_unchanged) {
                c.text_color = pal.muted;
                c.border = pal.future;
            }
        }
        if (cw.keeps_own && w != Progress::Future) {
            legend(pal.keeps_own, "lane+offset is outside the warp: the lane adds its own value");
            c.border = pal.keeps_own;
            c.border_width = 0.12f * std::min(rect.w, rect.h);
            if (c.role != CellRole::Read)
                c.role = CellRole::KeepsOwn;
            if (w == Progress::Current && landed)
                c.fill = mix(pal.highlight, pal.keeps_own, 0.45f);
            c.text_color = text_on(c.fill);
        }
        const bool waiting = w == Progress::Current && written && !landed;
        if (w != Progress::Future && !waiting)
            mark_pitfalls(c, fr, static_cast<int>(i), cw);
        c.ref = CellRef{f, static_cast<int>(i)};
        row.push_back(std::move(c));
    }
    const float px = g.cell_w * opt.pixels_per_unit;
    const bool numbers = draws_a_value(row);
    const std::size_t first = s.cells.size();
    if (emit_row(s.cells, std::move(row), fr.values, px, numbers, pal,
                 style.by_value && !input_on_scale_, style.range))
        legend_ramp(kValueScale);
    // Said where a cell wears it: coloured by value, a row written earlier is on the scale.
    if (std::any_of(
            s.cells.begin() + static_cast<std::ptrdiff_t>(first), s.cells.end(),
            [&](const Cell& c) { return c.role != CellRole::Future && c.fill == pal.active; }))
        legend(pal.active, "written by an earlier step");
    if (style.threads && w != Progress::Future)
        threads_strip(f, g);
}

std::optional<std::pair<float, float>> Composer::range_of(const std::vector<int>& frames) const {
    std::optional<std::pair<float, float>> range;
    for (const int f : frames) // those reached, as a row of one frame colours its cells
        if (progress_of(f) != Progress::Future)
            for (const float v : t.frames[static_cast<std::size_t>(f)].values)
                range = range ? std::pair{std::min(range->first, v), std::max(range->second, v)}
                              : std::pair{v, v};
    return range;
}

void Composer::mark_pitfalls(Cell& c, const Frame& fr, int i, const CellWrite& cw) {
    const float thick = 0.13f * std::min(c.rect.w, c.rect.h);
    if (r.options.pitfall == Pitfall::PartialWarp && fr.step == Step::Shuffle &&
        fr.buffer == Buffer::Lanes && i >= r.options.active_lanes) {
        c.marks.not_taking_part = true;
        c.fill = pal.idle_warp;
        c.text_color = pal.muted;
        legend(pal.idle_warp, "lane that does not call warpReduce");
    }
    if (cw.undefined || std::isnan(fr.values[static_cast<std::size_t>(i)])) {
        // The trace never invents a number: the cell says "?" and wears the caution colour.
        c.marks.undefined = true;
        c.fill = pal.undefined;
        c.border = mix(pal.undefined, pal.text, 0.45f);
        c.text_color = text_on(c.fill);
        legend(pal.undefined, "? undefined: the code does not fix this value");
    }
    if (cw.race) {
        c.marks.race = true;
        c.border = pal.race;
        c.border_width = thick;
        legend(pal.race, "race: all 32 lanes write this slot, one write wins");
    }
    if (!cw.hazard.empty()) {
        c.marks.hazard = true;
        c.border = pal.hazard;
        c.border_width = thick;
        legend(pal.hazard, "hazard: read with no barrier after this write");
    }
}

void Composer::mark_never_added(const std::vector<CellRef>& refs) {
    std::set<std::pair<int, int>> lost;
    for (const CellRef& ref : refs)
        lost.insert({ref.frame, ref.cell});
    for (Cell& c : s.cells)
        if (c.ref && lost.count({c.ref->frame, c.ref->cell}) && c.role != CellRole::Future) {
            c.marks.never_added = true;
            c.fill = mix(pal.never_added, pal.cell, 0.55f);
            c.border = pal.never_added;
            c.border_width = 0.13f * std::min(c.rect.w, c.rect.h);
            c.text_color = text_on(c.fill);
        }
    legend(pal.never_added, "never added: the halving loop skips it");
}

void Composer::place_slot(const std::vector<int>& frames, const Grid& g,
                          const RowStyle& style_given) {
    RowStyle style = style_given;
    style.in_place = true;
    int shown = -1;
    for (const int f : frames)
        if (progress_of(f) != Progress::Future)
            shown = f;
    if (shown < 0) {
        place(frames.front(), g, style);
        for (const int f : frames)
            placed_[f] = placed_[frames.front()];
        return;
    }
    place(shown, g, style);
    Placement p = placed_[shown];
    p.slot = true;
    for (const int f : frames) {
        placed_[f] = p;
        shown_[f] = shown_[shown];
    }
}

Cell Composer::future_cell(const Rect& rect) const {
    Cell c;
    c.rect = rect;
    c.fill = with_alpha(pal.background, 0.0f);
    c.border = pal.future;
    c.border_width = 0.035f;
    c.radius = 0.12f * std::min(rect.w, rect.h);
    c.role = CellRole::Future;
    return c;
}

void Composer::place_strip(const std::vector<int>& frames, const Grid& g) {
    std::vector<Cell> row;
    std::vector<float> values;
    row.reserve(frames.size());
    values.reserve(frames.size());
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const int f = frames[i];
        const Rect rect = g.rect(static_cast<int>(i));
        const float v = t.frames[static_cast<std::size_t>(f)].values.at(0);
        const Progress w = progress_of(f);
        Cell c = w == Progress::Future    ? future_cell(rect)
                 : w == Progress::Current ? value_cell(rect, v, pal.highlight, CellRole::Written)
                                          : value_cell(rect, v, pal.cell, CellRole::Value);
        // The step's own value is read where its frame is placed: narrow here (49 sums in 16
        // units), its text set the zoom values are read at to 130 pixels a unit.
        if (w == Progress::Current)
            c.text.clear();
        c.ref = CellRef{f, 0};
        row.push_back(std::move(c));
        values.push_back(v);
    }
    const bool numbers = draws_a_value(row);
    if (emit_row(s.cells, std::move(row), values, g.cell_w * opt.pixels_per_unit, numbers, pal,
                 true, std::nullopt))
        legend_ramp(kValueScale);
}

void Composer::place_input(const Grid& g, std::span<const float> values, ColourBy colour_by,
                           int select_first, int select_count, int draw_first, int draw_count) {
    input_.assign(values.begin(), values.end());
    placed_[CellRef::kInput] = Placement{g, CellRef::kInput, false, false, RowStyle{}};
    CellsPlaced& sh = shown_[CellRef::kInput];
    const std::size_t begin =
        static_cast<std::size_t>(std::clamp<int>(draw_first, 0, static_cast<int>(values.size())));
    const std::size_t end =
        draw_count < 0 ? values.size()
                       : std::min(values.size(), begin + static_cast<std::size_t>(draw_count));
    sh.rects.assign(begin, Rect{}); // elements not drawn: no arrow starts there
    const int block_dim = m.block_size(cur.pass);
    const int bins = std::max(r.bins, 2);
    std::vector<Cell> row;
    row.reserve(end - begin);
    for (std::size_t i = begin; i < end; ++i) {
        const Rect rect = g.rect(static_cast<int>(i));
        sh.rects.push_back(rect);
        Rgba fill = pal.cell;
        const bool selected = select_count > 0 && static_cast<int>(i) >= select_first &&
                              static_cast<int>(i) < select_first + select_count;
        switch (colour_by) {
        case ColourBy::Plain:
            break;
        case ColourBy::Thread: {
            const int thread = static_cast<int>(i % static_cast<std::size_t>(block_dim));
            fill = value_scale(static_cast<float>(thread) /
                               static_cast<float>(std::max(block_dim - 1, 1)));
            break;
        }
        case ColourBy::Bin:
            fill = value_scale(values[i] / static_cast<float>(bins - 1));
            break;
        case ColourBy::Block: {
            const auto b = static_cast<int>(i / static_cast<std::size_t>(block_dim));
            fill = b % 2 == 0 ? pal.cell : mix(pal.cell, pal.panel_border, 0.55f);
            break;
        }
        }
        Cell c = value_cell(rect, values[i], fill, CellRole::Value);
        if (colour_by == ColourBy::Thread && select_count > 0) {
            // Only the selected block's elements matter here: the others fade.
            const auto b = static_cast<int>((i / static_cast<std::size_t>(block_dim)) %
                                            static_cast<std::size_t>(m.grid(cur.pass)));
            if (b != block)
                c.fill = mix(c.fill, pal.background, 0.72f);
        } else if (colour_by != ColourBy::Plain && !selected && select_count > 0 &&
                   colour_by != ColourBy::Bin) {
            c.fill = mix(c.fill, pal.background, 0.35f);
        }
        c.text_color = text_on(c.fill);
        c.on_scale = colour_by == ColourBy::Thread || colour_by == ColourBy::Bin;
        c.ref = CellRef{CellRef::kInput, static_cast<int>(i)};
        row.push_back(std::move(c));
    }
    const bool numbers = draws_a_value(row);
    const std::vector<float> drawn(input_.begin() + static_cast<std::ptrdiff_t>(begin),
                                   input_.begin() + static_cast<std::ptrdiff_t>(end));
    if (emit_row(s.cells, std::move(row), drawn, g.cell_w * opt.pixels_per_unit, numbers, pal,
                 colour_by == ColourBy::Plain || colour_by == ColourBy::Block, std::nullopt))
        legend_ramp(kValueScale);
    input_on_scale_ = colour_by == ColourBy::Bin || colour_by == ColourBy::Thread;
    if (colour_by == ColourBy::Bin)
        legend_ramp(bin_scale(bins));
    else if (colour_by == ColourBy::Thread)
        legend_ramp("threads 0–" + std::to_string(block_dim - 1));
    // The selected block's slice, in every round when the strip wraps into grid-stride rounds.
    const int total = static_cast<int>(values.size());
    for (int first = select_first; select_count > 0 && first < total; first += g.cols) {
        const int last = std::min(first + select_count, total) - 1;
        if (last < first)
            break;
        // The ring a few pixels clear of the slice at any zoom: 0.1 units clear took in five
        // of a neighbouring block's elements where a round of 1024 is fitted into 19 units.
        const Rect a = g.rect(first), z = g.rect(last);
        const float clear = line_units(0.1f);
        if (a.y == z.y)
            outline(inflate(Rect{a.x, a.y, z.right() - a.x, a.h}, clear, clear), pal.selection,
                    line_units(0.08f));
        if (g.cols >= total)
            break;
    }
}

void Composer::place_bars(const std::vector<int>& frames, const Grid& g, float height, float max,
                          bool by_bin) {
    int shown = -1;
    for (const int f : frames)
        if (progress_of(f) != Progress::Future)
            shown = f;
    const bool current = shown >= 0 && progress_of(shown) == Progress::Current;
    const int pred = shown >= 0 ? m.dataflow().predecessor(static_cast<std::size_t>(shown)) : -1;
    const float grow = current ? smooth(timing::kTravelStart, timing::kLand, anim) : 1.0f;
    const int bin_count =
        static_cast<int>(t.frames[static_cast<std::size_t>(frames.front())].values.size());
    const auto count = [&](int f, int bin) {
        return f < 0 ? 0.0f
                     : t.frames[static_cast<std::size_t>(f)].values[static_cast<std::size_t>(bin)];
    };
    Placement p{g, shown, true, true, RowStyle{}};
    p.grid.cell_h = height;
    for (const int f : frames)
        placed_[f] = p;
    std::vector<Rect> tops; // where arrows land: each bar's top
    const float bw = g.cell_w;
    Cell base; // the axis the bars stand on: a line at any zoom (hist-per-warp's 256 bins, read
               // at 976 pixels a unit, drew it as a slab 49 pixels thick over the bars' feet)
    base.rect = {g.x - 0.1f, g.y + height, g.span(0, bin_count).w + 0.2f,
                 std::min(0.05f, world(2.5f * opt.text_scale))};
    base.fill = pal.muted;
    base.role = CellRole::Panel;
    s.panels.push_back(base);
    for (int b = 0; b < bin_count; ++b) {
        const Rect slot = {g.rect(b).x, g.y, bw, height};
        Cell c;
        c.ref = CellRef{shown >= 0 ? shown : frames.front(), b};
        c.radius = std::min(0.15f, bw * 0.2f);
        if (shown < 0) {
            c.rect = {slot.x, slot.bottom() - line_units(kArrowGap), bw, line_units(kArrowGap)};
            c.fill = pal.future;
            c.role = CellRole::Future;
            tops.push_back(c.rect);
            s.cells.push_back(std::move(c));
            continue;
        }
        const float v = count(shown, b);
        const float before = current ? count(pred, b) : v;
        const float now = before + (v - before) * grow;
        const float h = max > 0 ? height * now / max : 0.0f;
        const bool landing =
            current &&
            m.writes(static_cast<std::size_t>(shown))[static_cast<std::size_t>(b)].thread >= 0;
        c.rect = {slot.x, slot.bottom() - h, bw, h};
        const float top = line_units(kArrowGap); // a line's width over the bar, at any zoom
        tops.push_back({slot.x, c.rect.y - top, bw, top});
        c.fill = by_bin ? value_scale(static_cast<float>(b) /
                                      static_cast<float>(std::max(bin_count - 1, 1)))
                        : pal.active;
        // A bar that received atomics in this step wears the highlight.
        c.border = landing ? pal.highlight : with_alpha(pal.cell_border, 0.0f);
        c.border_width = landing ? std::min(0.16f, bw * 0.22f) : 0.0f;
        c.role = landing ? CellRole::Written : CellRole::Bar;
        c.on_scale = by_bin;
        s.cells.push_back(std::move(c));
    }
    for (const int f : frames)
        shown_[f].rects = tops;
}

void Composer::threads_strip(int f, const Grid& g) {
    const Frame& fr = t.frames[static_cast<std::size_t>(f)];
    const int block_dim = m.block_size(fr.pass);
    std::vector<char> active(static_cast<std::size_t>(block_dim), 0);
    for (const CellWrite& w : m.writes(static_cast<std::size_t>(f)))
        if (w.thread >= 0 && w.thread < block_dim)
            active[static_cast<std::size_t>(w.thread)] = 1;
    const int warps = (block_dim + kWarpSize - 1) / kWarpSize;
    std::vector<char> warp_active(static_cast<std::size_t>(warps), 0);
    for (int th = 0; th < block_dim; ++th)
        warp_active[static_cast<std::size_t>(th / kWarpSize)] |=
            active[static_cast<std::size_t>(th)];
    legend(pal.arrow, "thread that works at that level");
    if (std::find(warp_active.begin(), warp_active.end(), 0) != warp_active.end())
        legend(pal.idle_warp, "idle warp: none of its 32 threads works");
    const float h = 0.2f;
    const float y = g.y - 0.32f;
    const bool merge = g.cell_w * opt.pixels_per_unit < kMergePx;
    for (int th = 0; th < block_dim && th < g.cols; ++th) {
        const Rect cell = g.rect(th - g.offset);
        Cell c;
        c.rect = {cell.x, y, merge ? g.pitch_x : cell.w, h};
        c.fill = active[static_cast<std::size_t>(th)] ? pal.arrow
                 : warp_active[static_cast<std::size_t>(th / kWarpSize)]
                     ? mix(pal.cell_border, pal.background, 0.45f)
                     : pal.idle_warp;
        c.role = active[static_cast<std::size_t>(th)]                    ? CellRole::Active
                 : warp_active[static_cast<std::size_t>(th / kWarpSize)] ? CellRole::Unchanged
                                                                         : CellRole::IdleWarp;
        c.radius = merge ? 0.0f : 0.05f;
        s.panels.push_back(std::move(c));
    }
}

void Composer::strip(const Grid& g, const std::vector<Rgba>& fills,
                     const std::vector<std::string>& texts, CellRole role) {
    for (std::size_t i = 0; i < fills.size(); ++i) {
        Cell c;
        c.rect = g.rect(static_cast<int>(i));
        c.fill = fills[i];
        c.radius = 0.08f * std::min(c.rect.w, c.rect.h);
        if (i < texts.size()) { // drawn where the cell holds it (scene::value_px)
            c.text = texts[i];
            c.text_color = text_on(fills[i]);
            c.text_size = 0.6f * std::min(c.rect.h, 1.2f * c.rect.w);
        }
        c.role = role;
        s.cells.push_back(std::move(c));
    }
}

} // namespace pplab::scene::detail
