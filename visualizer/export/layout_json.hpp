// A picture's layout as JSON, so that anyone can check the legibility of any configuration
// without reading pixels (`pplab render --layout FILE.json`):
//   {"canvas": [x, y, w, h],
//    "items": [{"kind": "cell"|"label"|"legend"|"caption"|"arrow-label",
//               "rect": [x, y, w, h], "text": "...", "text_px": H}, ...]}
// in the picture's pixels (y down). A cell's rect is the part of it on the canvas, its text the
// value drawn in it ("" and text_px 0 when the cell is too small to show it), and a cell has
// "cut": true when the canvas's edge cuts it (its rect is then only the part shown, narrower
// than the cell, not a narrow cell: the camera shows part of a wide step); a label names a
// row or notes something; an arrow-label names a line (a barrier); a legend item is a swatch
// and its meaning; captions are the title, the step's caption, the counters and the canvas's
// notice. Only what is drawn is listed.
#pragma once

#include "render/font.hpp"
#include "render/picture.hpp"

#include <string>

namespace pplab::exporting {

std::string layout_json(const render::Composition& c, const render::FontAtlas& font);

} // namespace pplab::exporting
