// Where the window's parts go, for any window size and presenter scale: one rule, pure (no
// ImGui), so that the tests can check it for every size a classroom has and a browser canvas
// can use it at whatever size the page gives it.
//
// The rule: the bigger the presenter scale, the more of the window belongs to the canvas (a
// third at 100%, half from 150% on). Side columns dock while that holds; otherwise they fold
// into drawers opened from the menu bar (the source column first, it is the wider). The
// caption keeps a fixed height for the whole trace (it never makes the canvas jump while
// stepping); the transport always keeps its row at the bottom. Present mode keeps only the
// caption, the canvas and the transport. The back end's note takes no room from the canvas:
// the menu bar says it.
#pragma once

#include "scene/model.hpp"
#include "scene/scene.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pplab::ui {

inline constexpr float kBaseFontPx = 18.0f; // the regular font at presenter scale 100%

// ImGui's sizes at a presenter scale: App's style and fonts are made from these.
struct Metrics {
    float scale = 1;
    float font = 0;      // regular text, pixels
    float large = 0;     // captions and titles
    float frame = 0;     // a button or slider: font + 2 x frame padding
    float spacing = 0;   // between items, vertically
    float padding_x = 0; // inside a window
    float padding_y = 0;
    float item_spacing = 0;    // between items, horizontally
    float inner_spacing = 0;   // inside an item (a radio button and its text)
    float frame_padding_x = 0; // inside a button or slider, horizontally
};
Metrics metrics(float scale);

// A text's width in pixels at a font size: ImGui's measure in the window, the font atlas's in
// the layout tests.
using TextWidth = std::function<float(std::string_view text, float px)>;

// Pixels one row needs: the menus (with the drawers' buttons and the presenter scale), the
// camera modes with the block selector of a launch of several blocks, the transport.
float menu_bar_width(const Metrics& m, const TextWidth& measure);
float toolbar_width(const Metrics& m, const TextWidth& measure, bool block_selector);
// `offer_present`: with the button that offers present mode, which the transport draws only
// where its one row has room for it (it never costs the canvas a second row).
float transport_width(const Metrics& m, const TextWidth& measure, bool present,
                      bool offer_present = false);
// The transport's present-mode button: "✕ present" while presenting; above presenter scale
// 125% (text for the back of the room) it offers present mode; else none ("").
const char* present_button(float scale, bool present);
// The transport's parts: a button (play is twice as wide), the speed slider.
float transport_button_width(const Metrics& m);
float transport_speed_width(const Metrics& m, const TextWidth& measure);

// The captions whose longest fixes the caption's height for a trace (the block's, as the
// canvas shows them; a long run sampled: a few hundred steps at most).
// The caption as it is wrapped: a short last word ("block 0", "of atomics") kept with the
// word before it by a no-break space, so no line holds one short word alone.
std::string glue_last_word(std::string caption);
std::vector<std::string> captions_to_measure(const scene::Model& m, int block);

// The camera modes as the toolbar names them.
inline constexpr const char* kCameraModeNames[] = {"Follow", "Fit all", "Free"};

// The share of the window's area the canvas keeps at least, at this presenter scale.
float canvas_share_target(float scale);

struct LayoutRequest {
    float width = 1600, height = 1000;
    float scale = 1;
    bool show_controls = true; // the user's choice (View menu, F)
    bool show_source = true;
    bool present = false;
    // Lines the captions of the trace on screen take at `font` pixels in `width` pixels
    // (the longest caption of the trace, so the height is the same at every step).
    std::function<int(float font, float width)> caption_lines;
    // Widths in pixels the caller measured with its font: the menus, the camera modes and
    // block selector (which share the menu bar when it has room), one row of the transport.
    float menu_width = 0;
    float toolbar_width = 0;
    float transport_width = 0;
};

struct WindowLayout {
    scene::Rect menu;     // empty in present mode
    scene::Rect controls; // docked columns; empty when hidden or folded
    scene::Rect source;
    bool controls_folded = false; // wanted but no room: a drawer from the menu bar
    bool source_folded = false;
    scene::Rect stage;     // everything between the columns
    scene::Rect toolbar;   // camera modes and the block; empty in present mode
    scene::Rect caption;   // the step's caption, its height fixed for the trace
    scene::Rect canvas;    // the drawing
    scene::Rect transport; // step, play, scrub
    float caption_font = 0;
    int caption_lines = 1;
    float drawer_width_controls = 0, drawer_width_source = 0; // a folded column's width
};

WindowLayout window_layout(const LayoutRequest& r);

} // namespace pplab::ui
