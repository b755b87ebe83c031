#include "svg.hpp"

#include "render/text_layout.hpp"

#include "pplab/files.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <string_view>

namespace pplab::exporting {

namespace {

using scene::Vec2;

// The renderer's rules (shaders/line.*), so the SVG shows what the PNG shows; text is laid out
// by render::lay_out_text, as the renderer's is.
constexpr float kMinLinePx = 1.2f; // a line never thinner than this
constexpr float kMinHeadPx = 5.0f; // nor an arrowhead shorter

std::string num(float v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", static_cast<double>(v));
    std::string s = b;
    // "12.50" -> "12.5", "3.00" -> "3": smaller files, same picture.
    while (!s.empty() && s.back() == '0')
        s.pop_back();
    if (!s.empty() && s.back() == '.')
        s.pop_back();
    return s == "-0" ? "0" : s;
}

std::string hex(const scene::Rgba& c) {
    const auto byte = [](float v) {
        return static_cast<int>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
    };
    char b[8];
    std::snprintf(b, sizeof b, "#%02x%02x%02x", byte(c.r), byte(c.g), byte(c.b));
    return b;
}

// `fill="#rrggbb"` with its opacity where it is not opaque.
std::string paint(std::string_view attribute, const scene::Rgba& c) {
    std::string s = " " + std::string(attribute) + "=\"" + hex(c) + "\"";
    if (c.a < 0.999f)
        s += " " + std::string(attribute) + "-opacity=\"" + num(c.a) + "\"";
    return s;
}

std::string escaped(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
        switch (ch) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += ch;
        }
    }
    return out;
}

std::string_view role_name(scene::CellRole r) {
    using scene::CellRole;
    switch (r) {
    case CellRole::Value:
        return "value";
    case CellRole::Written:
        return "written";
    case CellRole::Active:
        return "active";
    case CellRole::Read:
        return "read";
    case CellRole::Unchanged:
        return "unchanged";
    case CellRole::IdleWarp:
        return "idle-warp";
    case CellRole::KeepsOwn:
        return "keeps-own";
    case CellRole::Future:
        return "future";
    case CellRole::Heat:
        return "heat";
    case CellRole::Bar:
        return "bar";
    case CellRole::Panel:
        return "panel";
    }
    return "cell";
}

bool overlaps(const scene::Rect& a, const scene::Rect& b) {
    return a.x <= b.right() && b.x <= a.right() && a.y <= b.bottom() && b.y <= a.bottom();
}

// Writes one layer, in pixels: the scene's layers go through the camera, the overlay's
// (already in pixels) through the identity.
class Writer {
public:
    Writer(const render::FontAtlas& font, const scene::Camera& cam, float w, float h)
        : font_(font), cam_(cam), w_(w), h_(h) {
        const Vec2 a = cam.to_world({0, 0}, w, h), b = cam.to_world({w, h}, w, h);
        visible_ = scene::inflate({a.x, a.y, b.x - a.x, b.y - a.y}, 2 / cam.scale, 2 / cam.scale);
    }

    void open(std::string_view group) { out += "<g class=\"" + std::string(group) + "\">\n"; }
    void close() { out += "</g>\n"; }

    // A cell: its rectangle (the border inside it, as the renderer draws it).
    void cell(const scene::Cell& c) {
        if (!overlaps(c.rect, visible_))
            return;
        const bool filled = c.fill.a > 0, bordered = c.border_width > 0 && c.border.a > 0;
        if (!filled && !bordered)
            return;
        const float bw = bordered ? c.border_width * cam_.scale : 0.0f;
        const Vec2 p = at({c.rect.x, c.rect.y});
        const float rw = c.rect.w * cam_.scale, rh = c.rect.h * cam_.scale;
        if (bordered && (rw <= 2 * bw || rh <= 2 * bw)) {
            // All border (an empty histogram bar): a solid rectangle of its colour.
            cell_box(c, p, rw, rh, 0, c.border);
        } else {
            cell_box(c, p, rw, rh, bw, c.fill);
        }
    }

