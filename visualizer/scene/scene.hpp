// What a view draws, as plain data: cells, arrows and labels in world units.
//
// Produced by scene::build (pure, no GL) and consumed by render::GlRenderer and the tests.
// World units: one cell of a row is about 1 x 1; y grows downwards, as rows of a trace do.
#pragma once

#include "pplab/dataflow.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pplab::scene {

struct Vec2 {
    float x = 0, y = 0;
    bool operator==(const Vec2&) const = default;
};

struct Rect {
    float x = 0, y = 0, w = 0, h = 0;

    float right() const { return x + w; }
    float bottom() const { return y + h; }
    Vec2 center() const { return {x + w / 2, y + h / 2}; }
    Vec2 top_center() const { return {x + w / 2, y}; }
    Vec2 bottom_center() const { return {x + w / 2, y + h}; }
    bool contains(Vec2 p) const { return p.x >= x && p.x <= x + w && p.y >= y && p.y <= y + h; }
    bool empty() const { return w <= 0 || h <= 0; }
    bool operator==(const Rect&) const = default;
};

// The smallest rectangle holding both (an empty rectangle holds nothing).
Rect unite(const Rect& a, const Rect& b);
Rect inflate(const Rect& r, float dx, float dy);
// Whether the segment a-b passes through `r`.
bool segment_crosses(Vec2 a, Vec2 b, const Rect& r);

struct Rgba {
    float r = 0, g = 0, b = 0, a = 1;
    bool operator==(const Rgba&) const = default;
};

// Straight mix of two colours: t = 0 gives a, t = 1 gives b.
Rgba mix(const Rgba& a, const Rgba& b, float t);
Rgba with_alpha(Rgba c, float a);

// What a cell says about the step, for tests, hover text and the practice mode.
enum class CellRole : std::uint8_t {
    Value,     // a settled value
    Written,   // written by the step being shown: the highlight colour
    Active,    // written by an earlier step of this row's chain
    Read,      // read by the step being shown
    Unchanged, // its thread was idle in this step (an idle lane of an active warp)
    IdleWarp,  // its whole warp was idle in this step: greyed
    KeepsOwn,  // a shuffle lane whose source is outside the warp: it adds its own value
    Future,    // a step not reached yet: an empty outline
    Heat,      // merged into a heat strip (too small for text)
    Bar,       // a histogram bar
    Panel,     // a background box
};

// What a cell shows beyond its role: the chapter's pitfalls, and a student's checked value.
struct Marks {
    bool race = false;            // Exercise 2: several threads' writes raced for it
    bool undefined = false;       // its value is undefined behaviour: shown "?"
    bool hazard = false;          // a later read of it is not ordered after this write
    bool never_added = false;     // a non-power-of-two tree: its value never reaches s[0]
    bool not_taking_part = false; // a lane that does not call warpReduce: greyed
    bool right = false;           // the student's value equals the trace's
    bool wrong = false;
    bool operator==(const Marks&) const = default;
};

struct Cell {
    Rect rect;
    Rgba fill;
    Rgba border;
    float border_width = 0; // world units, drawn inside the rectangle
    float radius = 0;       // corner radius, world units
    std::string text;       // shown centred, shrunk to fit the width; empty: none
    Rgba text_color;
    float text_size = 0; // em height, world units
    CellRole role = CellRole::Value;
    std::optional<CellRef> ref; // the trace cell it shows (hover, tests)
    Marks marks;
    // The trace cells it stands for: more than one where a row too narrow to draw cell by cell
    // merged them into a heat strip (it keeps the first one's value, which it never holds).
    int merged = 1;
    // Its colour is on the value scale (a value, a bin, a thread: the legend's LegendItem::ramp).
    bool on_scale = false;
    // A moving value: the cell it comes from, world units. Drawn only while that cell is, as
    // its arrow (scene::source_drawn). Empty for every other cell.
    Rect source;
};

