#include "layout_json.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

namespace pplab::exporting {

namespace {

using nlohmann::json;

// Two decimals: a layout is compared by eye and by scripts, not bit for bit.
double rounded(float v) {
    return std::round(static_cast<double>(v) * 100.0) / 100.0;
}

json rect(const scene::Rect& r) {
    return json::array({rounded(r.x), rounded(r.y), rounded(r.w), rounded(r.h)});
}

json item(const char* kind, const scene::Rect& r, const std::string& text, float px) {
    return {{"kind", kind}, {"rect", rect(r)}, {"text", text}, {"text_px", rounded(px)}};
}

scene::Rect intersect(const scene::Rect& a, const scene::Rect& b) {
    const float x = std::max(a.x, b.x), y = std::max(a.y, b.y);
    return {x, y, std::min(a.right(), b.right()) - x, std::min(a.bottom(), b.bottom()) - y};
}

// Every cell, bar and strip with something drawn, as much of it as the picture shows, with
// the value drawn in it.
void cells(json& items, const render::Composition& c) {
    std::vector<const render::TextRun*> value_of(c.scene.cells.size(), nullptr);
    for (const render::TextRun& t : c.text)
        if ((t.kind == render::TextKind::Cell || t.kind == render::TextKind::Elided) && t.cell >= 0)
            value_of[static_cast<std::size_t>(t.cell)] = &t; // its value, or the mark for one
    const float w = static_cast<float>(c.width), h = static_cast<float>(c.height);
    const auto add = [&](const scene::Cell& cell, const render::TextRun* value) {
        if (cell.role == scene::CellRole::Panel || (cell.fill.a <= 0 && cell.border_width <= 0))
            return;
        const scene::Vec2 a = c.camera.to_screen({cell.rect.x, cell.rect.y}, w, h);
        const scene::Rect whole{a.x, a.y, cell.rect.w * c.camera.scale,
                                cell.rect.h * c.camera.scale};
        const scene::Rect shown = intersect(whole, c.picture);
        if (shown.empty())
            return;
        json it = item("cell", shown, value ? value->text : "", value ? value->px : 0.0f);
        // A sliver at the edge is not a narrow cell: whoever checks legibility must tell them
        // apart. Within a hundredth of a pixel (what the file keeps) is not cut.
        constexpr float kEps = 0.01f;
        it["cut"] = whole.x < c.picture.x - kEps || whole.y < c.picture.y - kEps ||
                    whole.right() > c.picture.right() + kEps ||
                    whole.bottom() > c.picture.bottom() + kEps;
        if (cell.merged > 1) // a heat strip's cell: the elements too narrow to draw one by one
            it["elements"] = cell.merged;
        items.push_back(std::move(it));
    };
    for (const scene::Cell& strip : c.scene.panels)
        add(strip, nullptr);
    for (std::size_t i = 0; i < c.scene.cells.size(); ++i)
        add(c.scene.cells[i], value_of[i]);
}

} // namespace

std::string layout_json(const render::Composition& c, const render::FontAtlas& font) {
    json items = json::array();
    cells(items, c);
    for (const render::TextRun& t : c.text)
        if (t.kind != render::TextKind::Cell && t.kind != render::TextKind::Elided)
            items.push_back(item(t.kind == render::TextKind::LineLabel ? "arrow-label" : "label",
                                 t.rect, t.text, t.px));
    for (const render::LegendEntry& e : c.legend)
        items.push_back(item("legend", e.rect, e.text, e.text_px));
    const render::TextArea area =
        render::pixel_area(static_cast<float>(c.width), static_cast<float>(c.height));
    for (const render::TextRun& t : render::lay_out_text(font, area, {}, c.captions))
        items.push_back(item("caption", t.rect, t.text, t.px));
    const json doc = {{"canvas", rect(c.canvas)}, {"items", std::move(items)}};
    return doc.dump(1) + "\n";
}

} // namespace pplab::exporting
