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

#include "pplab/request.hpp"
#include "scene/model.hpp"
#include "scene/scene.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pplab::ui {

inline constexpr float kBaseFontPx = 18.0f; // the regular font at presenter scale 100%
// ImGui's style at 100% (style.cpp); ImGui's ScaleAllSizes floors them at other scales, and so
// does metrics().
inline constexpr float kFramePaddingX = 8, kFramePaddingY = 5;
inline constexpr float kItemSpacingX = 8, kItemSpacingY = 7;
inline constexpr float kItemInnerSpacing = 4; // ImGui's own
inline constexpr float kWindowPaddingX = 12;

// ImGui's sizes at a presenter scale: App's style and fonts are made from these.
struct Metrics {
    float scale = 1;
    float font = 0;      // regular text, pixels
    float large = 0;     // captions and titles
    float frame = 0;     // a button or slider: font + 2 x frame padding
    float spacing = 0;   // between items, vertically
    float padding_x = 0; // inside a window
    float padding_y = 0;
    float item_spacing = 0;     // between items, horizontally
    float inner_spacing = 0;    // inside an item (a radio button and its text)
    float frame_padding_x = 0;  // inside a button or slider, horizontally
    float window_padding_x = 0; // inside ImGui's windows: the menu bar's first item is in by it
};
Metrics metrics(float scale);

// A text's width in pixels at a font size: ImGui's measure in the window, the font atlas's in
// the layout tests.
using TextWidth = std::function<float(std::string_view text, float px)>;

// The presenter scales the View menu steps through (Ctrl + and Ctrl −), at most: a window
// allows up to largest_scale() of them.
inline constexpr float kMinScale = 0.75f, kMaxScale = 3.0f, kScaleStep = 0.25f;
// Present mode offered at the menu bar's end where the transport's row has no room for it.
inline constexpr const char* kPresentOffer = "▣ P";

// The menu bar's menus as App::menu draws them, and the drawers of the columns folded.
std::vector<std::string> menu_bar_menus(bool controls_folded, bool source_folded);
// Where the last of `items` ends in the menu bar, from the window's left: ImGui puts the first
// a window's padding in, each takes its text and twice the bar's item spacing.
float menu_items_end(const Metrics& m, const TextWidth& measure,
                     const std::vector<std::string>& items);
// The room the present offer takes at the bar's end: its item and the window's padding after.
float menu_offer_width(const Metrics& m, const TextWidth& measure);
// The largest presenter scale a window `width` pixels wide serves (in the View menu's steps):
// the menus, both drawers and the present offer whole in the menu bar's row (the readout may
// go into the View menu), the camera modes and the block selector in the toolbar's row, the
// transport in one row. Past it the menus ran off the right edge (1280x720 at 225%).
float largest_scale(float width, const TextWidth& measure);

// Pixels one row needs: the menus (with the drawers' buttons and the presenter scale), the
// camera modes with the block selector of a launch of several blocks, the transport.
float menu_bar_width(const Metrics& m, const TextWidth& measure);
// The presenter scale as the menu bar says it in `room` pixels (its item spacing included):
// "presenter scale 200% · P: present" above 125% (the canvas alone reads best from the back),
// else "presenter scale 100%"; shorter where the bar has less room, down to "200%"; empty
// where even that does not fit. Said at every scale: the teacher pressing Ctrl + sees the step.
std::string scale_readout(const Metrics& m, const TextWidth& measure, float scale, float room);
float toolbar_width(const Metrics& m, const TextWidth& measure, bool block_selector);
// `offer`: the label of the button that offers present mode (none: ""); the transport draws
// it only where its one row has room for it (it never costs the canvas a second row). While
// presenting: with the least button that leaves present mode ("✕").
float transport_width(const Metrics& m, const TextWidth& measure, bool present,
                      std::string_view offer = {});
// The transport's present-mode button in a transport `width` pixels wide: "✕ present" (or "✕"
// where the row has no room for more) while presenting; above presenter scale 125% (text for the
// back of the room) it offers present mode, "▣ present (P)", or "▣ P" where the one row has room
// for that only (1280x720 at 200%); else none ("").
const char* present_button(const Metrics& m, const TextWidth& measure, float width, bool present);
// The scrub slider's label, an ImGui format (%d: the step), in a slider `width` pixels wide:
// "step %d of N   ·   NAME", else "step %d of N", "%d of N", "%d/N", "%d", the first whose
// widest step leaves an em to spare (65536 steps in present mode at 200% in 1280x720 read
// "step 65536 of 6553", cut by the slider's edge).
std::string scrub_label(const Metrics& m, const TextWidth& measure, int steps,
                        std::string_view name, float width);
