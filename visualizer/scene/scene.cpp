#include "scene.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>

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

// Liang-Barsky: the segment clipped to each edge in turn.
bool segment_crosses(Vec2 a, Vec2 b, const Rect& r) {
    float t0 = 0, t1 = 1;
    const float dx = b.x - a.x, dy = b.y - a.y;
    for (const auto& [p, q] : {std::pair{-dx, a.x - r.x}, std::pair{dx, r.right() - a.x},
                               std::pair{-dy, a.y - r.y}, std::pair{dy, r.bottom() - a.y}}) {
        if (p == 0) {
            if (q < 0)
                return false; // parallel to this edge, outside it
            continue;
        }
        const float t = q / p;
        if (p < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1)
            return false;
    }
    return true;
}

std::vector<std::size_t> read_where(const std::vector<Cell>& cells,
                                    const std::vector<std::size_t>& among) {
    std::unordered_map<std::uint64_t, std::size_t> widest; // by (frame, cell)
    widest.reserve(among.size());
    for (const std::size_t i : among)
        if (const Cell& c = cells[i]; c.ref) {
            const std::uint64_t key =
                (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.ref->frame)) << 32) |
                static_cast<std::uint32_t>(c.ref->cell);
            const auto [it, added] = widest.try_emplace(key, i);
            if (!added && c.rect.w > cells[it->second].rect.w)
                it->second = i;
        }
    std::vector<std::size_t> read;
    read.reserve(widest.size());
    for (const auto& [key, at] : widest)
        read.push_back(at);
    std::sort(read.begin(), read.end());
    return read;
}

const Cell* hit_test(const Scene& s, Vec2 world) {
    for (auto it = s.cells.rbegin(); it != s.cells.rend(); ++it)
        if (it->ref && it->rect.contains(world))
            return &*it;
    return nullptr;
}

} // namespace pplab::scene
