#include "picture.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace pplab::render {

namespace {

constexpr std::string_view kBetweenCounters = "  ·  ";

} // namespace

std::string counters_line(const scene::Model& m, std::size_t frame) {
    const Counters& c = m.counters_at(m.step_of(frame)); // as the window counts

    const std::pair<const char*, std::int64_t> items[] = {
        {"barriers", c.barriers},
        {"shared reads", c.shared_reads},
        {"shared writes", c.shared_writes},
        {"shuffles", c.shuffles},
        {"shared atomics", c.shared_atomics},
        {"global atomics", c.global_atomics},
        {"global reads", c.global_reads},
        {"global writes", c.global_writes},
        {"additions", c.additions},
    };
    std::string out;
    for (const auto& [name, value] : items)
        if (value != 0)
            out += (out.empty() ? "" : std::string(kBetweenCounters)) + name + " " +
                   std::to_string(value);
    return out.empty() ? "nothing counted yet" : "so far: " + out;
}

namespace {

// The counters line in lines no wider than `width`, broken between two counters only.
std::vector<std::string> counter_lines(const FontAtlas& font, const std::string& counters, float px,
                                       float width) {
    std::vector<std::string> lines;
    std::size_t from = 0;
    while (from <= counters.size()) {
        std::size_t to = counters.find(kBetweenCounters, from);
        to = to == std::string::npos ? counters.size() : to;
        const std::string item = counters.substr(from, to - from);
        const std::string joined =
            lines.empty() ? "" : lines.back() + std::string(kBetweenCounters) + item;
        if (lines.empty() || font.width(joined) * px > width)
            lines.push_back(item);
        else
            lines.back() = joined;
        from = to + kBetweenCounters.size();
    }
    return lines;
}

} // namespace