    // Texts laid out in pixels, chips first.
    void texts(std::span<const render::TextRun> runs, const scene::Rgba& chip) {
        for (const render::TextRun& r : runs)
            if (r.chip) {
                const scene::Rect b = scene::inflate(r.rect, 0.3f * r.px, 0.15f * r.px);
                out += "<rect class=\"chip\" x=\"" + num(b.x) + "\" y=\"" + num(b.y) +
                       "\" width=\"" + num(b.w) + "\" height=\"" + num(b.h) + "\" rx=\"" +
                       num(0.25f * r.px) + "\"" + paint("fill", scene::with_alpha(chip, 0.9f)) +
                       "/>\n";
            }
        for (const render::TextRun& r : runs)
            text(r.text, {r.x, r.baseline}, r.px, r.color, scene::Align::Left);
    }

    // A shaft and a filled head, sized as shaders/line.vert sizes them.
    void arrow(const scene::Arrow& a) {
        const scene::Rect box{
            std::min(a.from.x, a.to.x) - a.head, std::min(a.from.y, a.to.y) - a.head,
            std::abs(a.to.x - a.from.x) + 2 * a.head, std::abs(a.to.y - a.from.y) + 2 * a.head};
        if (!overlaps(box, visible_))
            return;
        const Vec2 p = at(a.from), q = at(a.to);
        const float len = std::max(std::hypot(q.x - p.x, q.y - p.y), 1e-3f);
        const Vec2 dir{(q.x - p.x) / len, (q.y - p.y) / len};
        const float width = std::max(a.width * cam_.scale, kMinLinePx);
        const float head =
            a.head > 0 ? std::min(std::max(a.head * cam_.scale, kMinHeadPx), 0.6f * len) : 0;
        const float shaft = len - 0.8f * head;
        out += "<path class=\"arrow\" d=\"M" + num(p.x) + " " + num(p.y) + "L" +
               num(p.x + dir.x * shaft) + " " + num(p.y + dir.y * shaft) + "\" fill=\"none\"" +
               paint("stroke", a.color) + " stroke-width=\"" + num(width) + "\"";
        if (a.dashed) {
            const float period = std::max(4 * width, 10.0f);
            out += " stroke-dasharray=\"" + num(0.55f * period) + " " + num(0.45f * period) + "\"";
        }
        out += "/>\n";
        if (head <= 0)
            return;
        const Vec2 base{q.x - dir.x * head, q.y - dir.y * head};
        const Vec2 across{-dir.y * 0.45f * head, dir.x * 0.45f * head};
        out += "<path class=\"arrowhead\" d=\"M" + num(q.x) + " " + num(q.y) + "L" +
               num(base.x + across.x) + " " + num(base.y + across.y) + "L" +
               num(base.x - across.x) + " " + num(base.y - across.y) + "Z\"" +
               paint("fill", a.color) + "/>\n";
    }

    std::string out;

private:
    Vec2 at(Vec2 world) const { return cam_.to_screen(world, w_, h_); }

    // The rectangle at `p`, rw x rh pixels, its border (bw pixels, 0: none) drawn inside it.
    void cell_box(const scene::Cell& c, Vec2 p, float rw, float rh, float bw,
                  const scene::Rgba& fill) {
        out += "<rect class=\"" + std::string(role_name(c.role)) + "\" x=\"" + num(p.x + bw / 2) +
               "\" y=\"" + num(p.y + bw / 2) + "\" width=\"" + num(rw - bw) + "\" height=\"" +
               num(rh - bw) + "\"";
        if (c.radius > 0)
            out += " rx=\"" + num(std::max(c.radius * cam_.scale - bw / 2, 0.0f)) + "\"";
        out += fill.a > 0 ? paint("fill", fill) : std::string(" fill=\"none\"");
        if (bw > 0)
            out += paint("stroke", c.border) + " stroke-width=\"" + num(bw) + "\"";
        out += "/>\n";
    }

