// A frame for slides as SVG: the picture's Composition written as vectors (cells as rounded
// rectangles, values and labels as text, arrows as paths), so it stays sharp at any size and
// a teacher can edit it. Written from the pure scene, never from pixels.
#pragma once

#include "render/font.hpp"
#include "render/picture.hpp"

#include <string>

namespace pplab::exporting {

// The document. `font` is the one the PNG draws with: its metrics shrink text to fit exactly
// as the renderer does, and text the renderer leaves out as too small is left out here too.
std::string svg(const render::Composition& c, const render::FontAtlas& font);

// Writes through a temporary file and a rename: a failure leaves nothing behind.
// Throws std::runtime_error naming the path.
void write_svg(const render::Composition& c, const render::FontAtlas& font,
               const std::string& path);

} // namespace pplab::exporting
