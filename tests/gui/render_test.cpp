// Frames of every view drawn offscreen (Mesa's surfaceless EGL: no X, no GPU), asserted on
// their pixels: not blank, different from frame to frame, the highlight where the scene put it.
#include "fixtures.hpp"

#include "render/gl_renderer.hpp"
#include "render/offscreen.hpp"
#include "render/picture.hpp"
#include "render/run_cache.hpp"

#include <gtest/gtest.h>

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace pplab::render {
namespace {

// A context per test: GL objects are declared after it, so they die before it does.
struct Gl {
    OffscreenContext context;
    GlRenderer renderer;
    RenderTarget target;
};

int distance(const std::array<std::uint8_t, 4>& p, const scene::Rgba& c) {
    const auto ch = [](float v) { return static_cast<int>(v * 255.0f + 0.5f); };
    return std::abs(p[0] - ch(c.r)) + std::abs(p[1] - ch(c.g)) + std::abs(p[2] - ch(c.b));
}

double share_not(const Image& img, const scene::Rgba& background) {
    std::size_t other = 0;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x)
            other += distance(img.at(x, y), background) > 6;
    return static_cast<double>(other) / (static_cast<double>(img.width) * img.height);
}

double share_changed(const Image& a, const Image& b) {
    std::size_t changed = 0;
    for (std::size_t i = 0; i < a.rgba.size(); i += 4)
        changed += a.rgba[i] != b.rgba[i] || a.rgba[i + 1] != b.rgba[i + 1] ||
                   a.rgba[i + 2] != b.rgba[i + 2];
    return static_cast<double>(changed) / (static_cast<double>(a.rgba.size()) / 4);
}

void keep(const Image& img, const std::string& name) {
    if (const char* dir = std::getenv("PPLAB_SCREENSHOT_DIR")) {
        std::filesystem::create_directories(dir);
        write_png(img, (std::filesystem::path(dir) / (name + ".png")).string());
    }
}

class Offscreen : public ::testing::Test {
protected:
    Gl gl;
};

TEST_F(Offscreen, ContextIsCoreProfile) {
    EXPECT_FALSE(gl.context.renderer().empty());
}

class EveryView : public ::testing::TestWithParam<test::Case> {
protected:
    Gl gl;
};

TEST_P(EveryView, DrawsStepsThatDifferWithTheHighlightInPlace) {
    const test::Case& c = GetParam();
    const auto m = test::trace(c.request);
    PictureOptions o;
    o.width = 1600; // the window's size: big enough to sample every view's cells
    o.height = 1000;
    const scene::Palette pal = scene::palette(o.theme);
    const std::size_t steps = m->steps().size();
    const std::size_t first = m->frame_at(0, 0);
    const std::size_t middle = m->frame_at(static_cast<int>(steps / 2), 0);
    const Picture a = picture(gl.renderer, gl.target, *m, first, o);
    const Picture b = picture(gl.renderer, gl.target, *m, middle, o);
    keep(b.image, c.name);

    EXPECT_GT(share_not(a.image, pal.background), 0.02) << "the first step is not blank";
    EXPECT_GT(share_not(b.image, pal.background), 0.02) << "the middle step is not blank";
    EXPECT_GT(share_changed(a.image, b.image), 0.002) << "two steps look different";

    // Every cell the scene lit in the highlight colour shows it on screen, at its place.
    int checked = 0;
    for (const scene::Cell& cell : b.scene.cells) {
        if (cell.role != scene::CellRole::Written || !(cell.fill == pal.highlight))
            continue;
        // A quarter down from the top: inside the border, above the digits.
        const scene::Vec2 p =
            b.camera.to_screen({cell.rect.center().x, cell.rect.y + cell.rect.h * 0.25f},
                               static_cast<float>(o.width), static_cast<float>(o.height));
        const float w = cell.rect.w * b.camera.scale, h = cell.rect.h * b.camera.scale;
        if (w < 12 || h < 12 || !b.drawn.contains(p))
            continue; // too small to sample without its border, or outside the drawing
        EXPECT_LT(distance(b.image.at(static_cast<int>(p.x), static_cast<int>(p.y)), pal.highlight),
                  24)
            << c.name << ": cell " << cell.ref->cell << " of frame " << cell.ref->frame;
        ++checked;
    }
    if (info(m->request().algorithm).family != Family::Histogram) { // bars wear it as a border
        EXPECT_GT(checked, 0) << c.name << ": no highlighted cell to check";
    }
}

INSTANTIATE_TEST_SUITE_P(Views, EveryView, ::testing::ValuesIn(test::view_cases()),
                         [](const auto& param) {
                             std::string n = param.param.name;
                             std::replace(n.begin(), n.end(), '-', '_');
                             return n;
                         });

TEST_F(Offscreen, HighlightIsWhereTheSceneSaysForTheTree) {
    const auto m = test::trace(test::request(Algorithm::ReduceTree, test::seq(8), 8));
    const std::size_t level0 =
        static_cast<std::size_t>(m->dataflow().find(Step::TreeLevel, 0, 0, 0, -1));
    PictureOptions o;
    const Picture p = picture(gl.renderer, gl.target, *m, level0, o);
    const scene::Palette pal = scene::palette(o.theme);
    int written = 0;
    for (const scene::Cell& cell : p.scene.cells) {
        if (!cell.ref || cell.ref->frame != static_cast<int>(level0))
            continue;
        const scene::Vec2 at = p.camera.to_screen(
            {cell.rect.x + cell.rect.w * 0.5f, cell.rect.y + cell.rect.h * 0.15f},
            static_cast<float>(o.width), static_cast<float>(o.height));
        const int d =
            distance(p.image.at(static_cast<int>(at.x), static_cast<int>(at.y)), pal.highlight);
        if (cell.ref->cell < 4) {
            EXPECT_LT(d, 24) << "s[" << cell.ref->cell << "] was written by level 0";
            ++written;
        } else {
            EXPECT_GT(d, 100) << "s[" << cell.ref->cell << "] was not";
        }
    }
    EXPECT_EQ(written, 4);
}

TEST_F(Offscreen, DarkThemeAndLargeImages) {
    const auto m = test::trace(test::request(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4));
    PictureOptions o;
    o.theme = scene::Theme::Dark;
    o.width = 1920;
    o.height = 1080;
    const Picture p = picture(gl.renderer, gl.target, *m, m->trace().frames.size() - 1, o);
    EXPECT_EQ(p.image.width, 1920);
    EXPECT_GT(share_not(p.image, scene::palette(scene::Theme::Dark).background), 0.01);
}

TEST(RunCache, PlacesFindsAndSaysWhenFull) {
    RunCache cache(64, 32);
    EXPECT_EQ(cache.find("37", 12.0f), nullptr);
    const auto first = cache.place("37", 12.0f, 20, 14, -1, -11);
    ASSERT_TRUE(first);
    const CachedRun* found = cache.find("37", 12.0f);
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->x, 0);
    EXPECT_EQ(found->w, 20);
    EXPECT_EQ(found->top, -11);
    EXPECT_EQ(cache.find("37", 12.5f), nullptr) << "another size is another text";
    const auto second = cache.place("38", 12.0f, 20, 14, -1, -11);
    ASSERT_TRUE(second);
    EXPECT_GE(second->x, 21) << "a clear texel between texts";
    EXPECT_EQ(second->x % 2, 0) << "on even texels";
    const auto third = cache.place("39", 12.0f, 29, 13, -1, -11); // no room on the shelf
    ASSERT_TRUE(third);
    EXPECT_EQ(third->x, 0);
    EXPECT_GE(third->y, 15);
    EXPECT_EQ(third->y % 2, 0);
    EXPECT_FALSE(cache.place("40", 12.0f, 40, 14, -1, -11)) << "no shelf left";
    EXPECT_FALSE(cache.place("wide", 12.0f, 64, 5, 0, 0)) << "wider than the texture";
    cache.clear();
    EXPECT_EQ(cache.size(), 0u);
    EXPECT_EQ(cache.find("37", 12.0f), nullptr);
    EXPECT_EQ(cache.place("40", 12.0f, 20, 14, -1, -11)->y, 0);
}

