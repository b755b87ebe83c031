#include "canvas_layout.hpp"

#include <algorithm>
#include <cmath>

namespace pplab::render {

namespace {

using scene::Rect;

bool overlaps(const Rect& a, const Rect& b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

Rect intersect(const Rect& a, const Rect& b) {
    const float x = std::max(a.x, b.x), y = std::max(a.y, b.y);
    return {x, y, std::min(a.right(), b.right()) - x, std::min(a.bottom(), b.bottom()) - y};
}

Rect on_screen(const scene::Camera& c, const Rect& world, float w, float h) {
    const scene::Vec2 a = c.to_screen({world.x, world.y}, w, h);
    return {a.x, a.y, world.w * c.scale, world.h * c.scale};
}

// What a box over the canvas could hide: cells and bars with something drawn, the threads'
// strips. Group boxes and bands behind the picture do not count.
bool shows_something(const scene::Cell& c) {
    return c.role != scene::CellRole::Panel && (c.fill.a > 0 || c.border_width > 0);
}

// The camera for `picture` (canvas pixels) of a canvas of r.width x r.height.
scene::Camera aim(const scene::Scene& s, const CanvasRequest& r, const Rect& picture) {
    if (r.framing == Framing::Free)
        return r.camera;
    const float margin = kCanvasMarginPx * r.scale;
    const scene::Camera c =
        r.framing == Framing::Fit
            ? scene::fit_labelled(s, s.bounds, picture.w, picture.h, margin, kClosestPx * r.scale)
            : scene::follow(s, picture.w, picture.h, margin, kClosestPx * r.scale,
                            kReadablePx * r.scale);
    return moved(c, {picture.x, picture.y}, picture.w, picture.h, r.width, r.height);
}

// A row the picture's top or bottom edge would cut in half is left out whole: the edge moves
// to the gap between rows (by at most a third of the picture).
Rect without_cut_rows(const scene::Scene& s, const scene::Camera& c, const CanvasRequest& r,
                      Rect picture) {
    float top = picture.y, bottom = picture.bottom();
    constexpr float kGapPx = 2.0f;
    for (const std::vector<scene::Cell>* layer : {&s.cells, &s.panels})
        for (const scene::Cell& cell : *layer) {
            if (!shows_something(cell))
                continue;
            const Rect box = on_screen(c, cell.rect, r.width, r.height);
            if (box.x >= picture.right() || box.right() <= picture.x)
                continue;
            if (box.y < picture.bottom() && box.bottom() > picture.bottom() && box.y > picture.y)
                bottom = std::min(bottom, box.y - kGapPx);
            if (box.y < picture.y && box.bottom() > picture.y && box.bottom() < picture.bottom())
                top = std::max(top, box.bottom() + kGapPx);
        }
    const float most = picture.h / 3;
    top = std::min(top, picture.y + most);
    bottom = std::max(bottom, picture.bottom() - most);
    return {picture.x, top, picture.w, bottom - top};
}

// Which of the step's rows are on screen when not all of them are, or that its values are too
// small to read; empty when neither.
std::string notice_text(const scene::Scene& s, const scene::Model& m, std::size_t frame,
                        const CanvasRequest& r, const scene::Camera& cam, const Rect& picture) {
    const scene::StepGroup& g = m.steps().at(static_cast<std::size_t>(m.step_of(frame)));
    const Frame& cur = m.trace().frames.at(frame);
    int first = -1, last = -1, total = 0, values = 0, legible = 0;
    const bool by_warp = cur.warp >= 0;
    for (const scene::Cell& c : s.cells) {
        if (!c.ref || c.ref->frame < g.first || c.ref->frame > g.last)
            continue;
        const Frame& f = m.trace().frames.at(static_cast<std::size_t>(c.ref->frame));
        if (f.block != cur.block)
            continue;
        const int index = by_warp ? f.warp : c.ref->cell;
        total = std::max(total, index + 1);
        const Rect box = on_screen(cam, c.rect, r.width, r.height);
        if (!overlaps(box, picture))
            continue;
        first = first < 0 ? index : std::min(first, index);
        last = std::max(last, index);
        ++values;
        legible += box.w >= kReadablePx * r.scale * 0.8f;
    }
    if (first >= 0 && (first > 0 || last + 1 < total)) {
        const std::string what = by_warp ? "warp" : "thread";
        std::string text = first == last ? "showing " + what + " " + std::to_string(first)
                                         : "showing " + what + "s " + std::to_string(first) + "–" +
                                               std::to_string(last);
        text += " of " + std::to_string(total);
        if (r.interactive)
            text += r.framing == Framing::Follow ? " · drag, or Fit all for the whole"
                                                 : " · drag to see the rest";
        return text;
    }
    if (values > 0 && legible < values)
        return r.interactive ? "values too small to read here: hover a cell, or zoom in (wheel)"
                             : "values too small to read at this size";
    return {};
}

struct LegendStyle {
    float px = 0, line = 0, pad = 0, swatch = 0, gap = 0;
    explicit LegendStyle(float scale)
        : px(kLegendPx * scale), line(std::round(kLegendPx * scale * 1.3f)),
          pad(std::round(kLegendPx * scale * 0.5f)), swatch(std::round(kLegendPx * scale * 1.2f)),
          gap(std::round(kLegendPx * scale * 0.5f)) {}
};

// The legend's entries laid out in a box at (0, 0): stacked with their texts wrapped to
// `text_w` pixels, or (`flow`) side by side in lines no wider than `text_w`.
struct LegendLayout {
    scene::Vec2 size;
    std::vector<LegendEntry> entries;
    std::vector<std::vector<std::string>> lines; // each entry's text, line by line
};

LegendLayout legend_layout(const FontAtlas& font, const scene::Scene& s, const LegendStyle& st,
                           float text_w, bool flow) {
    LegendLayout out;
    float x = st.pad, y = st.pad, widest = 0;
    const float room = text_w + st.swatch + st.gap;
    for (const scene::LegendItem& item : s.legend) {
        std::vector<std::string> lines = wrap(font, item.text, st.px, text_w);
        float tw = 0;
        for (const std::string& l : lines)
            tw = std::max(tw, font.width(l) * st.px);
        const float ew = st.swatch + st.gap + tw;
        const float eh = static_cast<float>(lines.size()) * st.line;
        if (flow && x > st.pad && x + ew > st.pad + room) { // the next line of the band
            x = st.pad;
            y += st.line;
        }
        out.entries.push_back({{x, y, ew, eh}, item.text, st.px});
        out.lines.push_back(std::move(lines));
        widest = std::max(widest, x + ew);
        if (flow) {
            x += ew + 2 * st.swatch;
        } else {
            y += eh + st.line * 0.25f;
        }
    }
    const float bottom = flow ? y + st.line : y - st.line * 0.25f;
    out.size = {widest + st.pad, bottom + st.pad};
    return out;
}

// The legend's overlay at `box`: a floating card or a docked band, swatches and texts.
void draw_legend(CanvasFrame& f, const LegendLayout& l, const scene::Scene& s,
                 const scene::Palette& pal, const LegendStyle& st) {
    scene::Cell card;
    card.rect = f.legend_box;
    card.fill = f.legend_docked ? pal.panel : scene::with_alpha(pal.background, 0.94f);
    card.border = pal.panel_border;
    card.border_width = f.legend_docked ? 0.0f : std::max(1.0f, st.px / 16);
    card.radius = f.legend_docked ? 0.0f : st.pad;
    f.overlay_cells.push_back(card);
    for (std::size_t i = 0; i < l.entries.size(); ++i) {
        LegendEntry e = l.entries[i];
        e.rect.x += f.legend_box.x;
        e.rect.y += f.legend_box.y;
        scene::Cell sw;
        const float mid = e.rect.y + st.line * 0.5f;
        sw.rect = {e.rect.x, mid - st.px * 0.25f, st.swatch, st.px * 0.5f};
        sw.fill = s.legend[i].color;
        sw.radius = 2;
        f.overlay_cells.push_back(sw);
        float baseline = e.rect.y + st.line * 0.5f + st.px * 0.3f;
        for (const std::string& text : l.lines[i]) {
            scene::Label t;
            t.pos = {e.rect.x + st.swatch + st.gap, baseline};
            t.text = text;
            t.size = st.px;
            t.px = st.px;
            t.color = pal.text;
            f.overlay_labels.push_back(t);
            baseline += st.line;
        }
        f.legend.push_back(std::move(e));
    }
}

// Whether `box` (canvas pixels) would hide a cell or a text of the picture.
bool covers_picture(const scene::Scene& s, const CanvasFrame& f, const Rect& box) {
    for (const std::vector<scene::Cell>* layer : {&s.cells, &s.panels})
        for (const scene::Cell& c : *layer)
            if (shows_something(c) &&
                overlaps(intersect(on_screen(f.camera, c.rect, f.width, f.height), f.picture), box))
                return true;
    return std::any_of(f.text.begin(), f.text.end(),
                       [&](const TextRun& t) { return overlaps(t.rect, box); });
}

void frame_text(CanvasFrame& f, const FontAtlas& font, const scene::Scene& s,
                const CanvasRequest& r, const Rect& area) {
    f.camera = aim(s, r, area);
    f.picture = r.framing == Framing::Free ? area : without_cut_rows(s, f.camera, r, area);
    f.text = scene_text(font, s, f.camera, f.width, f.height, f.picture);
}

// The legend in a corner where it hides nothing; else docked in a column on the right of a
// wide canvas, or a band under the picture. A docked legend takes its room from the picture.
void place_legend(CanvasFrame& f, const FontAtlas& font, const scene::Scene& s,
                  const CanvasRequest& r, const Rect& area) {
    if (s.legend.empty())
        return;
    const scene::Palette pal = scene::palette(r.theme);
    const LegendStyle st(r.scale);
    const float card_text = std::max(0.4f * area.w - 2 * st.pad - st.swatch - st.gap, 10 * st.px);
    const LegendLayout card = legend_layout(font, s, st, card_text, false);
    const float x0 = area.x + st.pad, x1 = area.right() - st.pad - card.size.x;
    const float y0 = area.y + st.pad, y1 = area.bottom() - st.pad - card.size.y;
    if (x1 >= x0 && y1 >= y0)
        for (const scene::Vec2 at : {scene::Vec2{x0, y1}, {x1, y1}, {x1, y0}, {x0, y0}}) {
            const Rect box{at.x, at.y, card.size.x, card.size.y};
            if (!covers_picture(s, f, box)) {
                f.legend_box = box;
                draw_legend(f, card, s, pal, st);
                return;
            }
        }
    // Docked where it costs the picture less: a column on the right, or a band underneath.
    f.legend_docked = true;
    const float column_text = 0.26f * area.w - 2 * st.pad - st.swatch - st.gap;
    const LegendLayout column = legend_layout(font, s, st, column_text, false);
    const LegendLayout band =
        legend_layout(font, s, st, area.w - 2 * st.pad - st.swatch - st.gap, true);
    const bool column_fits = column.size.y <= area.h && column_text >= 8 * st.px;
    Rect rest;
    if (column_fits && column.size.x * area.h < band.size.y * area.w) {
        f.legend_box = {area.right() - column.size.x, area.y, column.size.x, area.h};
        rest = {area.x, area.y, area.w - column.size.x, area.h};
    } else {
        f.legend_box = {area.x, area.bottom() - band.size.y, area.w, band.size.y};
        rest = {area.x, area.y, area.w, area.h - band.size.y};
    }
    frame_text(f, font, s, r, rest);
    draw_legend(f, f.legend_box.w < area.w ? column : band, s, pal, st);
}

// The picture in `area` with its legend; the overlay starts afresh.
void lay_out(CanvasFrame& f, const FontAtlas& font, const scene::Scene& s, const CanvasRequest& r,
             const Rect& area) {
    f.legend_box = {};
    f.legend_docked = false;
    f.legend.clear();
    f.overlay_cells.clear();
    f.overlay_labels.clear();
    frame_text(f, font, s, r, area);
    place_legend(f, font, s, r, area);
}

} // namespace

scene::Camera moved(const scene::Camera& c, scene::Vec2 at, float canvas_w, float canvas_h, float w,
                    float h) {
    scene::Camera out = c;
    out.center.x -= (at.x + canvas_w / 2 - w / 2) / c.scale;
    out.center.y -= (at.y + canvas_h / 2 - h / 2) / c.scale;
    return out;
}

CanvasFrame frame_canvas(const FontAtlas& font, const scene::Scene& s, const scene::Model& m,
                         std::size_t frame, const CanvasRequest& r) {
    CanvasFrame f;
    f.width = r.width;
    f.height = r.height;
    lay_out(f, font, s, r, {0, 0, r.width, r.height});
    // The notice, when there is one, takes a band at the top: the rest is framed again.
    std::string notice = notice_text(s, m, frame, r, f.camera, f.picture);
    if (notice.empty())
        return f;
    const scene::Palette pal = scene::palette(r.theme);
    const LegendStyle st(r.scale);
    f.notice_box = {0, 0, r.width, st.line + st.pad};
    lay_out(f, font, s, r, {0, f.notice_box.bottom(), r.width, r.height - f.notice_box.bottom()});
    // Said for the camera finally chosen (the first guess when that shows all of the step).
    if (std::string now = notice_text(s, m, frame, r, f.camera, f.picture); !now.empty())
        notice = std::move(now);
    scene::Cell band;
    band.rect = f.notice_box;
    band.fill = pal.panel;
    f.overlay_cells.insert(f.overlay_cells.begin(), band);
    scene::Label l;
    l.pos = {st.pad, f.notice_box.y + st.pad * 0.5f + st.line * 0.5f + st.px * 0.3f};
    l.text = notice;
    l.size = l.px = st.px;
    l.color = pal.muted;
    l.max_width = r.width - 2 * st.pad; // pixels: the overlay's camera is the identity
    f.overlay_labels.insert(f.overlay_labels.begin(), l);
    f.notice = std::move(notice);
    return f;
}

Canvas lay_out_canvas(const FontAtlas& font, const scene::Model& m, std::size_t frame,
                      const CanvasRequest& r, scene::ViewOptions vo, float anim) {
    vo.theme = r.theme;
    vo.text_scale = r.scale;
    if (r.framing == Framing::Free)
        vo.pixels_per_unit = r.camera.scale;
    Canvas c;
    c.scene = scene::build(m, frame, vo, anim);
    c.frame = frame_canvas(font, c.scene, m, frame, r);
    for (int round = 0; round < 4 && r.framing != Framing::Free; ++round) {
        const float zoom = c.frame.camera.scale;
        if (std::abs(zoom - vo.pixels_per_unit) < 0.01f * zoom)
            break;
        vo.pixels_per_unit = zoom;
        c.scene = scene::build(m, frame, vo, anim);
        c.frame = frame_canvas(font, c.scene, m, frame, r);
    }
    return c;
}

} // namespace pplab::render