struct Arrow {
    Vec2 from, to;
    Rgba color;
    float width = 0.05f; // world units
    float head = 0;      // arrowhead length, world units; 0: a plain line
    bool dashed = false;
    // The cell it reads, world units: drawn only while that cell is (scene::arrows_drawn).
    // Empty: a line that reads nothing (a barrier), drawn wherever it runs.
    Rect source;
    // The cell it writes, world units: an arrow is drawn only while that cell is too, so none
    // runs off the picture's edge to a cell out of sight. Empty: no such check.
    Rect target = {};
    // An earlier step's flow, drawn faint for context: left out with its cells, it goes unsaid
    // (the notice said arrows were left out under a step whose own arrows were all drawn).
    bool past = false;
};

enum class Align : std::uint8_t { Left, Center, Right };

// What a label names: a row of cells, something drawn (a note, a title, a count), or a line
// (a barrier). The layout reports each kind; a row's name never leaves the canvas.
enum class LabelKind : std::uint8_t { Row, Note, Line };

struct Label {
    Vec2 pos; // the baseline's anchor point (left, centre or right end, by align)
    std::string text;
    float size = 0.5f; // em height, world units
    Rgba color;
    Align align = Align::Left;
    float max_width = 0; // shrink to fit when wider; 0: no limit
    // When > 0: the em height in pixels, whatever the zoom (names and notes keep a legible
    // size while the cells grow and shrink); `size` then only spaced the picture.
    float px = 0;
    // The baseline this many pixels below `pos` on screen: a row's name and its second line
    // stay a line apart at any zoom (spaced in world units for the zoom a scene was built at,
    // they overlapped where it was framed farther out).
    float drop_px = 0;
    LabelKind kind = LabelKind::Note;
    // A row's name: what one of its cells stands for where that is not an element, in the
    // words the notice counts a row the edge cuts by (totals[] holds one per "block": the
    // notice said "showing elements 0-1 of 64" of a step writing 1024 elements). Empty: none.
    std::string unit = {};
    // A row of part of an array (reduceNaive's magnified in[96–143]): the element its first
    // cell is, and how many the array holds, so the notice counts in the array's own numbers.
    // `of` 0: the row is the whole array.
    int first = 0, of = 0;
    float em_width = 0; // the text's width in ems once measured with the font; 0: estimated
    // A note beside a cell (aligned Left or Right from its edge) that would leave the picture
    // there is drawn from this x instead, aligned the other way: a student's mark on a cell at
    // the picture's edge is read whole. Empty: none.
    std::optional<float> turn_x = std::nullopt;
};

// A colour's meaning, drawn by the canvas in screen space (a corner of the view), so that it
// stays readable whatever the zoom.
struct LegendItem {
    Rgba color;
    std::string text;
    // The value scale (scene::value_scale, low to high) of a row coloured by value, bin,
    // thread or order: the swatch is the scale itself, and `color` only its middle.
    bool ramp = false;
    bool operator==(const LegendItem&) const = default;
};

