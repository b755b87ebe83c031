// What the layout tests share: the canvas's font, and rectangles in pixels compared with a
// tolerance of three quarters of a pixel.
#pragma once

#include "render/font.hpp"
#include "render/gl_renderer.hpp"
#include "scene/scene.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace pplab::test {

inline constexpr float kTolerancePx = 0.75f;

inline const render::FontAtlas& canvas_font() {
    static const render::FontAtlas atlas(render::ui_font());
    return atlas;
}

inline bool inside(const scene::Rect& a, const scene::Rect& b) {
    return a.x >= b.x - kTolerancePx && a.right() <= b.right() + kTolerancePx &&
           a.y >= b.y - kTolerancePx && a.bottom() <= b.bottom() + kTolerancePx;
}

inline bool overlaps(const scene::Rect& a, const scene::Rect& b) {
    const float t = kTolerancePx;
    return a.x < b.right() - t && b.x < a.right() - t && a.y < b.bottom() - t &&
           b.y < a.bottom() - t;
}

// The part of `a` inside `b` (a negative width or height: none).
inline scene::Rect clipped(const scene::Rect& a, const scene::Rect& b) {
    const float x = std::max(a.x, b.x), y = std::max(a.y, b.y);
    return {x, y, std::min(a.right(), b.right()) - x, std::min(a.bottom(), b.bottom()) - y};
}

inline std::string text(const scene::Rect& r) {
    std::ostringstream o;
    o << "[" << r.x << ", " << r.y << ", " << r.w << ", " << r.h << "]";
    return o.str();
}

// A histogram's bars of the step (trace frames first to last) over their counts, in world
// units: each bin's top cell, its bar (a bar of count 0 a line at the axis), and the one under
// it, its count. None where the step's cells are not a chart's (the scene has no bar).
struct BarOverCount {
    scene::Rect bar, count;
};
inline std::vector<BarOverCount> step_bars(const scene::Scene& s, int first, int last) {
    const bool chart = std::any_of(s.cells.begin(), s.cells.end(), [](const scene::Cell& c) {
        return c.role == scene::CellRole::Bar;
    });
    std::map<std::pair<int, int>, std::vector<scene::Rect>> by_bin;
    for (const scene::Cell& c : s.cells)
        if (chart && c.ref && c.ref->frame >= first && c.ref->frame <= last &&
            c.role != scene::CellRole::Panel)
            by_bin[{c.ref->frame, c.ref->cell}].push_back(c.rect);
    std::vector<BarOverCount> bars;
    for (auto& [bin, rects] : by_bin)
        if (rects.size() >= 2) {
            std::sort(rects.begin(), rects.end(),
                      [](const scene::Rect& a, const scene::Rect& b) { return a.y < b.y; });
            bars.push_back({rects[0], rects[1]});
        }
    return bars;
}

// What is wrong with the step's bars in a picture (canvas pixels) seen by `cam` in a canvas of
// w x h: a bar whose count is in the picture cut by the picture's top or bottom edge (or left
// out with it). Empty: nothing.
inline std::string bars_cut(const scene::Scene& s, const scene::Camera& cam, float w, float h,
                            const scene::Rect& picture, int first, int last) {
    const auto on_screen = [&](const scene::Rect& r) {
        const scene::Vec2 at = cam.to_screen({r.x, r.y}, w, h);
        return scene::Rect{at.x, at.y, r.w * cam.scale, r.h * cam.scale};
    };
    for (const BarOverCount& b : step_bars(s, first, last)) {
        const scene::Rect bar = on_screen(b.bar);
        if (!overlaps(on_screen(b.count), picture))
            continue;
        if (bar.y < picture.y - kTolerancePx || bar.bottom() > picture.bottom() + kTolerancePx)
            return "a bar of the step at " + text(bar) + " cut by the picture " + text(picture) +
                   ", its count in it";
    }
    return "";
}

} // namespace pplab::test
