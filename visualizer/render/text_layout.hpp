// Every text a canvas draws, in its pixels: the values that fit their cells, the labels at
// their size, a row's name kept inside the canvas, nothing smaller than the legible minimum.
// Pure (font metrics, no GL): the renderer draws exactly this list, the SVG writes it and
// `pplab render --layout` reports it.
#pragma once

#include "font.hpp"

#include "scene/camera.hpp"
#include "scene/scene.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pplab::render {

// Pixels a label keeps from the edges of the area it is laid out in.
inline constexpr float kTextEdgePx = 4.0f;
// The room a label other than a row's name keeps from every other text, in lines (em heights)
// of the larger of the two.
inline constexpr float kLabelGapLines = 0.25f;

// Elided: the mark in a cell whose value is too wide for it, in a row that draws others.
enum class TextKind : std::uint8_t { Cell, Label, LineLabel, Mover, Elided };

// The mark an elided value leaves in its cell.
inline constexpr std::string_view kElided = "\u2026";

struct TextRun {
    std::string text;
    float x = 0, baseline = 0; // pixels: the pen's start on the baseline
    float px = 0;              // em height, pixels
    scene::Rgba color;
    scene::Rect rect; // pixels: where the text's box lies
    TextKind kind = TextKind::Label;
    bool chip = false; // moved inside the canvas: drawn on a background of its own
    int cell = -1;     // a value: the index of its cell in the cells laid out
};

struct TextArea {
    scene::Camera camera; // world -> pixels of a w x h area
    float width = 0, height = 0;
    float min_px = scene::kMinTextPx; // smaller text is left out
    scene::Rect clip;  // pixels: the part of the area text may take; empty: all of it
    scene::Rect names; // pixels: a column left of `clip` for the names of rows that begin
                       // left of it; empty: such a name is kept at the clip's edge on a chip
    float gap_lines = kLabelGapLines; // a label (not a row's name) this clear of other texts
};

// The camera of an area laid out in its own pixels (an overlay: captions, legend).
scene::Camera pixel_camera(float w, float h);
// Such an area, w x h pixels, every text kept whatever its size.
TextArea pixel_area(float w, float h);

// Values of `cells` (as kind, Cell or Mover) and `labels` through `area`.
std::vector<TextRun> lay_out_text(const FontAtlas& font, const TextArea& area,
                                  std::span<const scene::Cell> cells,
                                  std::span<const scene::Label> labels,
                                  TextKind cell_kind = TextKind::Cell);

// The scene's texts (cells and labels; movers apart) on a canvas of w x h pixels, inside
// `clip` (pixels; empty: the whole canvas) and the rows' `names` column (see TextArea).
std::vector<TextRun> scene_text(const FontAtlas& font, const scene::Scene& s,
                                const scene::Camera& c, float w, float h, scene::Rect clip = {},
                                scene::Rect names = {});

// Measures every label of the scene with the font (Label::em_width), so that the camera frames
// the room they take exactly.
void measure_labels(scene::Scene& s, const FontAtlas& font);

// Splits text into lines no wider than `width` (same units as `size`).
// A caption ready to wrap: a short last word ("block 0", "of atomics") kept with the word
// before it by a no-break space, so no line holds one short word alone.
std::string glue_last_word(std::string caption);
// The no-break spaces did their work in the wrapping; the font draws a plain one.
std::string plain_spaces(std::string line);

std::vector<std::string> wrap(const FontAtlas& font, const std::string& text, float size,
                              float width);

} // namespace pplab::render
