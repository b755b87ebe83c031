// Not a test: how long one frame of a 4096-cell scene takes to build and draw offscreen at
// 1280×800 (llvmpipe on CI machines). Run it by hand: build/<preset>/tests/gui/pplab_frame_bench
#include "fixtures.hpp"

#include "render/gl_renderer.hpp"
#include "render/offscreen.hpp"
#include "render/target.hpp"
#include "scene/view.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double ms(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main() {
    using namespace pplab;
    render::OffscreenContext context;
    render::GlRenderer gl;
    render::RenderTarget target;
    const int w = 1280, h = 800;
    target.resize(w, h);
    std::printf("renderer: %s, %d×%d\n", context.renderer().c_str(), w, h);
    // The input strip and every tree level of a block, drawn cell by cell (none merged into a
    // heat strip) while the values travel (anim 0.5) and settled (anim 1): 1792 elements in
    // blocks of 256 make 4096 value cells; 4096 in blocks of 1024, 13 thousand.
    for (const auto& [n, block] : {std::pair{1792, 256}, std::pair{4096, 1024}})
        for (const float anim : {1.0f, 0.5f}) {
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
    // A plain 64 × 64 grid of valued cells, with an arrow into each cell of every other row:
    // the renderer alone, on a scene of exactly 4096 cells.
    scene::Scene grid;
    const scene::Palette pal = scene::palette(scene::Theme::Light);
    grid.background = pal.background;
    for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 64; ++c) {
            scene::Cell cell;
            cell.rect = {c * 1.6f, r * 1.14f, 1.4f, 1.0f};
            cell.fill = (r + c) % 7 == 0 ? pal.highlight : pal.active;
            cell.border = pal.cell_border;
            cell.border_width = 0.05f;
            cell.radius = 0.12f;
            cell.text = std::to_string((r * 64 + c) % 1000);
            cell.text_color = pal.cell_text;
            cell.text_size = 0.8f;
            grid.cells.push_back(cell);
            if (r % 2 == 1)
                grid.arrows.push_back({{c * 1.14f + 0.5f, r * 1.6f - 0.55f},
                                       {c * 1.14f + 0.5f, r * 1.6f - 0.05f},
                                       pal.arrow,
                                       0.06f,
                                       0.25f,
                                       false});
        }
    grid.bounds = {0, 0, 64 * 1.6f, 64 * 1.14f};
    const scene::Camera cam = scene::fit(grid.bounds, w, h, 10);
    std::vector<double> submit_ms, draw_ms;
    for (int i = 0; i < 40; ++i) {
        const auto t0 = Clock::now();
        target.bind();
        gl.draw(grid, cam, w, h);
        const auto t1 = Clock::now();
        glFinish();
        submit_ms.push_back(ms(t1 - t0));
        draw_ms.push_back(ms(Clock::now() - t0));
    }
    std::printf(
        "grid of %zu cells (%.0f px wide) with %zu arrows: draw %.2f ms (median of 40; "
        "%.2f ms of it in the draw calls: llvmpipe shades vertices on the calling thread)\n",
        grid.cells.size(), static_cast<double>(cam.scale * 1.4f), grid.arrows.size(),
        median(draw_ms), median(submit_ms));
    return 0;
}
