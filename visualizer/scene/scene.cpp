#include "scene.hpp"

#include <algorithm>

namespace pplab::scene {

Rgba mix(const Rgba& a, const Rgba& b, float t) {
    return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t,
            a.a + (b.a - a.a) * t};
}

Rgba with_alpha(Rgba c, float a) {
    c.a = a;
    return c;
}

Rect unite(const Rect& a, const Rect& b) {
    if (a.empty())
        return b;
    if (b.empty())
        return a;
    const float x0 = std::min(a.x, b.x), y0 = std::min(a.y, b.y);
    const float x1 = std::max(a.right(), b.right()), y1 = std::max(a.bottom(), b.bottom());
    return {x0, y0, x1 - x0, y1 - y0};
}

Rect inflate(const Rect& r, float dx, float dy) {
    return {r.x - dx, r.y - dy, r.w + 2 * dx, r.h + 2 * dy};
}

const Cell* hit_test(const Scene& s, Vec2 world) {
    for (auto it = s.cells.rbegin(); it != s.cells.rend(); ++it)
        if (it->ref && it->rect.contains(world))
            return &*it;
    return nullptr;
}

} // namespace pplab::scene