// Values copied from the texture of drawn texts look the same whether they were drawn into it
// this frame, found there, or drawn again after the texture filled up and was emptied.
TEST_F(Offscreen, CachedTextsAreTheSameAfterTheCacheFillsUp) {
    scene::Scene grid;
    const scene::Palette pal = scene::palette(scene::Theme::Light);
    grid.background = pal.background;
    for (int row = 0; row < 16; ++row)
        for (int col = 0; col < 16; ++col) {
            scene::Cell cell;
            cell.rect = {col * 2.2f, row * 1.2f, 2.0f, 1.0f};
            cell.fill = pal.active;
            cell.text = std::to_string(row * 16 + col + 100);
            cell.text_color = pal.cell_text;
            cell.text_size = 0.8f;
            grid.cells.push_back(cell);
        }
    grid.bounds = {0, 0, 16 * 2.2f, 16 * 1.2f};
    constexpr int kW = 900, kH = 600;
    gl.target.resize(kW, kH);
    const scene::Camera cam = scene::fit(grid.bounds, kW, kH, 10);
    const auto draw = [&](const scene::Camera& c) {
        gl.target.bind();
        gl.renderer.draw(grid, c, kW, kH);
        return gl.target.read();
    };
    const Image first = draw(cam);
    EXPECT_EQ(gl.renderer.drawn_text().size(), grid.cells.size());
    const Image again = draw(cam);
    EXPECT_EQ(first.rgba, again.rgba);
    for (int zoom = 1; zoom <= 24; ++zoom) { // a new size every frame: the texture fills up
        scene::Camera closer = cam;
        closer.scale *= 1.0f + 0.01f * static_cast<float>(zoom);
        draw(closer);
    }
    const Image refilled = draw(cam);
    // Drawn again elsewhere in the texture: llvmpipe interpolates the atlas's coordinates from
    // the framebuffer's corner, so a texel may differ by a level or two, never visibly (a
    // text on odd texels, its shader's derivatives on other pixel quads, differed by 125).
    ASSERT_EQ(first.rgba.size(), refilled.rgba.size());
    int most = 0;
    for (std::size_t i = 0; i < first.rgba.size(); ++i)
        most = std::max(most, std::abs(first.rgba[i] - refilled.rgba[i]));
    EXPECT_LE(most, 4);
    scene::Scene bare = grid;
    for (scene::Cell& c : bare.cells)
        c.text.clear();
    gl.target.bind();
    gl.renderer.draw(bare, cam, kW, kH);
    EXPECT_GT(share_changed(first, gl.target.read()), 0.05) << "the values were drawn";
}

