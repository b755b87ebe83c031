// The canvas as the class sees it, laid out in its pixels before anything is drawn: where the
// camera goes (following the step, fitting the whole, or where the user left it), the line
// that says which part of the step is on screen, the legend where it covers nothing (or docked
// beside or under the drawing), and every text. Pure (font metrics, no GL): the window, every
// picture, `pplab render --layout` and the layout tests all use this one function.
#pragma once

#include "font.hpp"
#include "text_layout.hpp"

#include "scene/camera.hpp"
#include "scene/model.hpp"
#include "scene/view.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pplab::render {

enum class Framing : std::uint8_t {
    Follow, // the whole scene when its values can be read; else the step's rows, legibly
    Fit,    // the whole scene, whatever its size
    Free,   // where the user left the camera
};

// Canvas sizes at presenter scale 100%, in pixels.
inline constexpr float kCanvasMarginPx = 18.0f;        // around a framed scene
inline constexpr float kClosestPx = scene::kClosestPx; // pixels per cell, the closest
inline constexpr float kReadablePx = 28.0f; // Follow zooms cells to this: 3 digits at 11 px
inline constexpr float kLegendPx = 16.0f;   // the legend's and the notice's text
// A note at the canvas's edge (rows off screen), and the legend where it fits at no larger size.
inline constexpr float kNotePx = 12.0f;
inline constexpr float kRowNamesPx = 26.0f; // a row's name, one line: rows at least apart
inline constexpr float kThinCellPx = 16.0f; // narrower, a cell is a mark: edges may cut it

struct CanvasRequest {
    float width = 0, height = 0; // pixels
    float scale = 1;             // the presenter scale
    scene::Theme theme = scene::Theme::Light;
    Framing framing = Framing::Follow;
    scene::Camera camera;     // Framing::Free: the user's camera (world -> canvas pixels)
    bool interactive = false; // the window: the notice says how to see the rest
    // Follow: the rows above and below the step's shown too where they can be read (off where
    // no framing settles with them: lay_out_canvas turns it off itself).
    bool rows_beside = true;
    // Follow: the pixels a value cell gets at least, where the step's rows can be read there.
    float least_cell_px = 0;
    // The canvas's size in the same window at presenter scale 100% (0 x 0: none). Above 100%,
    // lay_out_canvas lays the frame out there first and takes its value cells' pixels as
    // least_cell_px: a larger scale never draws the cells smaller (Ctrl + at 1920x1080 shrank
    // reduceTree's tree from 54 to 45 pixels a cell, the menus, caption and transport taller).
    scene::Vec2 canvas_at_100;
    bool operator==(const CanvasRequest&) const = default;
};

struct LegendEntry {
    scene::Rect rect; // pixels: swatch and text
    std::string text;
    float text_px = 0;
};

struct CanvasFrame {
    float width = 0, height = 0;
    scene::Camera camera; // world -> canvas pixels
    // The part of the canvas the drawing has: below the notice, beside or above a docked
    // legend, and short of a row the edge would cut in half. Nothing of the scene is drawn
    // outside it.
    scene::Rect picture;
    // Left of it, when the camera shows rows from part-way along: a column for their names.
    scene::Rect names;
    std::string notice; // "showing threads 0–63 of 1024 …", or that values are too small
    scene::Rect notice_box;
    // Where no band fits over the step's rows, the rows off screen are said in notes at the
    // edges they are past ("↑ in[] above" at the top), each where it covers nothing.
    std::vector<scene::Rect> notes;
    scene::Rect legend_box; // empty: no legend
    bool legend_docked = false;
    bool legend_hidden = false; // no room for it (a canvas a few rows tall): the notice says so
    std::vector<LegendEntry> legend;
    std::vector<scene::Cell> overlay_cells;   // pixels: the notice's band, the legend's box
    std::vector<scene::Label> overlay_labels; // pixels: their texts
    std::vector<TextRun> text; // the scene's values and labels as drawn (moving values apart)
    // The row stretch (ViewOptions::row_stretch) the scene wants for this framing: Fit all of
    // a scene zoomed far out keeps its rows a name's height apart.
    float stretch = 1;
};

// The notice's words for the part of a step on screen: `what` (thread, warp, bin, tile) first to
// last of total, "showing thread 5 of 64" or "showing threads 0–63 of 1024"; empty when all of
// them are on screen (nothing to say) or none is.
std::string shown_part(const std::string& what, int first, int last, int total);

// The height a scene's rows can count on in a canvas `canvas_height` pixels tall at a presenter
// scale: less a line of notice and a legend of two lines docked under the picture, wherever
// they go (ViewOptions::room_px). It depends on nothing the scene draws, so the scene built
// for it frames the same way again, and a chart's bars keep one height from step to step.
float room_for_rows(float canvas_height, float scale);

// The room the rows had in `f`: the canvas less its notice and a legend docked under the
// picture, no more than room_for_rows. The one rule for a histogram's rows: a scene built for
// room_for_rows whose notice or legend took more (two lines at 200%) is built again for this,
// so the bars it sizes for the room are the bars the framing shows whole (hist-global at 200%
// in a canvas 540 pixels tall: bars sized for 408 pixels, a picture of 324, the bars cut).
float rows_room(const CanvasFrame& f, float scale);

// The framing of a scene built for the camera's zoom.
CanvasFrame frame_canvas(const FontAtlas& font, const scene::Scene& s, const scene::Model& m,
                         std::size_t frame, const CanvasRequest& r);

struct Canvas {
    scene::Scene scene;
    CanvasFrame frame;
    scene::ViewOptions built_with; // what `scene` was built with (the zoom it settled at)
};

// What a caller lays over each scene built, before it is framed (the window's: a student's
// values and a kernel's hazards, whose legend entries and labels the framing must see).
using Decorate = std::function<void(scene::Scene&)>;

// The scene of `frame` built at the zoom its framing gives it (its labels and level of detail
// follow the zoom: a few rounds settle it), and framed. Where the rounds do not settle (a label
// shown at one zoom and not another moves the legend: reduceTree's block of 8 at 150% in
// 1280x720, 70.7 and 72.2 pixels per unit), the round framed a little closer than it was built
// for is kept (its names spaced wide enough); else the zoom just before the framing jumps,
// bisected between a round framed closer and one framed farther out; else the round framed
// nearest its built zoom.
// The window builds its scene with `built_with` while nothing it depends on changes, so its
// picture comes to rest where every exported picture does.
Canvas lay_out_canvas(const FontAtlas& font, const scene::Model& m, std::size_t frame,
                      const CanvasRequest& r, scene::ViewOptions vo, float anim = 1.0f,
                      const Decorate& decorate = {});

// A canvas-local camera for the same picture drawn with the canvas's corner at `at` in an
// area of w x h pixels.
scene::Camera moved(const scene::Camera& c, scene::Vec2 at, float canvas_w, float canvas_h, float w,
                    float h);

} // namespace pplab::render
