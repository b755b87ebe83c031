// Not a test: how long one frame of a 4096-cell scene takes to build and draw offscreen at
// 1280×800 (llvmpipe on CI machines). Run it by hand: build/<preset>/tests/gui/pplab_frame_bench
// [WxH] [--parts] [--grid]
#include "fixtures.hpp"

#include "render/canvas_layout.hpp"
#include "render/gl_renderer.hpp"
#include "render/offscreen.hpp"
#include "render/target.hpp"
#include "render/text_layout.hpp"
#include "scene/view.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <tuple>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double ms(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

// The process's CPU time, llvmpipe's rasteriser threads included: on a machine shared with
// others' builds, wall time doubles with the load while the work a frame needs does not.
double cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// A 64 × 64 grid of valued cells filling 1280×800, every value drawn (11 px and up, as the
// canvas draws values) and 2048 arrows from one row into the next, as a tree level's: the
// frame of issue 9's target (4096 labelled cells, 2048 arrows, under 16 ms on llvmpipe).
pplab::scene::Scene labelled_grid_scene() {
    using namespace pplab;
    scene::Scene grid;
    const scene::Palette pal = scene::palette(scene::Theme::Light);
    grid.background = pal.background;
    constexpr int kSide = 64;
    constexpr float kPitchX = 1.6f, kPitchY = 1.0f;
    for (int row = 0; row < kSide; ++row)
        for (int col = 0; col < kSide; ++col) {
            scene::Cell cell;
            cell.rect = {col * kPitchX, row * kPitchY, 1.45f, 0.86f};
            cell.fill = (row + col) % 7 == 0 ? pal.highlight : pal.active;
            cell.border = pal.cell_border;
            cell.border_width = 0.05f;
            cell.radius = 0.12f;
            cell.text = std::to_string((row * kSide + col) % 100);
            cell.text_color = pal.cell_text;
            cell.text_size = 0.95f;
            grid.cells.push_back(cell);
            if (row % 2 == 1) // from the cell above-left into this one, as a tree's pairs
                grid.arrows.push_back({{((col + kSide - 1) % kSide + 0.5f) * kPitchX - 0.1f,
                                        (row - 1) * kPitchY + 0.86f},
                                       {col * kPitchX + 0.72f, row * kPitchY},
                                       pal.arrow,
                                       0.06f,
                                       0.25f,
                                       false,
                                       {}});
        }
    grid.bounds = {0, 0, kSide * kPitchX, kSide * kPitchY};
    return grid;
}

struct Timings {
    std::vector<double> frame_ms, cpu_ms, layout_ms;
    std::size_t laid_out = 0; // runs of the last layout: the layout is used, not optimised away
};

void print_timings(const char* what, const Timings& t) {
    std::printf("  %-34s frame median %6.2f ms, best %6.2f ms", what, median(t.frame_ms),
                *std::min_element(t.frame_ms.begin(), t.frame_ms.end()));
    if (!t.cpu_ms.empty())
        std::printf(", CPU median %6.2f ms, least %6.2f ms", median(t.cpu_ms),
                    *std::min_element(t.cpu_ms.begin(), t.cpu_ms.end()));
    if (!t.layout_ms.empty())
        std::printf(" (text layout on the CPU: median %.2f ms)", median(t.layout_ms));
    std::printf("\n");
}

// Each frame timed from the draw call to glFinish; the text layout (the CPU's share of the
// text) timed apart by laying the same texts out again.
Timings time_frames(pplab::render::GlRenderer& gl, pplab::render::RenderTarget& target,
                    const pplab::scene::Scene& s, const pplab::scene::Camera& cam, int w, int h,
                    bool layout_too) {
    using namespace pplab;
    Timings t;
    for (int i = 0; i < 40; ++i) {
        const double cpu0 = cpu_ms();
        const auto t0 = Clock::now();
        target.bind();
        gl.draw(s, cam, w, h);
        glFinish();
        t.frame_ms.push_back(ms(Clock::now() - t0));
        t.cpu_ms.push_back(cpu_ms() - cpu0);
        if (layout_too) {
            const auto t1 = Clock::now();
            const auto runs =
                render::scene_text(gl.font(), s, cam, static_cast<float>(w), static_cast<float>(h));
            t.layout_ms.push_back(ms(Clock::now() - t1));
            t.laid_out = runs.size();
        }
    }
    return t;
}

