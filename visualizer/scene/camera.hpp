// World-to-screen mapping for a canvas of w x h pixels (y down in both).
#pragma once

#include "scene.hpp"

#include <vector>

namespace pplab::scene {

struct Camera {
    Vec2 center;         // world point at the canvas centre
    float scale = 40.0f; // pixels per world unit

    Vec2 to_screen(Vec2 world, float w, float h) const {
        return {(world.x - center.x) * scale + w / 2, (world.y - center.y) * scale + h / 2};
    }
    Vec2 to_world(Vec2 screen, float w, float h) const {
        return {(screen.x - w / 2) / scale + center.x, (screen.y - h / 2) / scale + center.y};
    }
    bool operator==(const Camera&) const = default;
};

// Where a label's baseline anchor is drawn on a canvas of w x h pixels.
inline Vec2 anchor_on_screen(const Label& l, const Camera& c, float w, float h) {
    const Vec2 at = c.to_screen(l.pos, w, h);
    return {at.x, at.y + l.drop_px};
}

// The camera showing all of `r` with `margin` pixels around it, no closer than max_scale.
Camera fit(const Rect& r, float w, float h, float margin, float max_scale = 120.0f);

// The same for a part of a scene and the labels anchored in it: labels keep their size in
// pixels (their width estimated from their length), so they get the room they need beside
// the cells at whatever scale results.
Camera fit_labelled(const Scene& s, const Rect& r, float w, float h, float margin, float max_scale);

// The camera that follows a step, never closer than `closest` pixels per unit: the whole
// scene when its values can be read (cells of Scene::value_width at least `readable`
// pixels wide); else the rows the
// step writes and reads, whole, when they can be read, with as many of the rows above and below
// them as still read (`rows_beside`), framed as close as that allows; else those rows at `readable`
// pixels per unit from the first cell the step touches (its own cells always in view), the rows'
// names kept beside them (or, `names_beside`, in a column of their own left of the canvas):
// part of the picture, legible, rather than all of it too small to read.
Camera follow(const Scene& s, float w, float h, float margin, float closest, float readable,
              bool names_beside = false, bool rows_beside = true);

// Where a picture's left edge at world x `edge` goes so that it cuts no cell of the rows
// `s.focus` spans: into the gap after the cell it would cut (the rows' names beside it).
float past_cut_cells(const Scene& s, float edge);

// Pixels of the widest row name, as fit_labelled estimates it.
float row_label_width(const Scene& s);

// Zooms by `factor` keeping the world point under screen point `at` where it is.
Camera zoom_at(const Camera& c, Vec2 at, float factor, float w, float h);

// Whether an arrow's source cell is drawn: at least a sliver of it (kSourceShownPx each way)
// inside `picture` (canvas pixels, the camera's canvas w x h), and the cell it writes too, its
// middle inside. An arrow whose source is not would start at the picture's edge with nothing at
// its start (a row left out at the top, a block off to the right); one whose target is not
// would run off the edge. A line that reads nothing (no source: a barrier) always is drawn.
inline constexpr float kSourceShownPx = 2.0f;
// The cell alone (a moving value's source): at least a sliver of it in the picture.
bool source_drawn(const Rect& source, const Camera& c, float w, float h, const Rect& picture);
bool source_drawn(const Arrow& a, const Camera& c, float w, float h, const Rect& picture);

// The arrows of `s` to draw in `picture`: those whose source is drawn; moving values likewise
// (Cell::source). The window and every picture (GlRenderer::draw, filtering as it draws: the
// window draws every frame) and the SVG draw these; the canvas's notice says when some are
// left out.
std::vector<Arrow> arrows_drawn(const Scene& s, const Camera& c, float w, float h,
                                const Rect& picture);

// In between two cameras, t in [0, 1], the scale interpolated geometrically.
Camera blend(const Camera& a, const Camera& b, float t);

} // namespace pplab::scene
