#include "canvas_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <utility>

namespace pplab::render {

namespace {

using scene::Rect;

bool overlaps(const Rect& a, const Rect& b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

bool inside(const Rect& a, const Rect& b) {
    return a.x >= b.x && a.right() <= b.right() && a.y >= b.y && a.bottom() <= b.bottom();
}

Rect intersect(const Rect& a, const Rect& b) {
    const float x = std::max(a.x, b.x), y = std::max(a.y, b.y);
    return {x, y, std::min(a.right(), b.right()) - x, std::min(a.bottom(), b.bottom()) - y};
}

Rect on_screen(const scene::Camera& c, const Rect& world, float w, float h) {
    const scene::Vec2 a = c.to_screen({world.x, world.y}, w, h);
    return {a.x, a.y, world.w * c.scale, world.h * c.scale};
}

// What a box over the canvas could hide: cells and bars with something drawn, the threads'
// strips. Group boxes and bands behind the picture do not count.
bool shows_something(const scene::Cell& c) {
    return c.role != scene::CellRole::Panel && (c.fill.a > 0 || c.border_width > 0);
}

// What the picture's edges must not cut: cells, bars and strips with something drawn, and the
// outlines round a selection (a Panel in the cells' layer: the line left of in[]'s outline under
// the notice read as a stray rule).
std::vector<Rect> drawn_boxes(const scene::Scene& s, const scene::Camera& c, float w, float h,
                              const Rect& picture) {
    std::vector<Rect> boxes;
    for (const std::vector<scene::Cell>* layer : {&s.cells, &s.panels})
        for (const scene::Cell& cell : *layer) {
            const bool outline = layer == &s.cells && cell.border_width > 0;
            if (!shows_something(cell) && !outline)
                continue;
            const Rect box = on_screen(c, cell.rect, w, h);
            if (box.x < picture.right() && box.right() > picture.x)
                boxes.push_back(box);
        }
    return boxes;
}

// The camera for `picture` (canvas pixels) of a canvas of r.width x r.height; `names_beside`:
// the rows' names have a column of their own left of it.
scene::Camera aim(const scene::Scene& s, const CanvasRequest& r, const Rect& picture,
                  bool names_beside = false) {
    if (r.framing == Framing::Free)
        return r.camera;
    const float margin = kCanvasMarginPx * r.scale;
    // Cells read at kReadablePx, and wide enough for every value the step writes: a hair more
    // than just wide enough, or rounding leaves them out at the very zoom asked for (reduceAtomic's
    // five-digit totals at 200% in 1280x720 framed at 69.91 px a unit, each a sliver too wide).
    constexpr float kFitsWithRoom = 1.01f;
    const float readable = std::max(std::max(kReadablePx, kFitsWithRoom * s.written_values_zoom *
                                                              scene::kMinTextPx * s.value_width) *
                                        r.scale,
                                    r.least_cell_px);
    scene::Camera c = scene::follow(s, picture.w, picture.h, margin, kClosestPx * r.scale, readable,
                                    names_beside, r.rows_beside);
    if (r.framing == Framing::Fit) {
        // The whole scene; never smaller than the follow view when that shows it whole.
        const scene::Camera fit =
            scene::fit_labelled(s, s.bounds, picture.w, picture.h, margin, kClosestPx * r.scale);
        const Rect whole = on_screen(c, s.bounds, picture.w, picture.h);
        if (fit.scale >= c.scale || !inside(whole, {0, 0, picture.w, picture.h}))
            c = fit;
    }
    return moved(c, {picture.x, picture.y}, picture.w, picture.h, r.width, r.height);
}

// How far (pixels, down) the follow view slides so that a row its top (or bottom) edge cuts
// is whole, where the picture has that much room free at the other edge (reduce-full at 200%
// aligned its rows to the bottom, in[] cut at the top, and left the room it would have taken
// empty above them); else, while rows are cut at both edges, so that the part of one left
// showing is not left as an empty band (the edge leaves a cut row out). The step's own rows
// (the focus) are never slid out for it. `way`: the way it slid before (0: none yet).
float slide_past_cut_row(const scene::Scene& s, const scene::Camera& c, const CanvasRequest& r,
                         const Rect& picture, float way) {
    constexpr float kGapPx = 2.0f;
    const float focus_top = c.to_screen({0, s.focus.y}, r.width, r.height).y;
    const float focus_bottom = focus_top + s.focus.h * c.scale;
    struct Edges {
        float cut_top = 0, cut_bottom = 0;     // how far a row reaches past each edge
        float shown_top = 0, shown_bottom = 0; // how much of it is inside
        float highest = 0, lowest = 0;         // what is drawn inside
    };
    Edges all{0, 0, 0, 0, picture.bottom(), picture.y}, focus = all;
    const auto take = [&](float top, float bottom) {
        if (bottom <= picture.y || top >= picture.bottom())
            return;
        for (Edges* e : {&all, &focus}) {
            if (e == &focus && (bottom <= focus_top || top >= focus_bottom))
                continue;
            if (top < picture.y) {
                e->cut_top = std::max(e->cut_top, picture.y - top);
                e->shown_top = std::max(e->shown_top, bottom - picture.y);
            }
            if (bottom > picture.bottom()) {
                e->cut_bottom = std::max(e->cut_bottom, bottom - picture.bottom());
                e->shown_bottom = std::max(e->shown_bottom, picture.bottom() - top);
            }
            e->highest = std::min(e->highest, top);
            e->lowest = std::max(e->lowest, bottom);
        }
    };
    for (const Rect& box : drawn_boxes(s, c, r.width, r.height, picture))
        take(box.y, box.bottom());
    for (const scene::Label& l : s.labels)
        if (l.px > 0 && l.kind != scene::LabelKind::Line) {
            const scene::Vec2 at = scene::anchor_on_screen(l, c, r.width, r.height);
            // A row's name stands beside the picture; a note counts where it is drawn.
            if (l.kind == scene::LabelKind::Row || (at.x >= picture.x && at.x <= picture.right()))
                take(at.y - 0.85f * l.px - kTextEdgePx, at.y + 0.3f * l.px + kTextEdgePx);
        }
    const float below_focus = picture.bottom() - focus.lowest - kGapPx;
    const float above_focus = focus.highest - picture.y - kGapPx;
    if (way >= 0 && all.cut_top > 0 && focus.cut_bottom <= 0 && all.cut_top <= below_focus)
        return all.cut_top + kGapPx; // the row above in whole
    if (way <= 0 && focus.cut_bottom > 0 && all.cut_top <= 0 &&
        focus.cut_bottom + kGapPx <= all.highest - picture.y)
        return -(focus.cut_bottom + kGapPx);     // the step's own row below in whole
    if (all.cut_top > 0 && all.cut_bottom > 0) { // cut at both edges
        if (way <= 0 && focus.cut_top <= 0 && all.shown_top <= above_focus)
            return -(all.shown_top + kGapPx); // the rest of the row above out, more below in
        if (way >= 0 && focus.cut_bottom <= 0 && all.shown_bottom <= below_focus)
            return all.shown_bottom + kGapPx;
    }
    // Nothing drawn in a band wider than the margin at one edge (the reads from a row wholly
    // above are left out) while rows are cut at the other: the rows move into it.
    const float margin = kCanvasMarginPx * r.scale;
    if (way <= 0 && all.cut_bottom > 0 && all.highest - picture.y > margin + kGapPx)
        return -(all.highest - picture.y - margin);
    if (way >= 0 && all.cut_top > 0 && picture.bottom() - all.lowest > margin + kGapPx)
        return picture.bottom() - all.lowest - margin;
    return 0;
}

// The follow view slid past the rows its edges cut, while there is room: a row wholly above the
// edge comes into its reach once the one it cut is in (block 1024's in[] above s[] load).
scene::Camera slid_past_cut_rows(const scene::Scene& s, scene::Camera c, const CanvasRequest& r,
                                 const Rect& picture) {
    float way = 0;
    for (int round = 0; round < 3; ++round) {
        const float by = slide_past_cut_row(s, c, r, picture, way);
        if (by == 0)
            break;
        way = by;
        c.center.y -= by / c.scale;
    }
    return c;
}

// One pass of without_cut_rows: `top` and `bottom` moved past the rows (cells, or a row's name
// and its cells) they cut.
void cut_rows_out(const scene::Scene& s, const scene::Camera& c, const CanvasRequest& r,
                  const std::vector<Rect>& boxes, float& top, float& bottom) {
    constexpr float kGapPx = 2.0f;
    const float top_was = top, bottom_was = bottom;
    for (const Rect& box : boxes) {
        if (box.y < bottom_was && box.bottom() > bottom_was && box.y > top_was)
            bottom = std::min(bottom, box.y - kGapPx);
        if (box.y < top_was && box.bottom() > top_was && box.bottom() < bottom_was)
            top = std::max(top, box.bottom() + kGapPx);
    }
    // A row's name reaching past the bottom edge (or into the margin text keeps from it)
    // takes its row along.
    for (const scene::Label& l : s.labels) {
        if (l.kind != scene::LabelKind::Row || l.px <= 0)
            continue;
        const float y = scene::anchor_on_screen(l, c, r.width, r.height).y;
        if (y - 0.8f * l.px >= bottom || y + 0.25f * l.px + kTextEdgePx <= bottom)
            continue;
        float row_top = y - 0.8f * l.px;
        for (const Rect& box : boxes)
            if (box.bottom() > y - 2.2f * l.px && box.y < y)
                row_top = std::min(row_top, box.y);
        bottom = std::min(bottom, row_top - kGapPx);
    }
    // A row's name reaching past the top edge (its cells whole under it) takes its row along
    // too: scan-blelloch's "stride 1" stood alone beside upsweep 0, its name left out.
    for (const scene::Label& l : s.labels) {
        if (l.kind != scene::LabelKind::Row || l.px <= 0)
            continue;
        const float y = scene::anchor_on_screen(l, c, r.width, r.height).y;
        if (y + 0.25f * l.px <= top || y - 0.8f * l.px - kTextEdgePx >= top)
            continue;
        float row_bottom = y + 0.25f * l.px;
        for (const Rect& box : boxes)
            if (box.y < y + 1.5f * l.px && box.bottom() > y - 0.8f * l.px)
                row_bottom = std::max(row_bottom, box.bottom());
        top = std::max(top, row_bottom + kGapPx);
    }
}

// A row the picture's top or bottom edge would cut in half (its cells, or its name below them)
// is left out whole: the edge moves to the gap between rows, by at most a third of the picture.
Rect without_cut_rows(const scene::Scene& s, const scene::Camera& c, const CanvasRequest& r,
                      Rect picture) {
    // The cells' and the strips' on screen, beside the picture or in it.
    const std::vector<Rect> boxes = drawn_boxes(s, c, r.width, r.height, picture);
    float top = picture.y, bottom = picture.bottom();
    // Until no row is cut: an edge moved past one row can cut the next (hist-per-warp's data[]
    // rounds at 1240x480: the edge moved under round 1 cut round 2).
    for (int round = 0; round < 4; ++round) {
        const float was_top = top, was_bottom = bottom;
        cut_rows_out(s, c, r, boxes, top, bottom);
        if (top == was_top && bottom == was_bottom)
            break;
    }
    // A row too tall to leave out within a third stays, cut: moved by the third alone, the edge
    // still cut it and left a third of the canvas empty (hist-per-warp at 1920x1080: data[]'s
    // rows, 190 pixels each, cut under 300 pixels of nothing).
    const float most = picture.h / 3;
    if (top > picture.y + most)
        top = picture.y;
    if (bottom < picture.bottom() - most)
        bottom = picture.bottom();
    return {picture.x, top, picture.w, bottom - top};
}

// The cells an edge at x cuts, of those spanning [starts[i], ends[i]] (each sorted): a cell
// reaching no more than `over` past it (rounding) is not cut. Every cell is wider than 2 * over,
// so one ending before x + over began before x - over.
std::ptrdiff_t cells_cut(const std::vector<float>& starts, const std::vector<float>& ends, float x,
                         float over) {
    return (std::lower_bound(starts.begin(), starts.end(), x - over) - starts.begin()) -
           (std::upper_bound(ends.begin(), ends.end(), x + over) - ends.begin());
}

// A cell the picture's left or right edge would cut in half is left out whole: the edge moves
// to the start of a cell (or the end, on the left), where it cuts the fewest, by no more than
// twice the widest cell it cut (and a third of the picture), never past the cells the step writes.
// A cell sliced by a docked legend read as the legend covering cells (reduce-tree at block 1024,
// 1280x720 at 200%: thread 9 cut in two beside "thread that works at that level"): beside one
// (`legend_right`) the right edge goes as far as a third to cut none (reduceAtomic's out[] and
// arrivals, two rows of two pitches, had no clean edge within two cells).
Rect without_cut_columns(const scene::Scene& s, const scene::Camera& c, const CanvasRequest& r,
                         const Rect& picture, bool legend_right) {
    std::vector<float> starts, ends;
    for (const scene::Cell& cell : s.cells) {
        const Rect box = on_screen(c, cell.rect, r.width, r.height);
        // A line or a band across the picture (a row's outline, a chart's axis) may run on
        // past the edge: only cells a reader takes one at a time count.
        if (shows_something(cell) && box.w >= kThinCellPx * r.scale && box.w < picture.w / 3 &&
            box.y < picture.bottom() && box.bottom() > picture.y) {
            starts.push_back(box.x);
            ends.push_back(box.right());
        }
    }
    // No further than twice the widest cell the edge cuts: moved by a third to spare two cells,
    // hist-per-warp at 64 threads lost half its bins and the data's title.
    const float over = 0.05f, most = picture.w / 3;
    float span_left = 0, span_right = 0;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        if (starts[i] < picture.right() - over && ends[i] > picture.right() + over)
            span_right = std::max(span_right, ends[i] - starts[i]);
        if (starts[i] < picture.x - over && ends[i] > picture.x + over)
            span_left = std::max(span_left, ends[i] - starts[i]);
    }
    std::sort(starts.begin(), starts.end());
    std::sort(ends.begin(), ends.end());
    // The step's cells stay: whole where they were shown whole, else some of them.
    const Rect written = on_screen(c, s.written, r.width, r.height);
    const bool some =
        !s.written.empty() && written.x < picture.right() && written.right() > picture.x;
    const bool whole = some && written.x >= picture.x && written.right() <= picture.right();
    const float right_reach = legend_right ? most : std::min(most, 2 * span_right + over);
    const float right_least = std::max(picture.right() - right_reach, !some   ? picture.x
                                                                      : whole ? written.right()
                                                                              : written.x + over);
    const float left_most = std::min(picture.x + std::min(most, 2 * span_left + over),
                                     !some   ? picture.right()
                                     : whole ? written.x
                                             : written.right() - over);
    // Each edge where it cuts the fewest cells; of those, the one that keeps the most.
    float right = picture.right(), left = picture.x;
    std::ptrdiff_t right_cuts = cells_cut(starts, ends, right, over);
    for (auto at = std::lower_bound(starts.begin(), starts.end(), right);
         right_cuts > 0 && at != starts.begin() && *(at - 1) >= right_least;) {
        --at;
        if (const std::ptrdiff_t cuts = cells_cut(starts, ends, *at, over); cuts < right_cuts) {
            right = *at;
            right_cuts = cuts;
        }
    }
    std::ptrdiff_t left_cuts = cells_cut(starts, ends, left, over);
    for (auto at = std::upper_bound(ends.begin(), ends.end(), left);
         left_cuts > 0 && at != ends.end() && *at <= std::min(left_most, right); ++at)
        if (const std::ptrdiff_t cuts = cells_cut(starts, ends, *at, over); cuts < left_cuts) {
            left = *at;
            left_cuts = cuts;
        }
    return {left, picture.y, right - left, picture.h};
}

// The width of a column for the names of rows that begin left of `area` (0: none does).
float names_width(const FontAtlas& font, const scene::Scene& s, const scene::Camera& c,
                  const CanvasRequest& r, const Rect& area) {
    float widest = 0;
    for (const scene::Label& l : s.labels) {
        if (l.kind != scene::LabelKind::Row || l.px <= 0)
            continue;
        const scene::Vec2 at = scene::anchor_on_screen(l, c, r.width, r.height);
        const float tw = font.width(l.text) * l.px;
        const float x = l.align == scene::Align::Right    ? at.x - tw
                        : l.align == scene::Align::Center ? at.x - tw / 2
                                                          : at.x;
        if (x < area.x + kTextEdgePx && at.y > area.y && at.y < area.bottom())
            widest = std::max(widest, tw);
    }
    return widest > 0 ? widest + 3 * kTextEdgePx : 0.0f;
}

// Whether the name of a row on screen was left out (rows closer than a name is tall).
bool names_left_out(const scene::Scene& s, const CanvasFrame& f) {
    for (const scene::Label& l : s.labels) {
        if (l.kind != scene::LabelKind::Row || l.px <= 0)
            continue;
        const float y = scene::anchor_on_screen(l, f.camera, f.width, f.height).y;
        if (y - 0.8f * l.px < f.picture.y + kTextEdgePx ||
            y + 0.25f * l.px > f.picture.bottom() - kTextEdgePx)
            continue;
        if (std::none_of(f.text.begin(), f.text.end(),
                         [&](const TextRun& t) { return t.text == l.text; }))
            return true;
    }
    return false;
}

} // namespace

std::string shown_part(const std::string& what, int first, int last, int total) {
    if (first < 0 || (first == 0 && last + 1 >= total))
        return ""; // nothing on screen, or all of it
    const std::string of = " of " + std::to_string(total);
    if (first == last)
        return "showing " + what + " " + std::to_string(first) + of;
    return "showing " + what + "s " + std::to_string(first) + "–" + std::to_string(last) + of;
}

namespace {

constexpr const char* kReadsLeftOut = "arrows to or from cells off screen left out";

// Each frame's place among the atomicAdds that landed, in the order they landed; -1 for others.
std::vector<int> arrival_order(const Trace& t) {
    std::vector<int> order(t.frames.size(), -1);
    int k = 0;
    for (std::size_t f = 0; f < t.frames.size(); ++f)
        if (t.frames[f].step == Step::AtomicAdd)
            order[f] = k++;
    return order;
}
constexpr const char* kNarrowReadsLeftOut = "arrows from cells too narrow to draw left out";
constexpr const char* kTilesOffScreen = "tiles row off screen";
constexpr const char* kLegendLeftOut = "no room for the legend at this size";
constexpr const char* kTagsLeftOut = "no room for the arrivals' block numbers";

// The first and last tile of scan-fast's tiles row wholly on screen, counting the tiles that
// have published nothing (cells with no trace cell): counting only the published said "showing
// tile 3 of 8" with all eight on screen. `row`: a published tile's cell.
std::pair<int, int> tiles_shown(const scene::Scene& s, const scene::Camera& cam,
                                const CanvasRequest& r, const Rect& picture, const Rect& row) {
    std::vector<Rect> tiles;
    for (const scene::Cell& c : s.cells)
        if (c.role == scene::CellRole::Value && c.rect.y == row.y && c.rect.h == row.h)
            tiles.push_back(c.rect);
    std::sort(tiles.begin(), tiles.end(), [](const Rect& a, const Rect& b) { return a.x < b.x; });
    int first = -1, last = -1;
    for (int i = 0; i < static_cast<int>(tiles.size()); ++i) {
        const Rect box = on_screen(cam, tiles[static_cast<std::size_t>(i)], r.width, r.height);
        if (overlaps(box, picture) && intersect(box, picture).w >= box.w - 1.0f) {
            first = first < 0 ? i : first;
            last = i;
        }
    }
    return {first, last};
}

// hist-per-warp's step over several warps' charts, each with every bin: the warps whose bins
// are all on screen where there are some ("showing warps 0–4 of 8"), else the bins every warp on
// screen shows whole ("showing bins 0–13 of 256 in warp 0 of 32"). Counted by bins alone, eight
// warps' charts with the fourth cut at bin 15 said nothing (warp 0's showed them all); counted
// by the bins of every warp, warps 0–4 whole and warp 5 cut at bin 0 said "bin 0 of 16".
struct WarpBins {
    std::map<int, std::pair<int, int>> shown; // a warp's first and last bin wholly on screen
    int warps = 0;
    void add(int warp, int bin) {
        const auto [it, added] = shown.try_emplace(warp, bin, bin);
        it->second = {std::min(it->second.first, bin), std::max(it->second.second, bin)};
    }
    std::string part(int bins) const {
        int whole_first = -1, whole_last = -1, first = 0, last = bins - 1;
        for (const auto& [warp, range] : shown) {
            if (range.first == 0 && range.second == bins - 1) {
                whole_first = whole_first < 0 ? warp : whole_first;
                whole_last = warp;
            }
            first = std::max(first, range.first), last = std::min(last, range.second);
        }
        if (shown.empty())
            return "";
        if (whole_first >= 0)
            return shown_part("warp", whole_first, whole_last, warps);
        if (first > last) // the warps on screen show different bins: say the warps alone
            first = 0, last = bins - 1;
        const std::string by_bin = shown_part("bin", first, last, bins);
        const std::string by_warp =
            shown_part("warp", shown.begin()->first, shown.rbegin()->first, warps);
        if (by_bin.empty() || by_warp.empty())
            return by_bin + by_warp;
        return by_bin + " in " + by_warp.substr(std::string_view("showing ").size());
    }
};

// The step's own cells all on screen, its rows cut on the left (reduce-naive n 32 at 200%: in[]
// and sum shown from element 7, nothing said, its 5 read as in[0]): the part of the longest row
// cut, counted by its cells ("showing elements 7–31 of 32"); "" when none is cut.
std::string row_part_shown(const scene::Scene& s, const scene::Camera& cam, const CanvasRequest& r,
                           const Rect& picture) {
    struct Shown {
        float x = 0;
        bool whole = false; // inside the picture
        int merged = 1;     // the elements a heat strip stands for
        bool operator<(const Shown& o) const { return x < o.x; }
    };
    struct Row {
        std::vector<Shown> cells;
        int elements = 0;
        float bottom = 0;
        bool cut = false;
        bool past_right = false, sliced_right = false; // cells right of the edge; one it cuts
    };
    std::map<float, Row> rows; // by their top
    for (const scene::Cell& c : s.cells) {
        if (!c.ref || !shows_something(c) || c.rect.bottom() <= s.focus.y ||
            c.rect.y >= s.focus.bottom())
            continue;
        const Rect box = on_screen(cam, c.rect, r.width, r.height);
        // Lines are not cells; a row is cells of any width in the world (reduceNaive fits 200
        // elements in 48 units: its rows, cut on the left, went unsaid).
        if (box.w < 0.5f || box.bottom() <= picture.y || box.y >= picture.bottom())
            continue; // a row off the top or the bottom is said (or left out) elsewhere
        Row& row = rows[c.rect.y];
        row.bottom = std::max(row.bottom, c.rect.bottom());
        const bool whole = box.x >= picture.x - 1 && box.right() <= picture.right() + 1;
        row.cells.push_back({c.rect.x, whole, std::max(c.merged, 1)});
        row.elements += std::max(c.merged, 1);
        // Cut on the left: the row seems to begin at its first element. On the right, cells
        // plainly go on past the edge where it slices one; an edge moved to a gap between them
        // (beside a docked legend: reduceTree's block of 1024) seemed to end the row.
        row.cut = row.cut || box.x < picture.x - 1;
        row.past_right = row.past_right || box.x >= picture.right() - 1;
        row.sliced_right =
            row.sliced_right || (box.x < picture.right() - 1 && box.right() > picture.right() + 1);
    }
    const Row* longest = nullptr;
    float longest_top = 0;
    for (auto& [top, row] : rows) {
        row.cut = row.cut || (row.past_right && !row.sliced_right);
        if (row.cut && (!longest || row.elements > longest->elements)) {
            longest = &row;
            longest_top = top;
        }
    }
    if (!longest)
        return "";
    std::vector<Shown> cells = longest->cells;
    std::sort(cells.begin(), cells.end());
    // Counted in what its name says one cell stands for: a block's total is a block's.
    std::string unit = "element";
    int first_element = 0, of = 0; // a row of part of an array: in the array's numbers
    for (const scene::Label& l : s.labels)
        if (l.kind == scene::LabelKind::Row && l.pos.y >= longest_top &&
            l.pos.y <= longest->bottom && l.pos.x <= cells.front().x) {
            unit = l.unit.empty() ? unit : l.unit;
            first_element = l.first;
            of = l.of;
        }
    // By element: a heat strip counts the elements it stands for.
    int first = -1, last = -1, at = 0;
    for (const Shown& c : cells) {
        if (c.whole) {
            first = first < 0 ? at : first;
            last = at + c.merged - 1;
        }
        at += c.merged;
    }
    if (of > 0 && first >= 0) // "0–13 of 16" of in[90–105] is elements 90–103 of in[]
        return shown_part(unit, first_element + first, first_element + last, of);
    return shown_part(unit, first, last, at);
}

// A histogram's merge or fold reads one chart and writes the next: where none
// of the chart it reads is in the picture (a canvas with room for one chart:
// hist-per-warp's merge at 150% in 1280x720), the notice says which is off
// screen; "" where it is shown, or the step reads none.
std::string chart_read_off_screen(const scene::Scene& s, const scene::Model& m, const Frame& cur,
                                  const scene::Camera& cam, const CanvasRequest& r,
                                  const Rect& picture) {
    if (cur.step != Step::HistMerge && cur.step != Step::HistFold)
        return "";
    const auto step_of = [&](const scene::Cell& c) {
        return m.trace().frames.at(static_cast<std::size_t>(c.ref->frame)).step;
    };
    const bool merged = std::any_of(s.cells.begin(), s.cells.end(), [&](const scene::Cell& c) {
        return c.ref && c.ref->frame >= 0 && step_of(c) == Step::HistMerge;
    });
    // The merge reads the warps' charts; the fold the merged chart, or
    // (hist-privatised, no merge) the block's s_hist[].
    const bool reads_merged = cur.step == Step::HistFold && merged;
    const auto read = [&](Step step) {
        return reads_merged ? step == Step::HistMerge
                            : step == Step::HistZero || step == Step::HistAccumulate;
    };
    bool any = false;
    for (const scene::Cell& c : s.cells) {
        if (!c.ref || c.ref->frame < 0 || !shows_something(c))
            continue;
        const Frame& f = m.trace().frames.at(static_cast<std::size_t>(c.ref->frame));
        if (f.block != cur.block || !read(f.step))
            continue;
        any = true;
        if (overlaps(on_screen(cam, c.rect, r.width, r.height), picture))
            return "";
    }
    if (!any)
        return "";
    return cur.step == Step::HistMerge ? "the warps' histograms it merges: above, off screen"
           : reads_merged              ? "the merged histogram it folds: above, off screen"
                                       : "s_hist[], which it folds: above, off screen";
}

// A histogram's accumulate step counts one round of data[], drawn above the chart it writes;
// where the rounds between them are taller than the canvas, the follow view keeps the written
// bins and the round falls off the top (hist-privatised, 256 bins, n 1000 at 150% in 1920x1080:
// rounds 3 and 4 on screen while the step counted round 1, nothing said). The notice names the
// round where no element it reads is at least half in the picture (the arrows from it said with
// it: a third line of notice at 200% in 1280x720 cut the step's bars); "" otherwise. A
// reduction's grid-stride accumulate likewise (reduceFull at 200% in 1280x720: round 4 over the
// sums while the step added round 1).
std::string round_read_off_screen(const scene::Scene& s, const Frame& cur, const scene::Camera& cam,
                                  const CanvasRequest& r, const Rect& picture) {
    if (cur.step != Step::HistAccumulate && cur.step != Step::Accumulate)
        return "";
    bool reads = false;
    for (const scene::Arrow& a : s.arrows) {
        if (a.head <= 0 || a.source.empty())
            continue;
        reads = true;
        const Rect box = on_screen(cam, a.source, r.width, r.height);
        if (intersect(box, picture).h >= 0.5f * box.h && overlaps(box, picture))
            return "";
    }
    if (!reads)
        return "";
    return "round " + std::to_string(cur.level) + " and its arrows: above, off screen";
}

// The rows off screen, each side's words.
struct RowsOut {
    std::string above, below; // "in[], s[] load above", "level 2, out[] below"; "" for none
    std::string text() const {
        return above.empty() ? below : below.empty() ? above : above + " · " + below;
    }
};

// The follow view frames the step's rows; the rows it leaves past the top or the bottom edge
// were gone without a word (reduceTree at 200% in 1280x720: in[] above, level 2 and out[]
// below; Blelloch's downsweep rows under a canvas of 1000 pixels). Named by their rows' names,
// at most three a side ("in[] above", "level 2, out[] below"), else counted; "" when none.
// A row counts as off screen unless three quarters of it are in the picture (a sliver of
// hist-per-warp's round 2 under the top edge, its name left out, read as nothing).
RowsOut rows_off_screen(const scene::Scene& s, const scene::Camera& cam, const CanvasRequest& r,
                        const Rect& picture, const std::vector<TextRun>& drawn) {
    if (r.framing != Framing::Follow)
        return {};
    std::vector<std::string> above, below;
    // Rows' names; a row's second line (a stride, a block) is smaller and names no row.
    float name_px = 0;
    for (const scene::Label& l : s.labels)
        if (l.kind == scene::LabelKind::Row)
            name_px = std::max(name_px, l.px);
    // Each name's row: the cells level with it, right of it. Found in one pass over the cells,
    // the names sorted by height (hist-per-warp at 65536 has 90 thousand cells).
    std::vector<std::size_t> name_labels;
    for (std::size_t i = 0; i < s.labels.size(); ++i) {
        const scene::Label& l = s.labels[i];
        if (l.kind == scene::LabelKind::Row && l.px >= 0.9f * name_px && l.px > 0)
            name_labels.push_back(i);
    }
    std::sort(name_labels.begin(), name_labels.end(),
              [&](std::size_t a, std::size_t b) { return s.labels[a].pos.y < s.labels[b].pos.y; });
    struct Extent {
        float top = 0, bottom = 0;
        bool found = false;
    };
    std::vector<Extent> rows(s.labels.size());
    for (const scene::Cell& c : s.cells) {
        if (c.rect.w <= 0 || c.rect.h <= 0)
            continue;
        auto at = std::lower_bound(name_labels.begin(), name_labels.end(), c.rect.y,
                                   [&](std::size_t i, float y) { return s.labels[i].pos.y < y; });
        for (; at != name_labels.end() && s.labels[*at].pos.y <= c.rect.bottom(); ++at) {
            if (s.labels[*at].pos.x > c.rect.x + 0.5f * c.rect.w)
                continue; // a name is left of its row
            Extent& e = rows[*at];
            e.top = e.found ? std::min(e.top, c.rect.y) : c.rect.y;
            e.bottom = e.found ? std::max(e.bottom, c.rect.bottom()) : c.rect.bottom();
            e.found = true;
        }
    }
    std::vector<float> named; // the rows' tops
    for (std::size_t i = 0; i < s.labels.size(); ++i) {
        const scene::Label& l = s.labels[i];
        if (l.kind != scene::LabelKind::Row || l.px < 0.9f * name_px || l.px <= 0)
            continue;
        const auto [top, bottom, found] = rows[i];
        if (!found || std::find(named.begin(), named.end(), top) != named.end())
            continue;
        // A row whose name is drawn is on screen, however little of it shows (reduce-full's
        // "shuffle 5" at the bottom edge, its lanes cut).
        // (Two rows may share a name: reduce-full's first warp has its own shuffle 1-5.)
        const float name_y = scene::anchor_on_screen(l, cam, r.width, r.height).y;
        if (std::any_of(drawn.begin(), drawn.end(), [&](const TextRun& t) {
                return t.kind == TextKind::Label && t.text == l.text &&
                       std::abs(t.baseline - name_y) < l.px;
            }))
            continue;
        named.push_back(top);
        // A name on one line with its second ("s_hist[] · per bin"): the name alone.
        const std::string name = l.text.substr(0, l.text.find(" · "));
        const float y0 = cam.to_screen({0, top}, r.width, r.height).y;
        const float y1 = cam.to_screen({0, bottom}, r.width, r.height).y;
        const float shown = std::min(y1, picture.bottom()) - std::max(y0, picture.y);
        if (shown >= 0.75f * (y1 - y0))
            continue;
        if ((y0 + y1) / 2 < picture.y + picture.h / 2)
            above.push_back(name);
        else
            below.push_back(name);
    }
    const auto said = [](const char* where, const std::vector<std::string>& names) {
        if (names.empty())
            return std::string();
        // Counted where a name would repeat: the histograms' charts each have a "count" row
        // ("count, count below" read as a slip).
        std::vector<std::string> sorted = names;
        std::sort(sorted.begin(), sorted.end());
        const bool repeats = std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
        std::string list;
        if (names.size() > 3 || repeats) {
            list = std::to_string(names.size()) + " rows";
        } else {
            for (const std::string& n : names)
                list += (list.empty() ? "" : ", ") + n;
        }
        return list + " " + where;
    };
    return {said("above", above), said("below", below)};
}

// Whether a value in a cell the picture shows whole is left out: its cell cannot hold it at the
// legible minimum (scene::value_px, the rule its text was laid out by). Read from the texts
// laid out, not from a second threshold of its own: 26 px cells drew no value and the notice,
// which counted 22 px as legible, said nothing. Cells the edge cuts are the part-shown clause's.
bool values_left_out(const scene::Scene& s, const CanvasFrame& framed, const scene::Camera& cam,
                     const CanvasRequest& r, const Rect& picture) {
    std::vector<bool> drawn(s.cells.size(), false);
    for (const TextRun& run : framed.text)
        if (run.kind == TextKind::Cell && run.cell >= 0)
            drawn.at(static_cast<std::size_t>(run.cell)) = true;
    for (std::size_t at = 0; at < s.cells.size(); ++at) {
        const scene::Cell& c = s.cells[at];
        if (!drawn[at] && !c.text.empty() && c.text_size > 0 &&
            inside(on_screen(cam, c.rect, r.width, r.height), picture))
            return true;
    }
    return false;
}

// Why arrows are left out, if any are (scene::arrows_drawn): reads from cells off screen are not
// drawn from the edge (nor the funnel from a block's part of in[], which needs no word), their
// moving values with them; nor are arrows from cells on screen but narrower than an arrow's
// foot (block 1024's elements in Fit: 1024 arrows would be one solid sheet). Said apart: "off
// screen" over a scene wholly on screen sent a teacher looking for cells that were not there.
std::string arrows_left_out(const scene::Scene& s, const scene::Camera& cam, const CanvasRequest& r,
                            const Rect& picture) {
    bool off_screen = false, too_narrow = false;
    const auto left_out = [&](const Rect& source, const Rect& target, scene::Vec2 to) {
        const auto within = [&](const Rect& world) {
            return world.empty() || inside(on_screen(cam, world, r.width, r.height), picture);
        };
        const bool ends_inside =
            scene::inflate(picture, 1, 1).contains(cam.to_screen(to, r.width, r.height));
        (within(source) && within(target) && ends_inside ? too_narrow : off_screen) = true;
    };
    for (const scene::Arrow& a : s.arrows) // the step's own: an earlier step's are context
        if (a.head > 0 && !a.past && !scene::source_drawn(a, cam, r.width, r.height, picture))
            left_out(a.source, a.target, a.to);
    for (const scene::Cell& mv : s.movers)
        if (!scene::source_drawn(mv.source, cam, r.width, r.height, picture))
            left_out(mv.source, {}, {mv.rect.x, mv.rect.y});
    std::string out = off_screen ? kReadsLeftOut : "";
    if (too_narrow)
        out += (out.empty() ? "" : " · ") +
               std::string(r.interactive ? kNarrowReadsLeftOut + std::string(": zoom in")
                                         : kNarrowReadsLeftOut);
    return out;
}

// The part of the step's cells the picture shows whole, counted in what the step works on
// (threads, elements, bins, warps, tiles, arrivals), or of the longest row the edge cuts where
// they are all shown: "showing elements 0-467 of 1024"; "" when the picture shows all of it.
std::string part_shown(const scene::Scene& s, const scene::Model& m, std::size_t frame,
                       const CanvasRequest& r, const CanvasFrame& framed) {
    const scene::Camera& cam = framed.camera;
    const Rect& picture = framed.picture;
    const scene::StepGroup& g = m.steps().at(static_cast<std::size_t>(m.step_of(frame)));
    const Frame& cur = m.trace().frames.at(frame);
    int first = -1, last = -1, total = 0;
    int lane_first = -1, lane_last = -1; // a warp's lanes on screen
    Rect tile_row;                       // scan-fast: a published tile's cell
    // scan-fast draws one cell per tile, from every tile's publish record.
    const bool by_tile = m.request().algorithm == Algorithm::ScanFast;
    const bool by_bin = cur.step == Step::HistZero || cur.step == Step::HistAccumulate ||
                        cur.step == Step::HistMerge || cur.step == Step::HistFold;
    // A histogram's step counts bins, also a warp's own (hist-per-warp's 256 bins said "showing
    // warp 0 of 32" with bins 0-15 of its chart on screen).
    const bool by_warp = cur.warp >= 0 && !by_bin;
    // An atomicAdd step counts arrivals, each a frame of its own (reduce-atomic's sums alone on
    // screen said "showing thread 1 of 2": the step's two cells).
    const std::vector<int> arrival =
        cur.step == Step::AtomicAdd ? arrival_order(m.trace()) : std::vector<int>{};
    const bool by_arrival = !arrival.empty();
    WarpBins warp_bins;
    std::vector<std::size_t> step_cells;
    for (std::size_t at = 0; at < s.cells.size(); ++at) {
        const scene::Cell& c = s.cells[at];
        if (!c.ref || c.ref->frame < 0)
            continue;
        if (!by_tile && !by_arrival && (c.ref->frame < g.first || c.ref->frame > g.last))
            continue;
        const Frame& f = m.trace().frames.at(static_cast<std::size_t>(c.ref->frame));
        if (by_tile      ? f.step != Step::TilePublish || c.role != scene::CellRole::Value
            : by_arrival ? f.step != Step::AtomicAdd
                         : f.block != cur.block)
            continue;
        step_cells.push_back(at);
    }
    for (const std::size_t at : scene::read_where(s.cells, step_cells)) {
        const scene::Cell& c = s.cells[at];
        const Frame& f = m.trace().frames.at(static_cast<std::size_t>(c.ref->frame));
        const int index = by_tile      ? f.block
                          : by_arrival ? arrival[static_cast<std::size_t>(c.ref->frame)]
                          : by_warp    ? f.warp
                                       : c.ref->cell;
        // A heat strip stands for its cells from its first one on: its last one counts too
        // (block 1024's out[] said "of 1021", its last strip counted as element 1020 alone).
        const int last_index =
            by_tile || by_warp || by_arrival ? index : index + std::max(1, c.merged) - 1;
        total = std::max(total, last_index + 1);
        if (by_bin && f.warp >= 0)
            warp_bins.warps = std::max(warp_bins.warps, f.warp + 1);
        if (by_tile)
            tile_row = c.rect;
        const Rect box = on_screen(cam, c.rect, r.width, r.height);
        // A value the edge cuts (bin 15 of 16 at 200%, its number left out) is not shown: the
        // notice says so.
        if (!overlaps(box, picture) || intersect(box, picture).w < box.w - 1.0f)
            continue;
        first = first < 0 ? index : std::min(first, index);
        last = std::max(last, last_index);
        if (by_bin && f.warp >= 0)
            warp_bins.add(f.warp, index);
        if (by_warp && f.buffer == Buffer::Lanes) {
            lane_first = lane_first < 0 ? c.ref->cell : std::min(lane_first, c.ref->cell);
            lane_last = std::max(lane_last, c.ref->cell);
        }
    }
    if (by_tile) {
        total = m.grid(cur.pass); // tiles that have published nothing have cells too
        if (!tile_row.empty())
            std::tie(first, last) = tiles_shown(s, cam, r, picture, tile_row);
    }
    // s[WARPS] holds one slot per warp: its cells are the warps'.
    const bool per_warp = by_warp || cur.step == Step::WarpTotals;
    // A scan's rows are arrays written by element (a downsweep's thread 3 writes elements 6 and
    // 7): its notice counts elements at every step (the load said threads, add-carries elements).
    const bool by_element = info(m.request().algorithm).family == Family::Scan;
    const std::string what = by_tile      ? "tile"
                             : by_arrival ? "arrival"
                             : per_warp   ? "warp"
                             : by_bin     ? "bin"
                             : by_element ? "element"
                                          : "thread";
    // A canvas a few rows tall (1280x720 at 200%) shows the look-back's own rows: the tiles row
    // above them is said to be off screen, not left out silently.
    std::string part = by_tile && first < 0 && total > 0 ? std::string(kTilesOffScreen)
                       : warp_bins.warps > 0             ? warp_bins.part(total)
                                                         : shown_part(what, first, last, total);
    if (part.empty())
        part = row_part_shown(s, cam, r, picture);
    if (by_warp && first >= 0 && first == last && lane_first >= 0) {
        // One warp on screen, its lanes cut at the edge (a block of 32 at 200%): say which.
        if (std::string lanes = shown_part("lane", lane_first, lane_last, kWarpSize);
            !lanes.empty())
            part = lanes + (total > 1 ? " of warp " + std::to_string(first) : "");
    }
    return part;
}

// Whether an arrival reduceAtomic shows whole has no tag naming its block: the layout left it
// out, with no room over the row (the arrivals at 200% in 1280x720, the canvas 220 px tall).
bool arrival_tags_left_out(const scene::Scene& s, const scene::Model& m, const CanvasRequest& r,
                           const CanvasFrame& framed) {
    std::set<std::string> drawn;
    for (const TextRun& t : framed.text)
        if (t.kind == TextKind::Label)
            drawn.insert(t.text);
    for (const scene::Cell& c : s.cells) {
        if (!c.ref || c.ref->frame < 0 || c.ref->cell != 0 || c.role == scene::CellRole::Future)
            continue;
        const Frame& f = m.trace().frames.at(static_cast<std::size_t>(c.ref->frame));
        if (f.step == Step::AtomicAdd &&
            inside(on_screen(framed.camera, c.rect, r.width, r.height), framed.picture) &&
            !drawn.count(scene::arrival_tag(f.block)))
            return true;
    }
    return false;
}

// Which of the step's rows are on screen when not all of them are, or that values are too
// small to read; empty when neither.
std::string notice_text(const FontAtlas& font, const scene::Scene& s, const scene::Model& m,
                        std::size_t frame, const CanvasRequest& r, const CanvasFrame& framed,
                        bool rows_too = true) {
    const scene::Camera& cam = framed.camera;
    const Rect& picture = framed.picture;
    const Frame& cur = m.trace().frames.at(frame);
    const std::string part = part_shown(s, m, frame, r, framed);
    const std::string reads_left_out = arrows_left_out(s, cam, r, picture);
    // Names the layout had to leave out (rows too close at this zoom) are said, whatever else is.
    const std::string names_out = !names_left_out(s, framed) ? ""
                                  : r.interactive
                                      ? "rows too close to name each: Follow, or zoom in"
                                      : "rows too close to name each at this size";
    const std::string values_out =
        !values_left_out(s, framed, cam, r, picture) ? ""
        : r.interactive ? "values too small to read here: hover a cell, or zoom in (wheel)"
                        : "values too small to read at this size";
    // The chart the step reads named where it is off screen, before the arrows left out with it.
    std::string reads_out = chart_read_off_screen(s, m, cur, cam, r, picture);
    const std::string round_out = round_read_off_screen(s, cur, cam, r, picture);
    if (reads_out.empty())
        reads_out = round_out;
    // The rows past the top or the bottom edge, last: where a histogram's chart or round read
    // off screen is said, that is the row that matters, and the rest is not said.
    const std::string rows_out = rows_too && reads_out.empty()
                                     ? rows_off_screen(s, cam, r, picture, framed.text).text()
                                     : "";
    if (!reads_left_out.empty() && round_out.empty())
        reads_out += (reads_out.empty() ? "" : " · ") + reads_left_out;
    std::string text;
    for (const std::string& clause :
         {part, reads_out, values_out,
          arrival_tags_left_out(s, m, r, framed) ? std::string(kTagsLeftOut) : std::string(),
          // said also where part of the step is shown (Blelloch at 200%)
          framed.legend_hidden ? std::string(kLegendLeftOut) : std::string(), s.left_out, names_out,
          rows_out})
        if (!clause.empty())
            text += (text.empty() ? "" : " · ") + clause;
    const std::string hint = r.framing == Framing::Follow ? " · drag, or Fit all for the whole"
                                                          : " · drag to see the rest";
    // The hint only where part of the step is shown and the line keeps its size: the count and
    // the reads come first.
    if (!part.empty() && r.interactive &&
        font.width(text + hint) * kLegendPx * r.scale <= framed.width - kLegendPx * r.scale)
        text += hint;
    return text;
}

struct LegendStyle {
    float px = 0, line = 0, pad = 0, swatch = 0, gap = 0;
    explicit LegendStyle(float scale, float text_px = kLegendPx)
        : px(text_px * scale), line(std::round(text_px * scale * 1.3f)),
          pad(std::round(text_px * scale * 0.5f)), swatch(std::round(text_px * scale * 1.2f)),
          gap(std::round(text_px * scale * 0.5f)) {}
};

// The legend's entries laid out in a box at (0, 0): stacked with their texts wrapped to
// `text_w` pixels, or (`flow`) side by side in lines no wider than `text_w`.
struct LegendLayout {
    scene::Vec2 size;
    std::vector<LegendEntry> entries;
    std::vector<std::vector<std::string>> lines; // each entry's text, line by line
    std::vector<scene::Rgba> colors;             // each entry's swatch
    std::vector<char> ramps;                     // each entry's: the value scale, twice as wide
};

// A swatch's width: the value scale's is twice a colour's, so its run from low to high reads.
float swatch_width(bool ramp, const LegendStyle& st) {
    return ramp ? 2 * st.swatch : st.swatch;
}

LegendLayout legend_layout(const FontAtlas& font, const std::vector<scene::LegendItem>& items,
                           const LegendStyle& st, float text_w, bool flow) {
    LegendLayout out;
    float x = st.pad, y = st.pad, widest = 0;
    const float room = text_w + st.swatch + st.gap;
    for (const scene::LegendItem& item : items) {
        // A short last word kept with the one before it ("written by this" over "step" in a
        // card at 200%).
        // The value scale's wider swatch taken from its text: every entry as wide as sized.
        std::vector<std::string> lines =
            wrap(font, glue_last_word(item.text), st.px,
                 std::max(text_w - (swatch_width(item.ramp, st) - st.swatch), 4 * st.px));
        for (std::string& l : lines)
            l = plain_spaces(std::move(l));
        float tw = 0;
        for (const std::string& l : lines)
            tw = std::max(tw, font.width(l) * st.px);
        const float ew = swatch_width(item.ramp, st) + st.gap + tw;
        const float eh = static_cast<float>(lines.size()) * st.line;
        if (flow && x > st.pad && x + ew > st.pad + room) { // the next line of the band
            x = st.pad;
            y += st.line;
        }
        out.entries.push_back({{x, y, ew, eh}, item.text, st.px});
        out.lines.push_back(std::move(lines));
        out.colors.push_back(item.color);
        out.ramps.push_back(static_cast<char>(item.ramp));
        widest = std::max(widest, x + ew);
        if (flow) {
            x += ew + 2 * st.swatch;
        } else {
            y += eh + st.line * 0.25f;
        }
    }
    const float bottom = flow ? y + st.line : y - st.line * 0.25f;
    out.size = {widest + st.pad, bottom + st.pad};
    return out;
}

// The legend's overlay at `box`: a floating card or a docked band, swatches and texts.
void draw_legend(CanvasFrame& f, const LegendLayout& l, const scene::Palette& pal,
                 const LegendStyle& st) {
    scene::Cell card;
    card.rect = f.legend_box;
    card.fill = f.legend_docked ? pal.panel : scene::with_alpha(pal.background, 0.94f);
    card.border = pal.panel_border;
    card.border_width = f.legend_docked ? 0.0f : std::max(1.0f, st.px / 16);
    card.radius = f.legend_docked ? 0.0f : st.pad;
    f.overlay_cells.push_back(card);
    for (std::size_t i = 0; i < l.entries.size(); ++i) {
        LegendEntry e = l.entries[i];
        e.rect.x += f.legend_box.x;
        e.rect.y += f.legend_box.y;
        const float mid = e.rect.y + st.line * 0.5f;
        const scene::Rect swatch = {e.rect.x, mid - st.px * 0.25f, swatch_width(l.ramps[i], st),
                                    st.px * 0.5f};
        if (l.ramps[i]) {
            // The value scale in steps, low on the left: a run of flat cells every renderer
            // (GL, PNG, SVG, the page) draws alike.
            constexpr int kSteps = 12;
            for (int k = 0; k < kSteps; ++k) {
                scene::Cell sw;
                const float x0 = std::round(swatch.x + swatch.w * static_cast<float>(k) / kSteps);
                const float x1 =
                    std::round(swatch.x + swatch.w * static_cast<float>(k + 1) / kSteps);
                sw.rect = {x0, swatch.y, x1 - x0, swatch.h};
                sw.fill = scene::value_scale(static_cast<float>(k) / (kSteps - 1));
                f.overlay_cells.push_back(sw);
            }
        } else {
            scene::Cell sw;
            sw.rect = swatch;
            sw.fill = l.colors[i];
            sw.radius = 2;
            f.overlay_cells.push_back(sw);
        }
        float baseline = e.rect.y + st.line * 0.5f + st.px * 0.3f;
        for (const std::string& text : l.lines[i]) {
            scene::Label t;
            t.pos = {e.rect.x + swatch.w + st.gap, baseline};
            t.text = text;
            t.size = st.px;
            t.px = st.px;
            t.color = pal.text;
            f.overlay_labels.push_back(t);
            baseline += st.line;
        }
        f.legend.push_back(std::move(e));
    }
}

// Whether `box` (canvas pixels) would hide a cell, a text or a line of the picture, or come
// within `gap` pixels of a line.
bool covers_picture(const scene::Scene& s, const CanvasFrame& f, const Rect& box, float gap) {
    for (const std::vector<scene::Cell>* layer : {&s.cells, &s.panels})
        for (const scene::Cell& c : *layer)
            if (shows_something(c)) {
                const Rect seen =
                    intersect(on_screen(f.camera, c.rect, f.width, f.height), f.picture);
                // Outside the picture the intersection turns inside out; a bar of count 0
                // (no height, its border drawn) is still a line the legend must not hide.
                if (seen.w >= 0 && seen.h >= 0 && overlaps(seen, box))
                    return true;
            }
    if (std::any_of(f.text.begin(), f.text.end(),
                    [&](const TextRun& t) { return overlaps(t.rect, box); }))
        return true;
    // Nor a line drawn, nor with its edge on one (at 200% a corner card ended where
    // "__syncthreads()"'s line began, the two read as one).
    const Rect clear = scene::inflate(box, gap, gap);
    for (const scene::Arrow& a : scene::arrows_drawn(s, f.camera, f.width, f.height, f.picture))
        if (scene::segment_crosses(f.camera.to_screen(a.from, f.width, f.height),
                                   f.camera.to_screen(a.to, f.width, f.height), clear))
            return true;
    return false;
}

// The camera for `area`, the drawing's part of it (less the rows' names column and the rows
// the edges would cut), and the texts.
void frame_text(CanvasFrame& f, const FontAtlas& font, const scene::Scene& s,
                const CanvasRequest& r, const Rect& area, bool legend_right = false) {
    f.camera = aim(s, r, area);

    f.picture = area;
    f.names = {};
    if (const float names = names_width(font, s, f.camera, r, area);
        names > 0 && names < 0.4f * area.w) {
        f.picture = {area.x + names, area.y, area.w - names, area.h};
        f.names = {area.x, area.y, names, area.h};
        f.camera = aim(s, r, f.picture, true);
    }
    if (r.framing == Framing::Follow)
        f.camera = slid_past_cut_rows(s, f.camera, r, f.picture);
    if (r.framing != Framing::Free) {
        f.picture = without_cut_rows(s, f.camera, r, f.picture);
        f.picture = without_cut_columns(s, f.camera, r, f.picture, legend_right);
        if (!f.names.empty())
            f.names = {f.names.x, f.picture.y, f.names.w, f.picture.h};
    }
    f.text = scene_text(font, s, f.camera, f.width, f.height, f.picture, f.names);
}

// Whether f's picture's right edge slices a cell (wider than a mark, narrower than a third of
// the picture) that a legend docked beside it would read as covering: without_cut_columns
// found no clean edge near enough.
bool sliced_at_right(const scene::Scene& s, const CanvasFrame& f, const CanvasRequest& r) {
    const float slice = 2 * r.scale; // less off a cell's edge is its border
    return std::any_of(s.cells.begin(), s.cells.end(), [&](const scene::Cell& c) {
        const Rect box = on_screen(f.camera, c.rect, f.width, f.height);
        return shows_something(c) && box.w >= kThinCellPx * r.scale && box.w < f.picture.w / 3 &&
               box.y < f.picture.bottom() && box.bottom() > f.picture.y &&
               box.x < f.picture.right() - slice && box.right() > f.picture.right() + slice;
    });
}

// Whether f's picture, framed in `area`, leaves out at its top a row the step reads: its top
// moved down past a cut row, and an arrow of the step starts above it.
bool reads_cut_above(const scene::Scene& s, const CanvasFrame& f, const Rect& area) {
    return f.picture.y > area.y + 1 &&
           std::any_of(s.arrows.begin(), s.arrows.end(), [&](const scene::Arrow& a) {
               return a.head > 0 && !a.source.empty() &&
                      on_screen(f.camera, a.source, f.width, f.height).y < f.picture.y;
           });
}

// The cells the step writes as f's picture shows them across (rows above or below it are said,
// and followed step by step): `all`, none left past its left or right edge; `seen`, how many are
// whole across, none where it cuts one at its top or bottom edge (hist-per-warp's counting at
// 200% in 1280x720 under a band: its bars cut) or leaves a row on screen without its name
// (hist-privatised's g_hist[]).
struct WritesShown {
    bool all = true;
    int seen = 0;
};
WritesShown writes_shown(const scene::Scene& s, const CanvasFrame& f) {
    WritesShown w;
    bool cut = false;
    for (const scene::Cell& c : s.cells) {
        if (c.role != scene::CellRole::Written)
            continue;
        const Rect box = on_screen(f.camera, c.rect, f.width, f.height);
        const bool across = box.x >= f.picture.x - 1 && box.right() <= f.picture.right() + 1;
        const bool in_height = box.y >= f.picture.y - 1 && box.bottom() <= f.picture.bottom() + 1;
        cut = cut ||
              (across && !in_height && box.y < f.picture.bottom() && box.bottom() > f.picture.y);
        w.all = w.all && across;
        w.seen += across;
    }
    if (cut || names_left_out(s, f))
        w.seen = 0;
    return w;
}

// The legend's entries for what f's picture shows. An entry whose colour the scene's cells,
// lines or moving values wear, none of them on screen, is left out (reduce-tree's "idle warp"
// at block 1024 with threads 0-24 shown, every one of them working); one whose colour nothing
// wears as it is (a tint of it) stays. The value scale is worn by the cells on it.
std::vector<scene::LegendItem> legend_shown(const scene::Scene& s, const CanvasFrame& f) {
    std::vector<char> worn(s.legend.size(), 0), seen(s.legend.size(), 0);
    const auto wear = [&](const scene::Rgba& color, bool shown, bool on_scale = false) {
        for (std::size_t i = 0; i < s.legend.size(); ++i)
            if (s.legend[i].ramp ? on_scale : s.legend[i].color == color) {
                worn[i] = 1;
                seen[i] = static_cast<char>(seen[i] || shown);
            }
    };
    for (const std::vector<scene::Cell>* layer : {&s.cells, &s.panels, &s.movers})
        for (const scene::Cell& c : *layer) {
            if (!shows_something(c))
                continue;
            const Rect part = intersect(on_screen(f.camera, c.rect, f.width, f.height), f.picture);
            const bool shown = part.w >= 0 && part.h >= 0; // a bar of count 0 is a line
            wear(c.fill, shown, c.on_scale);
            if (c.border_width > 0)
                wear(c.border, shown);
        }
    for (const scene::Arrow& a : s.arrows)
        wear(a.color, false);
    for (const scene::Arrow& a : scene::arrows_drawn(s, f.camera, f.width, f.height, f.picture))
        wear(a.color, true);
    std::vector<scene::LegendItem> shown;
    for (std::size_t i = 0; i < s.legend.size(); ++i)
        if (!worn[i] || seen[i])
            shown.push_back(s.legend[i]);
    return shown;
}

// The legend docked where it costs the picture less: a column on the right, or a band
// underneath, sized for the entries `sized_for`; false (nothing drawn) where the dock's own
// framing shows entries that room does not hold.
bool dock_legend(CanvasFrame& f, const FontAtlas& font, const scene::Scene& s,
                 const CanvasRequest& r, const Rect& area,
                 const std::vector<scene::LegendItem>& sized_for, const LegendStyle& st) {
    const scene::Palette pal = scene::palette(r.theme);
    f.legend_docked = true;
    const CanvasFrame unframed = f;
    float widest = 0;
    for (const scene::LegendItem& item : sized_for)
        widest = std::max(widest, font.width(item.text) * st.px);
    const float column_text =
        std::min(widest, area.w / 3 - 2 * st.pad - st.swatch - st.gap); // wrapped beyond
    const float band_text = area.w - 2 * st.pad - st.swatch - st.gap;
    const LegendLayout column = legend_layout(font, sized_for, st, column_text, false);
    const LegendLayout band = legend_layout(font, sized_for, st, band_text, true);
    // Docked, it never takes more than a third of the canvas: a canvas too small for that
    // shows the drawing alone and says where the colours are explained.
    const bool column_fits = column.size.y <= area.h && column_text >= std::min(widest, 8 * st.px);
    const bool band_fits = band.size.y <= area.h / 3;
    if (!column_fits && !band_fits) {
        f.legend_docked = false;
        f.legend_hidden = true;
        return true;
    }
    const Rect beside{area.x, area.y, area.w - column.size.x, area.h};
    const Rect above{area.x, area.y, area.w, area.h - band.size.y};
    bool use_column = column_fits;
    std::optional<CanvasFrame> framed_beside, framed_above; // each dock's framing, when tried
    if (column_fits && band_fits) {
        // A column whose edge slices a cell loses. Else a dock under which the follow view
        // leaves rows out at the picture's top edge (rows the step reads: a histogram's bars
        // left above a band of two lines at 200% in 1280x720, their counts under them) loses to
        // one that does not (rows left out at the bottom follow the step: the notice says
        // them). Else the dock that shows every cell the step writes where the other does not
        // wins (a column beside hist-privatised's fold at 100% in 1280x720 left bins 14 and 15
        // of 16 off screen, a band under it shows all 16); else the one that leaves the drawing
        // larger; at the same zoom the one that shows more of the step's writes (a column
        // beside hist-per-warp's zeroing at 200% in 1280x720 left bins 9-15 of warp 0's 16 off
        // screen, a band of one line under them shows 0-12), then the column when the step's rows
        // fit beside it (the band would hide rows below them), else the smaller.
        CanvasFrame& by_column = framed_beside.emplace(f);
        CanvasFrame& by_band = framed_above.emplace(f);
        frame_text(by_column, font, s, r, beside, true);
        frame_text(by_band, font, s, r, above);
        const float column_zoom = aim(s, r, beside).scale, band_zoom = aim(s, r, above).scale;
        const bool column_slices = sliced_at_right(s, by_column, r);
        const bool column_cuts = reads_cut_above(s, by_column, beside);
        const bool band_cuts = reads_cut_above(s, by_band, above);
        const bool rows_fit_beside =
            s.focus.w * column_zoom <= beside.w - 2 * kCanvasMarginPx * r.scale;
        const WritesShown in_column = writes_shown(s, by_column),
                          in_band = writes_shown(s, by_band);
        use_column = column_slices                  ? false
                     : column_cuts != band_cuts     ? band_cuts
                     : in_column.all != in_band.all ? in_column.all
                     : std::abs(column_zoom - band_zoom) > 0.02f * band_zoom
                         ? column_zoom > band_zoom
                     : in_column.seen != in_band.seen
                         ? in_column.seen > in_band.seen
                         : rows_fit_beside || column.size.x * area.h < band.size.y * area.w;
    }
    if (use_column && !band_fits) {
        // The column alone fits, and its edge would slice a cell that reads as under it: the
        // drawing alone, the notice saying where the colours are explained.
        CanvasFrame by_column = f;
        frame_text(by_column, font, s, r, beside, true);
        if (sliced_at_right(s, by_column, r)) {
            f.legend_docked = false;
            f.legend_hidden = true;
            return true;
        }
        framed_beside = std::move(by_column);
    }
    if (std::optional<CanvasFrame>& tried = use_column ? framed_beside : framed_above; tried)
        f = std::move(*tried); // framed for that dock already
    else
        frame_text(f, font, s, r, use_column ? beside : above, use_column);
    f.legend_box = use_column ? Rect{beside.right(), area.y, column.size.x, area.h}
                              : Rect{area.x, above.bottom(), area.w, band.size.y};
    // The entries for what the dock's framing shows, in that room.
    std::vector<scene::LegendItem> docked = legend_shown(s, f);
    if (docked.empty())
        docked = sized_for;
    LegendLayout l =
        legend_layout(font, docked, st, use_column ? column_text : band_text, !use_column);
    if (l.size.x > f.legend_box.w + 0.5f || l.size.y > f.legend_box.h + 0.5f)
        return false;
    if (!use_column && l.size.y + 0.5f < band.size.y) {
        // A band sized for entries its framing no longer shows (reduceNaive's value strip left
        // above the magnified rows at 200%) left an empty grey line under the drawing: the band
        // as tall as the entries shown, where the taller picture shows no entry it lacks room for.
        CanvasFrame taller = unframed;
        const Rect room{area.x, area.y, area.w, area.h - l.size.y};
        frame_text(taller, font, s, r, room);
        std::vector<scene::LegendItem> shown = legend_shown(s, taller);
        if (shown.empty())
            shown = docked;
        if (LegendLayout fewer = legend_layout(font, shown, st, band_text, true);
            fewer.size.y <= l.size.y + 0.5f) {
            f = std::move(taller);
            f.legend_box = Rect{area.x, room.bottom(), area.w, l.size.y};
            l = std::move(fewer);
        } else { // the taller picture shows the strip again: the entries centred in the band
            for (LegendEntry& e : l.entries)
                e.rect.y += (band.size.y - l.size.y) / 2;
        }
    }
    draw_legend(f, l, pal, st);
    return true;
}

// The legend in a corner where it hides nothing; else docked in a column on the right of a
// wide canvas, or a band under the picture. A docked legend takes its room from the picture.
// Where it fits nowhere at its size, it is set at the notes' size, still legible, before it is
// left out (scanBlelloch's five entries at 200% in 1280x720 were left out, 400 px empty beside
// the drawing, where a band of three lines at the smaller size fits under it).
void place_legend(CanvasFrame& f, const FontAtlas& font, const scene::Scene& s,
                  const CanvasRequest& r, const Rect& area) {
    const std::vector<scene::LegendItem> shown = legend_shown(s, f);
    if (shown.empty())
        return;
    const scene::Palette pal = scene::palette(r.theme);
    const CanvasFrame before = f;
    for (const float text_px : {kLegendPx, kNotePx}) {
        if (text_px != kLegendPx)
            f = before; // the hidden legend's framing undone
        const LegendStyle st(r.scale, text_px);
        // A card in a corner, as wide as the texts want or narrower (their lines wrapped).
        for (const float share : {0.4f, 0.3f, 0.22f}) {
            const float card_text =
                std::max(share * area.w - 2 * st.pad - st.swatch - st.gap, 8 * st.px);
            const LegendLayout card = legend_layout(font, shown, st, card_text, false);
            const float x0 = area.x + st.pad, x1 = area.right() - st.pad - card.size.x;
            const float y0 = area.y + st.pad, y1 = area.bottom() - st.pad - card.size.y;
            if (x1 < x0 || y1 < y0)
                continue;
            for (const scene::Vec2 at : {scene::Vec2{x0, y1}, {x1, y1}, {x1, y0}, {x0, y0}}) {
                const Rect box{at.x, at.y, card.size.x, card.size.y};
                if (!covers_picture(s, f, box, st.pad)) {
                    f.legend_box = box;
                    draw_legend(f, card, pal, st);
                    return;
                }
            }
        }
        // Docked: room for the entries the picture shows, or for every entry where the dock's
        // own framing shows more.
        if (CanvasFrame tried = f; dock_legend(tried, font, s, r, area, shown, st))
            f = std::move(tried);
        else
            dock_legend(f, font, s, r, area, s.legend, st);
        if (!f.legend_hidden)
            return;
    }
}

// The picture in `area` with its legend; the overlay starts afresh.
void lay_out(CanvasFrame& f, const FontAtlas& font, const scene::Scene& s, const CanvasRequest& r,
             const Rect& area) {
    f.legend_box = {};
    f.legend_docked = false;
    f.legend_hidden = false;
    f.legend.clear();
    f.overlay_cells.clear();
    f.overlay_labels.clear();
    frame_text(f, font, s, r, area);
    place_legend(f, font, s, r, area);
}

} // namespace

scene::Camera moved(const scene::Camera& c, scene::Vec2 at, float canvas_w, float canvas_h, float w,
                    float h) {
    scene::Camera out = c;
    out.center.x -= (at.x + canvas_w / 2 - w / 2) / c.scale;
    out.center.y -= (at.y + canvas_h / 2 - h / 2) / c.scale;
    return out;
}

namespace {

// Fit all of a scene so wide that its rows would be hairlines: stretched vertically until
// they are a row's name apart, as far as the picture's height allows.
float wanted_stretch(const scene::Scene& s, const CanvasRequest& r, const CanvasFrame& f) {
    if (r.framing != Framing::Fit)
        return r.framing == Framing::Free ? s.row_stretch : 1.0f;
    constexpr float kRowPitch = 2.45f; // world units between two rows of a view, unstretched
    constexpr float kMost = 24.0f;
    const float k = std::max(f.camera.scale, 1e-4f);
    if (k * s.value_width >= kReadablePx * r.scale)
        return 1.0f; // legible values: rows far enough apart, and Follow's framing
    const float wanted = kRowNamesPx * r.scale / (kRowPitch * k);
    const float unstretched_px = s.bounds.h / std::max(s.row_stretch, 1.0f) * k;
    const float room =
        (f.picture.h - 2 * kCanvasMarginPx * r.scale) / std::max(unstretched_px, 1.0f);
    return std::clamp(std::min(wanted, room), 1.0f, kMost);
}

constexpr std::string_view kClauseGap = " · "; // between the notice's clauses

// The notice's lines no wider than `width` at `px`: its clauses whole where they fit, one
// after another (shrunk to one line, three clauses read at 8 px in 1280x720 at 200%).
std::vector<std::string> notice_lines(const FontAtlas& font, const std::string& notice, float px,
                                      float width) {
    std::vector<std::string> lines;
    for (std::size_t at = 0; at <= notice.size();) {
        std::size_t end = notice.find(kClauseGap, at);
        if (end == std::string::npos)
            end = notice.size();
        const std::string clause = notice.substr(at, end - at);
        at = end + kClauseGap.size();
        const std::string joined =
            lines.empty() ? clause : lines.back() + std::string(kClauseGap) + clause;
        if (!lines.empty() && font.width(joined) * px <= width)
            lines.back() = joined;
        else
            for (std::string& l : font.width(clause) * px <= width
                                      ? std::vector<std::string>{clause}
                                      : wrap(font, clause, px, width))
                lines.push_back(std::move(l));
    }
    return lines;
}

// `f` (framed without a notice) with its rows off screen said in notes at the edges they are
// past, where a band over the picture would have pushed the step's own rows out (reduceTree at
// 175% in 1280x720: in[] above, level 2 and out[] below, said nowhere). A note goes to its own
// edge, else the other, at the right end, the left or the middle, where it covers no cell, text,
// line or legend; `f` unchanged where one finds no such room.
CanvasFrame said_at_edges(const FontAtlas& font, const scene::Scene& s, const CanvasRequest& r,
                          const CanvasFrame& f) {
    const RowsOut out = rows_off_screen(s, f.camera, r, f.picture, f.text);
    // Smaller than the band's text: a note beside the drawing, in room the drawing leaves.
    const float px = kNotePx * r.scale, pad = std::round(0.4f * px), line = std::round(1.3f * px);
    const float edge = pad; // from the canvas's edge
    const auto clear = [&](const Rect& box, const std::vector<Rect>& notes) {
        return inside(box, {0, 0, f.width, f.height}) && !overlaps(box, f.legend_box) &&
               !covers_picture(s, f, box, pad) &&
               std::none_of(notes.begin(), notes.end(),
                            [&](const Rect& n) { return overlaps(n, box); });
    };
    std::vector<std::string> texts;
    std::vector<Rect> notes;
    for (const auto& [words, up] : {std::pair{out.above, true}, std::pair{out.below, false}}) {
        if (words.empty())
            continue;
        texts.push_back((up ? "↑ " : "↓ ") + words);
        const float w = font.width(texts.back()) * px + 2 * pad, h = line + pad;
        // At the right end, else left of a note there already, at the left end or the middle.
        std::vector<float> xs{f.width - edge - w};
        for (const Rect& n : notes)
            xs.push_back(n.x - edge - w);
        xs.push_back(edge);
        xs.push_back(f.picture.center().x - w / 2);
        std::optional<Rect> spot;
        for (const bool top : {up, !up})
            for (const float x : xs)
                for (const float away : {0.0f, h + edge}) { // or past the note there already
                    const Rect box{x, top ? edge + away : f.height - edge - h - away, w, h};
                    if (!spot && clear(box, notes))
                        spot = box;
                }
        if (!spot)
            return f;
        notes.push_back(*spot);
    }
    // Stacked at one edge, the rows above are said over the rows below (reduce-coarsened's
    // "↓ 4 rows below" stood over "↑ 4 rows above" at the foot of the canvas).
    if (notes.size() == 2 && notes[0].y > notes[1].y &&
        overlaps({notes[0].x, 0, notes[0].w, 1}, {notes[1].x, 0, notes[1].w, 1})) {
        Rect above = notes[0], below = notes[1];
        std::swap(above.y, below.y);
        if (clear(above, {}) && clear(below, {above}))
            notes = {above, below};
    }
    const scene::Palette pal = scene::palette(r.theme);
    CanvasFrame said = f;
    for (std::size_t i = 0; i < notes.size(); ++i) {
        scene::Cell card;
        card.rect = notes[i];
        card.fill = pal.panel;
        card.radius = pad;
        said.overlay_cells.push_back(card);
        scene::Label l;
        l.pos = {notes[i].x + pad, notes[i].y + pad * 0.5f + line * 0.5f + px * 0.3f};
        l.text = texts[i];
        l.size = l.px = px;
        l.color = pal.muted;
        said.overlay_labels.push_back(std::move(l));
    }
    said.notes = std::move(notes);
    said.notice = out.text();
    return said;
}

// The camera, the notice, the legend and the texts.
CanvasFrame framed(const FontAtlas& font, const scene::Scene& s, const scene::Model& m,
                   std::size_t frame, const CanvasRequest& r) {
    CanvasFrame f;
    f.width = r.width;
    f.height = r.height;
    lay_out(f, font, s, r, {0, 0, r.width, r.height});
    // The notice, when there is one, takes a band at the top: the rest is framed again.
    std::string notice = notice_text(font, s, m, frame, r, f);
    if (notice.empty())
        return f;
    // Where only rows off screen are to be said, their band is taken only if the step's own
    // rows stay whole under it at the same zoom (reduceTree's load at 200% in 1280x720 lost
    // in[], the row it reads, to a band that said "4 rows below").
    const bool rows_only = notice_text(font, s, m, frame, r, f, false).empty();
    const CanvasFrame unsaid = f;
    const scene::Palette pal = scene::palette(r.theme);
    const LegendStyle st(r.scale);
    const float text_w = r.width - 2 * st.pad;
    std::size_t rows = notice_lines(font, notice, st.px, text_w).size();
    bool shrunk = false;
    // Four rounds: a band that grew, shrank and grows again (the dock of the legend changing
    // with the room: hist-global's first step at 200% in present mode's 1280x720) keeps its
    // larger height; three left its last clause squeezed under 11 px into the shorter band.
    constexpr int kRounds = 4;
    for (int round = 0; round < kRounds; ++round) {
        f.notice_box = {0, 0, r.width, static_cast<float>(rows) * st.line + st.pad};
        lay_out(f, font, s, r,
                {0, f.notice_box.bottom(), r.width, r.height - f.notice_box.bottom()});
        // Said for the camera finally chosen (the first guess when that shows all of the step).
        std::string now = notice_text(font, s, m, frame, r, f);
        if (now.empty()) {
            // Under the band all is shown (the legend found room beside the drawing): nothing
            // is left to say, and the first camera's words would name rows drawn here
            // (hist-global n 32 at 150%: "round 1, round 2 above" over both rounds).
            f.notice_box = {};
            return f;
        }
        // The rows off screen, the last clause, never grow the band on their own.
        if (notice_lines(font, now, st.px, text_w).size() > rows) {
            std::string shorter = notice_text(font, s, m, frame, r, f, false);
            if (!shorter.empty() && notice_lines(font, shorter, st.px, text_w).size() <= rows)
                now = std::move(shorter);
        }
        notice = std::move(now);
        // Fewer lines for this camera (the first guess's hint no longer fits, its clause gone):
        // the band shrinks to them once, rather than keep an empty line at 200%. More (the
        // smaller picture leaves values out, a clause more): it grows, or the last line would
        // take the clause shrunk under the legible size (reduce-tree n 1000 at 200%).
        const std::size_t now_rows = notice_lines(font, notice, st.px, text_w).size();
        if (now_rows == rows || (now_rows < rows && shrunk) || round == kRounds - 1)
            break;
        shrunk = shrunk || now_rows < rows;
        rows = now_rows;
    }
    if (rows_only) {
        const Rect step_rows = on_screen(f.camera, s.focus, r.width, r.height);
        if (f.camera.scale < 0.99f * unsaid.camera.scale || step_rows.y < f.picture.y - 1 ||
            step_rows.bottom() > f.picture.bottom() + 1)
            return said_at_edges(font, s, r, unsaid);
    }
    scene::Cell band;
    band.rect = f.notice_box;
    band.fill = pal.panel;
    f.overlay_cells.insert(f.overlay_cells.begin(), band);
    std::vector<std::string> lines = notice_lines(font, notice, st.px, text_w);
    if (lines.size() > rows) {
        // Longer for this camera than the band holds: the rows off screen, the last clause, go
        // first (squeezed in, the line shrank under 11 px at 200%).
        if (std::string shorter = notice_text(font, s, m, frame, r, f, false); !shorter.empty()) {
            notice = std::move(shorter);
            lines = notice_lines(font, notice, st.px, text_w);
        }
    }
    for (; lines.size() > rows; lines.pop_back()) // the band's lines: the last takes the rest
        lines[lines.size() - 2] += std::string(kClauseGap) + lines.back();
    for (std::size_t i = 0; i < lines.size(); ++i) {
        scene::Label l;
        l.pos = {st.pad, f.notice_box.y + st.pad * 0.5f + st.line * (static_cast<float>(i) + 0.5f) +
                             st.px * 0.3f};
        l.text = lines[i];
        l.size = l.px = st.px;
        l.color = pal.muted;
        l.max_width = text_w; // pixels: the overlay's camera is the identity
        f.overlay_labels.insert(f.overlay_labels.begin() + static_cast<long>(i), l);
    }
    f.notice = std::move(notice);
    return f;
}

} // namespace

float room_for_rows(float canvas_height, float scale) {
    const LegendStyle st(scale);
    constexpr float kLegendLines = 1;
    return std::max(canvas_height - (st.line + st.pad) - (kLegendLines * st.line + 2 * st.pad),
                    0.0f);
}

float rows_room(const CanvasFrame& f, float scale) {
    // A band docked under the picture spans the canvas; a column beside it takes no height.
    const bool band = f.legend_docked && f.legend_box.w >= f.width - 0.5f;
    const float bottom = band ? f.legend_box.y : f.height;
    return std::max(std::min(room_for_rows(f.height, scale), bottom - f.notice_box.bottom()), 0.0f);
}

CanvasFrame frame_canvas(const FontAtlas& font, const scene::Scene& s, const scene::Model& m,
                         std::size_t frame, const CanvasRequest& r) {
    CanvasFrame f = framed(font, s, m, frame, r);
    f.stretch = wanted_stretch(s, r, f);
    return f;
}

namespace {

// The pixels a value cell of `frame` gets in the follow view at presenter scale 100% in a canvas
// of r.canvas_at_100.
float cell_px_at_100(const FontAtlas& font, const scene::Model& m, std::size_t frame,
                     const CanvasRequest& r, scene::ViewOptions vo, float anim,
                     const Decorate& decorate) {
    CanvasRequest base = r;
    base.scale = 1;
    base.width = r.canvas_at_100.x;
    base.height = r.canvas_at_100.y;
    base.framing = Framing::Follow;
    base.rows_beside = true;
    base.least_cell_px = 0;
    base.canvas_at_100 = {};
    // From where a picture at 100% starts, not from this scale's zoom: the rounds can settle at
    // either of two framings (scan-fast's look-back in 704x871: its tiles whole at 28.5 pixels a
    // value cell, or part of them at 72), and the floor must not depend on what came before.
    const scene::ViewOptions fresh;
    vo.pixels_per_unit = fresh.pixels_per_unit;
    vo.row_stretch = fresh.row_stretch;
    vo.room_px = fresh.room_px;
    const Canvas c = lay_out_canvas(font, m, frame, base, vo, anim, decorate);
    return c.frame.camera.scale * c.scene.value_width;
}

} // namespace

Canvas lay_out_canvas(const FontAtlas& font, const scene::Model& m, std::size_t frame,
                      const CanvasRequest& r, scene::ViewOptions vo, float anim,
                      const Decorate& decorate) {
    if (r.framing != Framing::Free && r.scale > 1 && r.canvas_at_100.x > 0 &&
        r.canvas_at_100.y > 0) {
        CanvasRequest floored = r;
        floored.least_cell_px =
            std::max(r.least_cell_px, cell_px_at_100(font, m, frame, r, vo, anim, decorate));
        floored.canvas_at_100 = {};
        return lay_out_canvas(font, m, frame, floored, vo, anim, decorate);
    }
    const scene::ViewOptions given = vo;
    if (r.framing == Framing::Fit) {
        // Where the follow view shows the whole scene, Fit all is that view, as in the window
        // (which fits from the follow view's scene): settled from a first guess zoomed further
        // out, the rows stretched and the taller scene fitted smaller than Follow showed it
        // (hist-global n 7 at 150% in 1280x720).
        CanvasRequest follow = r;
        follow.framing = Framing::Follow;
        Canvas c = lay_out_canvas(font, m, frame, follow, vo, anim, decorate);
        if (inside(on_screen(c.frame.camera, c.scene.bounds, r.width, r.height), c.frame.picture)) {
            // The same camera, or closer; never farther (a legend that fits in a corner of the
            // follow view can dock under Fit's, and leave the drawing smaller).
            if (CanvasFrame fit = frame_canvas(font, c.scene, m, frame, r);
                fit.camera.scale >= c.frame.camera.scale)
                c.frame = std::move(fit);
            return c;
        }
    }
    vo.theme = r.theme;
    vo.text_scale = r.scale;
    vo.digit_em = font.width("0");
    vo.room_px = room_for_rows(r.height, r.scale);
    if (r.framing == Framing::Free)
        vo.pixels_per_unit = r.camera.scale;
    const auto laid_out = [&] {
        Canvas c;
        c.scene = scene::build(m, frame, vo, anim);
        if (decorate)
            decorate(c.scene);
        measure_labels(c.scene, font);
        c.frame = frame_canvas(font, c.scene, m, frame, r);
        c.built_with = vo;
        return c;
    };
    // How far the framing's zoom is from the one the scene was built at.
    const auto off = [](const Canvas& c) {
        return std::abs(c.frame.camera.scale - c.built_with.pixels_per_unit) /
               c.built_with.pixels_per_unit;
    };
    // Faithful: framed no farther out than built, and not far closer. A scene spaces its notes,
    // titles and values for the zoom it is built at (a row's two-line name is spaced in pixels):
    // shown smaller they crowd (scanBlelloch n 7 at 150% in 1256x720 settled nowhere, the
    // legend a corner card at 84 px a unit and a column at 72); shown far larger, a title stands
    // apart from its row. Within a twentieth farther out (inside a line's spacing) and a third
    // closer.
    constexpr float kFarther = 0.95f, kCloser = 4.0f / 3;
    const auto faithful = [&](const Canvas& c) {
        const float built = c.built_with.pixels_per_unit;
        return c.frame.camera.scale >= kFarther * built && c.frame.camera.scale <= kCloser * built;
    };
    // Of two canvases that did not settle: the faithful one, else the nearer its built zoom,
    // else the closer view.
    const auto better = [&](const Canvas& a, const Canvas& b) {
        if (faithful(a) != faithful(b))
            return faithful(a);
        return off(a) < off(b) - 1e-4f ||
               (off(a) <= off(b) + 1e-4f && a.frame.camera.scale > b.frame.camera.scale);
    };
    Canvas c = laid_out();
    if (r.framing == Framing::Free)
        return c;
    std::optional<Canvas> best;            // the best of the rounds that did not settle
    std::optional<scene::ViewOptions> was; // what the round before built with
    float farthest = c.frame.camera.scale; // the farthest zoom a round framed at
    bool weighed = false;                  // `c` weighed against `best` already
    // The highest zoom a round built at and was framed at or closer, the lowest one framed
    // farther out: the framing jumps somewhere between them.
    float closer = 0, farther = std::numeric_limits<float>::infinity();
    const auto bracket = [&](const Canvas& k) {
        const float built = k.built_with.pixels_per_unit;
        if (k.frame.camera.scale >= built)
            closer = std::max(closer, built);
        else
            farther = std::min(farther, built);
    };
    bracket(c);
    for (int round = 0; round < 5 && !weighed; ++round) {
        const float zoom = c.frame.camera.scale, stretch = c.frame.stretch;
        // The room only shrinks (to what the notice and the legend left): it settles.
        const float room = std::min(vo.room_px, rows_room(c.frame, r.scale));
        if (std::abs(zoom - vo.pixels_per_unit) < 0.01f * zoom &&
            std::abs(stretch - vo.row_stretch) < 0.01f * stretch && room >= vo.room_px - 0.5f)
            return c;
        // Back to the zoom of the round before, nothing else changed: the two frame at each
        // other, and the rounds would only swap them.
        const bool cycle = was && std::abs(zoom - was->pixels_per_unit) < 0.01f * zoom &&
                           std::abs(stretch - was->row_stretch) < 0.01f * stretch &&
                           room >= was->room_px - 0.5f;
        was = vo;
        if (!best || better(c, *best))
            best = std::move(c);
        weighed = cycle;
        if (cycle)
            continue;
        vo.pixels_per_unit = zoom;
        vo.row_stretch = stretch;
        vo.room_px = room;
        c = laid_out();
        bracket(c);
        farthest = std::min(farthest, c.frame.camera.scale);
    }
    if (!weighed && better(c, *best))
        best = std::move(c);
    if (faithful(*best))
        return std::move(*best);
    // Built at the farthest zoom any round framed at, the framing comes out closer.
    vo.pixels_per_unit = 0.98f * farthest;
    Canvas last = laid_out();
    if (faithful(last))
        return last;
    bracket(last);
    // Else the framing jumps between two zooms (built farther out than where a row's names
    // take two lines, or a chart's bin numbers thin out, it frames closer; built closer, farther
    // out than built): the last zoom before the jump frames at it or a little closer
    // (hist-per-warp at 100% in 1280x720 framed at 8.9 where built under 8.65 pixels a unit, at
    // 7.0 where built over it).
    for (int halving = 0; halving < 6 && closer > 0 && closer < farther && std::isfinite(farther);
         ++halving) {
        vo.pixels_per_unit = std::sqrt(closer * farther);
        Canvas mid = laid_out();
        bracket(mid);
        if (faithful(mid) && better(mid, *best)) // over one that is not, or nearer its own
            best = std::move(mid);
        if (faithful(*best) && off(*best) < 0.05f)
            break;
    }
    // Rows beside the step's that a picture built closer holds and one built farther out does
    // not (their names a line apart in pixels take more units farther out): the framing jumps
    // between showing them, farther out than built, and the step's rows alone, closer (reduce-
    // atomic's out[] at 200% in 1280x720, built at 79.5 pixels a unit, was framed at 69).
    if (!faithful(*best) && r.framing == Framing::Follow && r.rows_beside) {
        CanvasRequest alone = r;
        alone.rows_beside = false;
        return lay_out_canvas(font, m, frame, alone, given, anim, decorate);
    }
    return std::move(*best);
}

} // namespace pplab::render
