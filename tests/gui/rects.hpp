// What the layout tests share: the canvas's font, and rectangles in pixels compared with a
// tolerance of three quarters of a pixel.
#pragma once

#include "render/font.hpp"
#include "render/gl_renderer.hpp"
#include "scene/scene.hpp"

#include <algorithm>
#include <sstream>
#include <string>

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

} // namespace pplab::test
