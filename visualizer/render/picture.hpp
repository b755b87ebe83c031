// One frame of a trace as a finished picture: a header with the kernel and the step's
// caption, the canvas fitted below it, the running counters underneath. What `pplab render`
// writes and what the offscreen tests look at.
#pragma once

#include "canvas_layout.hpp"
#include "gl_renderer.hpp"
#include "target.hpp"

#include "scene/model.hpp"
#include "scene/view.hpp"

#include <string>
#include <vector>

namespace pplab::render {

struct PictureOptions {
    int width = 1280;
    int height = 800;
    scene::Theme theme = scene::Theme::Light;
    float anim = 1.0f; // 1: the settled state after the step
    float scale = 0;   // the presenter scale (1: 100%); 0: text grows with the picture
    bool header = true;
    // Fit the whole scene, or (when that leaves the values too small to read) frame the step
    // as the window's "follow" does.
    bool follow = true;
};

// A picture laid out before any pixel is drawn: the header (the kernel, the step, its
// caption), the canvas laid out as the window lays it out (render::lay_out_canvas: camera,
// notice, legend, texts), the counters underneath. The PNG draws it, the SVG writes it as
// vectors, `pplab render --layout` reports it.
struct Composition {
    int width = 0, height = 0;
    scene::Scene scene;   // the canvas's drawing, in world units
    scene::Camera camera; // world -> the picture's pixels
    scene::Rect canvas;   // pixels: the band between header and footer
    scene::Rect picture;  // pixels: where the scene is drawn (the canvas less notice and legend)
    scene::Rect names;    // pixels: the rows' names column beside it, when there is one
    std::vector<TextRun> text;                // pixels: the scene's values and labels as drawn
    std::vector<LegendEntry> legend;          // pixels
    std::vector<scene::Label> captions;       // pixels: title, caption, counters, the notice
    std::vector<scene::Cell> overlay_cells;   // pixels: the notice's band, the legend's box
    std::vector<scene::Label> overlay_labels; // pixels: every text over the drawing
};

// Pure: needs the font's metrics, no GL context.
Composition compose(const FontAtlas& font, const scene::Model& m, std::size_t frame,
                    const PictureOptions& o);

// The overlay's texts as drawn (captions, notice, legend), in the picture's pixels.
std::vector<TextRun> overlay_text(const FontAtlas& font, const Composition& c);

struct Picture {
    Image image;
    scene::Scene scene;   // what was drawn on the canvas
    scene::Camera camera; // where: world -> the image's pixels
    scene::Rect drawn;    // the image's pixels the scene may cover (Composition::picture)
};

Picture picture(GlRenderer& gl, RenderTarget& target, const scene::Model& m, std::size_t frame,
                const PictureOptions& o);

// "barriers 3 · shared reads 24 · …": the counters at the frame's playback step, the non-zero
// ones, exactly as the window counts them (scene::Model::counters_at).
std::string counters_line(const scene::Model& m, std::size_t frame);

} // namespace pplab::render
