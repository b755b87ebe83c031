#include "compose_internal.hpp"

namespace pplab::scene::detail {

void Composer::row_label(const Grid& g, const std::string& text, const std::string& sub,
                         const std::string& unit, int first, int of) {
    const float cy = g.y + g.cell_h / 2;
    if (!two_line_labels && !sub.empty()) {
        // One line: the sub-label only when short, or the labels would crowd out the cells.
        constexpr std::size_t kOneLine = 24;
        const std::string joined = text + " · " + sub;
        row_label(g, utf8_length(joined) <= static_cast<int>(kOneLine) ? joined : text, {}, unit,
                  first, of);
        return;
    }
    if (!sub.empty()) // from this zoom on, the two lines fit a row's height
        s.names_zoom = kLabelPx * opt.text_scale / kTwoLineEm;
    Label l;
    l.pos = {g.x - 0.6f * label_em_x, cy};
    l.drop_px = (sub.empty() ? 0.35f : -0.05f) * label_px();
    l.text = text;
    l.size = label_size;
    l.px = label_px();
    l.color = pal.text;
    l.align = Align::Right;
    l.kind = LabelKind::Row;
    l.unit = unit;
    l.first = first;
    l.of = of;
    s.labels.push_back(l);
    if (!sub.empty()) {
        Label d = l;
        d.text = sub;
        d.size = label_size * 0.78f;
        d.px = label_px(0.78f);
        d.color = pal.muted;
        d.drop_px = 0.95f * label_px();
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
    a.width = line_units(0.05f); // 256 bins read close drew it as a dashed slab
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
        l.source = from; // the selection in in[]: no line from the edge when it is off screen
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

namespace {
void add_once(std::vector<LegendItem>& legend, LegendItem item) {
    if (std::find(legend.begin(), legend.end(), item) == legend.end())
        legend.push_back(std::move(item));
}
} // namespace

void Composer::legend(const Rgba& c, const std::string& text) {
    add_once(s.legend, {c, text});
}

void Composer::legend_ramp(const std::string& text) {
    add_once(s.legend, {value_scale(0.5f), text, true});
}

} // namespace pplab::scene::detail