int labelled_grid(pplab::render::GlRenderer& gl, pplab::render::RenderTarget& target, int w, int h,
                  bool parts) {
    using namespace pplab;
    const scene::Scene grid = labelled_grid_scene();
    const scene::Camera cam = scene::fit(grid.bounds, w, h, 10);
    const Timings full = time_frames(gl, target, grid, cam, w, h, true);
    const std::size_t values = gl.drawn_text().size();
    scene::Scene bare = grid; // the same frame without its texts: what the text costs
    for (scene::Cell& c : bare.cells)
        c.text.clear();
    const Timings no_text = time_frames(gl, target, bare, cam, w, h, false);
    std::printf("grid of %zu cells (%.0f×%.0f px), %zu of them with their value drawn, %zu "
                "arrows (40 frames each):\n",
                grid.cells.size(), static_cast<double>(cam.scale * 1.45f),
                static_cast<double>(cam.scale * 0.86f), values, grid.arrows.size());
    print_timings("cells, arrows and values:", full);
    print_timings("cells and arrows alone:", no_text);
    if (parts) { // each part alone: where the frame's time goes
        scene::Scene cells_only = bare;
        cells_only.arrows.clear();
        print_timings("cells alone:", time_frames(gl, target, cells_only, cam, w, h, false));
        scene::Scene arrows_only = bare;
        arrows_only.cells.clear();
        print_timings("arrows alone:", time_frames(gl, target, arrows_only, cam, w, h, false));
        scene::Scene values_only = grid;
        values_only.arrows.clear();
        for (scene::Cell& c : values_only.cells)
            c.fill.a = c.border.a = 0; // not drawn, their values are
        print_timings("values alone:", time_frames(gl, target, values_only, cam, w, h, false));
        scene::Scene one = bare; // every pixel drawn once: the floor of any frame
        one.arrows.clear();
        one.cells.resize(1);
        one.cells[0].rect = grid.bounds;
        print_timings("one cell over the picture:", time_frames(gl, target, one, cam, w, h, false));
    }
    // A zoom: another text size every frame, so every value is drawn into the cache again.
    Timings zooming;
    for (int i = 0; i < 40; ++i) {
        scene::Camera closer = cam;
        closer.scale *= 1.0f + 0.0005f * static_cast<float>(i + 1);
        const double cpu0 = cpu_ms();
        const auto t0 = Clock::now();
        target.bind();
        gl.draw(grid, closer, w, h);
        glFinish();
        zooming.frame_ms.push_back(ms(Clock::now() - t0));
        zooming.cpu_ms.push_back(cpu_ms() - cpu0);
    }
    print_timings("zooming (texts not yet cached):", zooming);
    if (values != grid.cells.size()) {
        std::printf("not every value was drawn: the grid no longer measures issue 9's frame\n");
        return 1;
    }
    return 0;
}

// What a step costs the window before its first frame: the canvas laid out from scratch
// (render::lay_out_canvas: the scene built and framed until its zoom settles), as the window
// does once a step, following at 150%.
void time_step_layouts(const pplab::render::FontAtlas& font, int w, int h) {
    using namespace pplab;
    for (const auto& [a, n, block] : {std::tuple{Algorithm::ReduceTree, 65536, 1024},
                                      std::tuple{Algorithm::ScanMultiblock, 65536, 1024},
                                      std::tuple{Algorithm::HistPerWarp, 65536, 1024}}) {
        const bool bytes = info(a).family == Family::Histogram;
        const auto m = test::trace(test::request(
            a, generate(bytes ? Generator::UniformBytes : Generator::RandomInt, n, 1, 0), block));
        render::CanvasRequest r;
        r.width = static_cast<float>(w);
        r.height = static_cast<float>(h);
        r.scale = 1.5f;
        r.interactive = true;
        // Above 100% the window lays the step out at 100% as well, for the least zoom a value
        // cell gets there (CanvasRequest::canvas_at_100): the canvas's own size stands in.
        render::CanvasRequest floored = r;
        floored.canvas_at_100 = {r.width, r.height};
        std::vector<double> layout_ms, floored_ms;
        std::size_t cells = 0;
        const std::size_t steps = std::min<std::size_t>(m->steps().size(), 10);
        for (std::size_t step = 0; step < steps; ++step)
            for (int i = 0; i < 4; ++i) {
                const std::size_t frame = m->frame_at(static_cast<int>(step), 0);
                auto t0 = Clock::now();
                const render::Canvas c =
                    render::lay_out_canvas(font, *m, frame, r, scene::ViewOptions{});
                layout_ms.push_back(ms(Clock::now() - t0));
                cells = std::max(cells, c.scene.cells.size());
                t0 = Clock::now();
                render::lay_out_canvas(font, *m, frame, floored, scene::ViewOptions{});
                floored_ms.push_back(ms(Clock::now() - t0));
            }
        // Its parts at the zoom it settled at: one build, one framing; and a frame of the
        // transition (the values half-way): the scene built again and its texts laid out in
        // the settled framing, as the window does, where it used to frame it again.
        std::vector<double> build_ms, frame_ms, texts_ms;
        std::size_t runs = 0; // texts laid out
        for (std::size_t step = 0; step < steps; ++step) {
            const std::size_t frame = m->frame_at(static_cast<int>(step), 0);
            const render::Canvas settled =
                render::lay_out_canvas(font, *m, frame, r, scene::ViewOptions{});
            const auto t0 = Clock::now();
            scene::Scene built = scene::build(*m, frame, settled.built_with, 0.5f);
            render::measure_labels(built, font);
            const auto t1 = Clock::now();
            const render::CanvasFrame f = render::frame_canvas(font, built, *m, frame, r);
            const auto t2 = Clock::now();
            const auto texts =
                render::scene_text(font, built, settled.frame.camera, r.width, r.height,
                                   settled.frame.picture, settled.frame.names);
            texts_ms.push_back(ms(Clock::now() - t2));
            frame_ms.push_back(ms(t2 - t1));
            build_ms.push_back(ms(t1 - t0));
            cells = std::max(cells, built.cells.size());
            runs = std::max(runs, std::max(f.text.size(), texts.size()));
        }
        std::printf("%s n %d, block %d: a step laid out (up to %zu cells) in %.2f ms median, "
                    "%.2f ms most (%zu steps, 4 times each), %.2f ms median with the floor from "
                    "100%%; a frame of its transition: one build %.2f ms, then one framing "
                    "%.2f ms (before) or its %zu texts alone %.2f ms\n",
                    std::string(info(a).id).c_str(), n, block, cells, median(layout_ms),
                    *std::max_element(layout_ms.begin(), layout_ms.end()), steps,
                    median(floored_ms), median(build_ms), median(frame_ms), runs, median(texts_ms));
    }
}

} // namespace