// A text a few pixels tall keeps every stem wherever it falls between pixel centres: the glyph
// shader's edge was as wide as the distance field's change between pixels, which is about 0
// across a stem's ridge, so a 1-pixel stem between two pixel centres vanished ("11" at 10.8 px
// drawn as "1:", its second stem gone, in a histogram's bin numbers).
TEST_F(Offscreen, SmallTextKeepsEveryStemAtEveryOffset) {
    const scene::Palette pal = scene::palette(scene::Theme::Light);
    constexpr int kW = 640, kH = 360, kPerRow = 14;
    constexpr float kPitchX = 44, kPitchY = 30;
    std::vector<scene::Label> labels;
    for (int i = 0; i < 8 * kPerRow; ++i) {
        scene::Label l;
        l.text = "11";
        l.px = l.size = 10.5f + 0.1f * static_cast<float>(i / kPerRow); // 10.5 .. 11.2 px
        l.pos = {12 + kPitchX * static_cast<float>(i % kPerRow) + 0.07f * static_cast<float>(i),
                 24 + kPitchY * static_cast<float>(i / kPerRow) + 0.05f * static_cast<float>(i)};
        l.color = pal.text;
        labels.push_back(l);
    }
    gl.target.resize(kW, kH);
    gl.target.bind();
    glClearColor(pal.background.r, pal.background.g, pal.background.b, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    gl.renderer.draw_overlay({}, labels, kW, kH);
    const Image img = gl.target.read();
    keep(img, "small-text-stems");
    for (const scene::Label& l : labels) {
        // Ink per column over the text's height: each "1" has a column of stem, as dark in the
        // second as in the first.
        const float w = gl.renderer.font().width(l.text) * l.px;
        const int x0 = static_cast<int>(std::floor(l.pos.x)) - 1;
        const int x1 = static_cast<int>(std::ceil(l.pos.x + w)) + 1;
        const int mid = static_cast<int>(std::lround(l.pos.x + w / 2));
        const int y0 = static_cast<int>(std::floor(l.pos.y - 0.8f * l.px));
        const int y1 = static_cast<int>(std::ceil(l.pos.y));
        int first = 0, second = 0;
        for (int x = x0; x <= x1; ++x) {
            int ink = 0;
            for (int y = y0; y <= y1; ++y)
                ink += distance(img.at(x, y), pal.background);
            (x < mid ? first : second) = std::max(x < mid ? first : second, ink);
        }
        EXPECT_GT(first, 0) << "nothing drawn at " << l.pos.x << ", " << l.pos.y;
        EXPECT_GE(second, first / 2) << "the second stem of '11' at " << l.px << " px, x "
                                     << l.pos.x << ": ink " << second << " against " << first;
    }
}

// Cells with a value and cells without go through two programs (the texture read only where
// there is a value), one draw per run of either: a later cell is still drawn over an earlier.
TEST_F(Offscreen, CellsWithAndWithoutValuesOverlapInTheScenesOrder) {
    scene::Scene s;
    s.background = {1, 1, 1, 1};
    const scene::Rgba red{0.8f, 0.1f, 0.1f, 1}, green{0.1f, 0.7f, 0.2f, 1},
        blue{0.1f, 0.2f, 0.8f, 1};
    const auto cell = [&](scene::Rect r, scene::Rgba fill, std::string text) {
        scene::Cell c;
        c.rect = r;
        c.fill = fill;
        c.radius = 0.3f;
        c.text = std::move(text);
        c.text_color = {1, 1, 1, 1};
        c.text_size = 0.8f;
        s.cells.push_back(c);
    };
    cell({0, 0, 10, 4}, red, "7");   // a value: its texts' program
    cell({6, 1, 10, 4}, green, "");  // over it, none
    cell({12, 2, 10, 4}, blue, "8"); // over that, a value again
    s.bounds = {0, 0, 22, 6};
    constexpr int kW = 900, kH = 600;
    gl.target.resize(kW, kH);
    const scene::Camera cam = scene::fit(s.bounds, kW, kH, 10);
    gl.target.bind();
    gl.renderer.draw(s, cam, kW, kH);
    const Image img = gl.target.read();
    const auto at = [&](float x, float y) {
        const scene::Vec2 p = cam.to_screen({x, y}, kW, kH);
        return img.at(static_cast<int>(p.x), static_cast<int>(p.y));
    };
    EXPECT_LT(distance(at(1, 0.5f), red), 6) << "the first cell where nothing covers it";
    EXPECT_LT(distance(at(9, 3.6f), green), 6) << "the second cell over the first";
    EXPECT_LT(distance(at(11, 1.5f), green), 6) << "the second cell alone";
    EXPECT_LT(distance(at(13, 4.5f), blue), 6) << "the third cell over the second";
    EXPECT_EQ(gl.renderer.drawn_text().size(), 2u);
    // Each value drawn in its cell: white pixels about the cell's centre.
    for (const scene::Vec2 centre : {scene::Vec2{5, 2}, scene::Vec2{17, 4}}) {
        int white = 0;
        for (float dy = -0.5f; dy <= 0.5f; dy += 0.05f)
            for (float dx = -0.5f; dx <= 0.5f; dx += 0.05f)
                white += distance(at(centre.x + dx, centre.y + dy), {1, 1, 1, 1}) < 30;
        EXPECT_GT(white, 10) << "the value at (" << centre.x << ", " << centre.y << ")";
    }
}

// A cell ending a fraction of a pixel before the picture's edge leaves no faint line inside
// it: the clip keeps whole pixels only (bin 28's border showed beside bin 29 at 200%).
TEST_F(Offscreen, ACellEndingJustBeforeTheClipLeavesNoLine) {
    scene::Scene s;
    s.background = {1, 1, 1, 1};
    scene::Cell c;
    c.rect = {0, 0, 100.3f, 40};
    c.fill = {0.1f, 0.1f, 0.1f, 1};
    s.cells.push_back(c);
    s.bounds = {0, 0, 200, 40};
    constexpr int kW = 200, kH = 40;
    gl.target.resize(kW, kH);
    scene::Camera cam;
    cam.scale = 1;
    cam.center = {100, 20}; // world = pixels
    gl.target.bind();
    for (const float edge : {100.3f, 100.6f, 100.95f}) {
        SCOPED_TRACE(edge);
        gl.renderer.draw(s, cam, kW, kH, {edge, 0, kW - edge, kH});
        const Image img = gl.target.read();
        // The pixel the edge crosses and the next: not darkened by the cell before them.
        EXPECT_LT(distance(img.at(100, 20), s.background), 6);
        EXPECT_LT(distance(img.at(101, 20), s.background), 6);
        // The cell itself is drawn where the clip has it: nothing, left of the edge.
        EXPECT_LT(distance(img.at(50, 20), s.background), 6);
    }
}

} // namespace
} // namespace pplab::render
