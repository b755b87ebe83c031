// One frame of a trace as a finished picture: a header with the kernel and the step's
// caption, the canvas fitted below it, the running counters underneath. What `pplab render`
// writes and what the offscreen tests look at.
#pragma once

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

// A picture laid out before any pixel is drawn: the scene and its camera, then the header,
// footer and legend placed in pixels over it. The PNG draws it; the SVG writes it as vectors.
struct Composition {
    int width = 0, height = 0;
    scene::Scene scene;                       // the canvas, in world units
    scene::Camera camera;                     // world -> the picture's pixels
    std::vector<scene::Cell> overlay_cells;   // pixels: the bands framing the canvas, swatches
    std::vector<scene::Label> overlay_labels; // pixels: title, caption, counters, legend
};

// Pure: needs the font's metrics (to wrap the caption), no GL context.
Composition compose(const FontAtlas& font, const scene::Model& m, std::size_t frame,
                    const PictureOptions& o);

struct Picture {
    Image image;
    scene::Scene scene;   // what was drawn on the canvas
    scene::Camera camera; // where: world -> the image's pixels
};

Picture picture(GlRenderer& gl, RenderTarget& target, const scene::Model& m, std::size_t frame,
                const PictureOptions& o);

// Splits text into lines no wider than `width` (same units as `size`).
std::vector<std::string> wrap(const FontAtlas& font, const std::string& text, float size,
                              float width);

// "barriers 3 · shared reads 24 · …": the counters at the frame's playback step, the non-zero
// ones, exactly as the window counts them (scene::Model::counters_at).
std::string counters_line(const scene::Model& m, std::size_t frame);

} // namespace pplab::render
