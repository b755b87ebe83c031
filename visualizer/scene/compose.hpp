// The views' shared machinery (internal to visualizer/scene): frames placed as rows of
// cells, and the arrows between them drawn from the Dataflow, so that every arrow on screen
// is a read the kernel's code performs.
#pragma once

#include "view.hpp"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace pplab::scene::detail {

inline constexpr float kCell = 1.0f;
inline constexpr float kPitch = 1.14f;  // cell plus the gap to its neighbour
inline constexpr float kRowGap = 1.45f; // room for the arrows between two rows
inline constexpr float kRowPitch = kCell + kRowGap;
inline constexpr float kWarpGap = 0.7f; // between the 32-lane groups of a block

// Where the cells of a frame (or of an input array) sit: row-major columns.
struct Grid {
    float x = 0, y = 0;
    int cols = 1;
    float pitch_x = kPitch, pitch_y = kRowPitch;
    float cell_w = kCell, cell_h = kCell;
    int group = 0; // an extra gap after every `group` columns (warps, blocks)
    float group_gap = 0;
    int offset = 0; // cell i of the frame sits at position offset + i
    // Where positions 0.. stand when not evenly spaced (a block's total centred over the block,
    // the last block partial); positions past it follow the even spacing.
    std::vector<float> xs;

    Rect rect(int i) const;
    // The rectangle over positions [first, first + count) of one row.
    Rect span(int first, int count) const;
    float width() const { return span(0, cols).w; }
};

// `cols` cells over `width` world units (a strip too long to show at one unit per cell).
Grid fitted(float x, float y, int cols, float width, float cell_h = kCell);
// One unit per cell, 32-lane groups set apart when `warps`.
Grid unit_row(float x, float y, int cols, bool warps = false);

enum class Progress { Done, Current, Future };

// How a strip of values is coloured.
enum class ColourBy {
    Plain,  // neutral cells: the value is the point
    Thread, // by the thread of the block that reads the element (grid-stride pattern)
    Bin,    // by histogram bin (the value is a bin number)
    Block,  // by block: alternate shades, the selected block outlined
};

// The legend's words for a row coloured by value.
inline constexpr const char* kValueScale = "colour: the value, low to high in its row";

struct RowStyle {
    bool dim_unchanged = false; // values no thread will read again (the tree's right half)
    bool threads = false;       // a strip above the row: which of the block's threads worked
    bool past_flow = true;      // keep this frame's arrows, faint, once its step is past
    bool in_place = false;      // a slot: cells the step left alone are simply values
    // Too narrow for its values, the row is coloured by value (false: the bars over a
    // histogram's counts already show them, in the bins' colours).
    bool by_value = true;
    ColourBy colour_by = ColourBy::Plain;
    // Only the first `cells` values are drawn (-1: all): a frame padded past the elements its
    // level has (a block scan of 64 totals in 1024 slots) shows the real ones.
    int cells = -1;
    // Too narrow for its values, the row is coloured over this range when it has one (lo, hi),
    // else over its own values: a row of one-cell frames (a level's block totals) shares the
    // range of them all, or each total, alone in its frame, had no range and stayed pale.
    std::optional<std::pair<float, float>> range = std::nullopt;
};

class Composer {
public:
    Composer(const Model& m, std::size_t frame, const ViewOptions& o, float anim);

    const Model& m;
    const Trace& t;
    const Request& r;
    const Palette pal;
    const ViewOptions opt;
    const std::size_t frame; // the frame shown
    const Frame& cur;
    const int step;  // its playback step
    const int block; // the block shown
    const float anim;
    // Row labels keep a legible size on screen (at least kLabelPx, presenter scale included)
    // while the cells grow and shrink with the zoom; a sub-label gets its own line when small.
    float label_size = 0.45f;
    bool two_line_labels = true;
    // A row label's em in world units at this zoom, however far out: labels keep their size
    // in pixels, so what is placed above or below a text (a second line, a title over a row)
    // is offset by this (`label_em_x`: beside it). The row stretch included.
    float label_em = 0.45f;
    float label_em_x = 0.45f;
    // World units (vertically, the row stretch included) for `pixels` on screen at this zoom.
    float world(float pixels) const;
    // A line's width or an arrowhead's length: `units` world units, no more than they are at
    // 50 pixels a unit (times the presenter scale), so a close zoom (256 bins at 130 pixels a
    // unit) draws lines, not slabs.
    float line_units(float units) const;
    // Scene::value_width is the step's own row's (a chart's bins): others leave it alone.
    bool value_width_of_step = false;
    // Arrows drawn into one frame at most: past it every k-th shows the pattern.
    std::size_t max_arrows = 2500;
    // A label's em height in pixels: the row labels' size times `factor`, never under the
    // smallest legible text.
    float label_px(float factor = 1.0f) const;
    Scene s;

    Progress progress_of(int f) const;
    int find(Step st, int pass, int level, int block_, int warp = -1) const {
        return m.dataflow().find(st, pass, level, block_, warp);
    }
    // The frames of one block and pass with this step, by level.
    std::vector<int> frames_of(Step st, int pass, int block_, int warp = -1) const;

