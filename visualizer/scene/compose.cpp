#include "compose.hpp"

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

namespace {

constexpr float kMoverTextPx = 14.0f; // a travelling value narrower than this: no digits
constexpr float kLabelPx = 17.0f;     // row labels on screen, before the presenter scale
constexpr float kMergePx = 2.5f;      // narrower cells merge into one heat-strip quad
constexpr std::size_t kMaxMovers = 700;

float smooth(float e0, float e1, float x) {
    const float t = std::clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);
    return t * t * (3 - 2 * t);
}

Vec2 lerp(Vec2 a, Vec2 b, float t) {
    return {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
}

// Arrow end points between two cells: bottom to top, top to bottom, or side to side.
std::pair<Vec2, Vec2> ends(const Rect& a, const Rect& b) {
    constexpr float kGap = 0.05f;
    if (a.bottom() <= b.y + 1e-3f)
        return {{a.center().x, a.bottom() + kGap}, {b.center().x, b.y - kGap}};
    if (a.y >= b.bottom() - 1e-3f)
        return {{a.center().x, a.y - kGap}, {b.center().x, b.bottom() + kGap}};
    if (a.right() <= b.x)
        return {{a.right() + kGap, a.center().y}, {b.x - kGap, b.center().y}};
    return {{a.x - kGap, a.center().y}, {b.right() + kGap, b.center().y}};
}

int utf8_length(const std::string& s) {
    int n = 0;
    for (const char c : s)
        n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

int priority(CellRole r) {
    switch (r) {
    case CellRole::Written:
        return 6;
    case CellRole::KeepsOwn:
        return 5;
    case CellRole::Read:
        return 4;
    case CellRole::Active:
        return 3;
    case CellRole::Value:
        return 2;
    case CellRole::Unchanged:
        return 1;
    default:
        return 0;
    }
}

} // namespace

Rect Grid::rect(int i) const {
    const int p = offset + i;
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
    s.caption = m.dataflow().caption(frame);
    label_size =
        std::clamp(kLabelPx * opt.text_scale / std::max(opt.pixels_per_unit, 1e-3f), 0.42f, 1.7f);
    two_line_labels = label_size <= 0.8f;
    label_em = world(label_px());
    label_em_x = label_px() / std::max(opt.pixels_per_unit, 1e-3f);
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

bool Composer::text_fits(const Grid& g) const {
    // As render::lay_out_text sizes a value (0.42 of the cell's height, three digits within
    // 86% of its width), at least the legible minimum: otherwise the row shows colour.
    constexpr float kThreeDigitsEm = 1.65f;
    const float em =
        std::min(0.42f * std::min(g.cell_h, 1.6f * g.cell_w), 0.86f * g.cell_w / kThreeDigitsEm);
    return em * opt.pixels_per_unit >= kMinTextPx * opt.text_scale;
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

namespace {

// Cells too narrow to read become colour: by value when they show values, merged k to a
// quad when narrower than a few pixels. The highlight survives the merge.
void emit_row(std::vector<Cell>& out, std::vector<Cell> row, const std::vector<float>& values,
              float px, bool text, const Palette& pal, bool heat) {
    if (row.empty())
        return;
    if (!text) {
        float lo = 0, hi = 0;
        bool any = false;
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
                Rgba h = viridis((values[i] - lo) / (hi - lo));
                if (c.role == CellRole::Unchanged)
                    h = mix(h, pal.background, 0.6f);
                c.fill = h;
            }
            c.text.clear();
            c.radius = std::min(c.radius, 0.05f);
            c.border_width = px < 6 ? 0.0f : c.border_width;
        }
    }
    if (px >= kMergePx) {
        for (Cell& c : row)
            out.push_back(std::move(c));
        return;
    }
    const std::size_t k = static_cast<std::size_t>(std::ceil(kMergePx / std::max(px, 1e-3f)));
    for (std::size_t i = 0; i < row.size();) {
        Cell merged = std::move(row[i]);
        std::size_t j = i + 1;
        for (; j < row.size() && j < i + k && row[j].rect.y == merged.rect.y; ++j) {
            merged.rect = unite(merged.rect, row[j].rect);
            if (priority(row[j].role) > priority(merged.role)) {
                merged.fill = row[j].fill;
                merged.role = row[j].role;
            }
        }
        if (merged.role != CellRole::Future)
            merged.role = merged.role == CellRole::Written ? CellRole::Written : CellRole::Heat;
        else // the outline of a step not reached, too thin to draw: a faint band instead
            merged.fill = with_alpha(pal.future, 0.35f);
        merged.border_width = 0;
        merged.radius = 0;
        out.push_back(std::move(merged));
        i = j;
    }
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
    row.reserve(fr.values.size());
    for (std::size_t i = 0; i < fr.values.size(); ++i) {
        const Rect rect = g.rect(static_cast<int>(i));
        sh.rects.push_back(rect);
        const CellWrite& cw = writes[i];
        const bool written = cw.thread >= 0;
        Cell c;
        if (w == Progress::Future) {
            c.rect = rect;
            c.fill = with_alpha(pal.background, 0.0f);
            c.border = pal.future;
            c.border_width = 0.035f;
            c.radius = 0.12f * std::min(rect.w, rect.h);
            c.role = CellRole::Future;
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
    emit_row(s.cells, std::move(row), fr.values, px, text_fits(g), pal, true);
    if (style.threads && w != Progress::Future)
        threads_strip(f, g);
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

void Composer::place_input(const Grid& g, std::span<const float> values, ColourBy colour_by,
                           int select_first, int select_count) {
    input_.assign(values.begin(), values.end());
    placed_[CellRef::kInput] = Placement{g, CellRef::kInput, false, false, RowStyle{}};
    CellsPlaced& sh = shown_[CellRef::kInput];
    sh.rects.clear();
    const int block_dim = m.block_size(cur.pass);
    const int bins = std::max(r.bins, 2);
    std::vector<Cell> row;
    row.reserve(values.size());
    const bool text = text_fits(g);
    for (std::size_t i = 0; i < values.size(); ++i) {
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
            fill = viridis(0.15f + 0.85f * static_cast<float>(thread) /
                                       static_cast<float>(std::max(block_dim - 1, 1)));
            break;
        }
        case ColourBy::Bin:
            fill = viridis(values[i] / static_cast<float>(bins - 1));
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
        c.ref = CellRef{CellRef::kInput, static_cast<int>(i)};
        row.push_back(std::move(c));
    }
    emit_row(s.cells, std::move(row), input_, g.cell_w * opt.pixels_per_unit, text, pal,
             colour_by == ColourBy::Plain || colour_by == ColourBy::Block);
    // The selected block's slice, in every round when the strip wraps into grid-stride rounds.
    const int total = static_cast<int>(values.size());
    for (int first = select_first; select_count > 0 && first < total; first += g.cols) {
        const int last = std::min(first + select_count, total) - 1;
        if (last < first)
            break;
        const Rect a = g.rect(first), z = g.rect(last);
        if (a.y == z.y)
            outline(inflate(Rect{a.x, a.y, z.right() - a.x, a.h}, 0.1f, 0.1f), pal.selection,
                    0.08f);
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
    Cell base; // the axis the bars stand on
    base.rect = {g.x - 0.1f, g.y + height, g.span(0, bin_count).w + 0.2f, 0.05f};
    base.fill = pal.muted;
    base.role = CellRole::Panel;
    s.panels.push_back(base);
    for (int b = 0; b < bin_count; ++b) {
        const Rect slot = {g.rect(b).x, g.y, bw, height};
        Cell c;
        c.ref = CellRef{shown >= 0 ? shown : frames.front(), b};
        c.radius = std::min(0.15f, bw * 0.2f);
        if (shown < 0) {
            c.rect = {slot.x, slot.bottom() - 0.05f, bw, 0.05f};
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
        tops.push_back({slot.x, c.rect.y - 0.05f, bw, 0.05f});
        c.fill =
            by_bin ? viridis(static_cast<float>(b) / static_cast<float>(std::max(bin_count - 1, 1)))
                   : pal.active;
        // A bar that received atomics in this step wears the highlight.
        c.border = landing ? pal.highlight : with_alpha(pal.cell_border, 0.0f);
        c.border_width = landing ? std::min(0.16f, bw * 0.22f) : 0.0f;
        c.role = landing ? CellRole::Written : CellRole::Bar;
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

void Composer::row_label(const Grid& g, const std::string& text, const std::string& sub) {
    const float cy = g.y + g.cell_h / 2;
    if (!two_line_labels && !sub.empty()) {
        // One line: the sub-label only when short, or the labels would crowd out the cells.
        constexpr std::size_t kOneLine = 24;
        const std::string joined = text + " · " + sub;
        row_label(g, utf8_length(joined) <= static_cast<int>(kOneLine) ? joined : text);
        return;
    }
    Label l;
    l.pos = {g.x - 0.6f * label_em_x, cy + (sub.empty() ? 0.35f : -0.05f) * label_em};
    l.text = text;
    l.size = label_size;
    l.px = label_px();
    l.color = pal.text;
    l.align = Align::Right;
    l.kind = LabelKind::Row;
    s.labels.push_back(l);
    if (!sub.empty()) {
        Label d = l;
        d.text = sub;
        d.size = label_size * 0.78f;
        d.px = label_px(0.78f);
        d.color = pal.muted;
        d.pos.y = cy + 0.95f * label_em;
        s.labels.push_back(d);
    }
}

void Composer::title(float x, float y, const std::string& text, float size_factor) {
    Label l;
    l.pos = {x, y};
    l.text = text;
    l.size = label_size * size_factor;
    l.px = label_px(size_factor);
    l.color = pal.text;
    s.labels.push_back(l);
}

void Composer::note(Vec2 at, const std::string& text, const Rgba& c, Align align,
                    float size_factor) {
    Label l;
    l.pos = at;
    l.text = text;
    l.size = label_size * size_factor;
    l.px = label_px(size_factor);
    l.color = c;
    l.align = align;
    s.labels.push_back(l);
}

void Composer::barrier(float y, float x0, float x1, const std::string& text) {
    // Only the first of a run of identical barriers is named: the rest are plain lines.
    const bool repeat = text == last_barrier_;
    last_barrier_ = text;
    Arrow a;
    a.from = {x0, y};
    a.to = {x1, y};
    a.color = pal.barrier;
    a.width = 0.05f;
    a.dashed = true;
    s.arrows.push_back(a);
    if (!repeat) {
        note({x1 + 0.4f, y + 0.25f * label_em}, text, pal.barrier, Align::Left, 0.72f);
        s.labels.back().kind = LabelKind::Line;
    }
}

void Composer::outline(const Rect& rc, const Rgba& c, float width) {
    Cell o;
    o.rect = rc;
    o.fill = with_alpha(c, 0.0f);
    o.border = c;
    o.border_width = width;
    o.radius = 0.2f;
    o.role = CellRole::Panel;
    s.cells.push_back(o);
}

void Composer::funnel(const Rect& from, const Rect& to) {
    for (const auto& [a, b] :
         {std::pair{Vec2{from.x, from.bottom() + 0.15f}, Vec2{to.x, to.y - 0.15f}},
          std::pair{Vec2{from.right(), from.bottom() + 0.15f}, Vec2{to.right(), to.y - 0.15f}}}) {
        Arrow l;
        l.from = a;
        l.to = b;
        l.color = with_alpha(pal.selection, 0.55f);
        l.width = 0.04f;
        l.dashed = true;
        s.arrows.push_back(l);
    }
}

void Composer::box(const Rect& rc) {
    Cell p;
    p.rect = rc;
    p.fill = pal.panel;
    p.border = pal.panel_border;
    p.border_width = 0.04f;
    p.radius = 0.35f;
    p.role = CellRole::Panel;
    s.panels.push_back(p);
}

void Composer::alias_input(const std::vector<int>& frames) {
    CellsPlaced& sh = shown_[CellRef::kInput];
    sh.rects.clear();
    input_.clear();
    for (const int f : frames) {
        const Rect* rc = where(CellRef{f, 0});
        sh.rects.push_back(rc ? *rc : Rect{});
        input_.push_back(t.frames[static_cast<std::size_t>(f)].values.at(0));
    }
}

void Composer::legend(const Rgba& c, const std::string& text) {
    const LegendItem item{c, text};
    if (std::find(s.legend.begin(), s.legend.end(), item) == s.legend.end())
        s.legend.push_back(item);
}

void Composer::strip(const Grid& g, const std::vector<Rgba>& fills,
                     const std::vector<std::string>& texts, CellRole role) {
    const bool text = text_fits(g);
    for (std::size_t i = 0; i < fills.size(); ++i) {
        Cell c;
        c.rect = g.rect(static_cast<int>(i));
        c.fill = fills[i];
        c.radius = 0.08f * std::min(c.rect.w, c.rect.h);
        if (text && i < texts.size()) {
            c.text = texts[i];
            c.text_color = text_on(fills[i]);
            c.text_size = 0.6f * std::min(c.rect.h, 1.2f * c.rect.w);
        }
        c.role = role;
        s.cells.push_back(std::move(c));
    }
}

const Rect* Composer::where(const CellRef& ref) const {
    const auto it = shown_.find(ref.frame);
    if (it == shown_.end() || ref.cell < 0 ||
        static_cast<std::size_t>(ref.cell) >= it->second.rects.size())
        return nullptr;
    return &it->second.rects[static_cast<std::size_t>(ref.cell)];
}

float Composer::value(const CellRef& ref) const {
    if (ref.frame == CellRef::kInput)
        return static_cast<std::size_t>(ref.cell) < input_.size()
                   ? input_[static_cast<std::size_t>(ref.cell)]
                   : 0.0f;
    return t.frames[static_cast<std::size_t>(ref.frame)].values.at(
        static_cast<std::size_t>(ref.cell));
}

Rgba Composer::arrow_color(int f, int cell, std::size_t source, const CellWrite& w,
                           bool current) const {
    if (!current)
        return pal.arrow_past;
    if (w.race)
        return pal.race;
    if (w.keeps_own)
        return pal.keeps_own;
    const Frame& fr = t.frames[static_cast<std::size_t>(f)];
    const CellRef& src = w.from[source];
    if (fr.step == Step::Downsweep) {
        // The carry is the old right child s[t]; the left subtree's sum is s[t - stride].
        const int stride = m.block_size(fr.pass) >> (fr.level + 1);
        const bool from_right_child = (src.cell + 1) % (2 * stride) == 0;
        return from_right_child ? pal.carry : pal.left_sum;
    }
    if (fr.step == Step::AddCarries && source == 1)
        return pal.carry;
    const bool own =
        src.frame == m.dataflow().predecessor(static_cast<std::size_t>(f)) && src.cell == cell;
    return own ? pal.arrow_own : pal.arrow;
}

void Composer::connect(int f, bool current) {
    const std::vector<CellWrite>& writes = m.writes(static_cast<std::size_t>(f));
    const CellsPlaced& dst = shown_.at(f);
    const float grow = current ? smooth(0.0f, timing::kArrowsGrown, anim) : 1.0f;
    const float travel = smooth(timing::kTravelStart, timing::kLand, anim);
    const bool moving = current && anim > timing::kTravelStart * 0.5f && anim < timing::kLand;
    std::size_t total = 0;
    for (const CellWrite& w : writes)
        total += w.thread >= 0 ? w.from.size() : 0;
    // Thin the flow where it would be a solid sheet: every k-th arrow still shows the pattern.
    const std::size_t every = std::max<std::size_t>(1, (total + max_arrows - 1) / max_arrows);
    const std::size_t movers = std::min(kMaxMovers, max_arrows);
    const std::size_t every_mover = std::max<std::size_t>(1, (total + movers - 1) / movers);
    std::size_t k = 0;
    for (std::size_t c = 0; c < writes.size(); ++c) {
        const CellWrite& w = writes[c];
        if (w.thread < 0 || c >= dst.rects.size())
            continue;
        const Rect& to = dst.rects[c];
        for (std::size_t i = 0; i < w.from.size(); ++i, ++k) {
            const CellRef& src = w.from[i];
            const Rect* from = where(src);
            if (!from || *from == to)
                continue;
            if (w.keeps_own && i == 1)
                continue; // the same source twice: one arrow
            const Rgba col = arrow_color(f, static_cast<int>(c), i, w, current);
            const bool own = col == pal.arrow_own;
            if (k % every == 0 && (current || !own)) {
                auto [a, b] = ends(*from, to);
                Arrow ar;
                ar.from = a;
                ar.to = lerp(a, b, grow);
                ar.color = col;
                ar.width = current ? (own ? 0.035f : 0.06f) : 0.03f;
                ar.head = current ? (own ? 0.2f : 0.28f) : 0.16f;
                s.arrows.push_back(ar);
            }
            if (moving && k % every_mover == 0) {
                Cell mv;
                const float mw = std::min(to.w, from->w) * 0.82f;
                const float mh = std::min(to.h, from->h) * 0.7f;
                const Vec2 at = lerp(from->center(), to.center(), travel);
                mv.rect = {at.x - mw / 2, at.y - mh / 2, mw, mh};
                mv.fill = mix(col, pal.cell, 0.72f);
                mv.border = col;
                mv.border_width = 0.06f * mh;
                mv.radius = 0.3f * mh;
                if (mw * opt.pixels_per_unit >= kMoverTextPx * opt.text_scale) {
                    mv.text = cell_text(value(src));
                    mv.text_color = text_on(mv.fill);
                    mv.text_size = 0.42f * mh / 0.7f;
                }
                mv.role = CellRole::Written;
                s.movers.push_back(std::move(mv));
            }
        }
    }
}

Scene Composer::finish() {
    for (const auto& [f, p] : placed_) {
        if (f < 0 || p.shown != f)
            continue;
        const Progress w = progress_of(f);
        if (w == Progress::Current)
            connect(f, true);
        else if (w == Progress::Done && opt.past_arrows && p.style.past_flow && !p.slot)
            connect(f, false);
    }
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
    const float pad = 1.5f * label_size;
    s.focus = rows.empty() ? s.bounds : inflate(rows, pad, pad);
    s.detail = cells.empty() ? s.focus : inflate(cells, pad, pad);
    s.written = written.empty() ? s.detail : inflate(written, pad, pad);
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
    }
    for (Label& l : s.labels)
        l.pos.y *= by;
    for (Rect* box : {&s.bounds, &s.focus, &s.detail, &s.written})
        rect(*box);
}

} // namespace detail
} // namespace pplab::scene
