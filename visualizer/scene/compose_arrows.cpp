#include "compose_internal.hpp"

#include <unordered_map>

namespace pplab::scene::detail {

namespace {

// Whether two travelling values come closer than a hair: then they would read as one number
// ("17" beside "14" reads "1714").
bool touching(const Rect& a, const Rect& b) {
    constexpr float kApart = 0.04f; // world units between two values in flight
    return a.x < b.right() + kApart && b.x < a.right() + kApart && a.y < b.bottom() + kApart &&
           b.y < a.bottom() + kApart;
}

} // namespace

std::vector<Cell> kept_apart(std::vector<Cell> first, std::vector<Cell> then) {
    for (Cell& c : then)
        first.push_back(std::move(c));
    // Buckets wider than any value and the gap: a value kept is filed under its corner, and
    // one that could touch it has its corner in a bucket next to the new value's.
    float size = 0.1f;
    for (const Cell& c : first)
        size = std::max({size, c.rect.w + 0.1f, c.rect.h + 0.1f});
    const auto bucket = [size](float v) { return static_cast<long long>(std::floor(v / size)); };
    const auto key = [](long long bx, long long by) { return (bx << 32) ^ (by & 0xffffffffLL); };
    std::unordered_map<long long, std::vector<std::size_t>> filed;
    std::vector<Cell> out;
    out.reserve(first.size());
    for (Cell& c : first) {
        const Rect& r = c.rect;
        bool clear = true;
        for (long long bx = bucket(r.x) - 1; bx <= bucket(r.x) + 1 && clear; ++bx)
            for (long long by = bucket(r.y) - 1; by <= bucket(r.y) + 1 && clear; ++by)
                if (const auto it = filed.find(key(bx, by)); it != filed.end())
                    clear = std::none_of(it->second.begin(), it->second.end(),
                                         [&](std::size_t k) { return touching(out[k].rect, r); });
        if (!clear)
            continue; // hidden while it crosses a value in flight; shown again once past it
        filed[key(bucket(r.x), bucket(r.y))].push_back(out.size());
        out.push_back(std::move(c));
    }
    return out;
}

const Rect* Composer::where(const CellRef& ref) const {
    const auto it = shown_.find(ref.frame);
    if (it == shown_.end() || ref.cell < 0 ||
        static_cast<std::size_t>(ref.cell) >= it->second.rects.size() ||
        it->second.rects[static_cast<std::size_t>(ref.cell)].empty())
        return nullptr; // not drawn (a part of in[] shown: reduceNaive's magnified elements)
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
    bool carry_drawn = false;
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
            if (t.frames[static_cast<std::size_t>(f)].step == Step::AddCarries && i == 1) {
                // One carry for the whole block: one arrow to a bracket over it, not one each.
                if (!carry_drawn)
                    carry_bracket(t.frames[static_cast<std::size_t>(f)].block, *from, dst.rects,
                                  writes, col, current, grow);
                carry_drawn = true;
                continue;
            }
            const bool own = col == pal.arrow_own;
            if (k % every == 0 && (current || !own)) {
                auto [a, b] = ends(*from, to, line_units(kArrowGap));
                Arrow ar;
                ar.from = a;
                ar.to = lerp(a, b, grow);
                ar.color = col;
                ar.width = line_units(current ? (own ? 0.035f : 0.06f) : 0.03f);
                ar.head = line_units(current ? (own ? 0.2f : 0.28f) : 0.16f);
                ar.source = *from;
                ar.target = to;
                ar.past = !current;
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
                mv.source = *from;
                // A value coming from the cell it lands on yields to the one that brings
                // something new where two would meet.
                (own ? own_movers_ : s.movers).push_back(std::move(mv));
            }
        }
    }
}

void Composer::carry_bracket(int carried, const Rect& carry, const std::vector<Rect>& cells,
                             const std::vector<CellWrite>& writes, const Rgba& col, bool current,
                             float grow) {
    Rect span;
    for (std::size_t c = 0; c < writes.size() && c < cells.size(); ++c)
        if (writes[c].thread >= 0)
            span = unite(span, cells[c]);
    if (span.empty())
        return;
    // Blocks narrower than a cell: the shown block's carry only. Each block's made a solid sheet
    // of 1024 arrows and 3072 bracket lines between the carries and out[] (n 65536, block 64).
    if (span.w < kCell && carried != block)
        return;
    const float y = span.y - 0.22f, tick = 0.14f;
    const float width = line_units(current ? 0.05f : 0.03f);
    for (const auto& [a, b] : {std::pair{Vec2{span.x, y + tick}, Vec2{span.x, y}},
                               std::pair{Vec2{span.x, y}, Vec2{span.right(), y}},
                               std::pair{Vec2{span.right(), y}, Vec2{span.right(), y + tick}}}) {
        Arrow line; // the bracket reads nothing itself: drawn wherever it runs
        line.from = a;
        line.to = b;
        line.color = col;
        line.width = width;
        s.arrows.push_back(line);
    }
    // The arrow lands on the bracket straight under the carry where the carry stands over its
    // block (a block too wide to see whole has its carry at its start, in view with it), else
    // on the bracket's middle.
    const float x = std::clamp(carry.center().x, span.x, span.right());
    const Rect under = {x - 0.5f * kCell, span.y, kCell, span.h};
    const Vec2 from = ends(carry, under, line_units(kArrowGap)).first;
    Arrow ar;
    ar.from = from;
    ar.to = lerp(from, {x, y - 0.05f}, grow);
    ar.color = col;
    ar.width = line_units(current ? 0.06f : 0.03f);
    ar.head = line_units(current ? 0.28f : 0.16f);
    ar.source = carry;
    ar.target = under;
    ar.past = !current;
    s.arrows.push_back(ar);
}

} // namespace pplab::scene::detail
