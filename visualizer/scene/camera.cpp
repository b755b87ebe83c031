#include "camera.hpp"

#include "scene.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace pplab::scene {

Camera fit(const Rect& r, float w, float h, float margin, float max_scale) {
    Camera c;
    c.center = r.center();
    const float sw = (w - 2 * margin) / std::max(r.w, 1e-3f);
    const float sh = (h - 2 * margin) / std::max(r.h, 1e-3f);
    c.scale = std::clamp(std::min(sw, sh), 1e-3f, max_scale);
    return c;
}

namespace {

// A label's reach in pixels around its anchor: left, right, above, below.
struct Reach {
    float x = 0, y = 0; // the anchor, world units
    float left = 0, right = 0, up = 0, down = 0;
};

int utf8_length(const std::string& s) {
    int n = 0;
    for (const char c : s)
        n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

Reach reach(const Label& l) {
    const float em =
        l.em_width > 0 ? l.em_width : kEmPerChar * static_cast<float>(utf8_length(l.text));
    const float tw = em * l.px;
    Reach r{l.pos.x, l.pos.y, 0, 0, 0.85f * l.px - l.drop_px, 0.3f * l.px + l.drop_px};
    r.left = l.align == Align::Left ? 0.0f : l.align == Align::Right ? tw : tw / 2;
    r.right = tw - r.left;
    return r;
}

// The pixels a region and its labels span along one axis at scale k.
float span_at(float k, float lo, float hi, const std::vector<Reach>& labels, bool x_axis,
              float* center) {
    float a = lo * k, b = hi * k;
    for (const Reach& r : labels) {
        const float p = (x_axis ? r.x : r.y) * k;
        a = std::min(a, p - (x_axis ? r.left : r.up));
        b = std::max(b, p + (x_axis ? r.right : r.down));
    }
    if (center)
        *center = (a + b) / 2 / k;
    return b - a;
}

} // namespace

float past_cut_cells(const Scene& s, float edge) {
    // A sliver of a cell beside the names' column reads as part of the name ("upsweep 0" and
    // the sliver of a cell "0" as "upsweep 00"): the edge moves into the gap after it. Rows of
    // other grids (warps set apart) can cut another cell there: a few rounds, about a cell at most.
    const float start = edge;
    for (int round = 0; round < 4; ++round) {
        float past = edge;
        for (const Cell& c : s.cells)
            if (c.ref && c.rect.w >= 0.5f && c.rect.x < edge && c.rect.right() > edge &&
                c.rect.bottom() > s.focus.y && c.rect.y < s.focus.bottom())
                past = std::max(past, c.rect.right() + 0.02f);
        if (past == edge || past - start > 1.2f)
            break;
        edge = past;
    }
    return edge;
}

Camera fit_labelled(const Scene& s, const Rect& r, float w, float h, float margin,
                    float max_scale) {
    // The labels that belong to the region: anchored beside or inside it.
    std::vector<Reach> labels;
    const Rect near = inflate(r, 3.0f, 0.6f);
    for (const Label& l : s.labels)
        if (l.px > 0 && near.contains(l.pos))
            labels.push_back(reach(l));
    const float aw = std::max(w - 2 * margin, 1.0f), ah = std::max(h - 2 * margin, 1.0f);
    const auto fits = [&](float k) {
        return span_at(k, r.x, r.right(), labels, true, nullptr) <= aw &&
               span_at(k, r.y, r.bottom(), labels, false, nullptr) <= ah;
    };
    constexpr float kLeast = 1e-3f;
    // Labels that leave no room even at the smallest scale (a title wider than the canvas
    // beside the rows' names) are left to the text layout, which leaves them out: the widest
    // first, until the rest fit.
    while (!labels.empty() && !fits(kLeast)) {
        const auto widest =
            std::max_element(labels.begin(), labels.end(), [](const Reach& a, const Reach& b) {
                return a.left + a.right < b.left + b.right;
            });
        labels.erase(widest);
    }
    float lo = kLeast, hi = std::max(max_scale, lo);
    if (fits(hi)) {
        lo = hi;
    } else {
        for (int i = 0; i < 40; ++i) { // the spans grow with k: bisect in log space
            const float mid = std::sqrt(lo * hi);
            (fits(mid) ? lo : hi) = mid;
        }
    }
    Camera c;
    c.scale = lo;
    span_at(lo, r.x, r.right(), labels, true, &c.center.x);
    span_at(lo, r.y, r.bottom(), labels, false, &c.center.y);
    return c;
}

float row_label_width(const Scene& s) {
    float widest = 0;
    for (const Label& l : s.labels)
        if (l.kind == LabelKind::Row && l.px > 0)
            widest = std::max(widest, reach(l).left + reach(l).right);
    return widest;
}

namespace {

// The foot of the lowest cell the step writes, or of the rows it touches: where the room under
// it is taller than the picture, the follow view frames that cell, not the room (hist-per-warp's
// 256 bins, read at 976 pixels a unit, framed the room alone, its counts just above).
float lowest_written(const Scene& s) {
    float lowest = -1e30f;
    for (const Cell& c : s.cells)
        if (c.role == CellRole::Written && c.rect.bottom() <= s.focus.bottom())
            lowest = std::max(lowest, c.rect.bottom());
    return lowest > -1e30f ? lowest : s.focus.bottom();
}

// No empty room left of the rows' names (or right of their last cell) while cells past the
// other edge are out of sight, the step's rows kept whole: reduce-atomic's block 0 centred at
// 100% in 1920x1080 left half the canvas empty, out[] cut at the right. `names_beside`: the
// rows' names have a column of their own, outside the view.
Camera no_empty_side(const Scene& s, Camera c, float w, float margin, bool names_beside) {
    float lo = s.bounds.x * c.scale, hi = s.bounds.right() * c.scale; // pixels
    if (!names_beside)
        for (const Label& l : s.labels)
            if (l.px > 0) {
                const Reach r = reach(l);
                lo = std::min(lo, l.pos.x * c.scale - r.left);
                hi = std::max(hi, l.pos.x * c.scale + r.right);
            }
    const float half = std::max(w / 2 - margin, 0.0f);
    const float x = hi - lo <= 2 * half ? (lo + hi) / 2
                                        : std::clamp(c.center.x * c.scale, lo + half, hi - half);
    // The step's rows stay whole in the view.
    if (s.focus.x * c.scale < x - half || s.focus.right() * c.scale > x + half)
        return c;
    c.center.x = x / c.scale;
    return c;
}

// The rows of cells above and below the step's own, as bands of y, top to bottom: the cells
// of the trace (and bars) beside the step's own across, overlapping rows merged into one.
std::vector<std::pair<float, float>> row_bands(const Scene& s) {
    std::vector<std::pair<float, float>> bands;
    for (const Cell& c : s.cells)
        if ((c.ref || c.role == CellRole::Bar) && !c.rect.empty() && c.rect.right() > s.focus.x &&
            c.rect.x < s.focus.right() &&
            (c.rect.bottom() <= s.focus.y || c.rect.y >= s.focus.bottom()))
            bands.emplace_back(c.rect.y, c.rect.bottom());
    std::sort(bands.begin(), bands.end());
    std::vector<std::pair<float, float>> merged;
    for (const auto& b : bands)
        if (!merged.empty() && b.first < merged.back().second)
            merged.back().second = std::max(merged.back().second, b.second);
        else
            merged.push_back(b);
    return merged;
}

// The step's rows with as many of the rows above and below them as can still be named and read,
// framed as close as that allows: reduceTree's block of 8 at 125% in 1280x720 filled the canvas
// with in[] and s[] load alone, 57 pixels a cell, "4 rows below"; the tree's levels under them
// fit at the legible zoom. A row at a time, the one that costs the less zoom first (the one
// above where even: where the values come from).
Camera with_rows_beside(const Scene& s, const Camera& rows, float w, float h, float margin,
                        float closest, float named) {
    const std::vector<std::pair<float, float>> bands = row_bands(s);
    Rect region = s.focus;
    Camera best = rows;
    for (;;) {
        const auto grown = [&](float top, float bottom) {
            Rect r = region;
            r.y = std::min(region.y, top);
            r.h = std::max(region.bottom(), bottom) - r.y;
            return r;
        };
        std::optional<Rect> up, down;
        for (const auto& [top, bottom] : bands) {
            if (bottom <= region.y)
                up = grown(top, bottom); // the last above it: the nearest
            else if (top >= region.bottom() && !down)
                down = grown(top, bottom);
        }
        std::optional<std::pair<Rect, Camera>> pick;
        for (const std::optional<Rect>& r : {up, down})
            if (r) {
                const Camera c = fit_labelled(s, *r, w, h, margin, closest);
                if (c.scale >= named && (!pick || c.scale > pick->second.scale))
                    pick = {*r, c};
            }
        if (!pick)
            return best;
        std::tie(region, best) = *pick;
    }
}

} // namespace

Camera follow(const Scene& s, float w, float h, float margin, float closest, float readable,
              bool names_beside, bool rows_beside) {
    readable /= std::max(s.value_width, 1e-3f); // per value cell, not per world unit
    closest /= std::max(s.value_width, 1e-3f);
    // The whole scene, else the step's rows, where they can be read; first where close enough
    // to name each row too (scan-fast's look-back, its tiles 1.9 units wide, was framed whole at
    // 16 pixels a unit where its names take two lines from 21, and they overlapped), then where
    // only their values can be read (where its rows at that zoom do not fit the canvas, naming
    // them would leave rows out).
    const float named = std::max(readable, std::min(s.names_zoom, closest));
    const Camera all = fit_labelled(s, s.bounds, w, h, margin, closest);
    if (all.scale >= named)
        return all; // everything can be read: a steady picture while stepping
    // No empty band above the scene's first row (or under its last) while rows past the other
    // edge are out of sight: a block of 32 at 100% centred in[] and s[] load, a third of the
    // canvas empty above them and the levels cut at the bottom. Rows that fit are all shown.
    const auto no_empty_band = [&](Camera c) {
        const float half = std::max(h / 2 - margin, 0.0f) / c.scale;
        c.center.y = s.bounds.h <= 2 * half
                         ? s.bounds.center().y
                         : std::clamp(c.center.y, s.bounds.y + half, s.bounds.bottom() - half);
        return c;
    };
    const Camera rows = fit_labelled(s, s.focus, w, h, margin, closest);
    if (rows.scale >= named)
        return no_empty_side(
            s,
            no_empty_band(rows_beside ? with_rows_beside(s, rows, w, h, margin, closest, named)
                                      : rows),
            w, margin, names_beside);
    if (all.scale >= readable)
        return all;
    if (rows.scale >= readable)
        return no_empty_side(s, no_empty_band(rows), w, margin, names_beside);
    // Part of the rows, legible, from the first cell the step touches unless that leaves its
    // own cells out; the names of the rows in a column on the left.
    Camera c;
    c.scale = std::min(readable, closest);
    // The names' gap to their cells: 0.6 of a legible cell's pixels, not of a unit's (256 bins
    // in a warp's chart, a unit read at 976 pixels, left the cells off the picture's right).
    const float left =
        margin + (names_beside
                      ? 0.0f
                      : row_label_width(s) + 0.6f * readable * std::min(s.value_width, 1.0f));
    const float view = std::max(w - left - margin, 1.0f) / c.scale; // world units across
    // Its own cells from their first where they are wider than the view (std::clamp wanted its
    // low bound under its high one: hist-per-warp's written bins stood off to the right).
    float first =
        std::clamp(s.detail.x, s.written.x + std::min(s.written.w, view) - view, s.written.x);
    if (!s.named.empty()) // the cell the caption names, a quarter of the view in from the edge
        first = std::min(std::max(first, s.named.right() - 0.75f * view), s.named.x - 0.25f * view);
    c.center.x = first + (w / 2 - left) / c.scale;
    c.center.y = s.focus.center().y;
    if (s.focus.h * c.scale > h - 2 * margin) { // taller than the canvas: the step's own row,
        const float lowest = lowest_written(s); // the lowest, in view
        const float bottom =
            s.focus.bottom() - lowest > (h - 2 * margin) / c.scale ? lowest : s.focus.bottom();
        c.center.y = bottom - (h / 2 - margin) / c.scale;
    }
    c = no_empty_band(c);
    if (names_beside) {
        const float edge = c.center.x - w / 2 / c.scale;
        c.center.x += past_cut_cells(s, edge) - edge;
    }
    return c;
}

Camera zoom_at(const Camera& c, Vec2 at, float factor, float w, float h) {
    const Vec2 anchor = c.to_world(at, w, h);
    Camera z = c;
    z.scale = std::clamp(c.scale * factor, 1e-3f, 1e5f); // deep enough to read one of 65536
    // Keep `anchor` under `at`: at = (anchor - center) * scale + (w/2, h/2).
    z.center = {anchor.x - (at.x - w / 2) / z.scale, anchor.y - (at.y - h / 2) / z.scale};
    return z;
}

Camera blend(const Camera& a, const Camera& b, float t) {
    Camera c;
    c.center = {a.center.x + (b.center.x - a.center.x) * t,
                a.center.y + (b.center.y - a.center.y) * t};
    c.scale = a.scale * std::pow(b.scale / a.scale, t);
    return c;
}

namespace {

// Whether at least a sliver of `r` (world units) is inside `picture` (canvas pixels). A rect
// thinner than the sliver (a bar's top, 0.05 units: where arrows leave and reach a histogram's
// bars) is shown where it lies inside: held to the sliver's height, the data's arrows into the
// bins and the fold's out of them were left out at every zoom under 40 pixels a unit.
bool sliver_shown(const Rect& r, const Camera& c, float w, float h, const Rect& picture) {
    const Vec2 at = c.to_screen({r.x, r.y}, w, h);
    const float x0 = std::max(at.x, picture.x);
    const float y0 = std::max(at.y, picture.y);
    const float x1 = std::min(at.x + r.w * c.scale, picture.right());
    const float y1 = std::min(at.y + r.h * c.scale, picture.bottom());
    // Within a hair: a bar's top wholly inside measured 0.70329 pixels of its 0.70331 (the
    // rounding of y + h - y), and the fold of 16 bins said its arrows were left out, all drawn.
    constexpr float kHairPx = 0.01f;
    const float tall = std::min(kSourceShownPx, r.h * c.scale);
    return x1 - x0 >= kSourceShownPx && y1 >= y0 && y1 - y0 >= tall - kHairPx;
}

} // namespace

bool source_drawn(const Rect& source, const Camera& c, float w, float h, const Rect& picture) {
    return source.empty() || sliver_shown(source, c, w, h, picture);
}

bool source_drawn(const Arrow& a, const Camera& c, float w, float h, const Rect& picture) {
    if (a.source.empty())
        return true;
    if (!sliver_shown(a.source, c, w, h, picture))
        return false;
    // Its head lands in the picture, or the arrow would run off the edge (a block's carries
    // into block 63, far to the right; a load into a block's s[] off to the right); where it
    // names the cell it writes, that cell is shown too.
    const Vec2 end = c.to_screen(a.to, w, h);
    const bool ends_inside = end.x >= picture.x - 1 && end.x <= picture.right() + 1 &&
                             end.y >= picture.y - 1 && end.y <= picture.bottom() + 1;
    return ends_inside && (a.target.empty() || sliver_shown(a.target, c, w, h, picture));
}

std::vector<Arrow> arrows_drawn(const Scene& s, const Camera& c, float w, float h,
                                const Rect& picture) {
    std::vector<Arrow> out;
    out.reserve(s.arrows.size());
    for (const Arrow& a : s.arrows)
        if (source_drawn(a, c, w, h, picture))
            out.push_back(a);
    return out;
}

} // namespace pplab::scene
