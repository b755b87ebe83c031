#include "text_layout.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>
#include <utility>

namespace pplab::render {

namespace {

constexpr float kEdge = kTextEdgePx;

bool overlaps(const scene::Rect& a, const scene::Rect& b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

bool inside(const scene::Rect& a, const scene::Rect& b) {
    return a.x >= b.x && a.right() <= b.right() && a.y >= b.y && a.bottom() <= b.bottom();
}

int rank(scene::LabelKind k) {
    return k == scene::LabelKind::Row ? 0 : k == scene::LabelKind::Line ? 1 : 2;
}

// The values of `cells`, each drawn where its cell holds it (scene::value_px), those of one row
// at one size: the smallest any of them is drawn at (reduce-full's sum of six digits at 11 px
// beside zeros at 16 read as two kinds of number).
std::vector<TextRun> lay_out_values(const FontAtlas& font, const TextArea& area,
                                    std::span<const scene::Cell> cells, TextKind cell_kind) {
    std::vector<TextRun> out;
    const scene::Camera& cam = area.camera;
    const float w = area.width, h = area.height, k = cam.scale;
    const scene::Rect canvas = area.clip.empty() ? scene::Rect{0, 0, w, h} : area.clip;
    using Row = std::tuple<float, float, float>; // a row's top, height and text size (world)
    std::map<Row, float> row_px;
    std::vector<scene::Rect> boxes; // each value's cell, in pixels
    std::vector<float> ems;         // and its width in ems
    // Cells on screen too narrow for their values, and their boxes in pixels.
    std::vector<std::pair<std::size_t, scene::Rect>> elided;
    for (std::size_t index = 0; index < cells.size(); ++index) {
        const scene::Cell& c = cells[index];
        if (c.text.empty() || c.text_size <= 0)
            continue;
        const scene::Vec2 a = cam.to_screen({c.rect.x, c.rect.y}, w, h);
        const scene::Rect box{a.x, a.y, c.rect.w * k, c.rect.h * k};
        if (!overlaps(box, canvas))
            continue;
        const float em = std::max(font.width(c.text), 1e-3f);
        const float px = scene::value_px(c.text_size * k, em, box.w, box.h, area.min_px);
        if (px <= 0) {
            if (c.merged <= 1 && cell_kind == TextKind::Cell && inside(box, canvas))
                elided.emplace_back(index, box);
            continue; // the cell says it on hover, the notice that values are left out
        }
        const scene::Rect text_box{box.center().x - em * px / 2, box.center().y - px / 2, em * px,
                                   px};
        if (!inside(text_box, canvas))
            continue; // a value cut by the edge would read as another number
        const auto [row, first] = row_px.try_emplace({c.rect.y, c.rect.h, c.text_size}, px);
        row->second = std::min(row->second, px);
        TextRun r;
        r.text = c.text;
        r.color = c.text_color;
        r.kind = cell_kind;
        r.cell = static_cast<int>(index);
        out.push_back(std::move(r));
        boxes.push_back(box);
        ems.push_back(em);
    }
    // A text `em` wide at r.px, centred in `box`.
    const auto centre = [&](TextRun& r, const scene::Rect& box, float em) {
        r.x = box.center().x - em * r.px / 2;
        r.baseline = box.center().y + font.digit_height() * r.px / 2;
        r.rect = {r.x, r.baseline - r.px * 0.8f, em * r.px, r.px};
    };
    for (std::size_t i = 0; i < out.size(); ++i) {
        TextRun& r = out[i];
        const scene::Cell& c = cells[static_cast<std::size_t>(r.cell)];
        r.px = row_px.at({c.rect.y, c.rect.h, c.text_size});
        centre(r, boxes[i], ems[i]);
    }
    // In a row that draws some of its values, a cell too narrow for its own shows a mark at the
    // row's size: blank, it read as a cell never written ("carries: 0 4405 8968" and 29 empty
    // cells of 5-digit sums). A row that draws none is coloured by value, and left as it is.
    const float mark_em = std::max(font.width(kElided), 1e-3f);
    for (const auto& [index, box] : elided) {
        const scene::Cell& c = cells[index];
        const auto row = row_px.find({c.rect.y, c.rect.h, c.text_size});
        if (row == row_px.end())
            continue;
        if (scene::value_px(row->second, mark_em, box.w, box.h, area.min_px) < row->second)
            continue;
        TextRun r;
        r.text = std::string(kElided);
        r.color = c.text_color;
        r.kind = TextKind::Elided;
        r.cell = static_cast<int>(index);
        r.px = row->second;
        centre(r, box, mark_em);
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace

scene::Camera pixel_camera(float w, float h) {
    scene::Camera c;
    c.center = {w / 2, h / 2};
    c.scale = 1;
    return c;
}

TextArea pixel_area(float w, float h) {
    TextArea area;
    area.camera = pixel_camera(w, h);
    area.width = w;
    area.height = h;
    area.min_px = 0;
    // The overlay's texts are spaced by their own layouts: a docked legend's lines 1.3 of their
    // size apart (a quarter line's gap dropped its second line at 150%).
    area.gap_lines = 0;
    return area;
}

std::vector<TextRun> lay_out_text(const FontAtlas& font, const TextArea& area,
                                  std::span<const scene::Cell> cells,
                                  std::span<const scene::Label> labels, TextKind cell_kind) {
    std::vector<TextRun> out = lay_out_values(font, area, cells, cell_kind);
    const scene::Camera& cam = area.camera;
    const float w = area.width, h = area.height, k = cam.scale;
    const scene::Rect canvas = area.clip.empty() ? scene::Rect{0, 0, w, h} : area.clip;
    // Labels: rows' names first, then the barriers', then notes; one that would cover a value or
    // a label already placed, or cannot be read whole inside the canvas, is left out.
    std::vector<const scene::Label*> order;
    for (const scene::Label& l : labels)
        order.push_back(&l);
    std::stable_sort(order.begin(), order.end(), [](const scene::Label* a, const scene::Label* b) {
        return rank(a->kind) < rank(b->kind);
    });
    for (const scene::Label* lp : order) {
        const scene::Label& l = *lp;
        const float em = std::max(font.width(l.text), 1e-3f);
        float px = l.px > 0 ? l.px : l.size * k;
        if (l.max_width > 0)
            px = std::min(px, l.max_width * k / em);
        if (px < area.min_px)
            continue;
        const float tw = em * px;
        if (tw > canvas.w - 2 * kEdge)
            continue;
        const scene::Vec2 at = scene::anchor_on_screen(l, cam, w, h);
        float x = l.align == scene::Align::Left    ? at.x
                  : l.align == scene::Align::Right ? at.x - tw
                                                   : at.x - tw / 2;
        const scene::Rect box{x, at.y - px * 0.8f, tw, px * 1.05f};
        if (box.y < canvas.y + kEdge || box.bottom() > canvas.bottom() - kEdge)
            continue;
        // A note centred over a cell at the edge slides inside, still over the cell: the tag
        // of reduceAtomic's first arrival in view, beside the names' column, was left out.
        if (l.kind == scene::LabelKind::Note && l.align == scene::Align::Center &&
            at.x > canvas.x + kEdge && at.x < canvas.right() - kEdge)
            x = std::clamp(x, canvas.x + kEdge, std::max(canvas.right() - kEdge - tw, canvas.x));
        if (l.turn_x && (x < canvas.x || x + tw > canvas.right())) {
            const float turned = cam.to_screen({*l.turn_x, l.pos.y}, w, h).x;
            x = l.align == scene::Align::Left ? turned - tw : turned;
        }
        // A name whose row is on screen stays with it at the edge (in the names' column when
        // there is one); other labels only when they are on screen whole.
        const bool inside = x >= canvas.x && x + tw <= canvas.right();
        if (l.kind != scene::LabelKind::Row && !inside)
            continue;
        bool moved = false;
        if (l.kind == scene::LabelKind::Row && !area.names.empty() && x < canvas.x + kEdge) {
            x = area.names.right() - kEdge - tw;
            if (x < area.names.x)
                continue;
        } else {
            const float kept = std::clamp(x, canvas.x + kEdge, canvas.right() - kEdge - tw);
            moved = kept != x;
            x = kept;
        }
        TextRun r;
        r.text = l.text;
        r.px = px;
        r.x = x;
        r.baseline = at.y;
        r.color = l.color;
        r.rect = {x, box.y, tw, box.h};
        r.kind = l.kind == scene::LabelKind::Line ? TextKind::LineLabel : TextKind::Label;
        r.chip = moved;
        // A row's name only yields where it would cover a text; any other label keeps a quarter
        // of a line clear of every text (an out-of-bounds mark's label all but touched
        // "__syncthreads()" at 200%).
        const bool covers = std::any_of(out.begin(), out.end(), [&](const TextRun& o) {
            const float gap =
                l.kind == scene::LabelKind::Row ? 0.0f : area.gap_lines * std::max(o.px, r.px);
            return overlaps(scene::inflate(o.rect, gap, gap), r.rect);
        });
        if (!covers)
            out.push_back(std::move(r));
    }
    return out;
}

namespace {

// A label an arrow drawn runs through goes on a chip, as a row's name kept at the edge does:
// the chip hides the arrow under the text (reduce-full's "warp 0" between the registers and the
// first shuffle was read through its arrows). Values need none: their cells cover the arrows.
void chip_crossed_labels(std::vector<TextRun>& runs, const scene::Scene& s, const scene::Camera& c,
                         float w, float h, const scene::Rect& picture) {
    // The labels alone, found once: every arrow against every value (2048 x 4096 in the frame
    // bench's grid) was 4-5 ms of a frame's CPU.
    std::vector<TextRun*> labels;
    for (TextRun& r : runs)
        if (r.kind != TextKind::Cell && r.kind != TextKind::Elided && !r.chip)
            labels.push_back(&r); // a value is in its cell, which covers the arrow
    if (labels.empty())
        return;
    for (const scene::Arrow& a : s.arrows) {
        const scene::Vec2 from = c.to_screen(a.from, w, h), to = c.to_screen(a.to, w, h);
        const float half = a.width * c.scale / 2; // the line's half width, pixels
        bool drawn = false, checked = false;
        for (TextRun* label : labels) {
            TextRun& r = *label;
            if (r.chip)
                continue; // chipped by an arrow before
            const scene::Rect near = scene::inflate(r.rect, half, half);
            if (std::max(from.x, to.x) < near.x || std::min(from.x, to.x) > near.right() ||
                std::max(from.y, to.y) < near.y || std::min(from.y, to.y) > near.bottom() ||
                !scene::segment_crosses(from, to, near))
                continue;
            if (!checked) { // as the renderer filters it: an arrow left out crosses nothing
                drawn = scene::source_drawn(a, c, w, h, picture);
                checked = true;
            }
            r.chip = r.chip || drawn;
        }
    }
}

} // namespace

std::vector<TextRun> scene_text(const FontAtlas& font, const scene::Scene& s,
                                const scene::Camera& c, float w, float h, scene::Rect clip,
                                scene::Rect names) {
    const TextArea area{c, w, h, scene::kMinTextPx * s.text_scale, clip, names};
    std::vector<TextRun> runs = lay_out_text(font, area, s.cells, s.labels);
    chip_crossed_labels(runs, s, c, w, h, clip.empty() ? scene::Rect{0, 0, w, h} : clip);
    return runs;
}

void measure_labels(scene::Scene& s, const FontAtlas& font) {
    for (scene::Label& l : s.labels)
        l.em_width = font.width(l.text);
}

std::string glue_last_word(std::string caption) {
    constexpr std::size_t kShort = 9; // bytes: "0", "s[]", "atomics", "barriers"
    const std::size_t space = caption.find_last_of(' ');
    if (space == std::string::npos || space == 0 || caption.size() - space - 1 > kShort ||
        caption[space - 1] == ' ')
        return caption;
    caption.replace(space, 1, "\u00a0");
    return caption;
}

std::string plain_spaces(std::string line) {
    for (std::size_t at = line.find("\u00a0"); at != std::string::npos;
         at = line.find("\u00a0", at))
        line.replace(at, 2, " ");
    return line;
}

std::vector<std::string> wrap(const FontAtlas& font, const std::string& text, float size,
                              float width) {
    std::vector<std::string> lines;
    std::istringstream words(text);
    std::string word, line;
    while (words >> word) {
        const std::string candidate = line.empty() ? word : line + " " + word;
        if (!line.empty() && font.width(candidate) * size > width) {
            lines.push_back(line);
            line = word;
        } else {
            line = candidate;
        }
    }
    if (!line.empty())
        lines.push_back(line);
    return lines;
}

} // namespace pplab::render