Composition compose(const FontAtlas& font, const scene::Model& m, std::size_t frame,
                    const PictureOptions& o) {
    const scene::Palette pal = scene::palette(o.theme);
    const float w = static_cast<float>(o.width), h = static_cast<float>(o.height);
    const float unit = o.scale > 0 ? o.scale // the presenter scale asked for
                                   : std::clamp(std::min(w, h * 1.6f) / 1280.0f, 0.5f, 3.0f);
    const float margin = 24 * unit;
    const float title_px = 26 * unit, footer_px = 17 * unit;
    float caption_px = 21 * unit;

    Composition c;
    c.width = o.width;
    c.height = o.height;
    float top = 0, bottom = 0;
    if (o.header) {
        const Request& r = m.request();
        const AlgorithmInfo& info = pplab::info(r.algorithm);
        const Frame& f = m.trace().frames.at(frame);
        std::string title = std::string(info.title) + "  ·  " + std::string(info.section) +
                            "  ·  step " + std::to_string(m.step_of(frame) + 1) + " of " +
                            std::to_string(m.steps().size());
        if (m.grid(f.pass) > 1 && f.block >= 0) // scan-fast's blocks take tiles: it says tile
            title +=
                std::string(r.algorithm == Algorithm::ScanFast ? "  ·  tile " : "  ·  block ") +
                std::to_string(f.block) + " in 0–" +
                std::to_string(m.grid(f.pass) - 1); // as the window's selector
        top = margin;
        c.captions.push_back(
            {{margin, top + title_px}, title, title_px, pal.text, scene::Align::Left, 0, title_px});
        c.captions.back().max_width = w - 2 * margin;
        top += title_px * 1.45f;
        // The largest type that keeps the caption to three lines (a look-back's chain is
        // long): the canvas keeps its room, the text stays above the legible minimum.
        const std::string caption = glue_last_word(m.caption(frame));
        std::vector<std::string> lines;
        for (const float px : {caption_px, 17 * unit, 14 * unit}) {
            caption_px = px;
            lines = wrap(font, caption, caption_px, w - 2 * margin);
            if (lines.size() <= 3)
                break;
        }
        for (const std::string& line : lines) {
            c.captions.push_back({{margin, top + caption_px},
                                  plain_spaces(line),
                                  caption_px,
                                  pal.muted,
                                  scene::Align::Left,
                                  0,
                                  caption_px});
            top += caption_px * 1.3f;
        }
        top += 10 * unit;
        // The counters wrapped between counters, never shrunk: at 200% on 1280 pixels one line
        // of them was 18 px, under the legible 22.
        const std::vector<std::string> footer =
            counter_lines(font, counters_line(m, frame), footer_px, w - 2 * margin);
        bottom = footer_px * (0.9f + 1.3f * static_cast<float>(footer.size()));
        float baseline = h - bottom + footer_px * 1.3f;
        for (const std::string& line : footer) {
            c.captions.push_back(
                {{margin, baseline}, line, footer_px, pal.muted, scene::Align::Left, 0, footer_px});
            baseline += footer_px * 1.3f;
        }
    }
    c.canvas = {0, top, w, std::max(h - top - bottom, 40.0f)};

    // The canvas as the window lays it out, moved into the picture.
    CanvasRequest cr;
    cr.width = c.canvas.w;
    cr.height = c.canvas.h;
    cr.scale = unit;
    cr.theme = o.theme;
    cr.framing = o.follow ? Framing::Follow : Framing::Fit;
    Canvas canvas = lay_out_canvas(font, m, frame, cr, scene::ViewOptions{}, o.anim);
    const scene::Vec2 at{c.canvas.x, c.canvas.y};
    const auto shift = [&](scene::Rect r) {
        r.x += at.x;
        r.y += at.y;
        return r;
    };
    c.scene = std::move(canvas.scene);
    c.camera = moved(canvas.frame.camera, at, c.canvas.w, c.canvas.h, w, h);
    c.picture = shift(canvas.frame.picture);
    if (!canvas.frame.names.empty())
        c.names = shift(canvas.frame.names);
    for (TextRun& t : canvas.frame.text) {
        t.x += at.x;
        t.baseline += at.y;
        t.rect = shift(t.rect);
        c.text.push_back(std::move(t));
    }
    for (LegendEntry& e : canvas.frame.legend) {
        e.rect = shift(e.rect);
        c.legend.push_back(std::move(e));
    }
    for (scene::Cell& cell : canvas.frame.overlay_cells) {
        cell.rect = shift(cell.rect);
        c.overlay_cells.push_back(std::move(cell));
    }
    c.overlay_labels = c.captions;
    for (scene::Label& l : canvas.frame.overlay_labels) {
        // The notice's lines speak about the canvas, as a caption does.
        const std::vector<scene::Rect>& notes = canvas.frame.notes;
        const bool notice = !canvas.frame.notice.empty() &&
                            (l.pos.y < canvas.frame.notice_box.bottom() ||
                             std::any_of(notes.begin(), notes.end(), [&](const scene::Rect& n) {
                                 return l.pos.x >= n.x && l.pos.x <= n.right() && l.pos.y >= n.y &&
                                        l.pos.y <= n.bottom();
                             }));
        l.pos = {l.pos.x + at.x, l.pos.y + at.y};
        if (notice)
            c.captions.push_back(l);
        c.overlay_labels.push_back(std::move(l));
    }
    return c;
}

std::vector<TextRun> overlay_text(const FontAtlas& font, const Composition& c) {
    return lay_out_text(font, pixel_area(static_cast<float>(c.width), static_cast<float>(c.height)),
                        c.overlay_cells, c.overlay_labels);
}

Picture picture(GlRenderer& gl, RenderTarget& target, const scene::Model& m, std::size_t frame,
                const PictureOptions& o) {
    Composition c = compose(gl.font(), m, frame, o);
    target.resize(c.width, c.height);
    target.bind();
    gl.draw(c.scene, c.camera, c.width, c.height, c.picture, c.names);
    gl.draw_overlay(c.overlay_cells, c.overlay_labels, c.width, c.height);
    Picture p;
    p.image = target.read();
    RenderTarget::unbind();
    p.scene = std::move(c.scene);
    p.camera = c.camera;
    p.drawn = c.picture;
    return p;
}

} // namespace pplab::render
