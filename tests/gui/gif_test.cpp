// The animated GIF of a run, read back with giflib's DGifSlurp: one frame per playback step,
// the size asked for, the delays, and the composited frames close to the pictures drawn;
// failures leave no file; `pplab render --gif`. Built only where giflib is.
#include "fixtures.hpp"
#include "pictures.hpp"
#include "scratch.hpp"

#include "export/gif.hpp"
#include "export/run.hpp"

#include <gif_lib.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace pplab::exporting {
namespace {

namespace fs = std::filesystem;
using test::Pictures;
using test::Scratch;

// The GIF's picture after frame `last`: every frame's rectangle drawn over the ones before.
std::vector<std::uint8_t> composite(const GifFileType* gif, int last) {
    std::vector<std::uint8_t> rgb(static_cast<std::size_t>(gif->SWidth) * gif->SHeight * 3, 0);
    for (int i = 0; i <= last; ++i) {
        const SavedImage& s = gif->SavedImages[i];
        const ColorMapObject* map = s.ImageDesc.ColorMap ? s.ImageDesc.ColorMap : gif->SColorMap;
        for (int y = 0; y < s.ImageDesc.Height; ++y)
            for (int x = 0; x < s.ImageDesc.Width; ++x) {
                const GifColorType c =
                    map->Colors[s.RasterBits[static_cast<std::size_t>(y) * s.ImageDesc.Width + x]];
                const std::size_t o = (static_cast<std::size_t>(y + s.ImageDesc.Top) *
                                           static_cast<std::size_t>(gif->SWidth) +
                                       static_cast<std::size_t>(x + s.ImageDesc.Left)) *
                                      3;
                rgb[o] = c.Red, rgb[o + 1] = c.Green, rgb[o + 2] = c.Blue;
            }
    }
    return rgb;
}

TEST_F(Pictures, GifHasOneFramePerStepAndLooksLikeThePictures) {
    const auto m = test::trace(test::request(Algorithm::ReduceTree, test::seq(32), 8));
    const std::vector<std::size_t> run = run_frames(*m, 0);
    ASSERT_EQ(run.size(), m->steps().size());
    std::vector<render::Image> pictures;
    {
        GifWriter gif(file("run.gif"), 480, 300);
        for (std::size_t i = 0; i < run.size(); ++i) {
            pictures.push_back(draw(*m, run[i]));
            gif.add(pictures.back(), i + 1 == run.size() ? kLastStepDelayCs : kStepDelayCs);
            EXPECT_FALSE(fs::exists(file("run.gif"))) << "only the .part file until finish()";
        }
        gif.finish();
    }
    EXPECT_EQ(listing(), std::vector<std::string>{"run.gif"});

    int error = 0;
    GifFileType* gif = DGifOpenFileName(file("run.gif").c_str(), &error);
    ASSERT_NE(gif, nullptr) << error;
    ASSERT_EQ(DGifSlurp(gif), GIF_OK) << gif->Error;
    EXPECT_EQ(gif->SWidth, 480);
    EXPECT_EQ(gif->SHeight, 300);
    ASSERT_EQ(gif->ImageCount, static_cast<int>(run.size()));
    for (int i = 0; i < gif->ImageCount; ++i) {
        GraphicsControlBlock gcb;
        ASSERT_EQ(DGifSavedExtensionToGCB(gif, i, &gcb), GIF_OK);
        EXPECT_EQ(gcb.DelayTime, i + 1 == gif->ImageCount ? kLastStepDelayCs : kStepDelayCs);
    }
    // Later frames store only what changed, and the whole still reads as the pictures did:
    // the flat colours exact to a level or two, anti-aliased edges close.
    EXPECT_LT(gif->SavedImages[1].ImageDesc.Width * gif->SavedImages[1].ImageDesc.Height,
              480 * 300);
    for (const int i : {0, gif->ImageCount / 2, gif->ImageCount - 1}) {
        const std::vector<std::uint8_t> rgb = composite(gif, i);
        const render::Image& want = pictures[static_cast<std::size_t>(i)];
        double total = 0;
        std::size_t far = 0;
        for (std::size_t p = 0; p < rgb.size() / 3; ++p)
            for (std::size_t ch = 0; ch < 3; ++ch) {
                const int d = std::abs(int{rgb[p * 3 + ch]} - int{want.rgba[p * 4 + ch]});
                total += d;
                far += d > 24;
            }
        EXPECT_LT(total / static_cast<double>(rgb.size()), 1.0) << "frame " << i;
        EXPECT_LT(static_cast<double>(far) / static_cast<double>(rgb.size()), 0.002)
            << "frame " << i;
    }
    DGifCloseFile(gif, &error);
}

TEST_F(Scratch, GifFailuresLeaveNothingBehind) {
    EXPECT_THROW(GifWriter(file("missing/x.gif"), 64, 64), std::runtime_error);
    {
        GifWriter gif(file("x.gif"), 64, 64);
        EXPECT_THROW(gif.add(render::Image{32, 32, std::vector<std::uint8_t>(32 * 32 * 4)}, 10),
                     std::runtime_error)
            << "a frame of the wrong size";
        EXPECT_THROW(gif.finish(), std::runtime_error) << "a GIF of no frames";
    }
    {
        GifWriter abandoned(file("y.gif"), 64, 64);
        abandoned.add(render::Image{64, 64, std::vector<std::uint8_t>(64 * 64 * 4, 200)}, 10);
    }
    EXPECT_TRUE(listing().empty());
}

TEST_F(Scratch, RenderGifOfARun) {
    const Outcome r = render("--algo reduce-tree --n 16 --block 8 --width 320 --height 200 "
                             "--gif t.gif --delay 500");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(listing(), std::vector<std::string>{"t.gif"});
    int error = 0;
    GifFileType* gif = DGifOpenFileName(file("t.gif").c_str(), &error);
    ASSERT_NE(gif, nullptr) << error;
    ASSERT_EQ(DGifSlurp(gif), GIF_OK) << gif->Error;
    EXPECT_EQ(gif->SWidth, 320);
    EXPECT_EQ(gif->SHeight, 200);
    const auto m = test::trace(test::request(Algorithm::ReduceTree, test::seq(16), 8));
    EXPECT_EQ(gif->ImageCount, static_cast<int>(m->steps().size()));
    GraphicsControlBlock gcb;
    ASSERT_EQ(DGifSavedExtensionToGCB(gif, 0, &gcb), GIF_OK);
    EXPECT_EQ(gcb.DelayTime, 50);
    DGifCloseFile(gif, &error);
}

} // namespace
} // namespace pplab::exporting
