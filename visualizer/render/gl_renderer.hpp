// Scene -> OpenGL 3.3 core draw calls: instanced quads, line segments and glyphs, drawn with
// the shaders of shaders/ (embedded). The only GL code of the project besides app/.
#pragma once

#include "font.hpp"
#include "text_layout.hpp"

#include "scene/camera.hpp"
#include "scene/scene.hpp"

#include <memory>
#include <span>
#include <vector>

namespace pplab::render {

class GlRenderer {
public:
    // Needs a current OpenGL 3.3 core context whose functions glad has loaded.
    // Throws std::runtime_error when a shader does not build.
    GlRenderer();
    ~GlRenderer();
    GlRenderer(const GlRenderer&) = delete;
    GlRenderer& operator=(const GlRenderer&) = delete;

    // Clears the bound framebuffer to the scene's background and draws it, width x height px,
    // inside `clip` (pixels; empty: everywhere), the names of rows that begin left of it in
    // the column `names` (see TextArea).
    void draw(const scene::Scene& s, const scene::Camera& c, int width, int height,
              const scene::Rect& clip = {}, const scene::Rect& names = {});
    // Cells and labels placed in pixels (y down), drawn over whatever is there.
    void draw_overlay(std::span<const scene::Cell> cells, std::span<const scene::Label> labels,
                      int width, int height);

    const FontAtlas& font() const { return font_; }
    // The texts of the last draw() (cells, labels, moving values), in its pixels.
    const std::vector<TextRun>& drawn_text() const { return drawn_; }

    struct Programs; // GL objects, defined in the .cpp
    // Where each text of a frame is drawn from: copied out of the cache or glyph by glyph.
    struct PlacedTexts {
        std::vector<float> copies;          // per copied text: pixels, texels, colour
        std::vector<int> copy;              // per run: its copy (-1: none)
        std::vector<const TextRun*> direct; // drawn glyph by glyph
    };

private:
    // Cells, and the values of `runs` that `placed` copies drawn in their cells' fragments;
    // says which runs were drawn so.
    std::vector<bool> quads(std::span<const scene::Cell> cells, std::span<const TextRun> runs = {},
                            const PlacedTexts* placed = nullptr);
    // The arrows whose source is drawn inside `sources` (canvas pixels): scene::source_drawn.
    void lines(std::span<const scene::Arrow> arrows, const scene::Rect& sources);
    // Text laid out in pixels: chips behind the runs that have one, then the texts (placed
    // now unless `placed` is given) but those `with_cells` says their cells drew.
    void text(std::span<const TextRun> runs, const scene::Rgba& chip,
              const PlacedTexts* placed = nullptr, const std::vector<bool>& with_cells = {});
    // Each text into the cache, or glyph by glyph where it does not fit.
    PlacedTexts place_texts(std::span<const TextRun> runs);
    // The glyphs of `r` with its pen at (pen, baseline), as the glyph shader's quads.
    void glyph_quads(const TextRun& r, float pen, float baseline, const scene::Rgba& tint,
                     std::vector<float>& out) const;
    // `r` as a copy from the cache (its glyphs added to `fresh_glyphs` when new to it); false
    // when it is too large for the cache or the cache is full.
    bool cache_run(const TextRun& r, std::vector<float>& copies, std::vector<float>& fresh_glyphs);
    void draw_into_cache(const std::vector<float>& glyphs);
    void set_camera(const scene::Camera& c, int width, int height);
    void set_pixels(int width, int height);

    FontAtlas font_;
    std::unique_ptr<Programs> gl_;
    scene::Camera camera_;
    scene::Rect visible_; // the viewport in world units
    int width_ = 1, height_ = 1;
    std::vector<float> scratch_;
    std::vector<scene::Cell> movers_; // the moving values drawn: kept, so a frame allocates none
    std::vector<TextRun> drawn_;
};

// The UI fonts, embedded at build time: DejaVu Sans, and DejaVu Sans Mono for source code.
std::span<const unsigned char> ui_font();
std::span<const unsigned char> code_font();

} // namespace pplab::render
