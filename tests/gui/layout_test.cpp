// The classroom's layout, over the pure layout (no GL, no pixels): every traced algorithm x the
// block sizes the controls offer from 32 to 1024 (powers of two, 96 and 992) x n in {1, 7, 32,
// 1000, 65536} x presenter scale {100, 150, 200}% x window {1280x720, 1600x1000, 1920x1080}. For
// each, the window's layout rule (ui::window_layout, measured with the canvas's font) and the
// canvas as the window frames it (render::lay_out_canvas) at the first, middle and last step:
//  - the canvas keeps its share of the window and the transport stays on screen;
//  - no label, value or line label outside the drawing's part of the canvas, none over another;
//  - every row whose cells are on screen keeps its name;
//  - the step's own cells are on screen;
//  - no legend over a cell or a text; the legend and the notice inside the canvas;
//  - no text under 11 px x the presenter scale;
//  - every value whose cell holds it at that size drawn, and the notice saying so where one
//    is not (both following the step and with Fit all);
//  - Fit all never frames a scene smaller than the follow view does when that shows it whole.
#include "classroom_panel.hpp"
#include "layout.hpp"
#include "rects.hpp"
#include "settings.hpp"
#include "state.hpp"
#include "style.hpp"
#include "window_fonts.hpp"

#include "render/canvas_layout.hpp"
#include "render/gl_renderer.hpp"
#include "render/picture.hpp"
#include "scene/overlay.hpp"
#include "scene/view.hpp"

#include "pplab/backend.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

