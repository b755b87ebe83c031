#include "overlay.hpp"

#include <algorithm>

namespace pplab::scene {

namespace {

void add_legend(Scene& s, const Rgba& c, const std::string& text) {
    const LegendItem item{c, text};
    if (std::find(s.legend.begin(), s.legend.end(), item) == s.legend.end())
        s.legend.push_back(item);
}

} // namespace

void mark_answers(Scene& s, const std::vector<AnswerRow>& rows, const Palette& pal) {
    Rect marked;
    std::vector<Label> yours;
    for (const AnswerRow& row : rows) {
        for (Cell& c : s.cells) {
            if (!c.ref || c.ref->frame != row.frame || c.ref->cell < 0)
                continue;
            const auto i = static_cast<std::size_t>(c.ref->cell);
            if (i >= row.given.size())
                continue;
            const Verdict v = i < row.verdicts.size() ? row.verdicts[i] : Verdict::Typed;
            const std::string& given = row.given[i];
            const float side = std::min(c.rect.w, c.rect.h);
            const float thick = 0.14f * side;
            if (row.keep_in_view)
                marked = unite(marked, c.rect);
            c.marks.right = v == Verdict::Right;
            c.marks.wrong = v == Verdict::Wrong;
            const Rgba mark = v == Verdict::Right ? pal.right : pal.wrong;
            if (c.role == CellRole::Future) {
                // The level is hidden: the student's own values fill its outlines.
                if (given.empty() && v == Verdict::Typed)
                    continue;
                c.text = given;
                c.text_size = 0.42f * std::min(c.rect.h, 1.6f * c.rect.w);
                if (v == Verdict::Typed) {
                    c.fill = pal.cell;
                    c.border = pal.read;
                    c.border_width = 0.06f * side;
                } else {
                    c.fill = mix(mark, pal.cell, 0.55f);
                    c.border = mark;
                    c.border_width = thick;
                }
                c.text_color = text_on(c.fill);
                continue;
            }
            if (v == Verdict::Typed)
                continue;
            c.border = mark;
            c.border_width = thick;
            if (v == Verdict::Wrong) {
                Label l;
                l.text = "you: " + (given.empty() ? std::string("—") : given);
                l.size = 0.36f * c.rect.h;
                l.px = 14.0f * s.text_scale; // legible under a cell of any size
                l.pos = {c.rect.center().x, c.rect.bottom() + 0.42f * c.rect.h};
                l.align = Align::Center;
                l.color = pal.wrong;
                l.max_width = c.rect.w * 1.1f;
                yours.push_back(std::move(l));
            }
        }
        for (const Verdict v : row.verdicts) {
            if (v == Verdict::Right)
                add_legend(s, pal.right, "your value: right");
            if (v == Verdict::Wrong)
                add_legend(s, pal.wrong, "your value: wrong");
        }
    }
    s.labels.insert(s.labels.end(), yours.begin(), yours.end());
    if (!marked.empty()) {
        const Rect around = inflate(marked, 0.8f, 0.8f);
        s.focus = unite(s.focus, around);
        s.detail = unite(s.detail, around);
        s.written = unite(s.written, around);
        s.bounds = unite(s.bounds, around);
    }
}

} // namespace pplab::scene
