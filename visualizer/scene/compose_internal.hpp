// What the composer's files share inside pplab::scene::detail: the pixel sizes that decide
// when text is drawn, and small geometry helpers. Not part of the scene's interface.
#pragma once

#include "compose.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace pplab::scene::detail {

constexpr float kMoverTextPx = 14.0f; // a travelling value narrower than this: no digits
constexpr float kLabelPx = 17.0f;     // row labels on screen, before the presenter scale
constexpr float kMergePx = 2.5f;      // narrower cells merge into one heat-strip quad
// A row name's em, world units, at most which its second line fits between it and the next row.
constexpr float kTwoLineEm = 0.8f;
constexpr std::size_t kMaxMovers = 700;

inline float smooth(float e0, float e1, float x) {
    const float t = std::clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);
    return t * t * (3 - 2 * t);
}

inline Vec2 lerp(Vec2 a, Vec2 b, float t) {
    return {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
}

// Arrow end points between two cells: bottom to top, top to bottom, or side to side, `gap`
// world units off each (Composer::line_units(kArrowGap): read close, a world-unit gap left
// hist-per-warp's arrows 50 pixels above the bars they count into).
inline constexpr float kArrowGap = 0.05f;
inline std::pair<Vec2, Vec2> ends(const Rect& a, const Rect& b, float gap = kArrowGap) {
    if (a.bottom() <= b.y + 1e-3f)
        return {{a.center().x, a.bottom() + gap}, {b.center().x, b.y - gap}};
    if (a.y >= b.bottom() - 1e-3f)
        return {{a.center().x, a.y - gap}, {b.center().x, b.bottom() + gap}};
    if (a.right() <= b.x)
        return {{a.right() + gap, a.center().y}, {b.x - gap, b.center().y}};
    return {{a.x - gap, a.center().y}, {b.right() + gap, b.center().y}};
}

inline int utf8_length(const std::string& s) {
    int n = 0;
    for (const char c : s)
        n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

inline int priority(CellRole r) {
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

} // namespace pplab::scene::detail