namespace pplab {
namespace {

using render::CanvasFrame;
using scene::Rect;
using test::clipped;
using test::inside;
using test::kTolerancePx;
using test::overlaps;
using test::text;

const render::FontAtlas& font() {
    return test::canvas_font();
}

// The window's text as the window measures it: its own fonts, not the canvas's atlas.
ui::TextWidth window_width() {
    return test::window_fonts().measure();
}

Rect on_screen(const CanvasFrame& f, const Rect& world) {
    const scene::Vec2 a = f.camera.to_screen({world.x, world.y}, f.width, f.height);
    return {a.x, a.y, world.w * f.camera.scale, world.h * f.camera.scale};
}

bool visible(const CanvasFrame& f, const scene::Cell& c) {
    return c.role != scene::CellRole::Panel && (c.fill.a > 0 || c.border_width > 0) &&
           overlaps(on_screen(f, c.rect), f.picture);
}

// Every arrow drawn (as the window, the pictures and the SVG draw them) starts at its source
// cell, and that cell is drawn: none starts at the picture's edge with nothing at its start
// (reduce-tree block 1024 at 150% drew level 1's reads from a row left out at the top, and a
// sheet of reads into level 3 from blocks off to the right). When some are left out, the notice
// says so.
void check_arrows(const scene::Scene& s, const CanvasFrame& f) {
    const std::vector<scene::Arrow> drawn =
        scene::arrows_drawn(s, f.camera, f.width, f.height, f.picture);
    for (const scene::Arrow& a : drawn) {
        if (a.source.empty()) {
            EXPECT_EQ(a.head, 0.0f) << "an arrow with a head reads something: its source is unset";
            continue;
        }
        // Inside the picture: a pixel of it each way, or all of a line thinner than that (a
        // bar's top, where the fold's arrows leave a histogram's bars).
        const Rect whole = on_screen(f, a.source), source = clipped(whole, f.picture);
        EXPECT_TRUE(source.w >= 1 && source.h >= std::min(1.0f, whole.h) - 0.01f)
            << "an arrow starts at " << text(on_screen(f, a.source)) << ", outside the picture "
            << text(f.picture);
        // Its start is where its source is (the gap between the two, stretched with the rows).
        const Rect around = inflate(a.source, 0.2f, 0.2f * std::max(s.row_stretch, 1.0f));
        EXPECT_TRUE(around.contains(a.from)) << "an arrow starts away from its source";
        // And it ends in the picture: none runs off the edge to a cell out of sight (scan
        // blocks of 1024 at 200% drew the upsweep's reads off the right edge).
        const scene::Vec2 end = f.camera.to_screen(a.to, f.width, f.height);
        EXPECT_TRUE(inflate(f.picture, 2.0f, 2.0f).contains(end))
            << "an arrow runs off the picture " << text(f.picture) << " to " << end.x << ", "
            << end.y;
    }
    // Each arrow left out is said, with why: its source or target off screen, or both on screen
    // and too narrow to leave from (block 1024's elements in Fit, whole on screen, were said to
    // be off screen). A cell within a pixel of the edge may be said either way.
    int off_screen = 0, too_narrow = 0, either = 0;
    const auto within = [&](const Rect& world, float slack) { // `inside` adds its tolerance
        return world.empty() || inside(on_screen(f, world), inflate(f.picture, slack, slack));
    };
    for (const scene::Arrow& a : s.arrows) {
        // An earlier step's arrows, faint context, go unsaid.
        if (a.head <= 0 || a.past || scene::source_drawn(a, f.camera, f.width, f.height, f.picture))
            continue;
        const scene::Vec2 end = f.camera.to_screen(a.to, f.width, f.height);
        if (within(a.source, -1.5f) && within(a.target, -1.5f) &&
            inflate(f.picture, -1.0f, -1.0f).contains(end))
            ++too_narrow;
        else if (!within(a.source, 0.25f) || !within(a.target, 0.25f) ||
                 !inflate(f.picture, 2.0f, 2.0f).contains(end))
            ++off_screen;
        else
            ++either;
    }
    const bool says_off_screen =
        f.notice.find("arrows to or from cells off screen left out") != std::string::npos;
    const bool says_too_narrow =
        f.notice.find("arrows from cells too narrow to draw left out") != std::string::npos;
    // Or, a histogram's round counted above the picture, said with its arrows.
    const bool says_round =
        f.notice.find(" and its arrows: above, off screen") != std::string::npos;
    EXPECT_TRUE(off_screen == 0 || says_off_screen || says_round)
        << off_screen << " arrows from or to cells off screen left out, not said: " << f.notice;
    EXPECT_TRUE(too_narrow == 0 || says_too_narrow)
        << too_narrow << " arrows from cells too narrow to draw left out, not said: " << f.notice;
    EXPECT_TRUE(either == 0 || says_off_screen || says_too_narrow || says_round)
        << either << " arrows from cells at the edge left out, not said: " << f.notice;
    const bool movers_left_out =
        std::any_of(s.movers.begin(), s.movers.end(), [&](const scene::Cell& mv) {
            return !scene::source_drawn(mv.source, f.camera, f.width, f.height, f.picture);
        });
    EXPECT_TRUE(!says_off_screen || off_screen > 0 || either > 0 || movers_left_out)
        << "the notice says arrows off screen are left out, and none is: " << f.notice;
    EXPECT_TRUE(!says_too_narrow || too_narrow > 0 || either > 0 || movers_left_out)
        << "the notice says arrows too narrow to draw are left out, and none is: " << f.notice;
}

// The number a cell stands for, as the chapter prints it, from the trace where the cell has one
// (the scene may leave out a number it would not draw): empty for a cell that stands for none
// (an outline of a step not reached, a band, a histogram's bar: its count is printed in the table
// under it). In[]'s elements and the look-back's and the tables' strips: their own text.
std::string value_of(const scene::Cell& c, const scene::Model& m) {
    using scene::CellRole;
    if (!c.text.empty() || !c.ref || c.ref->frame < 0)
        return c.text;
    const bool stands_for_value = c.role == CellRole::Value || c.role == CellRole::Written ||
                                  c.role == CellRole::Active || c.role == CellRole::Unchanged ||
                                  c.role == CellRole::KeepsOwn || c.role == CellRole::Read;
    const Frame& f = m.trace().frames.at(static_cast<std::size_t>(c.ref->frame));
    const bool bar = f.step == Step::HistZero || f.step == Step::HistAccumulate ||
                     f.step == Step::HistMerge || f.step == Step::HistFold;
    if (!stands_for_value || bar || c.ref->cell < 0 ||
        static_cast<std::size_t>(c.ref->cell) >= f.values.size())
        return {};
    return scene::cell_text(f.values[static_cast<std::size_t>(c.ref->cell)]);
}

// Values are drawn where their cell holds them at the legible minimum (11 px x the presenter
// scale), and wherever one is not drawn the notice says so (Fit all of scan-blelloch n 32 in
// 1600x1000 drew 448 cells 26 px wide as colour alone and said nothing). A cell holds a value
// here when the text at that size takes at most 80% of its width and height: a tenth of the cell
// clear each side, whatever rule the drawing uses.
void check_values_drawn_or_said(const scene::Scene& s, const CanvasFrame& f, const scene::Model& m,
                                float scale, const std::string& where) {
    const float least = scene::kMinTextPx * scale;
    std::vector<bool> drawn(s.cells.size(), false), marked(s.cells.size(), false);
    // A row's values' size, where it draws some: a row is its cells' top, height and text size.
    std::map<std::tuple<float, float, float>, float> row_px;
    for (const render::TextRun& t : f.text) {
        if (t.cell < 0 || (t.kind != render::TextKind::Cell && t.kind != render::TextKind::Elided))
            continue;
        const scene::Cell& c = s.cells.at(static_cast<std::size_t>(t.cell));
        if (t.kind == render::TextKind::Elided) {
            EXPECT_NE(t.text, c.text) << where << ": a value drawn as the mark of one left out";
            marked.at(static_cast<std::size_t>(t.cell)) = true;
            continue;
        }
        drawn.at(static_cast<std::size_t>(t.cell)) = true;
        row_px[{c.rect.y, c.rect.h, c.text_size}] = t.px;
    }
    const bool said = f.notice.find("values too small") != std::string::npos;
    for (std::size_t i = 0; i < s.cells.size(); ++i) {
        const scene::Cell& c = s.cells[i];
        const Rect r = on_screen(f, c.rect);
        if (drawn[i] || !visible(f, c) || !inside(r, f.picture))
            continue; // a cell the edge cuts: the notice says which part is shown
        const std::string value = value_of(c, m);
        if (value.empty())
            continue;
        // In a row that draws some of its values, a cell that can hold the mark at the row's size
        // is not left blank: blank, it reads as a cell never written.
        if (const auto row = row_px.find({c.rect.y, c.rect.h, c.text_size});
            row != row_px.end() && c.merged <= 1 && r.w >= 18.0f * scale &&
            font().width("\u2026") * row->second <= 0.8f * r.w && row->second <= 0.8f * r.h) {
            EXPECT_TRUE(marked[i]) << where << ": the value " << value << " in a cell " << r.w
                                   << "x" << r.h << " px of a row that draws others is left blank";
        }
        // (A cell under 18 legible pixels a side holds none: its digits crowd its borders.)
        const bool holds = font().width(value) * least <= 0.8f * r.w && least <= 0.8f * r.h &&
                           r.w >= 18.0f * scale;
        if (holds) {
            ADD_FAILURE() << where << ": the value " << value << " in a cell " << r.w << "x" << r.h
                          << " px is not drawn, though it fits at " << least << " px; notice '"
                          << f.notice << "'";
            return;
        }
        if (!said) {
            ADD_FAILURE() << where << ": the value " << value << " in a cell " << r.w << "x" << r.h
                          << " px is not drawn, nothing said: '" << f.notice << "'";
            return;
        }
    }
}

// Everything the canvas must hold, for one framing of one step.
// The legend explains every colour the picture shows, and no colour only cells, lines or moving
// values off screen wear (reduce-tree at block 1024 explained "idle warp" with threads 0-24
// shown, every one of them working).
void check_legend_explains_the_picture(const scene::Scene& s, const CanvasFrame& f) {
    if (f.legend_hidden)
        return;
    const std::vector<scene::Arrow> drawn =
        scene::arrows_drawn(s, f.camera, f.width, f.height, f.picture);
    for (const scene::LegendItem& item : s.legend) {
        bool worn = false, seen = false, near = false; // near: touching the picture at least
        for (const std::vector<scene::Cell>* layer : {&s.cells, &s.panels, &s.movers})
            for (const scene::Cell& c : *layer) {
                // The value scale is worn by a cell on it, whatever its colour on it (a total at
                // the middle of its row's range wears the ramp's swatch colour, and is no more
                // on it than the others).
                const bool wears = item.ramp ? c.on_scale
                                             : (c.fill == item.color && c.fill.a > 0) ||
                                                   (c.border == item.color && c.border_width > 0);
                if (!wears)
                    continue;
                worn = true;
                const Rect r = on_screen(f, c.rect);
                seen = seen || overlaps(r, f.picture);
                near = near || (r.x <= f.picture.right() && r.right() >= f.picture.x &&
                                r.y <= f.picture.bottom() && r.bottom() >= f.picture.y);
            }
        for (const scene::Arrow& a : s.arrows)
            worn = worn || (!item.ramp && a.color == item.color);
        const bool line_drawn = std::any_of(drawn.begin(), drawn.end(), [&](const auto& a) {
            return !item.ramp && a.color == item.color;
        });
        seen = seen || line_drawn;
        near = near || line_drawn;
        const bool explained =
            std::any_of(f.legend.begin(), f.legend.end(),
                        [&](const render::LegendEntry& e) { return e.text == item.text; });
        if (seen) {
            EXPECT_TRUE(explained) << "'" << item.text << "' is on screen, not in the legend";
        }
        if (worn && !near) {
            EXPECT_FALSE(explained) << "'" << item.text << "' is in the legend, not on screen";
        }
    }
}

// An accumulate step counts one round of data[], above the chart it writes: where none of the
// elements it reads is at least half in the picture (the rounds between taller than the canvas:
// hist-privatised n 1000 at 100% in 1280x720 showed rounds 3 and 4 while it counted round 2), the
// notice names the round; where one is, it does not. A reduction's grid-stride accumulate
// likewise (reduceFull at 200% in 1280x720 showed round 4 over the sums while it added round 1).
void check_round_said(const scene::Scene& s, const CanvasFrame& f, const Frame& cur) {
    if (cur.step != Step::HistAccumulate && cur.step != Step::Accumulate)
        return;
    bool reads = false, shown = false;
    for (const scene::Arrow& a : s.arrows)
        if (a.head > 0) {
            reads = true;
            const Rect box = on_screen(f, a.source), in = clipped(box, f.picture);
            shown = shown || (in.w > 0 && in.h >= 0.5f * box.h);
        }
    const std::string said = "round " + std::to_string(cur.level) + " and its arrows: above";
    EXPECT_EQ(f.notice.find(said) != std::string::npos, reads && !shown)
        << (shown ? "the round it counts is on screen, said to be off: '"
                  : "the round it counts is off screen, not said: '")
        << f.notice << "'";
}

void check_canvas(const scene::Scene& s, const CanvasFrame& f, const scene::Model& m,
                  std::size_t frame, float scale, const std::string& where) {
    SCOPED_TRACE(where);
    const Rect canvas{0, 0, f.width, f.height};
    const float min_px = scene::kMinTextPx * scale - 0.01f;
    for (const render::TextRun& t : f.text) {
        EXPECT_TRUE(inside(t.rect, f.picture) || inside(t.rect, f.names))
            << "'" << t.text << "' outside the drawing";
        EXPECT_GE(t.px, min_px) << "'" << t.text << "' too small to read";
    }
    for (std::size_t i = 0; i < f.text.size(); ++i)
        for (std::size_t j = i + 1; j < f.text.size(); ++j)
            if (f.text[i].kind != render::TextKind::Cell ||
                f.text[j].kind != render::TextKind::Cell) {
                EXPECT_FALSE(overlaps(f.text[i].rect, f.text[j].rect))
                    << "'" << f.text[i].text << "' over '" << f.text[j].text << "'";
            }
    for (const scene::Label& l : f.overlay_labels)
        EXPECT_GE(l.px, min_px) << "'" << l.text << "'";
    if (!f.notice.empty()) {
        EXPECT_TRUE(inside(f.notice_box, canvas));
    }
    // The notes at the edges (the rows off screen, where no band fits) cover nothing.
    for (std::size_t i = 0; i < f.notes.size(); ++i) {
        const Rect& note = f.notes[i];
        EXPECT_TRUE(inside(note, canvas)) << "a note at " << text(note) << " leaves the canvas";
        EXPECT_FALSE(overlaps(note, f.legend_box)) << "a note under the legend";
        for (std::size_t j = i + 1; j < f.notes.size(); ++j)
            EXPECT_FALSE(overlaps(note, f.notes[j])) << "two notes at " << text(note);
        for (const render::TextRun& t : f.text)
            EXPECT_FALSE(overlaps(t.rect, note))
                << "a note at " << text(note) << " covers '" << t.text << "'";
        for (const std::vector<scene::Cell>* layer : {&s.cells, &s.panels})
            for (const scene::Cell& c : *layer)
                if (visible(f, c)) {
                    EXPECT_FALSE(overlaps(clipped(on_screen(f, c.rect), f.picture), note))
                        << "a note at " << text(note) << " covers a cell at "
                        << text(on_screen(f, c.rect));
                }
    }
    // A row's name is drawn whenever its row is on screen.
    for (const scene::Label& l : s.labels) {
        if (l.kind != scene::LabelKind::Row)
            continue;
        const scene::Vec2 at = f.camera.to_screen(l.pos, f.width, f.height);
        if (at.y - 0.8f * l.px < f.picture.y + render::kTextEdgePx ||
            at.y + 0.25f * l.px > f.picture.bottom() - render::kTextEdgePx)
            continue; // its row is beyond the top or bottom edge
        const bool row_shown = std::any_of(s.cells.begin(), s.cells.end(), [&](const auto& c) {
            const Rect r = on_screen(f, c.rect);
            return visible(f, c) && r.y <= at.y + l.px && r.bottom() >= at.y - 2 * l.px;
        });
        const bool named = std::any_of(f.text.begin(), f.text.end(),
                                       [&](const render::TextRun& t) { return t.text == l.text; });
        // Left out only where the rows are too close to name each, and then said.
        if (row_shown && f.notice.find("too close to name") == std::string::npos) {
            EXPECT_TRUE(named) << "the row's name '" << l.text << "' is missing";
        }
    }
    // The values of one row at one size (reduce-full's sum of six digits at 11 px beside zeros
    // at 16 read as two kinds of number).
    std::map<std::tuple<float, float, float>, float> row_px;
    for (const render::TextRun& t : f.text)
        if (t.kind == render::TextKind::Cell && t.cell >= 0) {
            const scene::Cell& c = s.cells.at(static_cast<std::size_t>(t.cell));
            const auto [row, first] = row_px.try_emplace({c.rect.y, c.rect.h, c.text_size}, t.px);
            EXPECT_NEAR(row->second, t.px, 0.01f)
                << "'" << t.text << "' drawn at another size than its row's other values";
        }
    check_arrows(s, f);
    check_round_said(s, f, m.trace().frames.at(frame));
    check_legend_explains_the_picture(s, f);
    check_values_drawn_or_said(s, f, m, scale, where);
    // The step being shown is on screen.
    const scene::StepGroup& g = m.steps().at(static_cast<std::size_t>(m.step_of(frame)));
    const bool step_shown = std::any_of(s.cells.begin(), s.cells.end(), [&](const auto& c) {
        return c.ref && c.ref->frame >= g.first && c.ref->frame <= g.last && visible(f, c);
    });
    if (!step_shown) {
        const auto first = std::find_if(s.cells.begin(), s.cells.end(), [&](const auto& c) {
            return c.ref && c.ref->frame >= g.first && c.ref->frame <= g.last;
        });
        ADD_FAILURE() << "none of the step's cells is on screen: the picture is " << text(f.picture)
                      << ", the first of them at "
                      << (first == s.cells.end() ? "none" : text(on_screen(f, first->rect)))
                      << " camera " << f.camera.scale << " @ " << f.camera.center.x << ","
                      << f.camera.center.y << " detail " << text(s.detail) << " focus "
                      << text(s.focus) << " written " << text(s.written) << " bounds "
                      << text(s.bounds) << " names " << text(f.names) << " legend "
                      << text(f.legend_box) << " notice " << f.notice;
    }
    // A histogram's bars whole wherever its bins are on screen: at 200% in 1280x720 they were
    // the row the canvas's edge cut, left out, the chart drawn as its table of counts alone.
    EXPECT_EQ(test::bars_cut(s, f.camera, f.width, f.height, f.picture, g.first, g.last), "")
        << "notice '" << f.notice << "', legend " << text(f.legend_box);
    // A legend docked beside the drawing never slices a cell (wider than a mark, narrower than
    // a third of the picture): the sliced cell read as the legend covering it (reduce-tree block
    // 1024 in 1280x720 at 200%: thread 9 cut in two at the legend's edge).
    const bool column_beside = f.legend_docked && f.legend_box.x >= f.picture.right() - 1;
    for (const scene::Cell& c : s.cells) {
        const Rect r = on_screen(f, c.rect);
        if (!column_beside || !visible(f, c) || r.w < render::kThinCellPx * scale ||
            r.w >= f.picture.w / 3 || r.y >= f.picture.bottom() || r.bottom() <= f.picture.y)
            continue;
        const float slice = 2 * scale; // less off a cell's edge is its border, not a slice
        EXPECT_FALSE(r.x < f.picture.right() - slice && r.right() > f.picture.right() + slice)
            << "a cell at " << text(r) << " sliced by the legend docked at " << text(f.legend_box)
            << ", the picture " << text(f.picture);
    }
    if (f.legend_box.empty())
        return;
    EXPECT_TRUE(inside(f.legend_box, canvas)) << "the legend leaves the canvas";
    for (const render::LegendEntry& e : f.legend)
        EXPECT_TRUE(inside(e.rect, f.legend_box)) << "'" << e.text << "' leaves the legend";
    if (f.legend_docked) { // beside or under the drawing, in a part of the canvas of its own
        EXPECT_FALSE(overlaps(f.legend_box, f.picture)) << "a docked legend over the drawing";
        return;
    }
    for (const std::vector<scene::Cell>* layer : {&s.cells, &s.panels})
        for (const scene::Cell& c : *layer)
            if (visible(f, c)) {
                EXPECT_FALSE(overlaps(clipped(on_screen(f, c.rect), f.picture), f.legend_box))
                    << "the legend " << (f.legend_docked ? "(docked) " : "") << text(f.legend_box)
                    << " covers a cell at " << text(on_screen(f, c.rect)) << " in the picture "
                    << text(f.picture);
            }
    for (const render::TextRun& t : f.text)
        EXPECT_FALSE(overlaps(t.rect, f.legend_box)) << "the legend covers '" << t.text << "'";
}

// The notice never says a row is above or below the picture while its name is drawn in it
// (the rows off screen are said by name: "in[] above · level 2, out[] below").
void check_rows_said_truly(const scene::Scene& s, const CanvasFrame& f, const std::string& where) {
    for (const render::TextRun& t : f.text) {
        if (t.kind != render::TextKind::Label)
            continue;
        // A name of exactly one row (reduce-full's first warp repeats "shuffle 1" to "shuffle
        // 5": which of the two the notice means, its words alone do not say).
        const auto rows_named = std::count_if(s.labels.begin(), s.labels.end(), [&](const auto& l) {
            return l.kind == scene::LabelKind::Row && l.text == t.text;
        });
        const std::string name = t.text.substr(0, t.text.find(" · "));
        if (rows_named != 1)
            continue;
        for (const char* claim : {" above", " below", ", "})
            EXPECT_EQ(f.notice.find(name + claim), std::string::npos)
                << where << ": '" << name << "' is drawn, the notice says '" << f.notice << "'";
    }
}

// Fit all frames the whole scene, legibly laid out, and never smaller than the follow view
// when that shows the whole scene too.
void check_fit_all(const scene::Model& m, std::size_t frame, render::CanvasRequest r,
                   const render::Canvas& follow, const std::string& where) {
    r.framing = render::Framing::Fit;
    const render::Canvas fit = render::lay_out_canvas(font(), m, frame, r, scene::ViewOptions{});
    check_canvas(fit.scene, fit.frame, m, frame, r.scale, where + " fit all");
    const Rect whole = on_screen(follow.frame, follow.scene.bounds);
    if (inside(whole, follow.frame.picture)) {
        EXPECT_GE(fit.frame.camera.scale, 0.98f * follow.frame.camera.scale)
            << where << ": Fit all makes a scene the follow view shows whole smaller (stretch "
            << fit.frame.stretch << ", bounds " << text(fit.scene.bounds) << " vs "
            << text(follow.scene.bounds) << ", pictures " << text(fit.frame.picture) << " "
            << text(follow.frame.picture) << ")";
    }
}

struct Window {
    int width, height;
};
constexpr Window kWindows[] = {{1280, 720}, {1600, 1000}, {1920, 1080}};
constexpr float kScales[] = {1.0f, 1.5f, 2.0f};
constexpr int kSizes[] = {1, 7, 32, 1000, 65536};

// The window's layout rule for this trace, as the window measures it.
ui::WindowLayout window_for(const scene::Model& m, Window w, float scale, bool present) {
    const ui::Metrics mt = ui::metrics(scale);
    const std::vector<std::string> captions = ui::captions_to_measure(m, 0);
    ui::LayoutRequest r;
    r.width = static_cast<float>(w.width);
    r.height = static_cast<float>(w.height);
    r.scale = scale;
    r.present = present;
    r.caption_lines = [&](float px, float width) {
        int lines = 1;
        for (const std::string& c : captions)
            lines = std::max(lines, test::window_fonts().lines(c, px, width));
        return lines;
    };
    r.menu_width = ui::menu_bar_width(mt, window_width());
    r.toolbar_width = ui::toolbar_width(mt, window_width(), m.grid(0) > 1);
    r.transport_width = ui::transport_width(mt, window_width(), present);
    return ui::window_layout(r);
}

// The canvas request the window makes for this trace in a window `w` at a presenter scale:
// its canvas's size there and at 100% (CanvasPanel::draw).
render::CanvasRequest window_request(const scene::Model& m, Window w, float scale, bool present) {
    const ui::WindowLayout l = window_for(m, w, scale, present);
    render::CanvasRequest r;
    r.width = l.canvas.w;
    r.height = l.canvas.h;
    r.scale = scale;
    r.interactive = true;
    if (scale > 1) {
        const ui::WindowLayout at_100 = window_for(m, w, 1.0f, present);
        r.canvas_at_100 = {at_100.canvas.w, at_100.canvas.h};
    }
    return r;
}

// Whether a wrapped caption ends in a line of one short word ("atomics", "0") alone.
bool ends_in_lone_short_word(const std::vector<std::string>& lines) {
    constexpr std::size_t kShort = 9;       // bytes
    const std::string& last = lines.back(); // a no-break space joins two words
    return lines.size() > 1 && last.find(' ') == std::string::npos &&
           last.find("\u00a0") == std::string::npos && last.size() <= kShort;
}

// Every caption of the trace as the window wraps it (and a picture of the window's size).
void check_captions(const scene::Model& m, const ui::WindowLayout& l, Window w, float scale,
                    const std::string& where) {
    for (const std::string& c : ui::captions_to_measure(m, 0)) {
        const auto lines = render::wrap(font(), c, l.caption_font, l.caption.w);
        EXPECT_FALSE(ends_in_lone_short_word(lines))
            << where << ": '" << lines.back() << "' alone on the last line of '" << c << "'";
        for (const float px : {21.0f, 17.0f, 14.0f}) // render::compose's caption sizes
            EXPECT_FALSE(ends_in_lone_short_word(
                render::wrap(font(), c, px * scale, static_cast<float>(w.width) - 48 * scale)))
                << where << " (picture): '" << c << "'";
    }
}

// The window's layout rule, for every trace alike (scan-fast's look-back too): the canvas keeps
// its share of the window (half at 150% and above), the caption above it, the transport below.
void check_window(const ui::WindowLayout& l, Window w, float scale, const std::string& where) {
    SCOPED_TRACE(where);
    const float area = static_cast<float>(w.width) * static_cast<float>(w.height);
    const float share = l.canvas.w * l.canvas.h / area;
    EXPECT_GE(share, ui::canvas_share_target(scale));
    if (scale >= 1.5f) {
        EXPECT_GE(share, 0.5f);
    }
    EXPECT_GE(l.transport.y, l.canvas.bottom());
    EXPECT_LE(l.transport.bottom(), static_cast<float>(w.height));
    EXPECT_LE(l.caption.bottom(), l.canvas.y);
}

// The request the controls make for this block size and n, or why they refuse it.
std::unique_ptr<scene::Model> traced(Algorithm a, int block, int n, std::string& refused) {
    ui::Settings s = ui::switch_algorithm(ui::Settings{}, a);
    s.block = block;
    s.n = n;
    try {
        return std::make_unique<scene::Model>(make_cpu_backend()->trace(s.request()));
    } catch (const InputError& e) {
        refused = e.what();
        return nullptr;
    }
}

std::vector<int> sampled_steps(const scene::Model& m) {
    const int steps = static_cast<int>(m.steps().size());
    std::vector<int> out = {0, steps / 2, steps - 1};
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// The trace `m` in a window of size `w` at a presenter scale: the window's layout rule, then
// the canvas at the sampled steps (following them; the first also fitted whole), and in present
// mode at 200%. Returns the framings checked.
int check_in_window(const scene::Model& m, Window w, float scale, const std::string& config) {
    std::ostringstream at;
    at << config << " in " << w.width << "x" << w.height << " at " << scale * 100 << "%";
    const ui::WindowLayout l = window_for(m, w, scale, false);
    check_window(l, w, scale, at.str());
    check_captions(m, l, w, scale, at.str());
    render::CanvasRequest r = window_request(m, w, scale, false);
    scene::ViewOptions vo; // each step starts from the zoom the one before settled at
    int checked = 0;
    const std::vector<int> steps = sampled_steps(m);
    for (const int step : steps) {
        const std::size_t frame = m.frame_at(step, 0);
        const std::string where = at.str() + " step " + std::to_string(step + 1);
        const render::Canvas c = render::lay_out_canvas(font(), m, frame, r, vo);
        vo.pixels_per_unit = c.frame.camera.scale;
        // Framed at the zoom its scene was built for, or a little closer: its names and
        // notes are spaced for that zoom (shown farther out they overlap, far closer they stand
        // apart). scan-multiblock's add-carries swung between 28 and 65 pixels a unit.
        EXPECT_GE(c.frame.camera.scale, 0.95f * c.built_with.pixels_per_unit) << where;
        EXPECT_LE(c.frame.camera.scale, 4.0f / 3 * c.built_with.pixels_per_unit) << where;
        check_canvas(c.scene, c.frame, m, frame, scale, where);
        check_rows_said_truly(c.scene, c.frame, where);
        if (step == steps.front())
            check_fit_all(m, frame, r, c, where);
        ++checked;
    }
    if (scale == 2.0f) { // present mode (P): caption, canvas and transport
        const ui::WindowLayout p = window_for(m, w, scale, true);
        check_window(p, w, scale, at.str() + " presenting");
        r = window_request(m, w, scale, true);
        const std::size_t frame = m.frame_at(steps.back(), 0);
        const render::Canvas c = render::lay_out_canvas(font(), m, frame, r, vo);
        check_canvas(c.scene, c.frame, m, frame, scale, at.str() + " presenting");
        check_rows_said_truly(c.scene, c.frame, at.str() + " presenting");
        ++checked;
    }
    return checked;
}

// Every traced algorithm, and the tests' names for them.
constexpr Algorithm kTraced[] = {
    Algorithm::ReduceNaive,   Algorithm::ReduceTree,     Algorithm::ReduceCoarsened,
    Algorithm::ReduceShuffle, Algorithm::ReduceFull,     Algorithm::ReduceAtomic,
    Algorithm::ScanBlelloch,  Algorithm::ScanMultiblock, Algorithm::ScanHillisSteele,
    Algorithm::ScanFast,      Algorithm::HistGlobal,     Algorithm::HistPrivatised,
    Algorithm::HistPerWarp};

std::string named(const ::testing::TestParamInfo<Algorithm>& p) {
    std::string id(info(p.param).id);
    std::replace(id.begin(), id.end(), '-', '_');
    return id;
}

// Each of `configs` (block, n) traced and given to `check`, which returns how many framings
// it checked; pure functions of their inputs, so on every core at once. Returns the total.
int on_every_core(Algorithm a, const std::vector<std::pair<int, int>>& configs,
                  const std::function<int(const scene::Model&, const std::string&)>& check) {
    std::atomic<std::size_t> next = 0;
    std::atomic<int> checked = 0;
    const auto work = [&] {
        for (std::size_t i = next++; i < configs.size(); i = next++) {
            const auto [block, n] = configs[i];
            std::string refused;
            const auto m = traced(a, block, n, refused);
            const std::string config = std::string(info(a).id) + " block " + std::to_string(block) +
                                       " n " + std::to_string(n);
            if (!m) {
                EXPECT_FALSE(refused.empty()) << config;
                continue;
            }
            checked += check(*m, config);
        }
    };
    std::vector<std::thread> workers;
    for (unsigned t = 1; t < std::max(2u, std::thread::hardware_concurrency()); ++t)
        workers.emplace_back(work);
    work();
    for (std::thread& t : workers)
        t.join();
    return checked.load();
}

class EveryConfiguration : public ::testing::TestWithParam<Algorithm> {};

TEST_P(EveryConfiguration, IsLegibleAndCoversNothing) {
    const Algorithm a = GetParam();
    std::vector<std::pair<int, int>> configs; // block, n
    for (const int block : ui::block_choices(a)) {
        // Powers of two, and for the kernels that take any multiple of 32 the odd ones a
        // caption can get wrong (96: three warps; 992: one lane short of 1024).
        const bool sampled = (block & (block - 1)) == 0 || block == 96 || block == 992;
        if (block >= 32 && sampled)
            for (const int n : kSizes)
                configs.emplace_back(block, n);
    }
    // And the window as it opens on this algorithm: reduceTree's block of 8 over n = 32 is
    // the first picture a class sees.
    const ui::Settings opened = ui::switch_algorithm(ui::Settings{}, a);
    if (std::find(configs.begin(), configs.end(), std::pair{opened.block, opened.n}) ==
        configs.end())
        configs.emplace_back(opened.block, opened.n);
    const int checked =
        on_every_core(a, configs, [](const scene::Model& m, const std::string& config) {
            int framings = 0;
            for (const Window w : kWindows)
                for (const float scale : kScales)
                    framings += check_in_window(m, w, scale, config);
            return framings;
        });
    EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, EveryConfiguration, ::testing::ValuesIn(kTraced), named);

// A slider's value bar (the transport's step and speed, the toolbar's block) stays below its
// text at every presenter scale and every value, and grows with the value: the grab that
// covered "step N of M" and "speed 1×" does not come back.
TEST(Sliders, ValueBarNeverCoversTheText) {
    for (const float scale : {1.0f, 1.25f, 1.5f, 1.75f, 2.0f, 3.0f}) {
        SCOPED_TRACE(std::to_string(scale * 100) + "%");
        const ui::Metrics m = ui::metrics(scale);
        const ui::TextWidth measure = window_width();
        // The transport's rows are taller than a frame (buttons of 1.15 frames); the toolbar's
        // block slider is one frame tall.
        const float heights[] = {m.frame, std::round(m.frame * 1.15f)};
        for (const float h : heights)
            for (const float fraction : {0.0f, 0.3f, 1.0f}) {
                const Rect frame{100, 50, ui::transport_speed_width(m, measure), h};
                const Rect bar = ui::slider_value_bar(frame, fraction);
                const Rect band = ui::frame_text_band(frame, m.font);
                EXPECT_FALSE(overlaps(bar, band)) << text(bar) << " over " << text(band);
                EXPECT_TRUE(inside(bar, frame));
                EXPECT_GE(bar.h, 3.0f) << "a bar too thin to see";
            }
        const Rect frame{0, 0, 200, m.frame};
        EXPECT_LT(ui::slider_value_bar(frame, 0.25f).w, ui::slider_value_bar(frame, 0.75f).w);
        EXPECT_FLOAT_EQ(ui::slider_value_bar(frame, 1.0f).w, frame.w);
        // The block slider at its narrowest holds its longest text ("1023 of 1024") and its
        // frame's padding, so ImGui never clips it.
        EXPECT_LE(measure("1023 of 1024", m.font) + 2 * m.frame_padding_x,
                  ui::block_slider_min_width(m));
    }
}

// The narrowest the controls' column gives a field of its whole width: the column (docked, or
// its drawer) less the window's padding (12 px at 100%) and a scroll bar (14 px).
float narrowest_controls_field(const ui::WindowLayout& l, float scale) {
    const float column = l.controls.w > 0 ? l.controls.w : l.drawer_width_controls;
    return column - (2 * 12 + 14) * scale;
}

ui::WindowLayout bare_window(Window w, float scale) {
    ui::LayoutRequest r;
    r.width = static_cast<float>(w.width);
    r.height = static_cast<float>(w.height);
    r.scale = scale;
    return ui::window_layout(r);
}

// The Algorithm field names every kernel whole, or by its name alone where the section's note
// does not fit (150% cut "scanBlocks + addCarries   beyond the" mid-phrase), without the arrow
// where even the name needs its room (200% in a docked column).
TEST(AlgorithmField, TextIsWholeOrTheKernelsName) {
    const ui::TextWidth measure = window_width();
    int shortened = 0;
    for (const float scale : kScales)
        for (const Window w : kWindows) {
            const ui::Metrics m = ui::metrics(scale);
            const float field = narrowest_controls_field(bare_window(w, scale), scale);
            for (const AlgorithmInfo& a : algorithms()) {
                SCOPED_TRACE(std::string(a.id) + " at " + std::to_string(scale * 100) + "% in " +
                             std::to_string(w.width) + "x" + std::to_string(w.height));
                const ui::DropdownText shown = ui::algorithm_shown(a, field, m, measure);
                EXPECT_TRUE(ui::dropdown_holds(shown.text, field, m, measure, shown.arrow))
                    << shown.text;
                if (shown.text != ui::algorithm_label(a)) {
                    const std::string title(a.title);
                    const std::string words = shown.text.substr(0, shown.text.rfind(" …"));
                    EXPECT_TRUE(shown.text == title ||
                                (title.rfind(words + " ", 0) == 0 && words.size() < title.size()))
                        << shown.text << ": not the name, nor its first words";
                    ++shortened;
                }
            }
        }
    EXPECT_GT(shortened, 0) << "no field too narrow: the short form goes untested";
    const ui::Metrics m = ui::metrics(2.0f);
    const float narrow = measure("scanBlocks + …", m.font) + 2 * m.frame_padding_x;
    EXPECT_EQ(ui::dropdown_text("scanBlocks + addCarries   beyond the chapter",
                                "scanBlocks + addCarries", narrow, m, measure)
                  .text,
              "scanBlocks + …");
    EXPECT_EQ(ui::dropdown_text("scanBlocks + addCarries   beyond the chapter",
                                "scanBlocks + addCarries", 10, m, measure)
                  .text,
              "scanBlocks …")
        << "down to the first word, never below it";
}

// The Block size field at every presenter scale and window: its text is whole ("auto (n
// rounded up)" where it fits, else "auto"), never cut by the dropdown's arrow (150% cut it to
// "auto (n roun").
TEST(BlockSizeField, TextIsWholeOrShort) {
    const ui::TextWidth measure = window_width();
    int shortened = 0;
    for (const float scale : kScales)
        for (const Window w : kWindows) {
            SCOPED_TRACE(std::to_string(scale * 100) + "% in " + std::to_string(w.width) + "x" +
                         std::to_string(w.height));
            const ui::Metrics m = ui::metrics(scale);
            // Beside the longest label of the column ("Blocks (grid)").
            const float field = narrowest_controls_field(bare_window(w, scale), scale) -
                                2 * 4 * scale - measure("Blocks (grid)", m.font);
            for (const bool single_block : {true, false}) {
                const std::string shown = ui::block_size_shown(0, single_block, field, m, measure);
                EXPECT_TRUE(ui::dropdown_holds(shown, field, m, measure)) << shown;
                const std::string full = ui::block_size_text(0, single_block);
                if (ui::dropdown_holds(full, field, m, measure)) {
                    EXPECT_EQ(shown, full) << "shortened where the whole text fits";
                } else {
                    EXPECT_EQ(shown, "auto");
                    ++shortened;
                }
            }
            EXPECT_EQ(ui::block_size_shown(1024, true, field, m, measure), "1024");
        }
    EXPECT_GT(shortened, 0) << "no field too narrow: the short form goes untested";
}

// The layout's sizes are ImGui's at every presenter scale the View menu offers: a button, a
// slider and a checkbox drawn headless in the window's style and font have the heights and
// spacings metrics() computes (it rounded where ImGui floors: at 150% every control was 2 px
// shorter than the layout planned).
TEST(Metrics, AgreeWithWhatImGuiDraws) {
    const test::WindowFonts& fonts = test::window_fonts();
    ImGui::SetCurrentContext(fonts.context());
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1920, 1080);
    io.DeltaTime = 1.0f / 60;
    for (float scale = 0.75f; scale <= 3.0f; scale += 0.25f) {
        SCOPED_TRACE(std::to_string(scale * 100) + "%");
        const ui::Metrics m = ui::metrics(scale);
        ImGui::GetStyle() = ui::window_style(scene::Theme::Light, scale);
        io.FontDefault = fonts.regular(scale);
        ImGui::NewFrame();
        ImGui::Begin("metrics");
        EXPECT_EQ(ImGui::GetFontSize(), m.font);
        ImGui::Button("step");
        const ImVec2 button = ImGui::GetItemRectSize();
        const float button_bottom = ImGui::GetItemRectMax().y;
        int value = 1;
        ImGui::SliderInt("##block", &value, 0, 7, "%d of 8");
        const float slider_h = ImGui::GetItemRectSize().y;
        const float slider_top = ImGui::GetItemRectMin().y;
        bool loop = false;
        ImGui::Checkbox("loop", &loop);
        const float checkbox_w = ImGui::GetItemRectSize().x;
        ImGui::End();
        ImGui::EndFrame();
        EXPECT_EQ(button.y, m.frame);
        EXPECT_EQ(slider_h, m.frame);
        EXPECT_EQ(button.x, fonts.width("step", m.font) + 2 * m.frame_padding_x);
        EXPECT_EQ(slider_top - button_bottom, m.spacing);
        EXPECT_EQ(checkbox_w, m.frame + m.inner_spacing + fonts.width("loop", m.font));
        EXPECT_EQ(ImGui::GetStyle().ItemSpacing.x, m.item_spacing);
    }
}

// How wide each row is: items `widths` wide in the rows `rows` gives them, `spacing` apart.
std::vector<float> rows_wide(const std::vector<float>& widths, const std::vector<int>& rows,
                             float spacing) {
    std::vector<float> used(rows.empty() ? 0 : static_cast<std::size_t>(rows.back()) + 1, -spacing);
    for (std::size_t i = 0; i < rows.size(); ++i)
        used.at(static_cast<std::size_t>(rows[i])) += widths.at(i) + spacing;
    return used;
}

// The Classroom's sub-tabs read whole at every presenter scale and window: in the fewest rows
// that hold them, shared out evenly (ImGui's tab bar scrolled them at 150% in 1280x720, its
// arrows over "Determinism").
TEST(ClassroomTabs, EveryNameWholeInTheColumn) {
    const std::vector<std::string_view> names = ui::classroom_tab_names();
    std::string refused;
    const auto m = traced(Algorithm::ReduceTree, 32, 1000, refused);
    ASSERT_TRUE(m) << refused;
    int wrapped = 0;
    for (const Window w : kWindows)
        for (const float scale : kScales) {
            SCOPED_TRACE(std::to_string(scale * 100) + "% in " + std::to_string(w.width) + "x" +
                         std::to_string(w.height));
            const ui::Metrics mt = ui::metrics(scale);
            const ui::WindowLayout l = window_for(*m, w, scale, false);
            // The column docked, or its drawer (framed by a border of the scale's pixels).
            const float column =
                l.source_folded ? l.drawer_width_source - 2 * std::max(1.0f, scale) : l.source.w;
            const float room = column - 2 * std::floor(12 * scale); // the window's padding
            std::vector<float> widths;
            for (const std::string_view name : names)
                widths.push_back(ui::tab_width(mt, window_width(), name));
            const std::vector<int> rows = ui::tab_rows(widths, room, mt.inner_spacing);
            ASSERT_EQ(rows.size(), names.size());
            for (const float row : rows_wide(widths, rows, mt.inner_spacing))
                EXPECT_LE(row, room) << "a sub-tab's name cut or scrolled";
            wrapped += rows.back() > 0;
        }
    EXPECT_GT(wrapped, 0) << "the sub-tabs never took a second row: the wrap goes untested";
}

// The Input section's sources (Generated, Typed, File) whole in the controls column at every
// scale and window: at 125% in 1280x720 "File" ran past the column's edge, cut to "Fil".
TEST(InputSources, EveryNameWholeInTheColumn) {
    std::string refused;
    const auto m = traced(Algorithm::ReduceTree, 32, 1000, refused);
    ASSERT_TRUE(m) << refused;
    int wrapped = 0;
    for (const Window w : kWindows)
        for (const float scale : {0.75f, 1.0f, 1.25f, 1.5f, 1.75f, 2.0f}) {
            SCOPED_TRACE(std::to_string(scale * 100) + "% in " + std::to_string(w.width) + "x" +
                         std::to_string(w.height));
            if (scale > ui::largest_scale(static_cast<float>(w.width), window_width()))
                continue; // Ctrl + stops short of it in this window
            const ui::Metrics mt = ui::metrics(scale);
            const ui::WindowLayout l = window_for(*m, w, scale, false);
            const float column = l.controls_folded
                                     ? l.drawer_width_controls - 2 * std::max(1.0f, scale)
                                     : l.controls.w;
            const float room = column - 2 * std::floor(12 * scale); // the window's padding
            std::vector<float> widths;
            for (const char* name : ui::kInputModeNames)
                widths.push_back(ui::radio_width(mt, window_width(), name));
            const std::vector<int> rows = ui::tab_rows(widths, room, mt.item_spacing);
            ASSERT_EQ(rows.size(), std::size(ui::kInputModeNames));
            for (const float row : rows_wide(widths, rows, mt.item_spacing))
                EXPECT_LE(row, room) << "an input source's name cut at the column's edge";
            wrapped += rows.back() > 0;
        }
    EXPECT_GT(wrapped, 0) << "the sources never took a second row: the wrap goes untested";
}

TEST(ClassroomTabs, RowsAreSharedOutEvenly) {
    const std::vector<float> six(6, 100);
    EXPECT_EQ(ui::tab_rows(six, 620, 4), (std::vector<int>{0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(ui::tab_rows(six, 500, 4), (std::vector<int>{0, 0, 0, 1, 1, 1}));
    EXPECT_EQ(ui::tab_rows(six, 250, 4), (std::vector<int>{0, 0, 1, 1, 2, 2}));
    EXPECT_EQ(ui::tab_rows(six, 50, 4), (std::vector<int>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(ui::tab_rows({}, 100, 4), std::vector<int>{});
}

// scan-fast's toolbar selector follows the tile each step is about and says "Tile" (it said
// "0 of 8" while the caption spoke of tile 5); choosing a tile goes to that tile's same event.
TEST(BlockSelector, ScanFastFollowsTheTileOfTheStep) {
    const ui::Settings s = ui::switch_algorithm(ui::Settings{}, Algorithm::ScanFast);
    const scene::Model m(make_cpu_backend()->trace(s.request()));
    ASSERT_GT(m.grid(0), 4);
    const int steps = static_cast<int>(m.steps().size());
    for (int step = 0; step < steps; ++step) {
        const scene::StepGroup& g = m.steps()[static_cast<std::size_t>(step)];
        const ui::BlockSelector b = ui::block_selector(m, step, 0);
        EXPECT_STREQ(b.noun, "Tile");
        EXPECT_EQ(b.count, m.grid(0));
        EXPECT_EQ(b.shown, g.block) << "step " << step + 1;
        const std::string caption = m.dataflow().caption(m.frame_at(step, 0));
        EXPECT_EQ(caption.rfind("Tile " + std::to_string(b.shown) + " ", 0), 0u)
            << "step " << step + 1 << ": the selector says tile " << b.shown << ", the caption '"
            << caption << "'";
        for (int tile = 0; tile < m.grid(0); ++tile) {
            const scene::StepGroup& to =
                m.steps().at(static_cast<std::size_t>(ui::step_for_block(m, step, tile)));
            EXPECT_EQ(to.block, tile);
            if (tile > 0 || g.step == Step::TilePublish) { // tile 0 has no look-back
                EXPECT_EQ(to.step, g.step);
            }
        }
    }
}

// Where every block does the step, the selector shows the block chosen and choosing one keeps
// the step; where the step is one block's turn (hist-privatised's fold into global memory), it
// shows that block.
TEST(BlockSelector, ShowsTheChosenBlockOrTheOneTheStepIsAbout) {
    std::string refused;
    const auto m = traced(Algorithm::HistPrivatised, 32, 1000, refused);
    ASSERT_TRUE(m) << refused;
    ASSERT_GT(m->grid(0), 2);
    int one_block_steps = 0;
    for (int step = 0; step < static_cast<int>(m->steps().size()); ++step) {
        const scene::StepGroup& g = m->steps()[static_cast<std::size_t>(step)];
        const ui::BlockSelector b = ui::block_selector(*m, step, 2);
        EXPECT_STREQ(b.noun, "Block");
        if (g.block < 0) {
            EXPECT_EQ(b.shown, std::min(2, b.count - 1));
            EXPECT_EQ(ui::step_for_block(*m, step, 1), step);
            continue;
        }
        ++one_block_steps;
        EXPECT_EQ(b.shown, g.block);
        const int to = ui::step_for_block(*m, step, 1);
        EXPECT_EQ(m->steps().at(static_cast<std::size_t>(to)).block, 1);
        EXPECT_EQ(m->steps().at(static_cast<std::size_t>(to)).step, g.step);
    }
    EXPECT_GT(one_block_steps, 0) << "no step of one block: the following goes untested";
}

// The present-mode offer above 125%: in the transport's one row wherever it has room ("▣ P"
// where only that fits), never a second row taken from the canvas for it. At 1280x720 and 200%
// the row has no room even for "▣ P": the menu bar offers it there (App::present_offer). While
// presenting, the button that leaves keeps to the one row too ("✕" where "✕ present" is too wide:
// 1366x768 and 1280x720 at 200%). Measured with the window's own fonts: the canvas's atlas has
// no "✕" and measured it narrower than the window draws it, and the test passed where the
// window took two rows.
TEST(Transport, PresentOfferNeverCostsTheCanvasARow) {
    std::string refused;
    const auto m = traced(Algorithm::ReduceTree, 32, 1000, refused);
    ASSERT_TRUE(m) << refused;
    for (const Window w : kWindows)
        for (const float scale : kScales) {
            SCOPED_TRACE(std::to_string(scale * 100) + "% in " + std::to_string(w.width) + "x" +
                         std::to_string(w.height));
            const ui::Metrics mt = ui::metrics(scale);
            const float width = window_for(*m, w, scale, false).transport.w;
            const std::string offer = ui::present_button(mt, window_width(), width, false);
            const float bare = ui::transport_width(mt, window_width(), false);
            if (scale <= 1.25f) {
                EXPECT_EQ(offer, "") << "no offer at classroom-desk sizes";
                continue;
            }
            if (!offer.empty()) {
                EXPECT_LE(bare, width) << "an offer in a transport of two rows";
                EXPECT_LE(ui::transport_width(mt, window_width(), false, offer), width);
            }
            if (w.width >= 1600 || scale < 2) {
                EXPECT_FALSE(offer.empty()) << "nothing points to present mode";
            }
            const ui::WindowLayout presenting = window_for(*m, w, scale, true);
            const std::string leave =
                ui::present_button(mt, window_width(), presenting.transport.w, true);
            EXPECT_TRUE(leave == "✕ present" || leave == "✕") << leave;
            EXPECT_LE(ui::transport_width(mt, window_width(), false, leave), presenting.transport.w)
                << "leaving present mode costs the canvas a second row";
        }
    const ui::Metrics projector = ui::metrics(2.0f);
    EXPECT_STREQ(
        ui::present_button(projector, window_width(), 1920 - 2 * projector.padding_x, false),
        "▣ present (P)");
    const float laptop = 1366 - 2 * projector.padding_x; // 1366x768 presenting at 200%
    EXPECT_STREQ(ui::present_button(projector, window_width(), laptop, true), "✕");
    EXPECT_LE(ui::transport_width(projector, window_width(), true), laptop);
}

// The scrub slider says the step in the words its width holds, longest first, and never more
// than it holds: 65536 steps in present mode at 200% in 1280x720 read "step 65536 of 6553", cut
// by the slider's edge. Widths from the 8 ems the transport keeps it to 60, at every scale.
TEST(Transport, TheScrubSaysTheStepInTheRoomItHas) {
    const std::string name = "block 3 tree-level 1";
    for (const float scale : kScales) {
        const ui::Metrics mt = ui::metrics(scale);
        const auto width_of = [&](const std::string& text) {
            return window_width()(text, mt.font);
        };
        for (const int steps : {5, 65536, 1048576}) {
            const std::string n = std::to_string(steps);
            const std::vector<std::string> said = {"step " + n + " of " + n + "   ·   " + name,
                                                   "step " + n + " of " + n, n + " of " + n,
                                                   n + "/" + n, n};
            for (float w = 8 * mt.font; w <= 60 * mt.font; w += mt.font / 2) {
                std::string label = ui::scrub_label(mt, window_width(), steps, name, w);
                ASSERT_NE(label.find("%d"), std::string::npos) << label;
                label.replace(label.find("%d"), 2, n); // the widest step: the last
                const auto at = std::find(said.begin(), said.end(), label);
                ASSERT_NE(at, said.end()) << label;
                const std::string where =
                    label + " in " + std::to_string(w) + " px at " + std::to_string(scale);
                if (at + 1 != said.end()) {
                    EXPECT_LE(width_of(label), w - mt.font) << where << ": cut by the edge";
                }
                for (auto longer = said.begin(); longer != at; ++longer)
                    EXPECT_GT(width_of(*longer), w - mt.font)
                        << where << ": '" << *longer << "' fits and is not said";
            }
        }
    }
}

// The smallest window the desktop app allows (and a window shrunk to it on a small monitor):
// every part on screen at every presenter scale; the canvas keeps a quarter of the height up to
// 150%. At 200% the caption's four lines and the transport's two rows leave it a tenth (50 px):
// text that large wants a larger window or present mode.
TEST(SmallWindow, KeepsEveryPartOnScreen) {
    std::string refused;
    const auto m = traced(Algorithm::ScanMultiblock, 32, 1000, refused);
    ASSERT_TRUE(m) << refused;
    const Window smallest{ui::kSmallestWindow.w, ui::kSmallestWindow.h};
    for (const float scale : kScales)
        for (const bool present : {false, true}) {
            SCOPED_TRACE(std::to_string(scale * 100) + "%" + (present ? " presenting" : ""));
            const ui::WindowLayout l = window_for(*m, smallest, scale, present);
            const Rect window{0, 0, static_cast<float>(smallest.width),
                              static_cast<float>(smallest.height)};
            for (const Rect& part : {l.menu, l.toolbar, l.caption, l.canvas, l.transport})
                EXPECT_TRUE(part.w <= 0 || inside(part, window)) << text(part);
            EXPECT_GE(l.transport.y, l.canvas.bottom());
            EXPECT_LE(l.caption.bottom(), l.canvas.y);
            EXPECT_GE(l.canvas.h, (scale < 2 ? 0.25f : 0.1f) * window.h)
                << "the canvas " << text(l.canvas) << " menu " << text(l.menu) << " toolbar "
                << text(l.toolbar) << " caption " << text(l.caption) << " lines " << l.caption_lines
                << " transport " << text(l.transport);
        }
}

// The notice reads as a sentence for one, for several, and says nothing when all are shown.
TEST(Notice, SaysOneAndSeveralInWordsAndNothingForAll) {
    EXPECT_EQ(render::shown_part("thread", 5, 5, 64), "showing thread 5 of 64");
    EXPECT_EQ(render::shown_part("thread", 0, 63, 1024), "showing threads 0–63 of 1024");
    EXPECT_EQ(render::shown_part("bin", 192, 255, 256), "showing bins 192–255 of 256");
    EXPECT_EQ(render::shown_part("thread", 0, 63, 64), "");
    EXPECT_EQ(render::shown_part("warp", 0, 0, 1), "");
    EXPECT_EQ(render::shown_part("thread", -1, -1, 0), "");
}

// Exercise 2 at its warp-totals step, followed legibly in a narrow canvas: s[WARPS]'s slots are
// the warps', and the notice counts them as warps ("threads 0–0 of 2" was its old wording).
TEST(Notice, WarpTotalsCountsWarps) {
    Request req;
    req.algorithm = Algorithm::ReduceFull;
    req.input.assign(256, 1.0f);
    req.block = 64;
    req.options.pitfall = Pitfall::EveryLaneWrites;
    const scene::Model m(make_cpu_backend()->trace(req));
    int step = -1;
    for (std::size_t k = 0; k < m.steps().size(); ++k)
        if (m.steps()[k].step == Step::WarpTotals && step < 0)
            step = static_cast<int>(k);
    ASSERT_GE(step, 0);
    render::CanvasRequest r;
    r.width = 700;
    r.height = 700;
    r.interactive = true;
    const render::Canvas c =
        render::lay_out_canvas(font(), m, m.frame_at(step, 0), r, scene::ViewOptions{});
    EXPECT_EQ(c.frame.notice.rfind("showing warp 0 of 2 · ", 0), 0U) << c.frame.notice;
}

// A request for a canvas of w x h pixels at a presenter scale.
// The frame of the last step, block 0's where each block has its own (as the window opens it).
std::size_t last_step(const scene::Model& m) {
    return m.frame_at(static_cast<int>(m.steps().size()) - 1, 0);
}

render::CanvasRequest canvas_of(float w, float h, float scale) {
    render::CanvasRequest r;
    r.width = w;
    r.height = h;
    r.scale = scale;
    return r;
}

// The rows the follow view leaves above or below the step are said, by name or counted: the
// audit found reduceTree's level 1 at 200% (a canvas 333 pixels tall, as `pplab render --size
// 1280x660` leaves it) with in[], s[] load, level 2 and out[] out of sight, and Blelloch's
// upsweep at 100% in a canvas of 864 with its downsweep gone, and nothing said of either.
TEST(Notice, NamesTheRowsLeftAboveAndBelowTheStep) {
    std::string refused;
    const auto tree = traced(Algorithm::ReduceTree, 8, 32, refused);
    ASSERT_TRUE(tree) << refused;
    render::CanvasRequest r = canvas_of(1280, 333, 2.0f);
    const std::size_t level1 = tree->frame_at(2, 0); // load, level 0, level 1: step 3 of 5
    ASSERT_EQ(tree->trace().frames.at(level1).step, Step::TreeLevel);
    ASSERT_EQ(tree->trace().frames.at(level1).level, 1);
    const render::Canvas c = render::lay_out_canvas(font(), *tree, level1, r, {});
    EXPECT_NE(c.frame.notice.find("in[], s[] load above"), std::string::npos) << c.frame.notice;
    EXPECT_NE(c.frame.notice.find("level 2, out[] below"), std::string::npos) << c.frame.notice;

    // Blelloch over one block of 32: in[], s[] load, 5 upsweep levels, clear root and 5
    // downsweep levels, 13 rows; those not named on the canvas are counted below it (a canvas of
    // 600: at 864 the follow view now shows all but the last).
    const auto blelloch = traced(Algorithm::ScanBlelloch, 32, 32, refused);
    ASSERT_TRUE(blelloch) << refused;
    r.width = 1600;
    r.height = 600;
    r.scale = 1.0f;
    const render::Canvas b =
        render::lay_out_canvas(font(), *blelloch, blelloch->frame_at(2, 0), r, {});
    int named = 0;
    for (const render::TextRun& t : b.frame.text)
        named += t.kind == render::TextKind::Label &&
                 (t.text == "in[]" || t.text == "s[] load" || t.text == "clear root" ||
                  t.text.rfind("upsweep ", 0) == 0 || t.text.rfind("downsweep ", 0) == 0);
    ASSERT_LT(named, 12) << "all but one row fit: the test's canvas is too tall to count them";
    EXPECT_NE(b.frame.notice.find(std::to_string(13 - named) + " rows below"), std::string::npos)
        << named << " rows named on the canvas; the notice says '" << b.frame.notice << "'";
}

// A row named in the notice is named once a side: the histograms' charts each have a "count"
// row, and hist-per-warp's zeroing in the window at 100% in 1280x720 said "count, count below"
// (the merged chart's and g_hist[]'s, their bars not yet drawn): two rows, counted.
TEST(Notice, NamesEachRowOffScreenOnce) {
    int lists = 0;
    // And reduceTree's block of 8 at 200% in a canvas 333 tall: "in[], s[] load above".
    const std::tuple<Algorithm, int, int> configs[] = {{Algorithm::HistPerWarp, 32, 32},
                                                       {Algorithm::HistPerWarp, 32, 1000},
                                                       {Algorithm::HistPrivatised, 32, 32},
                                                       {Algorithm::HistPrivatised, 32, 1000},
                                                       {Algorithm::ReduceTree, 8, 32}};
    const std::tuple<float, float, float> canvases[] = {
        {904.0f, 573.0f, 1.0f}, {1248.0f, 376.0f, 2.0f}, {1280.0f, 333.0f, 2.0f}};
    for (const auto& [a, block, n] : configs) {
        std::string refused;
        const auto m = traced(a, block, n, refused);
        ASSERT_TRUE(m) << refused;
        for (const auto& [w, h, scale] : canvases)
            for (int step = 0; step < static_cast<int>(m->steps().size()); ++step) {
                render::CanvasRequest r = canvas_of(w, h, scale);
                r.interactive = true;
                const render::Canvas c =
                    render::lay_out_canvas(font(), *m, m->frame_at(step, 0), r, {});
                const std::string& notice = c.frame.notice;
                for (std::size_t at = 0; at < notice.size();) { // between the " · "
                    std::size_t end = notice.find(" · ", at);
                    end = end == std::string::npos ? notice.size() : end;
                    const std::string clause = notice.substr(at, end - at);
                    at = end + std::string_view(" · ").size();
                    for (const char* side : {" above", " below"}) {
                        if (clause.size() < 6 || clause.rfind(side) != clause.size() - 6)
                            continue;
                        std::vector<std::string> names;
                        std::stringstream list(clause.substr(0, clause.size() - 6));
                        for (std::string name; std::getline(list, name, ',');)
                            names.push_back(name.substr(name.find_first_not_of(' ')));
                        lists += names.size() > 1;
                        std::sort(names.begin(), names.end());
                        EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end())
                            << info(a).id << " n " << n << " step " << step + 1 << " at "
                            << scale * 100 << "% in " << w << "x" << h << ": '" << notice << "'";
                    }
                }
            }
    }
    EXPECT_GT(lists, 0) << "no side named two rows: the test checks nothing";
}

// A legend explains what the picture shows: reduce-tree's level 2 at block 1024, threads 0-24 on
// screen and all of them working, explained "idle warp: none of its 32 threads works" (warps 4
// to 31 are idle, far off to the right), and its band took a second line for it.
TEST(Legend, ExplainsOnlyWhatIsOnScreen) {
    std::string refused;
    const auto tree = traced(Algorithm::ReduceTree, 1024, 65536, refused);
    ASSERT_TRUE(tree) << refused;
    render::CanvasRequest r = canvas_of(1920, 700, 2.0f);
    const std::size_t level2 = tree->frame_at(3, 0);
    ASSERT_EQ(tree->trace().frames.at(level2).level, 2);
    const render::Canvas c = render::lay_out_canvas(font(), *tree, level2, r, {});
    const auto named = [](const auto& entries, const std::string& text) {
        return std::any_of(entries.begin(), entries.end(),
                           [&](const auto& e) { return e.text.rfind(text, 0) == 0; });
    };
    ASSERT_TRUE(named(c.scene.legend, "idle warp")) << "the scene has idle warps";
    EXPECT_FALSE(named(c.frame.legend, "idle warp"));
    EXPECT_TRUE(named(c.frame.legend, "written by this step"));
    check_canvas(c.scene, c.frame, *tree, level2, r.scale, "reduce-tree level 2, block 1024");
}

// The value scale is explained while a row on it shows: scan-multiblock's in[] (65536 values,
// each a sliver) wears it; at block 0's second upsweep level, 200% in 1920x700, in[] is above,
// off screen, and "colour: the value" named a colour nothing on screen wore.
TEST(Legend, ValueScaleOnlyWhileARowOnItShows) {
    std::string refused;
    const auto scan = traced(Algorithm::ScanMultiblock, 1024, 65536, refused);
    ASSERT_TRUE(scan) << refused;
    const render::CanvasRequest r = canvas_of(1920, 700, 2.0f);
    const auto on_scale = [](const auto& entries) {
        return std::count_if(entries.begin(), entries.end(), [](const auto& e) {
            return e.text.rfind("colour: the value", 0) == 0;
        });
    };
    int shown = 0, left_out = 0;
    for (const int step : {0, 2}) {
        const std::size_t f = scan->frame_at(step, 0);
        const render::Canvas c = render::lay_out_canvas(font(), *scan, f, r, {});
        ASSERT_EQ(on_scale(c.scene.legend), 1) << "step " << step << ": in[] is on the scale";
        const bool seen =
            std::any_of(c.scene.cells.begin(), c.scene.cells.end(),
                        [&](const auto& cell) { return cell.on_scale && visible(c.frame, cell); });
        EXPECT_EQ(on_scale(c.frame.legend), seen ? 1 : 0) << "step " << step;
        shown += seen;
        left_out += !seen;
        check_canvas(c.scene, c.frame, *scan, f, r.scale,
                     "scan-multiblock step " + std::to_string(step));
    }
    EXPECT_EQ(shown, 1) << "step 1 (s[] load) reads in[], on screen";
    EXPECT_EQ(left_out, 1) << "step 3 shows no row on the scale";
}

// A legend docked where the step's writes all show: beside hist-privatised's fold at 100% in
// the window's canvas of 1280x720 a column left bins 14 and 15 of g_hist[] off screen ("showing
// bins 0-13 of 16"), where a band under the picture leaves all 16 on it.
TEST(Legend, DockedWhereEveryCellTheStepWritesShows) {
    std::string refused;
    const auto hist = traced(Algorithm::HistPrivatised, 1024, 65536, refused);
    ASSERT_TRUE(hist) << refused;
    const auto& frames = hist->trace().frames;
    const auto fold = std::find_if(frames.begin(), frames.end(),
                                   [](const Frame& f) { return f.step == Step::HistFold; });
    ASSERT_NE(fold, frames.end());
    const auto frame = static_cast<std::size_t>(fold - frames.begin());
    const render::Canvas c =
        render::lay_out_canvas(font(), *hist, frame, canvas_of(904, 540, 1.0f), {});
    int writes = 0;
    for (const scene::Cell& cell : c.scene.cells)
        if (cell.role == scene::CellRole::Written) {
            ++writes;
            const Rect r = on_screen(c.frame, cell.rect);
            EXPECT_TRUE(r.x >= c.frame.picture.x - 1 && r.right() <= c.frame.picture.right() + 1)
                << "a cell the fold writes at " << text(r) << " is off the picture "
                << text(c.frame.picture) << "; legend " << text(c.frame.legend_box) << ", notice '"
                << c.frame.notice << "'";
        }
    EXPECT_EQ(writes, 32) << "the fold writes g_hist[]'s 16 bins: a bar and a count each";
    check_canvas(c.scene, c.frame, *hist, frame, 1.0f, "hist-privatised fold at 100%");
}

// A legend that fits nowhere at its size is set at the notes' size, still legible, before it is
// left out: scanBlelloch's last step at 200% in the window's canvas of 1280x720 said "no room
// for the legend at this size" with 400 px empty beside the drawing.
TEST(Legend, SetSmallerBeforeItIsLeftOut) {
    std::string refused;
    const auto blelloch = traced(Algorithm::ScanBlelloch, 8, 7, refused);
    ASSERT_TRUE(blelloch) << refused;
    const std::size_t last = last_step(*blelloch);
    const render::Canvas c =
        render::lay_out_canvas(font(), *blelloch, last, canvas_of(1248, 376, 2.0f), {});
    EXPECT_FALSE(c.frame.legend_hidden) << c.frame.notice;
    EXPECT_EQ(c.frame.notice.find("no room for the legend"), std::string::npos) << c.frame.notice;
    EXPECT_EQ(c.frame.legend.size(), c.scene.legend.size());
    for (const render::LegendEntry& e : c.frame.legend) {
        EXPECT_GE(e.text_px, scene::kMinTextPx * 2.0f) << e.text;
        EXPECT_LT(e.text_px, render::kLegendPx * 2.0f) << e.text << ": fits at its own size";
    }
    check_canvas(c.scene, c.frame, *blelloch, last, 2.0f, "scanBlelloch's last step at 200%");
}

// A band docked under the picture is as tall as the entries it shows: reduceNaive at addition
// 11, 200%, in present mode's canvas of 1280x720, docked a band of two lines for three entries,
// its magnified rows then left the value strip (and "colour: the value") off screen, and the
// band's second line stayed an empty grey stripe under the drawing. Where the band of one line
// would let the strip back on screen (two lines again), its entry is centred in the two.
TEST(Legend, ADockedBandHasNoEmptyLine) {
    std::string refused;
    const auto naive = traced(Algorithm::ReduceNaive, 32, 65536, refused);
    ASSERT_TRUE(naive) << refused;
    int docked = 0;
    for (const float h : {460.0f, 500.0f, 540.0f})
        for (const int step : {0, 10, 40000}) {
            const std::size_t f = naive->frame_at(step, 0);
            const render::Canvas c =
                render::lay_out_canvas(font(), *naive, f, canvas_of(1248, h, 2.0f), {});
            const std::string where = "height " + std::to_string(static_cast<int>(h)) +
                                      ", addition " + std::to_string(step + 1);
            if (!c.frame.legend_docked || c.frame.legend_box.w < c.frame.width / 2)
                continue; // a card, or a column beside the picture
            ++docked;
            ASSERT_FALSE(c.frame.legend.empty()) << where;
            float highest = c.frame.legend_box.bottom(), lowest = 0, line = 0;
            for (const render::LegendEntry& e : c.frame.legend) {
                highest = std::min(highest, e.rect.y);
                lowest = std::max(lowest, e.rect.bottom());
                line = std::max(line, e.rect.h);
            }
            EXPECT_LT(highest - c.frame.legend_box.y, line) << where;
            if (h == 500.0f && step == 10) { // present mode's canvas: one line is all it needs
                EXPECT_LT(c.frame.legend_box.h, 2 * line) << where << ": the picture has the rest";
            }
            EXPECT_LT(c.frame.legend_box.bottom() - lowest, line)
                << where << ": band " << text(c.frame.legend_box) << ", lowest entry ends at "
                << lowest << "; notice '" << c.frame.notice << "'";
            check_canvas(c.scene, c.frame, *naive, f, 2.0f, where);
        }
    EXPECT_GT(docked, 0) << "a band is docked at one of these sizes at least";
}

// The values the step writes are drawn: reduce-full's last step at 100% in the window's canvas
// of 1280x720 framed its rows at 28 pixels a lane, room for the zeros of the first warp's lanes,
// and left the sum itself (six digits) out of out[], the notice saying values were too small.
// reduce-atomic's block totals at 200% in 1280x720 (`pplab render`'s canvas of 1280x294) were
// framed at the zoom where five digits just fit, and rounding left every one of them out.
TEST(Values, TheStepsOwnAreDrawn) {
    struct Case {
        Algorithm algorithm;
        int block, n;
        bool last; // the last step, else the first
        float width, height, scale;
        int written; // cells with a value the step writes
    };
    for (const Case& k :
         {Case{Algorithm::ReduceFull, 32, 65536, true, 904, 540, 1.0f, 1},
          Case{Algorithm::ReduceAtomic, 1024, 65536, false, 1280, 293.8f, 2.0f, 16}}) {
        const std::string where = std::string(info(k.algorithm).id) + " at " +
                                  std::to_string(static_cast<int>(k.scale * 100)) + "%";
        SCOPED_TRACE(where);
        std::string refused;
        const auto m = traced(k.algorithm, k.block, k.n, refused);
        ASSERT_TRUE(m) << refused;
        const std::size_t frame = k.last ? m->trace().frames.size() - 1 : 0;
        const render::Canvas c =
            render::lay_out_canvas(font(), *m, frame, canvas_of(k.width, k.height, k.scale), {});
        int written = 0;
        for (std::size_t i = 0; i < c.scene.cells.size(); ++i) {
            const scene::Cell& cell = c.scene.cells[i];
            if (cell.role != scene::CellRole::Written || cell.text.empty() ||
                !inside(on_screen(c.frame, cell.rect), c.frame.picture))
                continue;
            ++written;
            const bool drawn =
                std::any_of(c.frame.text.begin(), c.frame.text.end(), [&](const auto& t) {
                    return t.kind == render::TextKind::Cell && t.cell == static_cast<int>(i);
                });
            EXPECT_TRUE(drawn) << "the value " << cell.text
                               << " the step writes is not drawn; notice '" << c.frame.notice
                               << "'";
        }
        EXPECT_GT(written, 0) << "none of the values the step writes is on screen";
        EXPECT_LE(written, k.written);
        check_canvas(c.scene, c.frame, *m, frame, k.scale, where);
    }
}

// A row that draws some of its values marks the cells too narrow for theirs: scan-multiblock's
// last step over 65536 elements in blocks of 32 drew the level-2 carries "0 4405 8968" and 29
// blank cells, their 5-digit sums too wide, read as carries never written. Each mark stands in
// its own cell; the notice still says values are left out.
TEST(Values, ARowThatDrawsSomeMarksTheOthers) {
    std::string refused;
    const auto scan = traced(Algorithm::ScanMultiblock, 32, 65536, refused);
    ASSERT_TRUE(scan) << refused;
    const std::size_t last = last_step(*scan); // block 0's add-carries
    const render::Canvas c =
        render::lay_out_canvas(font(), *scan, last, canvas_of(1600, 864, 1.0f), {});
    std::map<float, int> values; // of the rows with marks, by their top: the values drawn
    int marks = 0;
    for (const render::TextRun& t : c.frame.text)
        if (t.kind == render::TextKind::Elided) {
            ++marks;
            const scene::Cell& cell = c.scene.cells.at(static_cast<std::size_t>(t.cell));
            EXPECT_TRUE(inside(t.rect, on_screen(c.frame, cell.rect))) << "a mark outside its cell";
            values.emplace(cell.rect.y, 0);
        }
    for (const render::TextRun& t : c.frame.text)
        if (t.kind == render::TextKind::Cell && t.cell >= 0)
            if (const auto row =
                    values.find(c.scene.cells.at(static_cast<std::size_t>(t.cell)).rect.y);
                row != values.end())
                ++row->second;
    EXPECT_GT(marks, 0);
    for (const auto& [top, drawn] : values)
        EXPECT_GT(drawn, 0) << "marks in a row that draws no value (it shows values as colour)";
    EXPECT_NE(c.frame.notice.find("values too small"), std::string::npos) << c.frame.notice;
    check_canvas(c.scene, c.frame, *scan, last, 1.0f, "scan-multiblock's last step at 100%");
}

// The texts of f's notes at the canvas's edges, the highest first.
std::vector<std::string> said_in_notes(const CanvasFrame& f) {
    std::vector<std::pair<float, std::string>> notes;
    for (const scene::Label& l : f.overlay_labels)
        for (const Rect& note : f.notes)
            if (inside({l.pos.x, l.pos.y - 1, 1, 1}, note))
                notes.emplace_back(note.y, l.text);
    std::sort(notes.begin(), notes.end());
    std::vector<std::string> texts;
    for (const auto& [y, t] : notes)
        texts.push_back(t);
    return texts;
}

// Where a band over the picture would push the step's own rows out, the rows off screen are said
// in notes at the canvas's edges, in room the drawing leaves. The window as it opens (reduceTree,
// a block of 8 over n 32) at 175% in 1280x720, level 1: its canvas of 1252x419 showed s[] load,
// level 0 and level 1, and nothing said that in[] was above, level 2 and out[] below.
TEST(Notice, RowsOffScreenAreSaidAtTheEdgesWhereNoBandFits) {
    std::string refused;
    const auto tree = traced(Algorithm::ReduceTree, 8, 32, refused);
    ASSERT_TRUE(tree) << refused;
    render::CanvasRequest r = canvas_of(1252, 419, 1.75f);
    r.interactive = true;
    const std::size_t level1 = tree->frame_at(2, 0);
    const render::Canvas c = render::lay_out_canvas(font(), *tree, level1, r, {});
    const CanvasFrame& f = c.frame;
    EXPECT_TRUE(f.notice_box.empty()) << "the test wants a canvas with no room for a band";
    ASSERT_EQ(f.notes.size(), 2U) << "notice '" << f.notice << "'";
    EXPECT_EQ(f.notice, "in[] above · level 2, out[] below");
    EXPECT_EQ(said_in_notes(f),
              (std::vector<std::string>{"↑ in[] above", "↓ level 2, out[] below"}));
    for (const Rect& note : f.notes)
        EXPECT_TRUE(note.y < 0.2f * r.height || note.bottom() > 0.8f * r.height)
            << "a note at " << text(note) << " is not at an edge";
    check_canvas(c.scene, f, *tree, level1, r.scale, "reduce-tree level 1 at 175%");
    check_rows_said_truly(c.scene, f, "reduce-tree level 1 at 175%");

    // Both notes at one edge (reduce-coarsened's store at 200%: a legend card at the top right,
    // the rows' names at the left): the rows above are said over the rows below, not under.
    const auto coarsened = traced(Algorithm::ReduceCoarsened, 8, 100, refused);
    ASSERT_TRUE(coarsened) << refused;
    r = canvas_of(1280, 367.2f, 2.0f); // as `pplab render --size 1280x640 --scale 200` leaves it
    const std::size_t store = coarsened->frame_at(4, 0);
    const render::Canvas d = render::lay_out_canvas(font(), *coarsened, store, r, {});
    EXPECT_EQ(said_in_notes(d.frame),
              (std::vector<std::string>{"↑ 4 rows above", "↓ 4 rows below"}));
    check_canvas(d.scene, d.frame, *coarsened, store, r.scale, "reduce-coarsened store at 200%");
}

// A scan's notice counts the part shown in one word at every step: scan-multiblock at block 1024
// said "showing threads 0–20 of 1024" at its load and "showing elements 0–20 of 1024" at its
// add-carries, of the same rows.
TEST(Notice, AScanCountsElementsAtEveryStep) {
    std::string refused;
    const auto scan = traced(Algorithm::ScanMultiblock, 1024, 65536, refused);
    ASSERT_TRUE(scan) << refused;
    int said = 0;
    for (int step = 0; step < static_cast<int>(scan->steps().size()); ++step) {
        const std::size_t frame = scan->frame_at(step, 0);
        const render::Canvas c =
            render::lay_out_canvas(font(), *scan, frame, canvas_of(904, 540, 1.0f), {});
        if (c.frame.notice.find("showing ") == std::string::npos)
            continue;
        ++said;
        EXPECT_NE(c.frame.notice.find("showing elements "), std::string::npos)
            << "step " << step + 1 << ": " << c.frame.notice;
    }
    EXPECT_GT(said, 1) << "no step said which part it shows: the test checks nothing";
}

// A heat strip counts every element it stands for: scan-multiblock's add-carries at block 1024
// in a 750x500 canvas said "showing elements 0–552 of 1021", its last strip (elements 1020–1023)
// counted as element 1020 alone.
TEST(Notice, AHeatStripCountsEveryElementItStandsFor) {
    std::string refused;
    const auto scan = traced(Algorithm::ScanMultiblock, 1024, 65536, refused);
    ASSERT_TRUE(scan) << refused;
    const int last = static_cast<int>(scan->steps().size()) - 1;
    for (const float width : {750.0f, 900.0f}) {
        const std::size_t frame = scan->frame_at(last, 0);
        const render::Canvas c =
            render::lay_out_canvas(font(), *scan, frame, canvas_of(width, 500, 1.0f), {});
        ASSERT_TRUE(std::any_of(c.scene.cells.begin(), c.scene.cells.end(),
                                [](const scene::Cell& cell) { return cell.merged > 1; }))
            << "no heat strip at this size: the test checks nothing";
        EXPECT_NE(c.frame.notice.find("showing elements "), std::string::npos) << c.frame.notice;
        EXPECT_NE(c.frame.notice.find(" of 1024 "), std::string::npos) << c.frame.notice;
    }
}

// Fit all over scan-multiblock's add-carries at block 1024 shows the whole scene, each element
// 1.4 pixels wide: the arrows from the shown block's elements into out[] are left out (one solid
// sheet), and the notice said they were to or from cells off screen.
TEST(Notice, ArrowsFromCellsTooNarrowAreNotSaidToBeOffScreen) {
    std::string refused;
    const auto scan = traced(Algorithm::ScanMultiblock, 1024, 65536, refused);
    ASSERT_TRUE(scan) << refused;
    render::CanvasRequest r = canvas_of(1920, 943.6f, 1.0f); // `pplab render --size 1920x1080`
    r.framing = render::Framing::Fit;
    const std::size_t frame = last_step(*scan);
    ASSERT_EQ(scan->trace().frames.at(frame).step, Step::AddCarries);
    const render::Canvas c = render::lay_out_canvas(font(), *scan, frame, r, {});
    ASSERT_TRUE(inside(on_screen(c.frame, c.scene.bounds), c.frame.picture))
        << "the scene is not whole on screen: the test checks nothing";
    const auto drawn =
        scene::arrows_drawn(c.scene, c.frame.camera, r.width, r.height, c.frame.picture);
    ASSERT_LT(drawn.size(), c.scene.arrows.size()) << "no arrow left out: the test checks nothing";
    EXPECT_EQ(c.frame.notice.find("off screen"), std::string::npos) << c.frame.notice;
    EXPECT_NE(c.frame.notice.find("arrows from cells too narrow to draw left out"),
              std::string::npos)
        << c.frame.notice;
    check_canvas(c.scene, c.frame, *scan, frame, r.scale, "scan-multiblock add-carries, fit");
}

// The notice says what of the step is left out: an earlier step's arrows, faint context, go
// unsaid. scan-multiblock n 10, block 4, at 150% in 1280x720 drew every arrow of downsweep 0 and
// said "arrows to or from cells off screen left out" for the upsweep's, into the rows above.
TEST(Notice, AnEarlierStepsArrowsLeftOutGoUnsaid) {
    std::string refused;
    const auto scan = traced(Algorithm::ScanMultiblock, 4, 10, refused);
    ASSERT_TRUE(scan) << refused;
    const render::CanvasRequest r = canvas_of(1280, 474.45f, 1.5f); // `--size 1280x720`
    const std::size_t frame = scan->frame_at(4, 0);
    ASSERT_EQ(scan->trace().frames.at(frame).step, Step::Downsweep);
    const render::Canvas c = render::lay_out_canvas(font(), *scan, frame, r, {});
    int past_left_out = 0, own = 0;
    for (const scene::Arrow& a : c.scene.arrows) {
        if (a.head <= 0)
            continue;
        const bool drawn =
            scene::source_drawn(a, c.frame.camera, r.width, r.height, c.frame.picture);
        past_left_out += a.past && !drawn;
        own += !a.past;
        EXPECT_TRUE(a.past || drawn) << "an arrow of the step is left out";
    }
    ASSERT_GT(own, 0);
    ASSERT_GT(past_left_out, 0) << "no earlier arrow left out: the test checks nothing";
    EXPECT_EQ(c.frame.notice.find("arrows"), std::string::npos) << c.frame.notice;
    check_canvas(c.scene, c.frame, *scan, frame, r.scale, "scan-multiblock n 10 downsweep 0");
}

// Every arrival of reduceAtomic on screen is tagged with its block, at every presenter scale:
// with 512 blocks at 150% in 1280x720 the tags ("block 150") were wider than the arrivals'
// pitch, crossed their neighbours' and every other one was left out, the first under the row's
// name; a class could not tell which block had finished. Where the canvas has no room over the
// arrivals for their tags (200% in 1280x720: 220 px for the rows), the notice says so: at step 4
// no tag was drawn and nothing said it.
TEST(Arrivals, EachOnScreenIsTaggedWithItsBlock) {
    std::string refused;
    const auto atomic = traced(Algorithm::ReduceAtomic, 32, 65536, refused);
    ASSERT_TRUE(atomic) << refused;
    const int steps = static_cast<int>(atomic->steps().size());
    std::map<int, int> place; // an arrival's frame -> its place in the order the blocks finished
    for (std::size_t f = 0; f < atomic->trace().frames.size(); ++f)
        if (atomic->trace().frames[f].step == Step::AtomicAdd)
            place.emplace(static_cast<int>(f), static_cast<int>(place.size()));
    for (const auto& [w, h] : {std::pair{1280, 720}, {1920, 1080}})
        for (const float scale : {1.0f, 1.5f, 2.0f})
            for (const int step : {3, 9, 199, steps / 2, steps - 1}) {
                SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " at " +
                             std::to_string(scale) + ", step " + std::to_string(step + 1));
                render::PictureOptions o;
                o.width = w;
                o.height = h;
                o.scale = scale;
                const std::size_t frame = atomic->frame_at(step, 0);
                const render::Composition c = render::compose(font(), *atomic, frame, o);
                int tagged = 0, untagged = 0, under = 0;
                std::string notice; // its lines joined where they wrapped
                for (const scene::Label& l : c.captions)
                    notice += l.text + " ";
                const bool said =
                    notice.find("no room for the arrivals' block numbers") != std::string::npos;
                for (const scene::Cell& cell : c.scene.cells) {
                    if (!cell.ref || cell.ref->frame < 0 || cell.role == scene::CellRole::Future)
                        continue;
                    const Frame& f =
                        atomic->trace().frames.at(static_cast<std::size_t>(cell.ref->frame));
                    const scene::Vec2 a = c.camera.to_screen(
                        {cell.rect.x, cell.rect.y}, static_cast<float>(w), static_cast<float>(h));
                    const Rect box{a.x, a.y, cell.rect.w * c.camera.scale,
                                   cell.rect.h * c.camera.scale};
                    // Cell 0 of an arrival is the total that arrived; cell 1 the sum under it.
                    if (f.step != Step::AtomicAdd || cell.ref->cell != 0 || !inside(box, c.picture))
                        continue;
                    const std::string tag = "block " + std::to_string(f.block);
                    const bool drawn =
                        std::any_of(c.text.begin(), c.text.end(),
                                    [&](const render::TextRun& t) { return t.text == tag; });
                    EXPECT_TRUE(drawn || said)
                        << "the arrival at " << text(box) << " has no '" << tag
                        << "' and the notice does not say so: " << notice;
                    ++(drawn ? tagged : untagged);
                    // Where the canvas is short, every other tag is in the gap over the sums:
                    // over the row, the one line that fitted was not the second's.
                    if (h == 720 && scale == 2.0f && place.at(cell.ref->frame) % 2 == 1) {
                        EXPECT_TRUE(drawn) << "no '" << tag << "' under its arrival";
                        ++under;
                    }
                }
                EXPECT_EQ(said, untagged > 0) << "said with every tag drawn: " << notice;
                if (h > 720 || scale < 2.0f) { // else a row of sums alone, at times
                    EXPECT_GT(tagged, 0) << "no arrival on screen: the test checks nothing";
                    // With room over the row, none is left out: a tag centred over the first
                    // arrival in view, beside the names' column, slides inside the picture.
                    EXPECT_EQ(untagged, 0);
                } else if (step == 3) { // the arrivals over the sums, no room over them
                    EXPECT_GT(under, 0) << "no arrival under a tag: the test checks nothing";
                }
            }
}

// An atomicAdd step's notice counts arrivals: reduceAtomic's sums alone on screen (512 blocks
// at 200% in 1280x720) said "showing thread 1 of 2", the step's two cells, and with its arrivals
// on screen "showing elements 7-15 of 512".
TEST(Notice, AnAtomicAddCountsArrivals) {
    std::string refused;
    const auto atomic = traced(Algorithm::ReduceAtomic, 32, 65536, refused);
    ASSERT_TRUE(atomic) << refused;
    // Each frame's place in the order the blocks finished: the trace records them in it.
    std::vector<int> arrival(atomic->trace().frames.size(), -1);
    int k = 0;
    for (std::size_t f = 0; f < arrival.size(); ++f)
        if (atomic->trace().frames[f].step == Step::AtomicAdd)
            arrival[f] = k++;
    ASSERT_EQ(k, 512);
    for (const auto& [step, scale] : {std::pair{9, 1.5f}, {9, 2.0f}, {256, 2.0f}}) {
        SCOPED_TRACE("step " + std::to_string(step + 1) + " at " + std::to_string(scale));
        render::PictureOptions o;
        o.width = 1280;
        o.height = 720;
        o.scale = scale;
        const render::Composition c =
            render::compose(font(), *atomic, atomic->frame_at(step, 0), o);
        int first = -1, last = -1;
        for (const scene::Cell& cell : c.scene.cells) {
            if (!cell.ref || cell.ref->frame < 0 ||
                arrival[static_cast<std::size_t>(cell.ref->frame)] < 0)
                continue;
            const scene::Vec2 a = c.camera.to_screen({cell.rect.x, cell.rect.y}, 1280, 720);
            if (!inside({a.x, a.y, cell.rect.w * c.camera.scale, cell.rect.h * c.camera.scale},
                        c.picture))
                continue;
            const int i = arrival[static_cast<std::size_t>(cell.ref->frame)];
            first = first < 0 ? i : std::min(first, i);
            last = std::max(last, i);
        }
        ASSERT_GE(first, 0) << "no arrival on screen";
        ASSERT_LT(last - first, 511) << "every arrival on screen: the test checks nothing";
        const std::string said =
            "showing arrivals " + std::to_string(first) + "–" + std::to_string(last) + " of 512";
        EXPECT_TRUE(std::any_of(c.captions.begin(), c.captions.end(),
                                [&](const scene::Label& l) { return l.text.rfind(said, 0) == 0; }))
            << "no notice begins '" << said << "'";
    }
}

// A canvas is framed no farther out than its scene was built for: the scene spaces a row's name
// and its second line for that zoom. scanBlelloch over n 7 at 150% in 1280x720 settled nowhere
// (a legend card at 84 px a unit, a column at 72): built at 84 and framed at 72, upsweep 2's
// "stride 2" lay under "upsweep 1", was left out, and the notice said the rows were too close to
// name each.
TEST(Names, SpacedForTheZoomTheyAreShownAt) {
    std::string refused;
    const auto blelloch = traced(Algorithm::ScanBlelloch, 8, 7, refused);
    ASSERT_TRUE(blelloch) << refused;
    const render::CanvasRequest r =
        canvas_of(1256, 474.45f, 1.5f); // `pplab render --size 1256x720`
    const std::size_t upsweep2 = blelloch->frame_at(3, 0);
    ASSERT_EQ(blelloch->trace().frames.at(upsweep2).step, Step::Upsweep);
    ASSERT_EQ(blelloch->trace().frames.at(upsweep2).level, 2);
    const render::Canvas c = render::lay_out_canvas(font(), *blelloch, upsweep2, r, {});
    EXPECT_GE(c.frame.camera.scale, 0.99f * c.built_with.pixels_per_unit);
    EXPECT_EQ(c.frame.notice.find("too close"), std::string::npos) << c.frame.notice;
    for (const char* name : {"upsweep 1", "stride 2", "upsweep 2", "stride 4"})
        EXPECT_TRUE(std::any_of(c.frame.text.begin(), c.frame.text.end(),
                                [&](const render::TextRun& t) { return t.text == name; }))
            << "'" << name << "' is not drawn";
    check_canvas(c.scene, c.frame, *blelloch, upsweep2, r.scale, "scanBlelloch upsweep 2");
    // An upsweep's legend explains no downsweep arrows: carries and left sums are not drawn.
    for (const render::LegendEntry& e : c.frame.legend)
        EXPECT_EQ(e.text.find("carry"), std::string::npos) << e.text;
}

// Where the whole scene cannot be read but the step's rows can, the follow view shows the rows
// beside them that still read: reduceTree's block of 8 over 32 (the window's first picture)
// at 125% in 1280x720 filled the canvas with the step's two rows, 72 pixels a cell, the load
// and the levels after it out of sight; at 200% in 1920x1080 its last level and out[] alone.
TEST(Follow, ShowsTheRowsBesideTheStepThatCanBeRead) {
    std::string refused;
    const auto m = traced(Algorithm::ReduceTree, 8, 32, refused);
    ASSERT_TRUE(m) << refused;
    const std::vector<std::string> rows = {"in[]",    "s[] load", "level 0",
                                           "level 1", "level 2",  "out[]"};
    for (const auto& [w, scale] :
         {std::pair{Window{1280, 720}, 1.25f}, std::pair{Window{1280, 720}, 1.5f},
          std::pair{Window{1920, 1080}, 2.0f}}) {
        const render::CanvasRequest r = window_request(*m, w, scale, false);
        for (int level = 0; level < 3; ++level) {
            const auto& frames = m->trace().frames;
            const auto at = std::find_if(frames.begin(), frames.end(), [&](const Frame& f) {
                return f.step == Step::TreeLevel && f.block == 0 && f.level == level;
            });
            ASSERT_NE(at, frames.end());
            const std::size_t frame = static_cast<std::size_t>(at - frames.begin());
            const render::Canvas c = render::lay_out_canvas(font(), *m, frame, r, {});
            const std::string where = std::to_string(w.width) + "x" + std::to_string(w.height) +
                                      " at " + std::to_string(static_cast<int>(scale * 100)) +
                                      "%, level " + std::to_string(level);
            check_canvas(c.scene, c.frame, *m, frame, scale, where);
            std::vector<std::size_t> named; // indices into `rows`, as drawn
            for (const render::TextRun& t : c.frame.text)
                if (t.kind == render::TextKind::Label)
                    if (const auto i = std::find(rows.begin(), rows.end(), t.text); i != rows.end())
                        named.push_back(static_cast<std::size_t>(i - rows.begin()));
            std::sort(named.begin(), named.end());
            // The step reads the row above its own (the load at level 0) and writes its own.
            const std::size_t own = 2 + static_cast<std::size_t>(level);
            EXPECT_TRUE(std::binary_search(named.begin(), named.end(), own - 1)) << where;
            EXPECT_TRUE(std::binary_search(named.begin(), named.end(), own)) << where;
            EXPECT_GE(named.size(), 3u) << where << ": the step's two rows alone";
            for (std::size_t i = 1; i < named.size(); ++i) // a run of rows, none skipped
                EXPECT_EQ(named[i], named[i - 1] + 1) << where;
        }
    }
}

// The follow view frames no farther out than its rows' two-line names need: scan-fast's
// look-back in a tall canvas (1600x1000 at 100%, its controls docked both sides) fitted all
// 17 tiles at 16 pixels a unit, where its names take two lines from 21, and said "rows too
// close to name each"; built again for 16, its names took one line and it framed at 38.
TEST(Names, TwoLinesApartInTheFollowView) {
    std::string refused;
    const auto fast = traced(Algorithm::ScanFast, 992, 65536, refused);
    ASSERT_TRUE(fast) << refused;
    const std::size_t first = fast->frame_at(0, 0);
    const render::Canvas c =
        render::lay_out_canvas(font(), *fast, first, canvas_of(704, 871, 1.0f), {});
    EXPECT_EQ(c.frame.notice.find("too close"), std::string::npos) << c.frame.notice;
    EXPECT_GE(c.frame.camera.scale, 0.95f * c.built_with.pixels_per_unit);
    check_canvas(c.scene, c.frame, *fast, first, 1.0f, "scan-fast's first step in 704x871");
}

// A row's name and its second line are a line apart on screen however far from its built zoom
// a scene is shown: reduceAtomic (block 1024, n 65536) at 150% in 1920x1080 was built at 108
// pixels a unit and framed whole at 55, its second lines half a line under the names, each
// left out, and the notice said the rows were too close to name each.
TEST(Names, ALineApartAtAnyZoom) {
    std::string refused;
    const auto atomic = traced(Algorithm::ReduceAtomic, 1024, 65536, refused);
    ASSERT_TRUE(atomic) << refused;
    scene::ViewOptions vo;
    vo.pixels_per_unit = 108;
    vo.text_scale = 1.5f;
    for (const float shown : {63.0f, 55.0f, 40.0f}) {
        SCOPED_TRACE(shown);
        scene::Scene s = scene::build(*atomic, atomic->frame_at(0, 0), vo);
        render::measure_labels(s, font());
        scene::Camera cam;
        cam.center = s.bounds.center();
        cam.scale = shown;
        constexpr float kW = 2800, kH = 875; // the scene and its names' column on screen
        ASSERT_LE(s.bounds.h * shown, kH);
        ASSERT_LE(s.bounds.w * shown + 700, kW);
        const std::vector<render::TextRun> text =
            render::scene_text(font(), s, cam, kW, kH, {}, {});
        const auto baseline = [&](const std::string& t) -> std::optional<float> {
            for (const render::TextRun& r : text)
                if (r.text == t)
                    return r.baseline;
            return std::nullopt;
        };
        int pairs = 0;
        for (std::size_t i = 0; i + 1 < s.labels.size(); ++i) {
            const scene::Label &name = s.labels[i], &second = s.labels[i + 1];
            if (name.kind != scene::LabelKind::Row || second.kind != scene::LabelKind::Row ||
                second.px >= 0.9f * name.px)
                continue;
            ++pairs;
            const auto a = baseline(name.text), b = baseline(second.text);
            ASSERT_TRUE(a) << "'" << name.text << "' is not drawn";
            ASSERT_TRUE(b) << "'" << second.text << "' under '" << name.text << "' is not drawn";
            // The chapter's text sizes: a name of 17 px and its second line, a line lower.
            EXPECT_NEAR(*b - *a, 17.0f * 1.5f, 0.5f) << name.text;
        }
        EXPECT_EQ(pairs, 3) << "out[], arrives and sum each have a second line";
    }
}

} // namespace
} // namespace pplab

namespace pplab::ui {

// A 1280x720 projector without a window manager (Xvfb, a kiosk): the window is the screen,
// not 1600x1000 with its caption and transport below the screen's edge.
TEST(WindowPlacement, FitsASmallMonitor) {
    const WindowPlacement p = place_window({0, 0, 1280, 720}, {});
    EXPECT_EQ(p.contents.x, 0);
    EXPECT_EQ(p.contents.y, 0);
    EXPECT_EQ(p.contents.w, 1280);
    EXPECT_EQ(p.contents.h, 720);
    EXPECT_TRUE(p.fills_work_area);
}

// A task bar and a title bar: the window and its frame fit the work area, wherever it starts.
TEST(WindowPlacement, LeavesRoomForTheFrameAndTheTaskBar) {
    const ScreenRect work{0, 32, 1366, 736}; // a laptop's 1366x768 less a top bar
    const FrameExtents frame{1, 28, 1, 1};
    const WindowPlacement p = place_window(work, frame);
    EXPECT_GE(p.contents.x - frame.left, work.x);
    EXPECT_GE(p.contents.y - frame.top, work.y);
    EXPECT_LE(p.contents.x + p.contents.w + frame.right, work.x + work.w);
    EXPECT_LE(p.contents.y + p.contents.h + frame.bottom, work.y + work.h);
    EXPECT_EQ(p.contents.h, 736 - 28 - 1);
    EXPECT_EQ(p.contents.w, 1366 - 2);
}

// Where the usual size fits, the window has it, centred on the (second) monitor's work area.
TEST(WindowPlacement, KeepsTheUsualSizeOnALargeMonitor) {
    const WindowPlacement p = place_window({1920, 0, 2560, 1400}, {2, 30, 2, 2});
    EXPECT_EQ(p.contents.w, 1600);
    EXPECT_EQ(p.contents.h, 1000);
    EXPECT_FALSE(p.fills_work_area);
    EXPECT_EQ(p.contents.x, 1920 + 2 + (2560 - 4 - 1600) / 2);
    EXPECT_EQ(p.contents.y, 30 + (1400 - 32 - 1000) / 2);
}

namespace {

// A caption's short last word stays with the word before it: no line of a lone "0".
TEST(Caption, ShortLastWordIsKeptWithTheWordBefore) {
    EXPECT_EQ(glue_last_word("sweep 1 adds the carry of block 0"),
              "sweep 1 adds the carry of block\u00a00");
    EXPECT_EQ(glue_last_word("contention on one bin, by atomics"),
              "contention on one bin, by\u00a0atomics");
    EXPECT_EQ(glue_last_word("threads 0-3 add s[t+4] into s[t]; one s[t+stride]"),
              "threads 0-3 add s[t+4] into s[t]; one s[t+stride]")
        << "a long last word may start a line";
    EXPECT_EQ(glue_last_word("0"), "0") << "one word: nothing to keep it with";
    EXPECT_EQ(glue_last_word(""), "");
    EXPECT_EQ(glue_last_word("writes s[]"), "writes\u00a0s[]");
}

} // namespace
} // namespace pplab::ui

namespace pplab {
namespace {

// Values in flight never touch: two numbers side by side would read as one ("17" and "14" as
// "1714"). Every algorithm x block x n of the matrix, every step, at phases all through the
// travel, at the zoom the window's follow view gives it.
class MovingValues : public ::testing::TestWithParam<Algorithm> {};

// The travelling values of one configuration at every sampled step, through the travel;
// returns the phases checked.
int check_moving_values(const scene::Model& m, const std::string& config) {
    int phases = 0;
    render::CanvasRequest r;
    r.width = 1100;
    r.height = 760;
    for (const int step : sampled_steps(m)) {
        const std::size_t frame = m.frame_at(step, 0);
        scene::ViewOptions vo;
        vo.pixels_per_unit =
            render::lay_out_canvas(font(), m, frame, r, scene::ViewOptions{}).frame.camera.scale;
        for (float anim = 0.1f; anim < 0.9f; anim += 0.06f, ++phases) {
            std::vector<Rect> moving;
            for (const scene::Cell& mv : scene::build(m, frame, vo, anim).movers)
                moving.push_back(mv.rect);
            std::sort(moving.begin(), moving.end(),
                      [](const Rect& p, const Rect& q) { return p.x < q.x; });
            for (std::size_t i = 0; i < moving.size(); ++i)
                for (std::size_t j = i + 1; j < moving.size() && moving[j].x < moving[i].right();
                     ++j)
                    if (moving[i].y < moving[j].bottom() && moving[j].y < moving[i].bottom()) {
                        ADD_FAILURE() << config << " step " << step + 1 << " at phase " << anim
                                      << ": " << text(moving[i]) << " touches " << text(moving[j]);
                        return phases;
                    }
        }
    }
    return phases;
}

TEST_P(MovingValues, NeverOverlap) {
    const Algorithm a = GetParam();
    std::vector<std::pair<int, int>> configs; // block, n
    for (const int block : ui::block_choices(a))
        if (block >= 32 && (block & (block - 1)) == 0)
            for (const int n : kSizes)
                configs.emplace_back(block, n);
    EXPECT_GT(on_every_core(a, configs, check_moving_values), 0);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, MovingValues, ::testing::ValuesIn(kTraced), named);

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// The reduce and scan families at presenter scales up to 200% (issue 9's pictures): where the
// follow view shows part of a row, the rows' names beside it never touch a sliver of a cell
// ("upsweep 0" beside a sliver of a cell read "upsweep 00"), and the notice says what part of
// the step is shown ("showing lanes 0–24 of 32" where reduce-full's one warp is cut) and when a
// value of the step in a cell of a legible width is not drawn (13373 at 200%: five digits too
// long for the cell, left blank with nothing said).
void check_part_shown(const scene::Scene& s, const CanvasFrame& f, const scene::Model& m,
                      std::size_t frame, float scale, const std::string& where) {
    SCOPED_TRACE(where);
    if (!f.names.empty())
        for (const scene::Cell& c : s.cells) {
            const Rect r = on_screen(f, c.rect);
            const bool in_focus = c.rect.bottom() > s.focus.y && c.rect.y < s.focus.bottom();
            if (c.ref && in_focus && c.rect.w >= 0.5f && visible(f, c) &&
                r.x < f.picture.x - kTolerancePx && r.right() > f.picture.x + kTolerancePx)
                ADD_FAILURE() << "a cell cut by the names' column at " << text(r) << ", picture "
                              << text(f.picture);
        }
    const Frame& cur = m.trace().frames.at(frame);
    const scene::StepGroup& g = m.steps().at(static_cast<std::size_t>(m.step_of(frame)));
    bool cut = false;
    for (const scene::Cell& c : s.cells)
        if (c.ref && c.ref->frame >= g.first && c.ref->frame <= g.last && c.rect.w >= 0.5f &&
            m.trace().frames.at(static_cast<std::size_t>(c.ref->frame)).block == cur.block &&
            m.writes(static_cast<std::size_t>(c.ref->frame))
                    .at(static_cast<std::size_t>(c.ref->cell))
                    .thread >= 0)
            cut = cut || !inside(on_screen(f, c.rect), f.picture);
    if (cut) {
        EXPECT_EQ(f.notice.rfind("showing ", 0), 0U)
            << "cells the step writes are off screen, not said: '" << f.notice << "'";
    }
    // A row of the step's cut on the left seems to begin at its first element (reduce-naive n 32
    // at 200%: in[] from element 7, its 5 read as in[0]): the notice says which part is shown.
    for (const scene::Cell& c : s.cells) {
        const Rect r = on_screen(f, c.rect);
        if (c.ref && c.rect.w >= 0.5f && c.role != scene::CellRole::Panel &&
            (c.fill.a > 0 || c.border_width > 0) && c.rect.bottom() > s.focus.y &&
            c.rect.y < s.focus.bottom() && r.x < f.picture.x - kTolerancePx &&
            r.y >= f.picture.y - kTolerancePx && r.bottom() <= f.picture.bottom() + kTolerancePx) {
            EXPECT_EQ(f.notice.rfind("showing ", 0), 0U)
                << "a row cut on the left at " << text(r) << ", nothing said: '" << f.notice << "'";
            break;
        }
    }
    // A value of the step too long for a cell of a legible width (13373 at 200%) is said.
    check_values_drawn_or_said(s, f, m, scale, where);
}

// One framing of the follow view: the scene, its frame, the trace's frame shown, the presenter
// scale, and where.
using FollowCheck = std::function<void(const scene::Scene&, const CanvasFrame&, std::size_t, float,
                                       const std::string&)>;

// The trace followed step by step (`steps`) as the window does, in 1280x720, 1600x1000 (the
// window on a 1920x1080 screen) and 1920x1080 at each of `scales`, and presenting at 150% and
// over; `check` given each framing. Returns the framings checked.
int follow_in_windows(const scene::Model& m, const std::string& config,
                      const std::vector<float>& scales, const std::vector<int>& steps,
                      const FollowCheck& check) {
    int checked = 0;
    for (const Window w : kWindows)
        for (const float scale : scales)
            for (const bool present : {false, true}) {
                if (present && scale < 1.5f)
                    continue;
                const render::CanvasRequest r = window_request(m, w, scale, present);
                scene::ViewOptions vo;
                for (const int step : steps) {
                    const std::size_t frame = m.frame_at(step, 0);
                    const render::Canvas c = render::lay_out_canvas(font(), m, frame, r, vo);
                    vo.pixels_per_unit = c.frame.camera.scale;
                    check(c.scene, c.frame, frame, scale,
                          config + " in " + std::to_string(w.width) + "x" +
                              std::to_string(w.height) + " at " + std::to_string(scale * 100) +
                              (present ? "% presenting" : "%") + " step " +
                              std::to_string(step + 1));
                    ++checked;
                }
            }
    return checked;
}

// Every step of a trace, as the transport counts them from 0.
std::vector<int> every_step(const scene::Model& m) {
    std::vector<int> steps(m.steps().size());
    std::iota(steps.begin(), steps.end(), 0);
    return steps;
}

// Each block size with each n.
std::vector<std::pair<int, int>> configs_of(std::initializer_list<int> blocks,
                                            std::initializer_list<int> sizes) {
    std::vector<std::pair<int, int>> out; // block, n
    for (const int block : blocks)
        for (const int n : sizes)
            out.emplace_back(block, n);
    return out;
}

int check_parts(const scene::Model& m, const std::string& config) {
    return follow_in_windows(
        m, config, {1.0f, 1.5f, 2.0f}, sampled_steps(m),
        [&](const scene::Scene& s, const CanvasFrame& f, std::size_t frame, float scale,
            const std::string& where) { check_part_shown(s, f, m, frame, scale, where); });
}

class PartShown : public ::testing::TestWithParam<Algorithm> {};

TEST_P(PartShown, NamesBesideWholeCellsAndTheNoticeSaysWhichPart) {
    std::vector<std::pair<int, int>> configs; // block, n
    for (const int block : {32, 1024})
        for (const int n : {7, 32, 65536})
            configs.emplace_back(block, n);
    EXPECT_GT(on_every_core(GetParam(), configs, check_parts), 0);
}

INSTANTIATE_TEST_SUITE_P(ReduceAndScan, PartShown,
                         ::testing::Values(Algorithm::ReduceNaive, Algorithm::ReduceTree,
                                           Algorithm::ReduceCoarsened, Algorithm::ReduceShuffle,
                                           Algorithm::ReduceFull, Algorithm::ScanBlelloch,
                                           Algorithm::ScanMultiblock),
                         named);

// scan-multiblock's "add carries" step: one carry per block, drawn as one arrow to a bracket
// over the block, not one arrow per element (a mass of pink arrows at block 32, n 1000).
TEST(AddCarries, OneArrowPerBlock) {
    std::string refused;
    const auto m = traced(Algorithm::ScanMultiblock, 32, 1000, refused);
    ASSERT_TRUE(m) << refused;
    const scene::Palette pal = scene::palette(scene::Theme::Light);
    int steps = 0;
    for (int step = 0; step < static_cast<int>(m->steps().size()); ++step) {
        const std::size_t frame = m->frame_at(step, 0);
        if (m->trace().frames.at(frame).step != Step::AddCarries)
            continue;
        ++steps;
        const scene::Scene s = scene::build(*m, frame, scene::ViewOptions{});
        const auto carries = std::count_if(s.arrows.begin(), s.arrows.end(), [&](const auto& a) {
            return a.head > 0 && a.color == pal.carry;
        });
        EXPECT_GE(carries, 1) << "step " << step + 1 << ": no carry drawn";
        EXPECT_LE(carries, m->grid(m->trace().frames.at(frame).pass))
            << "step " << step + 1 << ": more carry arrows than blocks";
    }
    EXPECT_GT(steps, 0);
}

// Blocks narrower than a cell on screen's row: the shown block's carry alone, its arrow and its
// bracket. Each block's made a solid sheet between the carries and out[] (n 65536 in blocks of
// 64: 1024 arrows and 3072 bracket lines in a band a cell tall).
TEST(AddCarries, NarrowBlocksShowOnlyTheShownBlocksCarry) {
    std::string refused;
    const auto m = traced(Algorithm::ScanMultiblock, 64, 65536, refused);
    ASSERT_TRUE(m) << refused;
    const scene::Palette pal = scene::palette(scene::Theme::Light);
    const int last = static_cast<int>(m->steps().size()) - 1;
    for (const int block : {0, 20, 1023}) {
        const std::size_t f = m->frame_at(last, block);
        ASSERT_EQ(m->trace().frames.at(f).step, Step::AddCarries);
        ASSERT_EQ(m->trace().frames.at(f).block, block);
        const scene::Scene s = scene::build(*m, f, scene::ViewOptions{});
        int arrows = 0, lines = 0;
        for (const scene::Arrow& a : s.arrows)
            if (a.color == pal.carry)
                ++(a.head > 0 ? arrows : lines);
        EXPECT_EQ(arrows, 1) << "block " << block;
        EXPECT_EQ(lines, 3) << "block " << block << ": one bracket";
    }
}

// The carry the step adds is in the picture, whole, with its arrow into the block's out[], for
// the block the camera follows, at the canvases a class meets: at block 1024 the carry stood in
// the middle of its block, 16 units wide, and the picture (from the block's first element,
// 10 units across at 200%) showed out[] under a row of carries with none of them in it.
TEST(AddCarries, TheFollowedBlocksCarryIsShownWithItsArrow) {
    std::string refused;
    const auto m = traced(Algorithm::ScanMultiblock, 1024, 65536, refused);
    ASSERT_TRUE(m) << refused;
    int carries = -1; // the totals' scan, its last level: carries[b]
    for (std::size_t f = 0; f < m->trace().frames.size(); ++f)
        if (m->trace().frames[f].pass == 1 && m->trace().frames[f].step == Step::Downsweep)
            carries = static_cast<int>(f);
    ASSERT_GE(carries, 0);
    const scene::Palette pal = scene::palette(scene::Theme::Light);
    const int last = static_cast<int>(m->steps().size()) - 1;
    for (const auto& [w, h, scale] : {std::tuple{1280.0f, 348.0f, 2.0f},
                                      {1280.0f, 515.0f, 1.5f},
                                      {1280.0f, 584.0f, 1.0f},
                                      {1920.0f, 700.0f, 2.0f},
                                      {904.0f, 540.0f, 1.0f}})
        for (const int block : {0, 7, 63}) {
            SCOPED_TRACE(std::to_string(static_cast<int>(w)) + "x" +
                         std::to_string(static_cast<int>(h)) + " at " +
                         std::to_string(static_cast<int>(scale * 100)) + "%, block " +
                         std::to_string(block));
            const std::size_t f = m->frame_at(last, block);
            ASSERT_EQ(m->trace().frames.at(f).step, Step::AddCarries);
            const render::Canvas c =
                render::lay_out_canvas(font(), *m, f, canvas_of(w, h, scale), {});
            const auto carry =
                std::find_if(c.scene.cells.begin(), c.scene.cells.end(), [&](const auto& cell) {
                    return cell.ref && cell.ref->frame == carries && cell.ref->cell == block;
                });
            ASSERT_NE(carry, c.scene.cells.end());
            const Rect at = on_screen(c.frame, carry->rect);
            const Rect room = inflate(c.frame.picture, 0.5f, 0.5f);
            EXPECT_TRUE(room.contains({at.x, at.y}) && room.contains({at.right(), at.bottom()}))
                << "carries[" << block << "] at " << text(at) << ", the picture "
                << text(c.frame.picture);
            const auto arrows = scene::arrows_drawn(c.scene, c.frame.camera, c.frame.width,
                                                    c.frame.height, c.frame.picture);
            EXPECT_TRUE(std::any_of(arrows.begin(), arrows.end(),
                                    [&](const scene::Arrow& a) {
                                        return a.head > 0 && a.color == pal.carry &&
                                               a.source == carry->rect;
                                    }))
                << "no arrow from carries[" << block << "]";
        }
}

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// Issue 9, the window at 200%: the follow view never leaves a row out at the top (nor cuts it)
// where the room left empty under the rows would have held it (reduce-full's in[] cut under
// the notice, its rows low in the canvas with empty space above; reduce-tree's in[] cut at
// block 1024 in 1280x720). Every step, following as the window does.
void check_no_row_lost_at_the_top(const scene::Scene& s, const CanvasFrame& f,
                                  const std::string& where) {
    const float canvas_top = f.notice.empty() ? 0.0f : f.notice_box.bottom();
    float lowest = f.picture.y;
    bool below = false;      // a row left out under the picture too: no room to slide into
    std::vector<Rect> boxes; // the cells of values
    for (const std::vector<scene::Cell>* layer : {&s.cells, &s.panels})
        for (const scene::Cell& c : *layer) {
            // Values, bars, the threads' strips; not the boxes behind them.
            if (!(c.fill.a > 0 || c.border_width > 0) ||
                (layer == &s.panels && c.role == scene::CellRole::Panel))
                continue;
            const Rect r = on_screen(f, c.rect);
            if (r.right() <= f.picture.x || r.x >= f.picture.right())
                continue;
            if (r.y >= f.picture.y - kTolerancePx &&
                r.bottom() <= f.picture.bottom() + kTolerancePx)
                lowest = std::max(lowest, r.bottom());
            else if (r.bottom() > f.picture.bottom() + kTolerancePx && r.y < f.height &&
                     c.rect.y < s.focus.bottom())
                below = true; // a row of the step's own
            if (c.ref)
                boxes.push_back(r);
        }
    for (const render::TextRun& t : f.text)
        lowest = std::max(lowest, t.rect.bottom());
    for (const scene::Label& l : s.labels) { // a row's name left out under the picture
        const float y = f.camera.to_screen(l.pos, f.width, f.height).y;
        below =
            below || (l.kind == scene::LabelKind::Row && l.px > 0 && l.pos.y < s.focus.bottom() &&
                      y + 0.3f * l.px > f.picture.bottom() && y - 0.85f * l.px < f.height);
    }
    if (below)
        return; // rows left out at both edges: the canvas is too short for them
    // The room free under the rows, less the reach of the texts the layout estimates (a row's
    // name stands a little above its cells and its second line below them).
    const float room = f.picture.bottom() - lowest - 4 * render::kTextEdgePx;
    if (room <= 0)
        return; // the rows fill the picture: none could slide down to make room above
    for (const Rect& r : boxes) {
        if (r.bottom() <= canvas_top + kTolerancePx || r.y >= f.picture.y - kTolerancePx)
            continue; // whole, or wholly above the canvas
        EXPECT_GT(canvas_top - r.y, room)
            << where << ": a row at " << text(r) << " left out or cut at the top of the picture "
            << text(f.picture) << " with " << room << " px empty under the rows";
        return;
    }
}

int check_rows_at_the_top(const scene::Model& m, const std::string& config) {
    return follow_in_windows(
        m, config, {1.5f, 2.0f}, every_step(m),
        [](const scene::Scene& s, const CanvasFrame& f, std::size_t, float,
           const std::string& where) { check_no_row_lost_at_the_top(s, f, where); });
}

class RowsAtTheTop : public ::testing::TestWithParam<Algorithm> {};

TEST_P(RowsAtTheTop, NoneLeftOutWhereTheRoomBelowHoldsIt) {
    // 32: the window's first trace
    EXPECT_GT(on_every_core(GetParam(), configs_of({32, 1024}, {7, 32, 1000, 65536}),
                            check_rows_at_the_top),
              0);
}

INSTANTIATE_TEST_SUITE_P(Reduce, RowsAtTheTop,
                         ::testing::Values(Algorithm::ReduceTree, Algorithm::ReduceCoarsened,
                                           Algorithm::ReduceFull),
                         named);

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// Whether the segment a-b (pixels) passes through `r`, sampled finely enough for a text's box.
bool crosses(scene::Vec2 a, scene::Vec2 b, const Rect& r) {
    constexpr int kSamples = 64;
    for (int i = 0; i <= kSamples; ++i) {
        const float t = static_cast<float>(i) / kSamples;
        const scene::Vec2 p{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
        if (inflate(r, -kTolerancePx, -kTolerancePx).contains(p))
            return true;
    }
    return false;
}

// scan-multiblock's level title ("level 0: block 3 scans its tile of in[]") is crossed by no
// arrow drawn: between in[] and the load row the loads' arrows ran through it.
TEST(MultiblockTitle, NoArrowCrossesIt) {
    int titles = 0;
    for (const int block : {32, 1024})
        for (const int n : {7, 1000, 65536}) {
            std::string refused;
            const auto m = traced(Algorithm::ScanMultiblock, block, n, refused);
            ASSERT_TRUE(m) << refused;
            const std::string config = "block " + std::to_string(block) + " n " + std::to_string(n);
            follow_in_windows(*m, config, {1.0f, 1.5f, 2.0f}, every_step(*m),
                              [&](const scene::Scene& s, const CanvasFrame& f, std::size_t, float,
                                  const std::string& where) {
                                  for (const render::TextRun& t : f.text) {
                                      if (t.text.rfind("level ", 0) != 0 ||
                                          t.text.find(" scans ") == std::string::npos)
                                          continue;
                                      ++titles;
                                      for (const scene::Arrow& a : scene::arrows_drawn(
                                               s, f.camera, f.width, f.height, f.picture))
                                          EXPECT_FALSE(crosses(
                                              f.camera.to_screen(a.from, f.width, f.height),
                                              f.camera.to_screen(a.to, f.width, f.height), t.rect))
                                              << where << ": an arrow crosses '" << t.text << "'";
                                  }
                              });
        }
    EXPECT_GT(titles, 0) << "no title drawn: the check goes untested";
}

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// The follow view leaves no empty band above the scene's first row while rows under the
// picture are out of sight (a block of 32 at 100% in 1600x1000 centred in[] and s[] load: a
// quarter of the canvas empty above them, the levels cut at the bottom), nor under its last
// row while rows above are.
void check_no_empty_band(const scene::Scene& s, const CanvasFrame& f, std::size_t, float scale,
                         const std::string& where) {
    float top = f.picture.bottom(), bottom = f.picture.y;
    bool above = false, below = false; // cells out of sight past each edge
    for (const scene::Cell& c : s.cells) {
        if (!c.ref || !(c.fill.a > 0 || c.border_width > 0))
            continue;
        const Rect r = on_screen(f, c.rect);
        if (r.right() <= f.picture.x || r.x >= f.picture.right())
            continue;
        above = above || r.y < f.picture.y - kTolerancePx;
        below = below || r.bottom() > f.picture.bottom() + kTolerancePx;
        if (r.bottom() > f.picture.y && r.y < f.picture.bottom()) {
            top = std::min(top, r.y);
            bottom = std::max(bottom, r.bottom());
        }
    }
    for (const render::TextRun& t : f.text) {
        top = std::min(top, t.rect.y);
        bottom = std::max(bottom, t.rect.bottom());
    }
    // The margin a framed scene keeps, and less than a row's pitch at this zoom: a band that
    // could hold no row.
    constexpr float kRowPitch = 2.45f; // world units from a row to the next, unstretched
    const float most = render::kCanvasMarginPx * scale +
                       kRowPitch * f.camera.scale * std::max(s.row_stretch, 1.0f);
    if (below) {
        EXPECT_LE(top - f.picture.y, most)
            << where << ": " << top - f.picture.y << " px empty above the rows, rows cut below";
    }
    if (above) {
        EXPECT_LE(f.picture.bottom() - bottom, most) << where << ": " << f.picture.bottom() - bottom
                                                     << " px empty under the rows, rows cut above";
    }
}

int check_bands(const scene::Model& m, const std::string& config) {
    return follow_in_windows(m, config, {1.0f, 1.5f, 2.0f}, every_step(m), check_no_empty_band);
}

class NoEmptyBand : public ::testing::TestWithParam<Algorithm> {};

TEST_P(NoEmptyBand, AboveTheRowsWhileRowsBelowAreCut) {
    EXPECT_GT(on_every_core(GetParam(), configs_of({32, 1024}, {7, 32, 65536}), check_bands), 0);
}

INSTANTIATE_TEST_SUITE_P(ReduceAndScan, NoEmptyBand,
                         ::testing::Values(Algorithm::ReduceTree, Algorithm::ReduceCoarsened,
                                           Algorithm::ReduceFull, Algorithm::ScanBlelloch,
                                           Algorithm::ScanMultiblock),
                         named);

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// scan-fast's notice says a part of the tiles is shown only when one is not: with every tile's
// number drawn over its cell it said "showing tile 3 of 8" (it counted the tiles that had
// published, not those with nothing yet).
TEST(ScanFastNotice, NoPartSaidWhenEveryTileIsShown) {
    const ui::Settings set = ui::switch_algorithm(ui::Settings{}, Algorithm::ScanFast);
    const scene::Model m(make_cpu_backend()->trace(set.request()));
    const int tiles = m.grid(0);
    ASSERT_LE(tiles, 16) << "every tile numbered: the check below needs it";
    int all_shown = 0;
    follow_in_windows(
        m, "scan-fast", {1.0f, 1.5f, 2.0f}, every_step(m),
        [&](const scene::Scene&, const CanvasFrame& f, std::size_t, float,
            const std::string& where) {
            int numbered = 0;
            for (int t = 0; t < tiles; ++t)
                numbered +=
                    std::any_of(f.text.begin(), f.text.end(), [&](const render::TextRun& run) {
                        return run.text == std::to_string(t) && inside(run.rect, f.picture);
                    });
            if (numbered < tiles)
                return;
            ++all_shown;
            EXPECT_EQ(f.notice.find("showing tile"), std::string::npos)
                << where << ": every tile shown, the notice says '" << f.notice << "'";
        });
    EXPECT_GT(all_shown, 0) << "no framing shows every tile: the check goes untested";
}

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// A row whose cells are all in the picture keeps its name: scan-blelloch at 150% in 1280x720
// showed upsweep 0's cells whole under the notice with "stride 1" alone beside them, the name
// above it cut by the picture's top edge and left out.
void check_whole_rows_named(const scene::Scene& s, const CanvasFrame& f, std::size_t, float,
                            const std::string& where) {
    if (f.notice.find("too close to name") != std::string::npos)
        return;
    for (const scene::Label& l : s.labels) {
        if (l.kind != scene::LabelKind::Row || l.px <= 0 || l.text.empty())
            continue;
        const float y = f.camera.to_screen(l.pos, f.width, f.height).y;
        // The cells beside the name: a row's cells span its name's two lines.
        bool any = false, whole = true;
        for (const scene::Cell& c : s.cells) {
            if (!c.ref)
                continue;
            const Rect r = on_screen(f, c.rect);
            if (r.y > y || r.bottom() < y || r.right() <= f.picture.x || r.x >= f.picture.right())
                continue;
            any = true;
            whole = whole && r.y >= f.picture.y - kTolerancePx &&
                    r.bottom() <= f.picture.bottom() + kTolerancePx;
        }
        if (!any || !whole)
            continue;
        EXPECT_TRUE(std::any_of(f.text.begin(), f.text.end(),
                                [&](const render::TextRun& t) { return t.text == l.text; }))
            << where << ": the row of '" << l.text << "' is whole in the picture "
            << text(f.picture) << ", its name left out";
    }
}

int check_names(const scene::Model& m, const std::string& config) {
    return follow_in_windows(m, config, {1.0f, 1.5f, 2.0f}, every_step(m), check_whole_rows_named);
}

class WholeRows : public ::testing::TestWithParam<Algorithm> {};

TEST_P(WholeRows, KeepTheirNames) {
    EXPECT_GT(on_every_core(GetParam(), configs_of({32, 1024}, {7, 32, 65536}), check_names), 0);
}

INSTANTIATE_TEST_SUITE_P(ReduceAndScan, WholeRows,
                         ::testing::Values(Algorithm::ReduceTree, Algorithm::ReduceFull,
                                           Algorithm::ScanBlelloch, Algorithm::ScanMultiblock),
                         named);

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// The header's caption breaks at spaces only: ImGui's own wrapping breaks after a '.' too, and
// at 150% in 1920x1080 the load's caption read "s[threadIdx." over "x]".
TEST(Caption, WrapsAtSpacesOnlyNeverInsideAnIndex) {
    const std::string caption = "Block 0: Load: each of the 8 threads copies one element into "
                                "s[threadIdx.x]; elements past n load 0";
    const ImFont& font = *test::window_fonts().regular(1.5f);
    const float px = font.FontSize;
    bool imgui_splits = false;
    for (float width = 8 * px; width <= 40 * px; width += 3) {
        const std::vector<std::string> lines = ui::caption_wrapped(font, px, width, caption);
        std::string joined;
        for (const std::string& l : lines) {
            joined += (joined.empty() ? "" : " ") + l;
            EXPECT_LE(ui::text_width(font, l, px), width + 1) << "'" << l << "' at " << width;
        }
        EXPECT_EQ(joined, caption) << "broken inside a word at " << width << " px";
        // The case this guards: where ImGui's wrap position falls inside "s[threadIdx.x]".
        const char* at = font.CalcWordWrapPositionA(px / font.FontSize, caption.c_str(),
                                                    caption.c_str() + caption.size(), width);
        imgui_splits |= *at == 'x' && at[-1] == '.';
    }
    EXPECT_TRUE(imgui_splits) << "no width here where ImGui itself breaks after the '.'";
}

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// Issue 9: no arrow drawn runs through a label's text unless the label is on a chip that covers
// the arrows under it (reduce-full's "warp 0" was read through lane 0's arrows); and a label
// other than a row's name keeps a quarter of a line clear of every other text (an out-of-bounds
// mark's label all but touched "__syncthreads()" at 200%). Every traced algorithm x block {32,
// 256, 1024} x n {7, 32, 1000, 65536} x presenter scale {100, 200}%, followed at the sampled
// steps; and the notice over them at the legend's size.
void check_labels_clear(const scene::Scene& s, const CanvasFrame& f, const std::string& where) {
    const std::vector<scene::Arrow> drawn =
        scene::arrows_drawn(s, f.camera, f.width, f.height, f.picture);
    for (const render::TextRun& t : f.text) {
        if (t.kind == render::TextKind::Cell || t.chip)
            continue;
        for (const scene::Arrow& a : drawn)
            EXPECT_FALSE(crosses(f.camera.to_screen(a.from, f.width, f.height),
                                 f.camera.to_screen(a.to, f.width, f.height), t.rect))
                << where << ": an arrow crosses '" << t.text << "', which has no chip";
    }
    const auto row_name = [&](const render::TextRun& t) {
        return t.kind == render::TextKind::Label &&
               std::any_of(s.labels.begin(), s.labels.end(), [&](const scene::Label& l) {
                   return l.kind == scene::LabelKind::Row && l.text == t.text;
               });
    };
    for (const render::TextRun& t : f.text) {
        if (t.kind == render::TextKind::Cell || row_name(t))
            continue;
        for (const render::TextRun& o : f.text) {
            if (&o == &t)
                continue;
            const float gap = 0.25f * std::max(t.px, o.px) - kTolerancePx;
            EXPECT_FALSE(overlaps(inflate(o.rect, gap, gap), t.rect))
                << where << ": '" << t.text << "' " << text(t.rect) << " within a quarter line of '"
                << o.text << "' " << text(o.rect);
        }
    }
}

// The notice's lines as the window draws them: at the legend's size, never shrunk under the
// legible minimum to fit one line (three clauses read at 8 px in 1280x720 at 200%), and inside
// its band.
void check_notice_legible(const CanvasFrame& f, float scale, const std::string& where) {
    const std::vector<render::TextRun> runs = render::lay_out_text(
        font(), render::pixel_area(f.width, f.height), f.overlay_cells, f.overlay_labels);
    for (const render::TextRun& t : runs) {
        EXPECT_GE(t.px, scene::kMinTextPx * scale - 0.01f)
            << where << ": '" << t.text << "' shrunk to " << t.px << " px";
        if (!f.notice.empty() && t.rect.y < f.notice_box.bottom()) {
            EXPECT_TRUE(inside(t.rect, f.notice_box)) << where << ": '" << t.text << "'";
        }
    }
}

// A legend card in a corner of the picture keeps clear of every line drawn, by its padding (half
// its text's size): at 200% a card ended where "__syncthreads()"'s line began.
void check_legend_clear(const scene::Scene& s, const CanvasFrame& f, const std::string& where) {
    if (f.legend_box.empty() || f.legend_docked || f.legend.empty())
        return;
    const float pad = 0.5f * f.legend.front().text_px - 1.0f; // its text's size, as drawn
    const Rect clear = inflate(f.legend_box, pad, pad);
    for (const scene::Arrow& a : scene::arrows_drawn(s, f.camera, f.width, f.height, f.picture))
        EXPECT_FALSE(crosses(f.camera.to_screen(a.from, f.width, f.height),
                             f.camera.to_screen(a.to, f.width, f.height), clear))
            << where << ": a line runs by the legend " << text(f.legend_box);
}

// A legend entry wrapped on lines never leaves one short word alone on its last ("written by
// this" over "step" in a card at 200%).
void check_legend_lines(const CanvasFrame& f, const std::string& where) {
    for (const render::LegendEntry& e : f.legend) {
        std::vector<std::string> lines;
        for (const scene::Label& l : f.overlay_labels)
            if (e.rect.contains(l.pos) && e.text.find(l.text) != std::string::npos)
                lines.push_back(l.text);
        if (!lines.empty()) {
            EXPECT_FALSE(ends_in_lone_short_word(lines))
                << where << ": '" << lines.back() << "' alone under '" << e.text << "'";
        }
    }
}

// Every text of the overlay (the notice's lines, the legend's) is drawn: none is dropped as too
// close to another (a docked legend's second line was, at 150%, under a quarter line's gap
// meant for the scene's labels).
void check_overlay_drawn(const CanvasFrame& f, const std::string& where) {
    const std::vector<render::TextRun> runs = render::lay_out_text(
        font(), render::pixel_area(f.width, f.height), f.overlay_cells, f.overlay_labels);
    for (const scene::Label& l : f.overlay_labels)
        EXPECT_TRUE(std::any_of(runs.begin(), runs.end(),
                                [&](const render::TextRun& t) { return t.text == l.text; }))
            << where << ": '" << l.text << "' left out of the overlay";
}

int check_clear_labels(const scene::Model& m, const std::string& config) {
    return follow_in_windows(m, config, {1.0f, 1.5f, 2.0f}, sampled_steps(m),
                             [](const scene::Scene& s, const CanvasFrame& f, std::size_t,
                                float scale, const std::string& where) {
                                 check_labels_clear(s, f, where);
                                 check_notice_legible(f, scale, where);
                                 check_legend_clear(s, f, where);
                                 check_legend_lines(f, where);
                                 check_overlay_drawn(f, where);
                             });
}

class LabelsClear : public ::testing::TestWithParam<Algorithm> {};

TEST_P(LabelsClear, OfArrowsUnlessOnAChipAndAQuarterLineFromOtherTexts) {
    EXPECT_GT(
        on_every_core(GetParam(), configs_of({32, 256, 1024}, {7, 32, 1000}), check_clear_labels),
        0);
}

INSTANTIATE_TEST_SUITE_P(Traced, LabelsClear, ::testing::ValuesIn(kTraced), named);

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// A student's reduceTree that reads past the end (in[i + 32]): the out-of-bounds mark's label
// under the load row is drawn whole, a quarter of a line from its cell, "__syncthreads()" and
// every other text, and no arrow (the barrier's line) runs through it unless it is on a chip. The
// canvas built as the window builds it (scene, the student's marks, the framing), the zoom settled;
// the mark on the first thread and on the block's last (its label runs towards the barrier's name).
TEST(OutOfBoundsMark, LabelWholeAndClearOfTheBarriersName) {
    const scene::Palette pal = scene::palette(scene::Theme::Light);
    int labels = 0;
    for (const int block : {8, 32, 256})
        for (const int n : {32, 1000}) {
            std::string refused;
            const auto m = traced(Algorithm::ReduceTree, block, n, refused);
            ASSERT_TRUE(m) << refused;
            const auto& frames = m->trace().frames;
            const auto load = std::find_if(frames.begin(), frames.end(), [](const Frame& f) {
                return f.step == Step::Load && f.block == 0;
            });
            ASSERT_NE(load, frames.end());
            const int frame = static_cast<int>(load - frames.begin());
            for (const int thread : {0, std::min(block, n) - 1}) {
                const std::string label =
                    "out of bounds: thread " + std::to_string(thread) + ", line 10";
                const std::vector<scene::HazardMark> marks = {{frame, thread, false, label}};
                for (const Window w : kWindows)
                    for (const float scale : kScales) {
                        const render::CanvasRequest r = window_request(*m, w, scale, false);
                        // As the window settles it (CanvasPanel::settle).
                        const render::Canvas settled = render::lay_out_canvas(
                            font(), *m, static_cast<std::size_t>(frame), r, {}, 1.0f,
                            [&](scene::Scene& built) { scene::mark_hazards(built, marks, pal); });
                        const scene::Scene& s = settled.scene;
                        const CanvasFrame& f = settled.frame;
                        const std::string where =
                            "block " + std::to_string(block) + " n " + std::to_string(n) +
                            " thread " + std::to_string(thread) + " in " + std::to_string(w.width) +
                            "x" + std::to_string(w.height) + " at " +
                            std::to_string(static_cast<int>(scale * 100)) + "%";
                        const bool drawn =
                            std::any_of(f.text.begin(), f.text.end(),
                                        [&](const render::TextRun& t) { return t.text == label; });
                        EXPECT_TRUE(drawn) << where << ": the mark's label is left out";
                        labels += drawn;
                        for (const render::TextRun& t : f.text) {
                            if (t.text != label)
                                continue;
                            EXPECT_FALSE(t.chip) << where << ": a line runs under the label";
                            const float gap = 0.25f * t.px - kTolerancePx;
                            for (const scene::Cell& c : s.cells)
                                EXPECT_FALSE(
                                    c.ref &&
                                    overlaps(inflate(on_screen(f, c.rect), gap, gap), t.rect))
                                    << where << ": the label " << text(t.rect)
                                    << " within a quarter line of a cell at "
                                    << text(on_screen(f, c.rect));
                        }
                        check_labels_clear(s, f, where);
                    }
            }
        }
    EXPECT_GT(labels, 0);
}

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// The histograms with 256 bins (the CLI's default; the window's is 16) followed in the window:
// everything check_canvas holds, the step's own cells on screen first of all (hist-per-warp's
// charts, 256 bars each in a warp's width, were read at 976 pixels a unit and the follow view
// framed the room under the counts: at 200% in 1280x720 the canvas showed its legend alone);
// and the bars' axis a line at that zoom (it was a slab 49 pixels thick over the bin numbers).
TEST(Histograms, With256BinsTheStepIsOnScreen) {
    int framings = 0;
    for (const Algorithm a :
         {Algorithm::HistGlobal, Algorithm::HistPrivatised, Algorithm::HistPerWarp})
        for (const int block : {32, 64, 1024})
            for (const int n : {7, 1000}) {
                ui::Settings set = ui::switch_algorithm(ui::Settings{}, a);
                set.block = block;
                set.n = n;
                set.bins = 256;
                const scene::Model m(make_cpu_backend()->trace(set.request()));
                const std::string config = std::string(info(a).id) + " block " +
                                           std::to_string(block) + " n " + std::to_string(n);
                framings += follow_in_windows(
                    m, config, {1.0f, 2.0f}, every_step(m),
                    [&](const scene::Scene& s, const CanvasFrame& f, std::size_t frame, float scale,
                        const std::string& where) {
                        check_canvas(s, f, m, frame, scale, where);
                        for (const scene::Cell& p : s.panels) // an axis: a line, not a slab
                            if (p.rect.h <= 0.05f && p.rect.w > 1) {
                                EXPECT_LE(p.rect.h * f.camera.scale, 3.0f * scale)
                                    << where << ": an axis " << p.rect.h * f.camera.scale
                                    << " px thick";
                            }
                    });
            }
    EXPECT_GT(framings, 0);
}

// The menu bar at every presenter scale a window allows (ui::largest_scale), in 1280x720 and
// 1920x1080: each menu and drawer whole and nothing past the right edge, where ImGui itself
// puts them (Ctrl + went on to 225% and 300%, "Kernel source ▾" ran off the edge); the present
// offer at the row's end where the transport has none; the toolbar and the transport each in
// their one row. 200% (a projector's) stays allowed in the smaller window.
TEST(MenuBar, ItemsWholeAtEveryScaleTheWindowAllows) {
    std::string refused;
    const auto m = traced(Algorithm::ReduceTree, 32, 1000, refused);
    ASSERT_TRUE(m) << refused;
    const test::WindowFonts& fonts = test::window_fonts();
    ImGui::SetCurrentContext(fonts.context());
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 60;
    for (const Window w : {Window{1280, 720}, Window{1920, 1080}}) {
        const float largest = ui::largest_scale(static_cast<float>(w.width), window_width());
        EXPECT_GE(largest, 2.0f) << w.width << "x" << w.height << " stops short of 200%";
        io.DisplaySize = ImVec2(static_cast<float>(w.width), static_cast<float>(w.height));
        for (float scale = ui::kMinScale; scale <= largest; scale += ui::kScaleStep) {
            SCOPED_TRACE(std::to_string(scale * 100) + "% in " + std::to_string(w.width) + "x" +
                         std::to_string(w.height));
            const ui::Metrics mt = ui::metrics(scale);
            const ui::WindowLayout l = window_for(*m, w, scale, false);
            const std::vector<std::string> menus =
                ui::menu_bar_menus(l.controls_folded, l.source_folded);
            // ImGui's menu bar: where each menu's text ends is where the layout says.
            ImGui::GetStyle() = ui::window_style(scene::Theme::Light, scale);
            io.FontDefault = fonts.regular(scale);
            ImGui::NewFrame();
            ASSERT_TRUE(ImGui::BeginMainMenuBar());
            std::vector<std::string> so_far;
            float drawn_end = 0; // the last menu's highlight, half a bar spacing past its text
            for (const std::string& menu : menus) {
                if (ImGui::BeginMenu(menu.c_str()))
                    ImGui::EndMenu();
                so_far.push_back(menu);
                drawn_end = ImGui::GetItemRectMax().x;
                EXPECT_FLOAT_EQ(drawn_end - mt.item_spacing,
                                ui::menu_items_end(mt, window_width(), so_far))
                    << "'" << menu << "'";
            }
            ImGui::EndMainMenuBar();
            ImGui::EndFrame();
            EXPECT_LE(drawn_end, static_cast<float>(w.width)) << "the menus run off the edge";
            float end = ui::menu_items_end(mt, window_width(), menus);
            const float toolbar = ui::toolbar_width(mt, window_width(), m->grid(0) > 1);
            if (l.toolbar.empty()) {
                end += mt.item_spacing + toolbar;
            } else {
                EXPECT_LE(toolbar, l.toolbar.w) << "the camera modes and the block selector run "
                                                   "past the toolbar";
            }
            EXPECT_LE(end, static_cast<float>(w.width)) << "the toolbar runs off the menu bar";
            const float transport = ui::transport_width(mt, window_width(), false);
            EXPECT_LE(transport, l.transport.w) << "the transport takes a second row";
            if (scale > 1.25f &&
                *ui::present_button(mt, window_width(), l.transport.w, false) == 0) {
                EXPECT_LE(end + 2 * mt.item_spacing + ui::menu_offer_width(mt, window_width()),
                          static_cast<float>(w.width))
                    << "no room for the present offer after the menus";
            }
        }
    }
}

// A legend the canvas has no room for is said, also where the notice says which part of the
// step is shown: scan-blelloch at 200% drew its colours without the legend, the notice saying
// "showing threads 0–15 of 32" alone. Every traced algorithm at blocks of 32 and 1024, n 7 and
// 65536, 200%, in each window and presenting.
TEST(Legend, LeftOutIsSaid) {
    int hidden = 0, framings = 0;
    for (const Algorithm a : kTraced)
        for (const auto& [block, n] : configs_of({32, 1024}, {7, 65536})) {
            std::string refused;
            const auto m = traced(a, block, n, refused);
            if (!m)
                continue; // a block size this kernel does not take
            const std::string config = std::string(info(a).id) + " block " + std::to_string(block) +
                                       " n " + std::to_string(n);
            framings += follow_in_windows(
                *m, config, {2.0f}, sampled_steps(*m),
                [&](const scene::Scene&, const CanvasFrame& f, std::size_t, float,
                    const std::string& where) {
                    if (!f.legend_hidden)
                        return;
                    ++hidden;
                    EXPECT_NE(f.notice.find("no room for the legend"), std::string::npos)
                        << where << ": the legend left out, the notice says '" << f.notice << "'";
                });
        }
    // Set smaller where it fits nowhere at its size, the legend has room in every window at
    // 200%; a canvas a few rows tall (the window made short) has none at any size.
    for (const Algorithm a : kTraced) {
        std::string refused;
        const auto m = traced(a, 32, 7, refused);
        if (!m)
            continue;
        const std::size_t last = last_step(*m);
        const render::Canvas c =
            render::lay_out_canvas(font(), *m, last, canvas_of(640, 180, 2.0f), {});
        if (!c.frame.legend_hidden)
            continue;
        ++hidden;
        EXPECT_NE(c.frame.notice.find("no room for the legend"), std::string::npos)
            << info(a).id << " in 640x180: the legend left out, the notice says '" << c.frame.notice
            << "'";
    }
    EXPECT_GT(framings, 0);
    EXPECT_GT(hidden, 0) << "no legend left out: the test checks nothing";
}

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// The follow view leaves no empty room left of the rows' names while cells past the right edge
// are out of sight: reduce-atomic's block 0 at n 65536, 100% in 1920x1080, was centred with
// half the canvas empty on its left and out[] cut on the right.
TEST(NoEmptySide, LeftOfTheRowsWhileCellsOnTheRightAreCut) {
    int cut = 0;
    for (const int n : {1000, 65536}) {
        std::string refused;
        const auto m = traced(Algorithm::ReduceAtomic, 256, n, refused);
        ASSERT_TRUE(m) << refused;
        follow_in_windows(
            *m, "reduce-atomic n " + std::to_string(n), {1.0f, 1.5f}, sampled_steps(*m),
            [&](const scene::Scene& s, const CanvasFrame& f, std::size_t, float scale,
                const std::string& where) {
                float left = f.picture.right();
                bool right_cut = false; // cells out of sight past the right edge
                for (const scene::Cell& c : s.cells) {
                    if (!c.ref || !(c.fill.a > 0 || c.border_width > 0))
                        continue;
                    const Rect r = on_screen(f, c.rect);
                    if (r.bottom() <= f.picture.y || r.y >= f.picture.bottom())
                        continue;
                    right_cut = right_cut || r.right() > f.picture.right() + kTolerancePx;
                    if (r.right() > f.picture.x && r.x < f.picture.right())
                        left = std::min(left, r.x);
                }
                for (const render::TextRun& t : f.text)
                    left = std::min(left, t.rect.x);
                if (!right_cut)
                    return;
                ++cut;
                // The margin a framed scene keeps, and a cell at the closest zoom.
                EXPECT_LE(left - f.picture.x,
                          (render::kCanvasMarginPx + render::kClosestPx) * scale)
                    << where << ": " << left - f.picture.x
                    << " px empty left of the rows, cells cut on the right";
            });
    }
    EXPECT_GT(cut, 0) << "no framing cuts cells on the right: the check goes untested";
}

// Ctrl + never draws the cells smaller: at 150% and 200% a value cell of the follow view has at
// least the pixels it has at 100% in the same window, docked or presenting, as the window steps
// (each step from the zoom the one before settled at). At 150% in 1920x1080 reduceTree's tree was
// drawn at 45 pixels a cell where 100% drew it at 54: the menus, the caption and the transport
// took more of the height, and the rows' names more room between the rows.
class EveryScale : public ::testing::TestWithParam<Algorithm> {};

TEST_P(EveryScale, NeverDrawsTheCellsSmallerThanAt100) {
    const Algorithm a = GetParam();
    std::vector<std::pair<int, int>> configs; // block, n
    const ui::Settings opened = ui::switch_algorithm(ui::Settings{}, a);
    configs.emplace_back(opened.block, opened.n);
    for (const int block : {32, 256, 1024})
        for (const int n : {7, 32, 1000, 65536})
            if (std::pair{block, n} != configs.front())
                configs.emplace_back(block, n);
    const auto cell_px = [](const render::Canvas& c) {
        return c.frame.camera.scale * c.scene.value_width;
    };
    const int checked =
        on_every_core(a, configs, [&](const scene::Model& m, const std::string& config) {
            int framings = 0;
            const std::vector<int> steps = sampled_steps(m);
            for (const Window w : kWindows)
                for (const bool present : {false, true}) {
                    // At 100%, as a picture there starts (the floor's own rule).
                    std::vector<float> at_100;
                    const render::CanvasRequest base = window_request(m, w, 1.0f, present);
                    for (const int step : steps)
                        at_100.push_back(cell_px(render::lay_out_canvas(
                            font(), m, m.frame_at(step, 0), base, scene::ViewOptions{})));
                    for (const float scale : {1.5f, 2.0f}) {
                        const render::CanvasRequest r = window_request(m, w, scale, present);
                        scene::ViewOptions vo;
                        for (std::size_t i = 0; i < steps.size(); ++i) {
                            const render::Canvas c =
                                render::lay_out_canvas(font(), m, m.frame_at(steps[i], 0), r, vo);
                            vo.pixels_per_unit = c.frame.camera.scale;
                            EXPECT_GE(cell_px(c), 0.99f * at_100[i])
                                << config << " in " << w.width << "x" << w.height << " at "
                                << scale * 100 << "%" << (present ? " presenting" : "") << ", step "
                                << steps[i] + 1 << ": a value cell of " << cell_px(c)
                                << " px, at 100% " << at_100[i] << " (notice '" << c.frame.notice
                                << "')";
                            ++framings;
                        }
                    }
                }
            return framings;
        });
    EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, EveryScale, ::testing::ValuesIn(kTraced), named);

} // namespace
} // namespace pplab
