#include "overlay.hpp"

#include "pplab/io.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pplab::scene {

namespace {

constexpr float kMarkPx = 14.0f; // a mark's label, pixels at presenter scale 100%

void add_legend(Scene& s, const Rgba& c, const std::string& text) {
    const LegendItem item{c, text};
    if (std::find(s.legend.begin(), s.legend.end(), item) == s.legend.end())
        s.legend.push_back(item);
}

// The middle of the row of cells that shows `frame` (world x).
float row_middle(const Scene& s, int frame) {
    Rect row;
    for (const Cell& c : s.cells)
        if (c.ref && c.ref->frame == frame)
            row = unite(row, c.rect);
    return row.center().x;
}

// A mark's label's line height in world units: its pixels at the zoom the scene was built
// for; in cell heights where that is unknown.
float mark_line(const Scene& s, const Rect& cell) {
    return s.pixels_per_unit > 0 ? kMarkPx * s.text_scale / s.pixels_per_unit : 0.36f * cell.h;
}

// The baseline of the `nth` mark's label under `cell`'s row: each a quarter of its line clear
// of the cell, of the label above it, and of a line drawn under the row (a barrier: at 200% a
// label placed in cell heights all but touched its cell and sat on "__syncthreads()"'s line).
float mark_baseline(const Scene& s, const Rect& cell, int nth) {
    const float line = mark_line(s, cell);
    float y = cell.bottom() + std::max(1.05f * line, 0.42f * cell.h) +
              std::max(1.3f * line, 0.45f * cell.h) * static_cast<float>(nth);
    for (const Arrow& a : s.arrows) {
        if (!a.source.empty() || a.from.y != a.to.y || a.from.y <= cell.bottom() ||
            std::min(a.from.x, a.to.x) > cell.right() || std::max(a.from.x, a.to.x) < cell.x)
            continue;
        if (a.from.y > y - 1.05f * line && a.from.y < y + 0.5f * line) // the box and a quarter
            y = a.from.y + a.width / 2 + 1.05f * line;
    }
    return y;
}

} // namespace

void mark_answers(Scene& s, const std::vector<AnswerRow>& rows, const Palette& pal) {
    Rect marked;
    std::vector<Label> yours;
    std::vector<std::size_t> all(s.cells.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    std::vector<bool> read(s.cells.size(), false); // a value drawn twice: where it is read
    for (const std::size_t at : read_where(s.cells, all))
        read[at] = true;
    for (const AnswerRow& row : rows) {
        for (std::size_t at = 0; at < s.cells.size(); ++at) {
            Cell& c = s.cells[at];
            if (!c.ref || c.ref->frame != row.frame || c.ref->cell < 0 || !read[at])
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
                l.px = kMarkPx * s.text_scale; // legible under a cell of any size
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

std::vector<AnswerRow> answer_rows(const CheckResult& result,
                                   const std::vector<AnswerLine>& answer) {
    std::vector<AnswerRow> rows;
    for (std::size_t i = 0; i < result.levels.size() && i < answer.size(); ++i) {
        const LevelVerdict& v = result.levels[i];
        AnswerRow row;
        row.frame = v.frame;
        for (const float x : answer[i].values)
            row.given.push_back(std::isnan(x) ? std::string("?") : format_value(x));
        row.verdicts.assign(row.given.size(), Verdict::Right);
        for (const int c : v.wrong_cells)
            row.verdicts.at(static_cast<std::size_t>(c)) = Verdict::Wrong;
        rows.push_back(std::move(row));
    }
    return rows;
}

void mark_hazards(Scene& s, const std::vector<HazardMark>& marks, const Palette& pal) {
    std::vector<Label> labels;
    std::vector<float> rows; // where each label's row of cells ends
    Rect marked;             // the marked cells among those the step writes
    for (const HazardMark& m : marks) {
        const Rgba accent = m.race ? pal.race : pal.hazard;
        bool drawn = false;
        for (Cell& c : s.cells) {
            if (!c.ref || c.ref->frame != m.frame || (m.cell >= 0 && c.ref->cell != m.cell))
                continue;
            const float side = std::min(c.rect.w, c.rect.h);
            c.border = accent;
            c.border_width = 0.16f * side;
            (m.race ? c.marks.race : c.marks.hazard) = true;
            if (!drawn && m.cell >= 0) {
                // Labels under one row stack downwards, so that none hides another.
                const float below = c.rect.bottom();
                const auto same_row = std::count(rows.begin(), rows.end(), below);
                rows.push_back(below);
                Label l;
                l.text = m.label;
                l.size = 0.36f * c.rect.h;
                l.px = kMarkPx * s.text_scale;
                // From the cell's edge on the side of the row's middle (the other where the
                // picture's edge would cut it): centred, a long label would run into the row's
                // name on the left or the barrier's on the right ("__syncthreads()" after a load),
                // and the layout would leave it out.
                const bool right_half = c.rect.center().x > row_middle(s, m.frame);
                l.pos = {right_half ? c.rect.right() : c.rect.x,
                         mark_baseline(s, c.rect, static_cast<int>(same_row))};
                l.align = right_half ? Align::Right : Align::Left;
                l.turn_x = right_half ? c.rect.x : c.rect.right();
                l.color = accent;
                labels.push_back(std::move(l));
                // The cell with room around it, and its label down to the text's foot.
                s.focus = unite(s.focus, inflate(c.rect, 0.8f, 0.8f));
                s.focus = unite(s.focus, {c.rect.x, c.rect.y, c.rect.w,
                                          l.pos.y + 0.3f * mark_line(s, c.rect) - c.rect.y});
                if (c.rect.x >= s.written.x && c.rect.right() <= s.written.right() &&
                    c.rect.y >= s.written.y && c.rect.bottom() <= s.written.bottom())
                    marked = unite(marked, c.rect);
            }
            drawn = true;
        }
        if (drawn) // one accent for both in some themes: the label under the cell says which
            add_legend(s, accent,
                       m.race && pal.race != pal.hazard ? "your kernel's race"
                                                        : "your kernel's hazard");
    }
    s.labels.insert(s.labels.end(), labels.begin(), labels.end());
    // A camera showing part of the step keeps the marks in it, not its first cells (thread 31's
    // read past the end was off to the right of "showing threads 0–14 of 32").
    if (!marked.empty())
        s.written = marked;
}

} // namespace pplab::scene