    void text(std::string_view s, Vec2 baseline, float px, const scene::Rgba& c,
              scene::Align align) {
        const char* anchor = align == scene::Align::Left    ? "start"
                             : align == scene::Align::Right ? "end"
                                                            : "middle";
        out += "<text x=\"" + num(baseline.x) + "\" y=\"" + num(baseline.y) + "\" font-size=\"" +
               num(px * font_.font_size()) + "\" text-anchor=\"" + anchor + "\"" +
               paint("fill", c) + ">" + escaped(s) + "</text>\n";
    }

    const render::FontAtlas& font_;
    scene::Camera cam_;
    float w_, h_;
    scene::Rect visible_;
};

} // namespace

std::string svg(const render::Composition& c, const render::FontAtlas& font) {
    const float w = static_cast<float>(c.width), h = static_cast<float>(c.height);
    std::string out =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
        std::to_string(c.width) + "\" height=\"" + std::to_string(c.height) + "\" viewBox=\"0 0 " +
        std::to_string(c.width) + " " + std::to_string(c.height) +
        "\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" xml:space=\"preserve\">\n";
    if (!c.scene.caption.empty())
        out += "<title>" + escaped(c.scene.caption) + "</title>\n";
    out += "<rect class=\"background\" width=\"" + std::to_string(c.width) + "\" height=\"" +
           std::to_string(c.height) + "\"" + paint("fill", c.scene.background) + "/>\n";

    // The renderer's order: panels, arrows, cells and their values, labels, moving values,
    // inside the part of the canvas the drawing has.
    const scene::Rect& p = c.picture;
    out += "<clipPath id=\"picture\"><rect x=\"" + num(p.x) + "\" y=\"" + num(p.y) + "\" width=\"" +
           num(p.w) + "\" height=\"" + num(p.h) + "\"/></clipPath>\n";
    Writer canvas(font, c.camera, w, h);
    canvas.open("canvas\" clip-path=\"url(#picture)");
    canvas.open("panels");
    for (const scene::Cell& panel : c.scene.panels)
        canvas.cell(panel);
    canvas.close();
    canvas.open("arrows");
    for (const scene::Arrow& a : scene::arrows_drawn(c.scene, c.camera, w, h, p))
        canvas.arrow(a);
    canvas.close();
    canvas.open("cells");
    for (const scene::Cell& cell : c.scene.cells)
        canvas.cell(cell);
    canvas.close();
    canvas.close();
    canvas.open("labels"); // laid out inside the drawing and the rows' names column
    canvas.texts(c.text, c.scene.background);
    canvas.close();
    canvas.open("movers\" clip-path=\"url(#picture)");
    std::vector<scene::Cell> movers; // as the renderer: those whose source is drawn
    for (const scene::Cell& m : c.scene.movers)
        if (scene::source_drawn(m.source, c.camera, w, h, p))
            movers.push_back(m);
    for (const scene::Cell& m : movers)
        canvas.cell(m);
    canvas.texts(
        render::lay_out_text(font, {c.camera, w, h, scene::kMinTextPx * c.scene.text_scale, p, {}},
                             movers, {}, render::TextKind::Mover),
        c.scene.background);
    canvas.close();
    out += canvas.out;

    // Header, footer, the canvas's notice and legend: placed in pixels, over the drawing.
    Writer overlay(font, render::pixel_camera(w, h), w, h);
    overlay.open("frame");
    for (const scene::Cell& cell : c.overlay_cells)
        overlay.cell(cell);
    overlay.texts(render::overlay_text(font, c), c.scene.background);
    overlay.close();
    out += overlay.out;
    out += "</svg>\n";
    return out;
}

void write_svg(const render::Composition& c, const render::FontAtlas& font,
               const std::string& path) {
    write_atomically(path, svg(c, font));
}

} // namespace pplab::exporting