struct Scene {
    Rect bounds;  // everything, for "fit"
    Rect focus;   // the rows the current step writes and reads, for "follow"
    Rect detail;  // within them, the cells it writes and reads (for rows too wide to read)
    Rect written; // within those, the cells it writes: a camera showing part keeps them
    // The cell the step's caption names (a histogram round's busiest bin), or the cells a step
    // is about among many it writes (a merge's bins that hold a count), empty where none: a
    // camera showing part of its row shows it, from its start where it is wider than the view
    // (the caption named bin 48 under bins 14-25).
    Rect named;
    Rgba background;
    std::vector<Cell> panels; // group boxes and bands, drawn first
    std::vector<Arrow> arrows;
    std::vector<Cell> cells;
    std::vector<Label> labels;
    std::vector<Cell> movers; // values travelling along their arrows, drawn last
    std::string caption;      // the chapter's words for the step
    std::vector<LegendItem> legend;
    // What the view left out for want of room (ViewOptions::room_px), in the words the canvas's
    // notice says it: "no room for the contention row at this size". Empty: nothing.
    std::string left_out;
    float text_scale = 1; // the presenter scale it was built for: no text under 11 px times it
    // The width of the cells whose values the step is about (world units): a camera reads
    // them at its legible number of pixels per cell (histogram bars are wider than one unit).
    float value_width = 1;
    // Pixels per world unit, per pixel of legible text, at which every value the step writes
    // fits its cell (scene::value_px): the follow view reads them at the legible minimum times
    // it (reduce-full's sum, six digits, was left out of its cell at 28 pixels a unit). 0: none.
    float written_values_zoom = 0;
    // Pixels per world unit under which its rows' two-line names are taller than their rows
    // (a line apart in pixels, they overlap the next row's): the follow view frames no farther
    // out. 0: none.
    float names_zoom = 0;
    float row_stretch = 1; // ViewOptions::row_stretch it was built with
    // ViewOptions::pixels_per_unit it was built for: what is added later in pixels (a student's
    // marks) is spaced by it.
    float pixels_per_unit = 0;
};

// The smallest text drawn, in pixels at presenter scale 100%: anything smaller is left out
// (a cell then shows its value on hover).
inline constexpr float kMinTextPx = 11.0f;
// A text's width in ems per character where it is not yet measured with the font: a little
// over DejaVu Sans's average advance.
inline constexpr float kEmPerChar = 0.6f;

// reduceAtomic's tag over an arrival, naming the block whose atomicAdd landed: the view draws
// it, the notice looks for it among the texts drawn.
inline std::string arrival_tag(int block) {
    return "block " + std::to_string(block);
}
// A value may take this much of its cell's width and of its height.
inline constexpr float kValueFill = 0.86f;
// The camera never zooms closer than this many pixels per cell at presenter scale 100%: a value
// the step writes that its cell holds only closer than that is a strip's, never drawn.
inline constexpr float kClosestPx = 72.0f;

// The one rule for whether a cell's value is drawn, and how large: the em height in pixels of
// a value `em` ems wide in a cell `w` x `h` pixels that asks for `wanted` pixels (its
// text_size on screen). As asked where the cell holds that; else as large as the cell holds,
// and where that is under the legible minimum `least` but the cell holds the value at `least`,
// at `least` (cells 26 px wide drew no value at 100%: they asked for 10.9 px); 0 where it cannot
// hold it even so. The renderer draws by it, the canvas's notice says what it left out, and the
// scene colours a row none of whose values it draws.
// A cell narrower than kValueCellEms legible ems shows no value at all: a digit fits a cell of
// 9 pixels at 11, and a row of them (hist's data[] rounds, 64 to a row) read as a barcode of
// digits and borders ("3|3|3|3").
inline constexpr float kValueCellEms = 1.6f;
inline float value_px(float wanted, float em, float w, float h, float least) {
    if (w < kValueCellEms * least)
        return 0.0f;
    const float px = std::min(wanted, kValueFill * w / em);
    if (px >= least)
        return px;
    return least * em <= kValueFill * w && least <= kValueFill * h ? least : 0.0f;
}
// The thickest a cell's border is drawn, in pixels at presenter scale 100% (a cell marked with a
// pitfall: twice this).
inline constexpr float kBorderPx = 3.0f;

// Of the cells `among` (indices into `cells`), those where their value is read, in order: of
// the cells that draw one trace cell (reduceNaive's sums, narrow on the strip of every sum and
// whole in the magnified part), the widest. A student's answer is marked there, and the notice
// counts the step's cells there only (the strip's sliver for addition 1 stood for 185 sums and
// said "showing thread 0 of 185").
std::vector<std::size_t> read_where(const std::vector<Cell>& cells,
                                    const std::vector<std::size_t>& among);

// The topmost cell showing a trace value (movers excluded) under the point, or nullptr.
const Cell* hit_test(const Scene& s, Vec2 world);

} // namespace pplab::scene
