// The pictures `pplab render --scale PCT --size WxH` draws of the histograms and of scan-fast's
// look-back, over their layout (render::compose: pure, the font's metrics, no GL), at 100, 150
// and 200% on 1280x720 and 1920x1080:
//  - a row's name is drawn beside its row (hist-privatised's s_hist[] floated above short bars,
//    g_hist[]'s name stayed on screen with its bars off it);
//  - a value the picture's edge cuts is said ("showing bins 0–14 of 16", not silence);
//  - no legend entry over a cell or a text;
//  - no text under 11 px x the presenter scale: values, names, notes ("waited 4"), captions,
//    the counters underneath;
//  - scan-fast's tiles row is on screen at every look-back (it lay above the canvas at 200%).
#include "fixtures.hpp"
#include "rects.hpp"

#include "render/gl_renderer.hpp"
#include "render/picture.hpp"

#include "pplab/request.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace pplab {
namespace {

using scene::Rect;
using test::clipped;
using test::kTolerancePx;
using test::overlaps;
using test::text;

const render::FontAtlas& font() {
    return test::canvas_font();
}

Rect on_screen(const render::Composition& c, const Rect& world) {
    const scene::Vec2 a = c.camera.to_screen({world.x, world.y}, static_cast<float>(c.width),
                                             static_cast<float>(c.height));
    return {a.x, a.y, world.w * c.camera.scale, world.h * c.camera.scale};
}

// The part of a cell the picture shows, or nothing (a bar of count 0 is a line: no height).
bool seen(const render::Composition& c, const scene::Cell& cell, Rect& part) {
    if (cell.role == scene::CellRole::Panel || (cell.fill.a <= 0 && cell.border_width <= 0))
        return false;
    part = clipped(on_screen(c, cell.rect), c.picture);
    return part.w > kTolerancePx && part.h >= 0;
}

Rect on_screen_of(const render::CanvasFrame& f, const Rect& world) {
    const scene::Vec2 a = f.camera.to_screen({world.x, world.y}, f.width, f.height);
    return {a.x, a.y, world.w * f.camera.scale, world.h * f.camera.scale};
}

std::string notice(const render::Composition& c) {
    for (const scene::Label& l : c.captions)
        if (l.text.rfind("showing", 0) == 0 || l.text.rfind("tiles row off screen", 0) == 0)
            return l.text;
    return "";
}

void check_picture(const render::Composition& c, const scene::Model& m, std::size_t frame,
                   float scale) {
    const float min_px = scene::kMinTextPx * scale - 0.01f;
    for (const render::TextRun& t : c.text)
        EXPECT_GE(t.px, min_px) << "'" << t.text << "' too small to read";
    for (const render::TextRun& t : render::overlay_text(font(), c))
        EXPECT_GE(t.px, min_px) << "'" << t.text << "' too small to read";

    std::vector<Rect> cells; // what the picture shows of each cell
    for (const scene::Cell& cell : c.scene.cells)
        if (Rect part; seen(c, cell, part))
            cells.push_back(part);
    // A row's name drawn beside its row: some cell shown within a line of it, up or down.
    for (const render::TextRun& t : c.text) {
        const bool row_name =
            t.kind == render::TextKind::Label &&
            std::any_of(c.scene.labels.begin(), c.scene.labels.end(), [&](const scene::Label& l) {
                return l.kind == scene::LabelKind::Row && l.text == t.text;
            });
        if (!row_name)
            continue;
        const bool beside = std::any_of(cells.begin(), cells.end(), [&](const Rect& r) {
            return r.y <= t.rect.bottom() + 1.5f * t.px && r.bottom() >= t.rect.y - 1.5f * t.px;
        });
        EXPECT_TRUE(beside) << "the row's name '" << t.text << "' at " << text(t.rect)
                            << " has no row beside it";
    }
    for (const render::LegendEntry& e : c.legend) {
        for (const Rect& r : cells)
            EXPECT_FALSE(overlaps(r, e.rect)) << "'" << e.text << "' over a cell at " << text(r);
        for (const render::TextRun& t : c.text)
            EXPECT_FALSE(overlaps(t.rect, e.rect)) << "'" << e.text << "' over '" << t.text << "'";
    }
    // A value of the step cut by the picture's edge: the notice says which are shown.
    const scene::StepGroup& g = m.steps().at(static_cast<std::size_t>(m.step_of(frame)));
    // Its chart's bars whole wherever its bins are on screen (at 200% in 1280x720 they were
    // the row the edge cut, left out: a histogram without its bars).
    EXPECT_EQ(test::bars_cut(c.scene, c.camera, static_cast<float>(c.width),
                             static_cast<float>(c.height), c.picture, g.first, g.last),
              "");
    for (const scene::Cell& cell : c.scene.cells) {
        Rect part;
        if (!cell.ref || cell.ref->frame < g.first || cell.ref->frame > g.last ||
            !seen(c, cell, part))
            continue;
        if (part.w < on_screen(c, cell.rect).w - 1.0f) {
            EXPECT_NE(notice(c), "") << "a value cut at " << text(part) << " by the picture "
                                     << text(c.picture) << ", not said";
            break;
        }
    }
}

struct Size {
    int width, height;
};
constexpr Size kSizes[] = {{1280, 720}, {1920, 1080}};

// A step's picture at `size` and presenter `scale`, followed as the window does.
render::Composition composed(const scene::Model& m, std::size_t frame, Size size, float scale) {
    render::PictureOptions o;
    o.width = size.width;
    o.height = size.height;
    o.scale = scale;
    return render::compose(font(), m, frame, o);
}
constexpr float kScales[] = {1.0f, 1.5f, 2.0f};

// As `pplab render --n N` makes it: random integers, the chapter's block of 256.
Request generated(Algorithm a, int n, int bins, int block = 256) {
    return test::request(a, generate(Generator::RandomInt, n, 1, bins), block, bins);
}

std::vector<int> sampled(const scene::Model& m) {
    const int steps = static_cast<int>(m.steps().size());
    std::vector<int> out = {0, std::min(2, steps - 1), steps / 2, steps - 1};
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// The pictures of `steps` at every size and scale, each checked by `check` (with where it is).
void each_picture(
    const scene::Model& m, const std::vector<int>& steps, const std::string& config,
    const std::function<void(const render::Composition&, std::size_t, float)>& check) {
    for (const int step : steps)
        for (const Size size : kSizes)
            for (const float scale : kScales) {
                std::ostringstream where;
                where << config << " step " << step + 1 << " " << size.width << "x" << size.height
                      << " at " << scale * 100 << "%";
                SCOPED_TRACE(where.str());
                const std::size_t frame = m.frame_at(step, 0);
                render::PictureOptions o;
                o.width = size.width;
                o.height = size.height;
                o.scale = scale;
                check(render::compose(font(), m, frame, o), frame, scale);
            }
}

// The window's follow view of `frame` in a canvas of 1240x480 at a presenter scale.
render::Canvas followed(const scene::Model& m, std::size_t frame, float scale) {
    render::CanvasRequest r;
    r.width = 1240;
    r.height = 480;
    r.scale = scale;
    r.interactive = true;
    return render::lay_out_canvas(font(), m, frame, r, scene::ViewOptions{});
}

class Histogram : public ::testing::TestWithParam<Algorithm> {};

TEST_P(Histogram, NamesStayByTheirRowsAndCutBinsAreSaid) {
    for (const int n : {65536, 1000})
        for (const int bins : {16, 256}) {
            const auto m = test::trace(generated(GetParam(), n, bins));
            each_picture(*m, sampled(*m),
                         "n " + std::to_string(n) + " bins " + std::to_string(bins),
                         [&](const render::Composition& c, std::size_t frame, float scale) {
                             check_picture(c, *m, frame, scale);
                         });
        }
}

// The fold at 256 bins, read close: the private histogram it reads and the global one it
// writes are on screen together, the fold's arrows between them drawn (the gaps between a
// view's parts were world units: 400 pixels of nothing between the charts, the fold alone).
TEST(HistogramParts, TheFoldIsReadCloseWithTheHistogramItFolds) {
    const auto m = test::trace(test::request(Algorithm::HistPrivatised,
                                             generate(Generator::RandomInt, 7, 1, 256), 32, 256));
    const int fold = static_cast<int>(m->steps().size()) - 1;
    const std::size_t frame = m->frame_at(fold, 0);
    ASSERT_EQ(m->trace().frames[frame].step, Step::HistFold);
    render::CanvasRequest r;
    r.width = 1900;
    r.height = 900;
    r.interactive = true;
    const render::Canvas c = render::lay_out_canvas(font(), *m, frame, r, {});
    const render::CanvasFrame& f = c.frame;
    const auto drawn = scene::arrows_drawn(c.scene, f.camera, f.width, f.height, f.picture);
    EXPECT_GE(
        std::count_if(drawn.begin(), drawn.end(), [](const scene::Arrow& a) { return a.head > 0; }),
        1)
        << "no arrow of the fold drawn; notice: " << f.notice;
}

// The fold of 16 bins at 100%: one arrow from each non-empty bin of the block's private
// histogram to its global bin, as many as the fold's atomicAdds (a bar's top, where they leave,
// was taken for a cell off screen under 40 pixels a unit: none was drawn).
TEST(HistogramParts, TheFoldDrawsOneArrowAnAtomic) {
    const auto m = test::trace(
        test::request(Algorithm::HistPrivatised, generate(Generator::Skewed, 300, 1, 16), 64, 16));
    const int fold = static_cast<int>(m->steps().size()) - 1;
    const std::size_t frame = m->frame_at(fold, 1);
    const Frame& f = m->trace().frames[frame];
    ASSERT_EQ(f.step, Step::HistFold);
    ASSERT_EQ(f.block, 1);
    // Block 1's private counts: its last accumulate frame.
    int atomics = 0;
    for (const Frame& g : m->trace().frames)
        if (g.step == Step::HistAccumulate && g.block == 1)
            atomics = static_cast<int>(
                std::count_if(g.values.begin(), g.values.end(), [](float v) { return v != 0; }));
    ASSERT_GT(atomics, 1);
    render::CanvasRequest r;
    r.width = 1280;
    r.height = 700;
    r.interactive = true;
    const render::Canvas c = render::lay_out_canvas(font(), *m, frame, r, {});
    const auto drawn = scene::arrows_drawn(c.scene, c.frame.camera, c.frame.width, c.frame.height,
                                           c.frame.picture);
    EXPECT_EQ(
        std::count_if(drawn.begin(), drawn.end(), [](const scene::Arrow& a) { return a.head > 0; }),
        atomics)
        << "notice: " << c.frame.notice;
}

// The data's arrows land on the bars they count into, where both are on screen: a bar's top,
// where an arrow lands, is a line 0.05 units thin, and was taken for a cell off screen at every
// zoom under 40 pixels a unit (no arrow drawn, the notice saying arrows were left out).
TEST(HistogramArrows, LandOnTheBarsTheyCountInto) {
    const auto m = test::trace(
        test::request(Algorithm::HistGlobal, generate(Generator::RandomInt, 32, 1, 16), 8, 16));
    const std::size_t frame = m->frame_at(0, 0); // round 1: 8 threads, one atomic each
    for (const float scale : kScales) {
        SCOPED_TRACE(scale);
        render::CanvasRequest r;
        r.width = 1280;
        r.height = 600;
        r.scale = scale;
        r.interactive = true;
        const render::Canvas c = render::lay_out_canvas(font(), *m, frame, r, {});
        const render::CanvasFrame& f = c.frame;
        const auto drawn = scene::arrows_drawn(c.scene, f.camera, f.width, f.height, f.picture);
        int both_shown = 0;
        for (const scene::Arrow& a : c.scene.arrows) {
            if (a.head <= 0 || a.target.h >= 0.1f) // into a bar's top
                continue;
            const Rect from = on_screen_of(f, a.source), to = on_screen_of(f, a.target);
            if (!test::inside(from, f.picture) || !test::inside(to, f.picture))
                continue;
            ++both_shown;
            EXPECT_TRUE(std::any_of(drawn.begin(), drawn.end(),
                                    [&](const scene::Arrow& d) {
                                        return d.source == a.source && d.target == a.target;
                                    }))
                << "an arrow from " << text(from) << " to the bar at " << text(to) << " left out";
        }
        if (scale == 1.0f) {
            EXPECT_EQ(both_shown, 8) << "round 1 and the bars on screen at 100%";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Pictures, Histogram,
                         ::testing::Values(Algorithm::HistGlobal, Algorithm::HistPrivatised,
                                           Algorithm::HistPerWarp));

// Every look-back of scan-fast: the tiles row, which the look-back publishes into, on screen.
TEST(ScanFastPicture, TilesRowOnScreenAtEveryLookBack) {
    for (const auto& [n, block] : {std::pair{1000, 32}, std::pair{7000, 64}}) {
        const auto m = test::trace(generated(Algorithm::ScanFast, n, 256, block));
        std::vector<int> looks;
        for (int step = 0; step < static_cast<int>(m->steps().size()); ++step)
            if (m->steps()[static_cast<std::size_t>(step)].step == Step::LookBack)
                looks.push_back(step);
        EXPECT_FALSE(looks.empty());
        const std::string config = "n " + std::to_string(n) + " block " + std::to_string(block);
        each_picture(
            *m, looks, config, [&](const render::Composition& c, std::size_t frame, float scale) {
                check_picture(c, *m, frame, scale);
                const bool tiles = std::any_of(
                    c.scene.cells.begin(), c.scene.cells.end(), [&](const scene::Cell& cell) {
                        Rect part;
                        return cell.ref && cell.ref->frame >= 0 &&
                               m->trace()
                                       .frames.at(static_cast<std::size_t>(cell.ref->frame))
                                       .step == Step::TilePublish &&
                               cell.role == scene::CellRole::Value && seen(c, cell, part);
                    });
                // Or, on a canvas a few rows tall, said to be off screen.
                EXPECT_TRUE(tiles || notice(c).rfind("tiles row off screen", 0) == 0)
                    << "the tiles row is off the picture " << text(c.picture)
                    << ", not said: " << notice(c);
            });
    }
}

// Every histogram at blocks of 32 and 1024, n 7 and 65536, 256 bins: where part of the step's
// bins is on screen the notice says which ("showing bins 0–15 of 256"); hist-per-warp's chart
// of a warp said "showing warp 0 of 32" with bins 0–15 of its 256 shown.
TEST_P(Histogram, PartOfTheBinsShownIsSaidInBins) {
    for (const int block : {32, 1024})
        for (const int n : {7, 65536}) {
            const auto m = test::trace(generated(GetParam(), n, 256, block));
            std::vector<int> steps = sampled(*m);
            steps.push_back(std::min(1, static_cast<int>(m->steps().size()) - 1));
            const std::string config = "block " + std::to_string(block) + " n " + std::to_string(n);
            each_picture(
                *m, steps, config, [&](const render::Composition& c, std::size_t frame, float) {
                    const scene::StepGroup& g =
                        m->steps().at(static_cast<std::size_t>(m->step_of(frame)));
                    // The bins of the step's cells (bars and counts) wholly in the picture.
                    std::vector<bool> whole(256, false), drawn(256, false);
                    for (const scene::Cell& cell : c.scene.cells) {
                        Rect part;
                        if (!cell.ref || cell.ref->frame < g.first || cell.ref->frame > g.last ||
                            cell.ref->cell < 0 || cell.ref->cell >= 256)
                            continue;
                        const auto bin = static_cast<std::size_t>(cell.ref->cell);
                        drawn[bin] = true;
                        if (seen(c, cell, part) && part.w >= on_screen(c, cell.rect).w - 1.0f)
                            whole[bin] = true;
                    }
                    const bool some = std::find(whole.begin(), whole.end(), true) != whole.end();
                    bool all = true;
                    for (std::size_t b = 0; b < whole.size(); ++b)
                        all = all && (whole[b] || !drawn[b]);
                    if (some && !all) {
                        EXPECT_EQ(notice(c).rfind("showing bin", 0), 0u)
                            << "part of the bins shown, said as '" << notice(c) << "'";
                    }
                });
        }
}

// A cell's border is a line at any zoom, the window's follow view and the wheel in from it (4
// and 16 times closer): at most scene::kBorderPx x the presenter scale (twice that for a cell
// marked with a pitfall). A part of it fixed in world units drew slabs where 256 bins are read
// close (hist-per-warp's count cells at 976 pixels a unit: 10 px of 56; the landing bar's 12).
TEST_P(Histogram, BordersAreLinesAtAnyZoom) {
    for (const int block : {32, 1024}) {
        const auto m = test::trace(generated(GetParam(), 65536, 256, block));
        for (const int step : sampled(*m))
            for (const float scale : kScales) {
                const std::size_t frame = m->frame_at(step, 0);
                const render::Canvas follow = followed(*m, frame, scale);
                for (const float zoom : {1.0f, 4.0f, 16.0f}) {
                    std::ostringstream where;
                    where << "block " << block << " step " << step + 1 << " at " << scale * 100
                          << "%, " << zoom << " times the follow view's zoom";
                    SCOPED_TRACE(where.str());
                    render::CanvasRequest closer;
                    closer.width = follow.frame.width;
                    closer.height = follow.frame.height;
                    closer.scale = scale;
                    closer.interactive = true;
                    closer.framing = render::Framing::Free;
                    closer.camera = follow.frame.camera;
                    closer.camera.scale *= zoom;
                    const render::Canvas c =
                        render::lay_out_canvas(font(), *m, frame, closer, scene::ViewOptions{});
                    // The thickest border for its limit (one failure a picture, not one a cell).
                    float worst = 0;
                    Rect at;
                    for (const scene::Cell& cell : c.scene.cells) {
                        const bool marked = !(cell.marks == scene::Marks{}) ||
                                            cell.role == scene::CellRole::KeepsOwn;
                        const float over = cell.border_width * c.frame.camera.scale /
                                           (scene::kBorderPx * scale * (marked ? 2.0f : 1.0f));
                        if (over > worst)
                            worst = over, at = on_screen_of(c.frame, cell.rect);
                    }
                    EXPECT_LE(worst, 1.001f)
                        << "a border " << worst << " times the thickest allowed on a cell of "
                        << text(at);
                    // Lines too: an arrow, a barrier, an arrowhead no larger than at 50 pixels a
                    // unit (3 px, 14 px at 100%); a barrier read close was a dashed slab.
                    float widest = 0, longest = 0;
                    for (const scene::Arrow& a : c.scene.arrows) {
                        widest = std::max(widest, a.width * c.frame.camera.scale);
                        longest = std::max(longest, a.head * c.frame.camera.scale);
                    }
                    EXPECT_LE(widest, 3.0f * scale + 0.01f) << "a line " << widest << " px wide";
                    EXPECT_LE(longest, 14.0f * scale + 0.01f)
                        << "an arrowhead " << longest << " px long";
                }
            }
    }
}

// The follow view reads the step's own chart at its own bins' width: none of the step's cells
// wider than the camera's closest (render::kClosestPx a cell x the presenter scale).
// hist-per-warp's merge, its bins four times a warp chart's, was read at the warps' zoom: 240
// px a bin at 200%, one bin of 256 on screen.
TEST_P(Histogram, StepsChartReadAtItsOwnBinsWidth) {
    for (const int block : {32, 1024})
        for (const int n : {7, 65536}) {
            const auto m = test::trace(generated(GetParam(), n, 256, block));
            // The first step of each kind (zero, accumulate, merge, fold) and the last.
            std::vector<int> steps = {static_cast<int>(m->steps().size()) - 1};
            for (int step = 0; step < static_cast<int>(m->steps().size()); ++step)
                if (step == 0 || m->steps()[static_cast<std::size_t>(step)].step !=
                                     m->steps()[static_cast<std::size_t>(step - 1)].step)
                    steps.push_back(step);
            for (const int step : steps)
                for (const float scale : kScales) {
                    const std::size_t frame = m->frame_at(step, 0);
                    const render::Canvas c = followed(*m, frame, scale);
                    const scene::StepGroup& g =
                        m->steps().at(static_cast<std::size_t>(m->step_of(frame)));
                    float widest = 0;
                    for (const scene::Cell& cell : c.scene.cells)
                        if (cell.ref && cell.ref->frame >= g.first && cell.ref->frame <= g.last)
                            widest = std::max(widest, on_screen_of(c.frame, cell.rect).w);
                    EXPECT_LE(widest, render::kClosestPx * scale + 1.0f)
                        << "block " << block << " n " << n << " step " << step + 1 << " at "
                        << scale * 100 << "%: the step's cells read too close";
                }
        }
}

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// The window's follow view of `frame` in a canvas of w x h at a presenter scale.
render::Canvas followed_in(const scene::Model& m, std::size_t frame, float w, float h,
                           float scale) {
    render::CanvasRequest r;
    r.width = w;
    r.height = h;
    r.scale = scale;
    r.interactive = true;
    return render::lay_out_canvas(font(), m, frame, r, scene::ViewOptions{});
}

// Where the picture's top edge was moved down to leave out a row it would cut, no row is cut
// there: hist-per-warp at 1920x1080 moved it by its most (a third of the canvas) with data[]'s
// 190-pixel rows still cut under it, and 300 pixels of nothing above them.
TEST_P(Histogram, AnEdgeMovedPastACutRowCutsNone) {
    for (const int n : {1000, 65536}) {
        const auto m = test::trace(generated(GetParam(), n, 256));
        for (const int step : sampled(*m))
            for (const Size size : {Size{1920, 944}, Size{1240, 480}})
                for (const float scale : kScales) {
                    const render::Canvas c =
                        followed_in(*m, m->frame_at(step, 0), static_cast<float>(size.width),
                                    static_cast<float>(size.height), scale);
                    const render::CanvasFrame& f = c.frame;
                    const float top = f.notice_box.bottom(); // the drawing's area begins here
                    if (f.picture.y <= top + kTolerancePx)
                        continue; // not moved
                    for (const scene::Cell& cell : c.scene.cells) {
                        if (cell.role == scene::CellRole::Panel ||
                            (cell.fill.a <= 0 && cell.border_width <= 0))
                            continue;
                        const Rect box = on_screen_of(f, cell.rect);
                        const bool in_width =
                            box.right() > f.picture.x && box.x < f.picture.right();
                        EXPECT_FALSE(in_width && box.y < f.picture.y - kTolerancePx &&
                                     box.bottom() > f.picture.y + kTolerancePx)
                            << "n " << n << " step " << step + 1 << " " << size.width << "x"
                            << size.height << " at " << scale * 100 << "%: the top edge moved "
                            << f.picture.y - top << " px and still cuts a cell at " << text(box);
                    }
                }
    }
}

// data[]'s rounds, fitted narrower than a unit, are no taller than a readable row (64 pixels x
// the presenter scale) or their own width, however close the bins are read: hist-per-warp reads
// its 256 bins four to an element, and each round was a tower 460 pixels tall.
TEST_P(Histogram, DataRowsStayRowsWhereTheBinsAreReadClose) {
    const auto m = test::trace(generated(GetParam(), 1000, 256));
    for (const int step : sampled(*m))
        for (const float scale : kScales) {
            const render::Canvas c = followed_in(*m, m->frame_at(step, 0), 1920, 944, scale);
            for (const scene::Cell& cell : c.scene.cells) {
                if (!cell.ref || cell.ref->frame != CellRef::kInput)
                    continue;
                const Rect box = on_screen_of(c.frame, cell.rect);
                EXPECT_LE(box.h, std::max(64.0f * scale, box.w) + 1.0f)
                    << "step " << step + 1 << " at " << scale * 100 << "%: data[] cell "
                    << text(box);
            }
        }
}

// An arrow into a bar lands on its top, within a few pixels, at any zoom: gaps in world units
// left hist-per-warp's arrows 50 pixels above the bars they count into (600 pixels a unit).
TEST_P(Histogram, ArrowsLandOnTheBarsAtAnyZoom) {
    const auto m = test::trace(generated(GetParam(), 1000, 256));
    for (int step = 0; step < static_cast<int>(m->steps().size()); ++step)
        for (const float scale : kScales) {
            const render::Canvas c = followed_in(*m, m->frame_at(step, 0), 1920, 944, scale);
            const render::CanvasFrame& f = c.frame;
            for (const scene::Arrow& a :
                 scene::arrows_drawn(c.scene, f.camera, f.width, f.height, f.picture)) {
                if (a.head <= 0 || a.target.empty() || a.target.h >= 0.1f)
                    continue; // not into a bar's top
                const scene::Vec2 tip = f.camera.to_screen(a.to, f.width, f.height);
                const float bar_top = on_screen_of(f, a.target).bottom();
                EXPECT_LE(bar_top - tip.y, 8.0f * scale)
                    << "step " << step + 1 << " at " << scale * 100 << "%: an arrow ends "
                    << bar_top - tip.y << " px above its bar";
            }
        }
}

// The fold of 16 bins as the window opens it (n 32, a block of 32), settled and mid-flight: every
// arrow whose bar tops are both in the picture is drawn, and the notice says none was left out.
// A bar's top 0.7 pixels thin, wholly inside, measured a hair less than its height and was
// taken for a cell off screen: "arrows to or from cells off screen left out" over a fold with
// all of its arrows in sight.
TEST_P(Histogram, TheFoldWithItsBarsInSightLeavesNoArrowOut) {
    if (GetParam() == Algorithm::HistGlobal)
        return; // no fold
    const auto m =
        test::trace(test::request(GetParam(), generate(Generator::RandomInt, 32, 1, 16), 32, 16));
    const std::size_t frame = m->frame_at(static_cast<int>(m->steps().size()) - 1, 0);
    ASSERT_EQ(m->trace().frames[frame].step, Step::HistFold);
    for (const float anim : {0.3f, 0.6f, 1.0f}) {
        SCOPED_TRACE(anim);
        render::PictureOptions o;
        o.width = 1280;
        o.height = 800;
        o.scale = 1;
        o.anim = anim;
        const render::Composition c = render::compose(font(), *m, frame, o);
        const float w = static_cast<float>(c.width), h = static_cast<float>(c.height);
        int in_sight = 0;
        for (const scene::Arrow& a : c.scene.arrows) {
            if (a.head <= 0 || !test::inside(on_screen(c, a.source), c.picture) ||
                !test::inside(on_screen(c, a.target), c.picture))
                continue;
            ++in_sight;
            EXPECT_TRUE(scene::source_drawn(a, c.camera, w, h, c.picture))
                << "an arrow from " << text(on_screen(c, a.source)) << " left out";
        }
        EXPECT_GT(in_sight, 0);
        for (const scene::Label& l : c.captions)
            EXPECT_EQ(l.text.find("left out"), std::string::npos) << l.text;
    }
}

// hist-per-warp's charts share one height: a warp's tallest bar stands as tall as the merge's
// (the warps' bars were 0.6 of it, short under a band of empty room the follow view framed).
TEST(HistogramParts, EveryChartOfPerWarpIsOneHeight) {
    const auto m = test::trace(generated(Algorithm::HistPerWarp, 1000, 16, 64));
    const std::size_t frame = m->frame_at(static_cast<int>(m->steps().size()) - 1, 0);
    for (const float scale : kScales) {
        const render::Canvas c = followed_in(*m, frame, 1240, 480, scale);
        float warps = 0, merged = 0;
        for (const scene::Cell& cell : c.scene.cells) {
            if (!cell.ref || cell.ref->frame < 0 ||
                (cell.role != scene::CellRole::Bar && cell.role != scene::CellRole::Written))
                continue;
            const Step step = m->trace().frames.at(static_cast<std::size_t>(cell.ref->frame)).step;
            float& tallest = step == Step::HistMerge ? merged : warps;
            if (step == Step::HistMerge || step == Step::HistAccumulate)
                tallest = std::max(tallest, cell.rect.h);
        }
        ASSERT_GT(merged, 0.0f);
        EXPECT_NEAR(warps, merged, 0.01f * merged) << "at " << scale * 100 << "%";
    }
}

// At the same zoom the legend is docked where more of the step's cells show: beside
// hist-per-warp's zeroing of warp 0's 16 bins at 200% in the window's canvas of 1280x720 a
// column left bins 9-15 off screen, where a band of one line under them shows bins 0-12.
TEST(HistogramParts, TheLegendDocksWhereMoreOfTheStepShows) {
    const auto m = test::trace(generated(Algorithm::HistPerWarp, 65536, 16, 1024));
    const std::size_t frame = m->frame_at(0, 0);
    ASSERT_EQ(m->trace().frames.at(frame).step, Step::HistZero);
    const render::Canvas c = followed_in(*m, frame, 1248, 376, 2.0f);
    int shown = 0, written = 0;
    for (const scene::Cell& cell : c.scene.cells) {
        if (cell.role != scene::CellRole::Written || !cell.ref || cell.ref->frame < 0 ||
            m->trace().frames.at(static_cast<std::size_t>(cell.ref->frame)).warp != 0)
            continue; // the other warps' charts are below, rows the notice counts
        ++written;
        const scene::Vec2 at =
            c.frame.camera.to_screen({cell.rect.x, cell.rect.y}, c.frame.width, c.frame.height);
        const float right = at.x + cell.rect.w * c.frame.camera.scale;
        shown += at.x >= c.frame.picture.x - 1 && right <= c.frame.picture.right() + 1;
    }
    EXPECT_EQ(written, 32) << "warp 0's 16 bins: a bar and a count each";
    EXPECT_GE(shown, 2 * 12) << "bars and counts of 12 bins or more; legend "
                             << text(c.frame.legend_box) << ", notice '" << c.frame.notice << "'";
}

// The one rule for a histogram's rows (render::rows_room): the bars are sized for the room the
// notice and the legend leave, so none of the step's bars is cut by the picture's edge. At 200%
// in short canvases the scene was sized for render::room_for_rows (one line of notice, one of
// legend) while a two-line notice and a docked legend band took more: hist-global's bars at
// 191 pixels under a picture 324 tall, cut.
TEST_P(Histogram, BarsSizedForTheRoomTheFramingLeaves) {
    for (const int n : {7, 1000})
        for (const int bins : {16, 256}) {
            const auto m = test::trace(generated(GetParam(), n, bins, 32));
            for (const int step : sampled(*m))
                for (const Size size : {Size{910, 540}, Size{700, 560}, Size{1260, 390}}) {
                    const std::size_t frame = m->frame_at(step, 0);
                    const render::Canvas c = followed_in(*m, frame, static_cast<float>(size.width),
                                                         static_cast<float>(size.height), 2.0f);
                    const render::CanvasFrame& f = c.frame;
                    const scene::StepGroup& g =
                        m->steps().at(static_cast<std::size_t>(m->step_of(frame)));
                    EXPECT_EQ(test::bars_cut(c.scene, f.camera, f.width, f.height, f.picture,
                                             g.first, g.last),
                              "")
                        << "n " << n << " bins " << bins << " step " << step + 1 << " "
                        << size.width << "x" << size.height << " at 200%; notice: " << f.notice;
                }
        }
}

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// A step that reads one chart and writes the next (hist-per-warp's merge, the fold) shows both
// in a picture of 1920x1080 or 1600x1000 at 100 and 150%: at 150% the warp's copy above the
// merge was left out, the merge's zero bars an empty band with no arrow drawn (bars sized for
// one chart, and a world unit of gap between rows of charts: 224 pixels read close).
TEST_P(Histogram, TheMergeAndTheFoldDrawTheirArrowsOnALargeScreen) {
    if (GetParam() == Algorithm::HistGlobal)
        return; // one chart
    for (const int n : {7, 1000}) {
        const auto m = test::trace(generated(GetParam(), n, 256, 32));
        for (std::size_t frame = 0; frame < m->trace().frames.size(); ++frame) {
            const Step step = m->trace().frames[frame].step;
            if ((step != Step::HistMerge && step != Step::HistFold) ||
                m->trace().frames[frame].block != 0)
                continue;
            for (const Size size : {Size{1920, 1080}, Size{1600, 1000}})
                for (const float scale : {1.0f, 1.5f}) {
                    const render::Composition c = composed(*m, frame, size, scale);
                    const auto drawn =
                        scene::arrows_drawn(c.scene, c.camera, static_cast<float>(c.width),
                                            static_cast<float>(c.height), c.picture);
                    EXPECT_TRUE(std::any_of(drawn.begin(), drawn.end(),
                                            [](const scene::Arrow& a) { return a.head > 0; }))
                        << "n " << n << " " << step_id(step) << " in " << size.width << "x"
                        << size.height << " at " << scale * 100 << "%: no arrow; " << notice(c);
                }
        }
    }
}

} // namespace
} // namespace pplab

namespace pplab {
namespace {

// A step that reads one chart and writes the next (the merge, the fold) shows the chart it reads,
// or the notice says it is off screen: at 150% in 1280x720 and 200% in 1920x1080 the merge and
// the fold showed their own chart alone and said only that arrows were left out.
TEST_P(Histogram, TheChartAStepReadsIsShownOrSaid) {
    if (GetParam() == Algorithm::HistGlobal)
        return; // one chart
    const auto m = test::trace(generated(GetParam(), 1000, 256));
    const bool merges = GetParam() == Algorithm::HistPerWarp;
    for (std::size_t frame = 0; frame < m->trace().frames.size(); ++frame) {
        const Frame& cur = m->trace().frames[frame];
        if ((cur.step != Step::HistMerge && cur.step != Step::HistFold) || cur.block != 0)
            continue;
        // The chart read: the warps' (or the block's) accumulated bins, or the merged ones.
        const bool reads_merged = merges && cur.step == Step::HistFold;
        for (const Size size : {Size{1280, 720}, Size{1920, 1080}})
            for (const float scale : {1.5f, 2.0f}) {
                const render::Composition c = composed(*m, frame, size, scale);
                bool read_seen = false;
                for (const scene::Cell& cell : c.scene.cells) {
                    Rect part;
                    if (!cell.ref || cell.ref->frame < 0 || !seen(c, cell, part))
                        continue;
                    const Step s =
                        m->trace().frames[static_cast<std::size_t>(cell.ref->frame)].step;
                    read_seen = read_seen ||
                                (reads_merged ? s == Step::HistMerge
                                              : s == Step::HistZero || s == Step::HistAccumulate);
                }
                const std::string where =
                    std::string(step_id(cur.step)) + " in " + std::to_string(size.width) + "x" +
                    std::to_string(size.height) + " at " + std::to_string(scale * 100) + "%";
                const std::string said = notice(c);
                if (!read_seen) {
                    EXPECT_TRUE(said.find("merges: above, off screen") != std::string::npos ||
                                said.find("folds: above, off screen") != std::string::npos)
                        << where << ": the chart read off screen, the notice says '" << said << "'";
                }
            }
    }
}

// Whether the picture shows cell `bin` of `frame` whole (within a pixel).
bool shown_whole(const render::Composition& c, std::size_t frame, int bin) {
    for (const scene::Cell& cell : c.scene.cells) {
        Rect part;
        if (cell.ref && cell.ref->frame == static_cast<int>(frame) && cell.ref->cell == bin &&
            seen(c, cell, part) && part.w >= on_screen(c, cell.rect).w - 1.0f)
            return true;
    }
    return false;
}

// The values of bin `bin` of `frame` the picture draws, and those it leaves out ("…").
std::pair<int, int> values_of(const render::Composition& c, std::size_t frame, int bin) {
    int drawn = 0, elided = 0;
    for (const render::TextRun& t : c.text) {
        if (t.cell < 0 || static_cast<std::size_t>(t.cell) >= c.scene.cells.size())
            continue;
        const scene::Cell& cell = c.scene.cells[static_cast<std::size_t>(t.cell)];
        if (cell.ref && cell.ref->frame == static_cast<int>(frame) && cell.ref->cell == bin) {
            drawn += t.kind == render::TextKind::Cell && t.text == cell.text;
            elided += t.kind == render::TextKind::Elided;
        }
    }
    return {drawn, elided};
}

// The bin a round's caption names is on screen, whole, in the view that follows the step: over
// skewed data at 200% in 1280x720 the caption named bin 48, "took 225 atomics", under bins
// 14-25, the first the round wrote. Its count and its contention are read there: at 150% in
// 1280x720 hist-global's "took 14670 atomics" stood over two cells that said "…".
TEST_P(Histogram, TheBinTheCaptionNamesIsOnScreen) {
    for (const int block : {256, 32}) {
        const auto m = test::trace(
            test::request(GetParam(), generate(Generator::Skewed, 65536, 1, 256), block, 256));
        std::vector<int> steps; // the first rounds of block 0
        for (int step = 0; step < static_cast<int>(m->steps().size()) && steps.size() < 3; ++step)
            if (m->trace().frames.at(m->frame_at(step, 0)).step == Step::HistAccumulate)
                steps.push_back(step);
        ASSERT_EQ(steps.size(), 3u);
        each_picture(*m, steps, "block " + std::to_string(block),
                     [&](const render::Composition& c, std::size_t frame, float) {
                         const std::string caption = m->caption(frame);
                         const std::string named = "the busiest bin, bin ";
                         const std::size_t at = caption.find(named);
                         ASSERT_NE(at, std::string::npos)
                             << "skewed data: a bin took most: " << caption;
                         const int bin = std::stoi(caption.substr(at + named.size()));
                         EXPECT_TRUE(shown_whole(c, frame, bin))
                             << "bin " << bin << " is not on screen: " << notice(c);
                         const auto [drawn, elided] = values_of(c, frame, bin);
                         EXPECT_EQ(elided, 0) << "bin " << bin << ": its values left out";
                         EXPECT_GE(drawn, 1) << "bin " << bin << ": no value of it drawn";
                     });
    }
}

// A merge writes every bin: the view that follows it shows the first that holds a count, with
// room for those after it. With n = 7 at 200% in 1280x720 it showed bins 0-6 of the merged
// chart, all 0, its 7 counts off screen.
TEST(HistogramMerge, ShowsTheFirstBinThatHoldsACount) {
    for (const int n : {7, 32}) {
        const auto m = test::trace(test::request(
            Algorithm::HistPerWarp, generate(Generator::RandomInt, n, 1, 256), 32, 256));
        std::vector<int> steps;
        for (int step = 0; step < static_cast<int>(m->steps().size()); ++step)
            if (m->trace().frames.at(m->frame_at(step, 0)).step == Step::HistMerge)
                steps.push_back(step);
        ASSERT_EQ(steps.size(), 1u);
        ASSERT_EQ(m->grid(0), 1) << "one block: its elements are the whole input";
        // The bins the block's elements fall in, counted here from the input (bin = value).
        std::vector<int> bins;
        for (const float v : m->request().input)
            bins.push_back(static_cast<int>(v));
        const int first = *std::min_element(bins.begin(), bins.end());
        ASSERT_GT(first, 6) << "the test wants the first bins empty";
        each_picture(*m, steps, "n " + std::to_string(n),
                     [&](const render::Composition& c, std::size_t frame, float) {
                         EXPECT_TRUE(shown_whole(c, frame, first))
                             << "bin " << first << " is not on screen: " << notice(c);
                     });
    }
}

} // namespace
} // namespace pplab
