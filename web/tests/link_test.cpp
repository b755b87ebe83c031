// The page's address read into the window's settings (web/src/link.hpp), under Node.
#include "link.hpp"

#include "pplab/request.hpp"

#include <gtest/gtest.h>

namespace pplab::web {
namespace {

TEST(Link, TheCommandLinesOptionsSetTheWindow) {
    const Link l = read_link("?algo=scan-blelloch&input=1%2C2,3+4&step=6&inclusive&theme=dark"
                             "&scale=150&camera=fit&shown-block=2",
                             ui::Settings{});
    EXPECT_TRUE(l.errors.empty()) << l.errors.front();
    EXPECT_EQ(l.settings.algorithm, Algorithm::ScanBlelloch);
    EXPECT_EQ(l.settings.input, ui::InputMode::List);
    EXPECT_EQ(l.settings.list, "1,2,3 4"); // %2C and + decoded as a browser encodes them
    EXPECT_TRUE(l.settings.inclusive);
    EXPECT_EQ(l.step, 6);
    EXPECT_EQ(l.shown_block, 2);
    EXPECT_EQ(l.theme, scene::Theme::Dark);
    EXPECT_EQ(l.scale_percent, 150);
    EXPECT_TRUE(l.fit);
    EXPECT_FALSE(l.picture);
}

TEST(Link, TheAlgorithmComesFirstWhereverItIsWritten) {
    // switch_algorithm resets what the new kernel cannot take; the block given with it stays.
    const Link l =
        read_link("block=64&n=300&bins=16&gen=skewed&algo=hist-privatised", ui::Settings{});
    EXPECT_TRUE(l.errors.empty());
    EXPECT_EQ(l.settings.algorithm, Algorithm::HistPrivatised);
    EXPECT_EQ(l.settings.block, 64);
    EXPECT_EQ(l.settings.n, 300);
    EXPECT_EQ(l.settings.bins, 16);
    EXPECT_EQ(l.settings.generator, Generator::Skewed);
    EXPECT_EQ(l.settings.input, ui::InputMode::Generator);
}

TEST(Link, WhatCannotBeReadIsNamedAndLeftAtItsDefault) {
    const ui::Settings defaults;
    const Link l = read_link("n=abc&block=2048&algo=nope&colour=red&view=slides&step=0", defaults);
    ASSERT_EQ(l.errors.size(), 6u);
    EXPECT_NE(l.errors[0].find("unknown algorithm 'nope'"), std::string::npos) << l.errors[0];
    EXPECT_EQ(l.errors[1], "the address's n=abc is not a whole number");
    EXPECT_EQ(l.errors[2], "the address's block=2048 is out of range: block is 1 to 1024");
    EXPECT_NE(l.errors[3].find("'colour', which the page does not know"), std::string::npos);
    EXPECT_EQ(l.errors[4], "the address's view=slides is neither window nor picture");
    EXPECT_EQ(l.errors[5], "the address's step=0 is out of range: step is 1 to 2147483647");
    EXPECT_EQ(l.settings, defaults);
    EXPECT_EQ(l.step, 0);
}

TEST(Link, APictureTakesRendersSizes) {
    const Link l = read_link("view=picture&width=640&height=64", ui::Settings{});
    EXPECT_TRUE(l.errors.empty());
    EXPECT_TRUE(l.picture);
    EXPECT_EQ(l.width, 640);
    EXPECT_EQ(l.height, 64);
    const Link sized = read_link("size=1920x1080", ui::Settings{});
    EXPECT_EQ(sized.width, 1920);
    EXPECT_EQ(sized.height, 1080);
    EXPECT_EQ(read_link("width=63", ui::Settings{}).errors.size(), 1u);
    EXPECT_EQ(read_link("size=1920", ui::Settings{}).errors.front(),
              "the address's size=1920 is not WIDTHxHEIGHT in pixels, e.g. 1600x1000");
}

// A picture starts from `pplab render`'s defaults (the chapter's block, 256 bins), whatever the
// window's are (a block of 8, 16 bins): a link without them drew another picture than the
// command it mirrors. What the link gives still wins; the window keeps its own defaults.
TEST(Link, APictureStartsFromRendersDefaults) {
    const Link picture = read_link("algo=hist-global&n=300&view=picture", ui::Settings{});
    EXPECT_TRUE(picture.errors.empty());
    EXPECT_EQ(picture.settings.block, 0); // the algorithm's own, as the command line's
    EXPECT_EQ(picture.settings.bins, 256);
    EXPECT_EQ(normalize(picture.settings.request()).block, 256); // the chapter's
    const Link given = read_link("view=picture&block=16&bins=8&algo=hist-global", ui::Settings{});
    EXPECT_EQ(given.settings.block, 16);
    EXPECT_EQ(given.settings.bins, 8);
    const Link window = read_link("algo=hist-global&n=300", ui::Settings{});
    EXPECT_EQ(window.settings.block, ui::Settings{}.block);
    EXPECT_EQ(window.settings.bins, ui::Settings{}.bins);
}

// `frame` (the issue's own example) is said in the transport's words; a size's side that is out
// of range is named with the size asked for.
TEST(Link, FrameAndSizeAreSaidInTheWindowsWords) {
    const Link frame = read_link("algo=scan-blelloch&input=1,2,3,4&frame=5", ui::Settings{});
    ASSERT_EQ(frame.errors.size(), 1u);
    EXPECT_EQ(frame.errors.front(), "the address asks for 'frame': a link names a step as the "
                                    "window's transport counts them, step=5");
    EXPECT_EQ(frame.step, 0);
    const Link size = read_link("view=picture&size=9000x64", ui::Settings{});
    ASSERT_EQ(size.errors.size(), 1u);
    EXPECT_EQ(size.errors.front(),
              "the address's size=9000x64 has a width of 9000: each side is 64 to 8192 pixels");
    EXPECT_EQ(read_link("size=640x7", ui::Settings{}).errors.front(),
              "the address's size=640x7 has a height of 7: each side is 64 to 8192 pixels");
}

TEST(Link, TheTabTheColumnOpensOn) {
    EXPECT_EQ(read_link("algo=reduce-tree", ui::Settings{}).tab, Tab::Source);
    EXPECT_EQ(read_link("tab=classroom", ui::Settings{}).tab, Tab::Classroom);
    EXPECT_EQ(read_link("tab=your-kernel", ui::Settings{}).tab, Tab::YourKernel);
    const Link l = read_link("tab=editor", ui::Settings{});
    EXPECT_EQ(l.tab, Tab::Source);
    ASSERT_EQ(l.errors.size(), 1u);
    EXPECT_EQ(l.errors.front(),
              "the address's tab=editor is none of source, classroom and your-kernel");
}

} // namespace
} // namespace pplab::web