// The transport's parts: a button (play is twice as wide), the speed slider.
float transport_button_width(const Metrics& m);
float transport_speed_width(const Metrics& m, const TextWidth& measure);

// A slider whose value is its text ("step 4 of 5", "speed 1×", "2 of 8"): ImGui's grab would
// cover the text, so the value's place is a bar along the foot of the frame instead, below
// the text's band. `fraction`: the value's place, 0 to 1.
scene::Rect slider_value_bar(const scene::Rect& frame, float fraction);
// Where ImGui draws a frame's text (a slider's, a button's): centred, `font` pixels tall.
scene::Rect frame_text_band(const scene::Rect& frame, float font);
// The narrowest the toolbar's block slider gets: room for its text ("1023 of 1024").
float block_slider_min_width(const Metrics& m);

// A dropdown's text where the field is `field_w` wide: whole, or nothing (never a word cut
// short by the arrow): ImGui clips the preview at the arrow, a square of the frame's height.
bool dropdown_holds(std::string_view text, float field_w, const Metrics& m,
                    const TextWidth& measure, bool arrow = true);
// A dropdown's text: `whole` where the field holds it, else `shorter` (the whole on hover),
// without the arrow where even that needs its room (the field still opens the list), and
// where it still does not fit, its first words and "…": never a word cut short.
struct DropdownText {
    std::string text;
    bool arrow = true;
};
DropdownText dropdown_text(std::string whole, std::string_view shorter, float field_w,
                           const Metrics& m, const TextWidth& measure);
// The Algorithm field's text: "scanBlocks + addCarries   beyond the chapter (§8.7 larger
// arrays)" where the field holds it, else the kernel's name alone.
std::string algorithm_label(const AlgorithmInfo& i);
DropdownText algorithm_shown(const AlgorithmInfo& i, float field_w, const Metrics& m,
                             const TextWidth& measure);
// The Block size field's text: "auto (n rounded up)" (a single-block kernel) or "auto (256)"
// where the field holds it, else "auto" (the full text on hover); a size in numbers.
std::string block_size_text(int block, bool single_block);
std::string block_size_shown(int block, bool single_block, float field_w, const Metrics& m,
                             const TextWidth& measure);

// A row of tabs (the Classroom's sub-tabs) that never scrolls: each tab's row, in the fewest
// rows that hold every name whole, the tabs shared out evenly ("Practice Hand-trace Exercises"
// over "Pitfalls Determinism Session", not five and one). `widths`: each tab's, `spacing`
// between two tabs of a row. A tab wider than the row has a row of its own.
std::vector<int> tab_rows(const std::vector<float>& widths, float width, float spacing);
// A tab's width: its name and the frame's padding either side.
float tab_width(const Metrics& m, const TextWidth& measure, std::string_view name);
// A radio button's or a checkbox's width: its box (a frame's height), then its text.
float radio_width(const Metrics& m, const TextWidth& measure, std::string_view text);
// Where the input comes from, as the Input section's radio buttons name it (InputMode's order):
// a row of them at 100%, wrapped where the column is narrower ("File" was cut at the column's
// edge at 125% in 1280x720).
inline constexpr const char* kInputModeNames[] = {"Generated", "Typed", "File"};

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

// Where the desktop window opens. Screen coordinates, as GLFW gives them.
struct ScreenRect {
    int x = 0, y = 0, w = 0, h = 0;
};
// The window manager's frame around the window's contents (title bar, borders).
struct FrameExtents {
    int left = 0, top = 0, right = 0, bottom = 0;
};
inline constexpr ScreenRect kUsualWindow{0, 0, 1600, 1000};
// The smallest window the layout serves: every part on screen at 100% (the window never
// shrinks below it, unless the monitor itself is smaller).
inline constexpr ScreenRect kSmallestWindow{0, 0, 800, 500};
struct WindowPlacement {
    ScreenRect contents;          // the window's contents, its frame outside it
    bool fills_work_area = false; // the usual size did not fit: the window opens maximised
};
// The usual size where the monitor's work area (the monitor less the task bars) holds it with
// its frame, else as much of the work area as the frame leaves; centred in the work area.
WindowPlacement place_window(const ScreenRect& work_area, const FrameExtents& frame);

} // namespace pplab::ui
