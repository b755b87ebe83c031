#include "picture.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace pplab::render {

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
            out += (out.empty() ? "" : "  ·  ") + std::string(name) + " " + std::to_string(value);
    return out.empty() ? "nothing counted yet" : "so far: " + out;
}

namespace {

// As the window's camera: values read at 11 px or more from this many pixels per cell, and
// no closer than the other.
constexpr float kReadable = 28.0f;
constexpr float kClosest = 72.0f;

} // namespace

Composition compose(const FontAtlas& font, const scene::Model& m, std::size_t frame,
                    const PictureOptions& o) {
    const scene::Palette pal = scene::palette(o.theme);
    const float w = static_cast<float>(o.width), h = static_cast<float>(o.height);
    const float unit = o.scale > 0 ? o.scale // the presenter scale asked for
                                   : std::clamp(std::min(w, h * 1.6f) / 1280.0f, 0.5f, 3.0f);
    const float margin = 24 * unit;
    const float title_px = 26 * unit, caption_px = 21 * unit, footer_px = 17 * unit;

    std::vector<scene::Label> labels;
    float top = margin;
    if (o.header) {
        const Request& r = m.request();
        const AlgorithmInfo& info = pplab::info(r.algorithm);
        const Frame& f = m.trace().frames.at(frame);
        std::string title = std::string(info.title) + "  ·  " + std::string(info.section) +
                            "  ·  step " + std::to_string(m.step_of(frame) + 1) + " of " +
                            std::to_string(m.steps().size());
        if (m.grid(f.pass) > 1 && f.block >= 0)
            title +=
                "  ·  block " + std::to_string(f.block) + " of " + std::to_string(m.grid(f.pass));
        labels.push_back({{margin, top + title_px},
                          title,
                          title_px,
                          pal.text,
                          scene::Align::Left,
                          w - 2 * margin});
        top += title_px * 1.45f;
        for (const std::string& line :
             wrap(font, m.dataflow().caption(frame), caption_px, w - 2 * margin)) {
            labels.push_back(
                {{margin, top + caption_px}, line, caption_px, pal.muted, scene::Align::Left, 0});
            top += caption_px * 1.3f;
        }
        top += 10 * unit;
        labels.push_back({{margin, h - margin * 0.7f},
                          counters_line(m, frame),
                          footer_px,
                          pal.muted,
                          scene::Align::Left,
                          w - 2 * margin});
    }
    const float bottom = o.header ? footer_px * 3.8f + margin * 0.4f : margin;
    const float canvas_h = std::max(h - top - bottom, 40.0f);

    // The level of detail and the labels' world size follow the zoom, and the zoom follows
    // the scene's extent: a few rounds settle it.
    scene::ViewOptions vo;
    vo.theme = o.theme;
    vo.text_scale = unit;
    // The whole scene when its values can be read that way; else, with `follow`, the step.
    const auto frame_it = [&](const scene::Scene& sc) {
        if (!o.follow)
            return scene::fit_labelled(sc, sc.bounds, w, canvas_h, margin, kClosest * unit);
        return scene::follow(sc, w, canvas_h, margin, kClosest * unit, kReadable * unit);
    };
    scene::Scene s = scene::build(m, frame, vo, o.anim);
    scene::Camera cam = frame_it(s);
    for (int round = 0; round < 4; ++round) {
        vo.pixels_per_unit = cam.scale;
        s = scene::build(m, frame, vo, o.anim);
        const scene::Camera next = frame_it(s);
        const bool settled = std::abs(next.scale - cam.scale) < 0.01f * cam.scale;
        cam = next;
        if (settled)
            break;
    }
    // The canvas is the band between header and footer: centre the scene in it.
    cam.center.y -= (top + canvas_h / 2 - h / 2) / cam.scale;

    // The header and footer bands hide whatever of the scene reaches under them; the legend
    // goes above the footer, left to right: swatch, meaning.
    std::vector<scene::Cell> swatches;
    if (o.header) {
        scene::Cell band;
        band.fill = pal.background;
        band.rect = {0, 0, w, top};
        swatches.push_back(band);
        band.rect = {0, h - bottom, w, bottom};
        swatches.push_back(band);
        float x = margin;
        const float y = h - margin * 0.7f - footer_px * 1.6f;
        for (const scene::LegendItem& item : s.legend) {
            scene::Cell sw;
            sw.rect = {x, y - footer_px * 0.45f, footer_px * 1.2f, footer_px * 0.4f};
            sw.fill = item.color;
            sw.radius = 2;
            swatches.push_back(sw);
            labels.push_back(
                {{x + footer_px * 1.6f, y}, item.text, footer_px, pal.text, scene::Align::Left, 0});
            x += footer_px * 1.6f + font.width(item.text) * footer_px + footer_px * 1.5f;
        }
    }
    Composition c;
    c.width = o.width;
    c.height = o.height;
    c.scene = std::move(s);
    c.camera = cam;
    c.overlay_cells = std::move(swatches);
    c.overlay_labels = std::move(labels);
    return c;
}

Picture picture(GlRenderer& gl, RenderTarget& target, const scene::Model& m, std::size_t frame,
                const PictureOptions& o) {
    Composition c = compose(gl.font(), m, frame, o);
    target.resize(c.width, c.height);
    target.bind();
    gl.draw(c.scene, c.camera, c.width, c.height);
    gl.draw_overlay(c.overlay_cells, c.overlay_labels, c.width, c.height);
    Picture p;
    p.image = target.read();
    RenderTarget::unbind();
    p.scene = std::move(c.scene);
    p.camera = c.camera;
    return p;
}

} // namespace pplab::render