int main(int argc, char** argv) {
    using namespace pplab;
    render::OffscreenContext context;
    render::GlRenderer gl;
    render::RenderTarget target;
    // `pplab_frame_bench WxH`: another size, to tell the pixels' cost from the primitives'.
    int w = 1280, h = 800;
    bool parts = false;     // --parts: cells, arrows and values timed apart as well
    bool grid_only = false; // --grid: only the grid of issue 9's target, not the tree scenes
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--parts")
            parts = true;
        else if (std::string(argv[i]) == "--grid")
            grid_only = true;
        else if (std::sscanf(argv[i], "%dx%d", &w, &h) != 2) {
            std::fprintf(stderr,
                         "usage: pplab_frame_bench [WxH] [--parts] [--grid] (default 1280x800)\n");
            return 2;
        }
    }
    w = std::clamp(w, 64, 4096);
    h = std::clamp(h, 64, 4096);
    target.resize(w, h);
    std::printf("renderer: %s, %d×%d\n", context.renderer().c_str(), w, h);
    // The input strip and every tree level of a block, drawn cell by cell (none merged into a
    // heat strip) while the values travel (anim 0.5) and settled (anim 1): 1792 elements in
    // blocks of 256 make 4096 value cells; 4096 in blocks of 1024, 13 thousand.
    for (const auto& [n, block] : {std::pair{1792, 256}, std::pair{4096, 1024}})
        for (const float anim : {1.0f, 0.5f}) {
            if (grid_only)
                break;
            const auto m = test::trace(test::request(Algorithm::ReduceTree, test::seq(n), block));
            const std::size_t frame =
                static_cast<std::size_t>(m->dataflow().find(Step::TreeLevel, 0, 0, 0, -1));
            scene::ViewOptions vo;
            scene::Scene s = scene::build(*m, frame, vo);
            scene::Camera cam = scene::fit(s.bounds, w, h, 20);
            vo.pixels_per_unit = 3.0f; // every cell drawn as a cell, none merged
            std::vector<double> build_ms, draw_ms;
            std::size_t cells = 0, arrows = 0, movers = 0;
            for (int i = 0; i < 40; ++i) {
                const auto t0 = Clock::now();
                s = scene::build(*m, frame, vo, anim);
                const auto t1 = Clock::now();
                target.bind();
                gl.draw(s, cam, w, h);
                glFinish();
                const auto t2 = Clock::now();
                build_ms.push_back(ms(t1 - t0));
                draw_ms.push_back(ms(t2 - t1));
                cells = s.cells.size();
                arrows = s.arrows.size();
                movers = s.movers.size();
            }
            std::printf("n %d, block %d, anim %.1f: %zu cells, %zu arrows, %zu moving values: "
                        "build %.2f ms, draw %.2f ms "
                        "(median of 40), frame %.2f ms\n",
                        n, block, static_cast<double>(anim), cells, arrows, movers,
                        median(build_ms), median(draw_ms), median(build_ms) + median(draw_ms));
        }
    if (!grid_only)
        time_step_layouts(gl.font(), w, h);
    return labelled_grid(gl, target, w, h, parts);
}
