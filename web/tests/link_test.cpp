// The page's address read into the window's settings (web/src/link.hpp), under Node.
#include "link.hpp"

#include <gtest/gtest.h>

namespace pplab::web {
namespace {

TEST(Link, TheCommandLinesOptionsSetTheWindow) {
    const Link l = read_link("?algo=scan-blelloch&input=1%2C2,3+4&frame=5&inclusive&theme=dark"
                             "&scale=150&camera=fit",
                             ui::Settings{});
    EXPECT_TRUE(l.errors.empty()) << l.errors.front();
    EXPECT_EQ(l.settings.algorithm, Algorithm::ScanBlelloch);
    EXPECT_EQ(l.settings.input, ui::InputMode::List);
    EXPECT_EQ(l.settings.list, "1,2,3 4"); // %2C and + decoded as a browser encodes them
    EXPECT_TRUE(l.settings.inclusive);
    EXPECT_EQ(l.frame, 5);
    EXPECT_EQ(l.theme, scene::Theme::Dark);
    EXPECT_FLOAT_EQ(l.scale, 1.5f);
    EXPECT_TRUE(l.fit);
    EXPECT_FALSE(l.picture);
}

TEST(Link, TheAlgorithmComesFirstWhereverItIsWritten) {
    // switch_algorithm resets what the new kernel cannot take; the block given with it stays.
    const Link l = read_link("block=64&n=300&bins=16&gen=skewed&algo=hist-privatised",
                             ui::Settings{});
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
    const Link l = read_link("n=abc&block=2048&algo=nope&colour=red&view=slides&frame=-1",
                             defaults);
    ASSERT_EQ(l.errors.size(), 6u);
    EXPECT_NE(l.errors[0].find("unknown algorithm 'nope'"), std::string::npos) << l.errors[0];
    EXPECT_EQ(l.errors[1], "the address's n=abc is not a whole number");
    EXPECT_EQ(l.errors[2], "the address's block=2048 is out of range: block is 1 to 1024");
    EXPECT_NE(l.errors[3].find("'colour', which the page does not know"), std::string::npos);
    EXPECT_EQ(l.errors[4], "the address's view=slides is neither window nor picture");
    EXPECT_EQ(l.errors[5], "the address's frame=-1 is out of range: frame is 0 to 2147483647");
    EXPECT_EQ(l.settings, defaults);
    EXPECT_EQ(l.frame, -1);
}

TEST(Link, APictureTakesRendersSizes) {
    const Link l = read_link("view=picture&width=640&height=64", ui::Settings{});
    EXPECT_TRUE(l.errors.empty());
    EXPECT_TRUE(l.picture);
    EXPECT_EQ(l.width, 640);
    EXPECT_EQ(l.height, 64);
    EXPECT_EQ(read_link("width=63", ui::Settings{}).errors.size(), 1u);
}

} // namespace
} // namespace pplab::web
