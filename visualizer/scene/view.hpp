// The pure heart of the front end: (model, frame, view options, animation time) -> Scene.
// No GL, no ImGui: the window, `pplab render` and the tests all draw what this returns.
#pragma once

#include "model.hpp"
#include "palette.hpp"
#include "scene.hpp"

#include <cstddef>

namespace pplab::scene {

struct ViewOptions {
    Theme theme = Theme::Light;
    // The camera's scale, pixels per world unit: cells narrower than a few pixels merge
    // into a heat strip and text is left out where it could not be read.
    float pixels_per_unit = 40.0f;
    bool past_arrows = true; // earlier steps' data flow, faint
    float text_scale = 1.0f; // presenter scale: labels this many times their normal size
    // Every y coordinate multiplied by this once the view is composed: a scene zoomed far out
    // (Fit all of a block of 1024) keeps its rows as far apart as their names need, each row a
    // band of colour rather than a hairline.
    float row_stretch = 1.0f;
    // The height in pixels the rows can count on (render::room_for_rows: the canvas's, less its
    // notice and legend); 0: not known. A histogram's bars take what its table leaves of it, so
    // that they are not the row the canvas's edge cuts.
    float room_px = 0.0f;
    // A digit's width in ems in the canvas's font (render::lay_out_canvas measures it): where
    // no value of a row would be drawn, the row shows them as colour.
    float digit_em = 0.64f;
    bool operator==(const ViewOptions&) const = default;
};

// Phases of the transition into a step, as fractions of its duration.
namespace timing {
inline constexpr float kArrowsGrown = 0.3f; // arrows grow from their source until here
inline constexpr float kTravelStart = 0.15f;
inline constexpr float kLand = 0.85f; // values arrive; the written cells light up
} // namespace timing

// The scene for trace frame `frame` (which fixes the playback step and the block shown).
// anim in [0, 1]: 0 is the state before the step, 1 the settled state after it.
Scene build(const Model& m, std::size_t frame, const ViewOptions& o, float anim = 1.0f);

// How a value is printed in a cell: short enough to read ("0.7244", "1.2e+06").
std::string cell_text(float v);

} // namespace pplab::scene