    // A frame's values as cells on `g` (a new row of the picture).
    void place(int f, const Grid& g, const RowStyle& style = {});
    // The range of the values of `frames` reached (RowStyle::range of a row made of them).
    std::optional<std::pair<float, float>> range_of(const std::vector<int>& frames) const;
    // One row updated in place by several frames (grid-stride rounds, running sums, bins):
    // shows the latest of `frames` reached; ghost cells before the first.
    void place_slot(const std::vector<int>& frames, const Grid& g, const RowStyle& style = {});
    // One-cell frames side by side (reduceNaive's sum after each addition), each a value to
    // hover, coloured by value where too narrow for it; not connected: arrows start and end at
    // the frames' own placements.
    void place_strip(const std::vector<int>& frames, const Grid& g);
    // An input array (frame kInput of the pass being shown): its elements from `draw_first`,
    // `draw_count` of them (-1: to the end), each at its own position of `g`.
    void place_input(const Grid& g, std::span<const float> values, ColourBy colour_by,
                     int select_first = -1, int select_count = 0, int draw_first = 0,
                     int draw_count = -1);
    // Frame kInput of the pass shown is cell 0 of each of `frames`, already placed (a later
    // pass reads the block totals of the one before).
    void alias_input(const std::vector<int>& frames);
    // Histogram bars for the latest of `frames` reached, `height` units for `max` counts; the
    // step's arrows land on their tops.
    void place_bars(const std::vector<int>& frames, const Grid& g, float height, float max,
                    bool by_bin);

    // `unit`: what one of the row's cells stands for where not an element (Label::unit);
    // `first`, `of`: a row of part of an array (Label::first, Label::of).
    void row_label(const Grid& g, const std::string& text, const std::string& sub = {},
                   const std::string& unit = {}, int first = 0, int of = 0);
    void title(float x, float y, const std::string& text, float size_factor = 1.3f);
    void barrier(float y, float x0, float x1, const std::string& text);
    void outline(const Rect& r, const Rgba& c, float width);
    void funnel(const Rect& from, const Rect& to);
    void box(const Rect& r);                             // a group box behind a part of the picture
    void legend(const Rgba& c, const std::string& text); // once per scene
    // The value scale's entry (LegendItem::ramp): what a row coloured on it stands for.
    void legend_ramp(const std::string& text);
    // A row of cells that are not frames (the block's threads, the contention per bin).
    void strip(const Grid& g, const std::vector<Rgba>& fills, const std::vector<std::string>& texts,
               CellRole role);
    void note(Vec2 at, const std::string& text, const Rgba& c, Align align = Align::Left,
              float size_factor = 0.8f);

    // A non-power-of-two tree: these cells' values never reach s[0] (already placed).
    void mark_never_added(const std::vector<CellRef>& refs);

    // Where "follow" looks, when the view knows better than the frames it placed (scan-fast:
    // the tile acting and its look-back window); empty: the rows the step writes and reads.
    Rect focus_rows, focus_cells, focus_written;

    // Arrows (and, for the step being shown, travelling values) into every placed frame.
    Scene finish();

    // Where a trace cell is drawn, if it is.
    const Rect* where(const CellRef& ref) const;
    float value(const CellRef& ref) const;

private:
    struct Placement {
        Grid grid;
        int shown = -1; // the frame whose values the cells show (slots: the latest reached)
        bool slot = false;
        bool bars = false;
        RowStyle style;
    };
    struct CellsPlaced {
        std::vector<Rect> rects; // where each cell landed (bars: the full slot)
    };

    void connect(int f, bool current);
    // addCarries: the carry's one arrow to a bracket over the block's cells it is added to
    // (`carried`: that block).
    void carry_bracket(int carried, const Rect& carry, const std::vector<Rect>& cells,
                       const std::vector<CellWrite>& writes, const Rgba& col, bool current,
                       float grow);
    // ViewOptions::row_stretch applied to everything composed.
    void stretch_rows(float by);
    Rgba arrow_color(int f, int cell, std::size_t source, const CellWrite& w, bool current) const;
    void threads_strip(int f, const Grid& g);
    // The pitfalls' marks on a settled cell: race, undefined, hazard, lanes not taking part.
    void mark_pitfalls(Cell& c, const Frame& fr, int i, const CellWrite& cw);
    Cell value_cell(const Rect& rect, float v, const Rgba& fill, CellRole role) const;
    // A cell of a step not reached: its outline only.
    Cell future_cell(const Rect& rect) const;
    // A cell's value's width in ems (its digits, '-' and '.').
    float value_em(const Cell& c) const;
    // Whether the camera this scene is built for draws a value of `row` (scene::value_px, with
    // the font's digits): a row none of whose values it draws shows them as colour.
    bool draws_a_value(const std::vector<Cell>& row) const;

    std::map<int, Placement> placed_;
    std::map<int, CellsPlaced> shown_;
    std::vector<float> input_;
    // The input wears the value scale (by thread or bin): no other row of the view may, or one
    // set of colours would mean two things.
    bool input_on_scale_ = false;
    std::string last_barrier_;
    std::vector<Cell> own_movers_; // values travelling into their own cell: drawn where clear
};

// Travelling values, `first` before `then`, less each that would touch one kept before it:
// no two values in flight ever read as one number.
std::vector<Cell> kept_apart(std::vector<Cell> first, std::vector<Cell> then);

// The input array that frame kInput refers to in `pass`: the request's input for the first
// launch, the values a later launch reads (block totals) otherwise.
std::vector<float> pass_input(const Model& m, int pass);

} // namespace pplab::scene::detail
