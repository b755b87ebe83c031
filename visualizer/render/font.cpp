#include "font.hpp"

#include <stb_truetype.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pplab::render {

namespace {

constexpr float kBakePx = 48.0f;           // glyph size in the atlas; the distance field scales it
constexpr int kPadding = kDistancePadding; // pixels of distance field around each glyph
constexpr int kAtlasWidth = 1024;

// Printable ASCII and what the captions and labels use beyond it.
std::u32string baked_set() {
    std::u32string s;
    for (char32_t c = 32; c < 127; ++c)
        s.push_back(c);
    s += U"–—−→←↑↓×·…≥≤≠Σ↺§✓✗²";
    return s;
}

std::uint64_t pair_key(char32_t a, char32_t b) {
    return (std::uint64_t{a} << 32) | b;
}

} // namespace

char32_t next_code_point(std::string_view s, std::size_t& i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const int extra = c < 0x80           ? 0
                      : (c >> 5) == 0x6  ? 1
                      : (c >> 4) == 0xE  ? 2
                      : (c >> 3) == 0x1E ? 3
                                         : -1;
    if (extra < 0 || i + static_cast<std::size_t>(extra) >= s.size()) {
        ++i;
        return U'?';
    }
    char32_t cp = extra == 0 ? c : c & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3F);
    i += static_cast<std::size_t>(extra) + 1;
    return cp;
}

std::u32string decode_utf8(std::string_view s) {
    std::u32string out;
    for (std::size_t i = 0; i < s.size();)
        out.push_back(next_code_point(s, i));
    return out;
}

FontAtlas::FontAtlas(std::span<const unsigned char> ttf) {
    stbtt_fontinfo info;
    if (ttf.empty() ||
        !stbtt_InitFont(&info, ttf.data(), stbtt_GetFontOffsetForIndex(ttf.data(), 0)))
        throw std::runtime_error("the UI font is not a TrueType font");
    const float scale = stbtt_ScaleForPixelHeight(&info, kBakePx);
    const float em = kBakePx;
    font_size_ = stbtt_ScaleForPixelHeight(&info, 1) / stbtt_ScaleForMappingEmToPixels(&info, 1);
    const std::u32string set = baked_set();

    struct Baked {
        char32_t c;
        unsigned char* sdf;
        int w, h, xoff, yoff;
    };
    std::vector<Baked> baked;
    for (const char32_t c : set) {
        Baked b{c, nullptr, 0, 0, 0, 0};
        b.sdf = stbtt_GetCodepointSDF(&info, scale, static_cast<int>(c), kPadding, 128,
                                      128.0f / kPadding, &b.w, &b.h, &b.xoff, &b.yoff);
        baked.push_back(b);
    }
    // Shelf packing, tallest first.
    std::vector<std::size_t> order(baked.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return baked[a].h > baked[b].h; });
    struct Spot {
        int x = 0, y = 0;
    };
    std::vector<Spot> spots(baked.size());
    int x = 0, y = 0, shelf = 0;
    for (const std::size_t i : order) {
        if (x + baked[i].w + 1 > kAtlasWidth) {
            x = 0;
            y += shelf + 1;
            shelf = 0;
        }
        spots[i] = {x, y};
        x += baked[i].w + 1;
        shelf = std::max(shelf, baked[i].h);
    }
    width_ = kAtlasWidth;
    height_ = 1;
    while (height_ < y + shelf + 1)
        height_ *= 2;
    pixels_.assign(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_), 0);

    for (std::size_t i = 0; i < baked.size(); ++i) {
        const Baked& b = baked[i];
        int advance = 0, lsb = 0;
        stbtt_GetCodepointHMetrics(&info, static_cast<int>(b.c), &advance, &lsb);
        Glyph g;
        g.advance = static_cast<float>(advance) * scale / em;
        if (b.sdf) {
            for (int row = 0; row < b.h; ++row)
                std::copy_n(b.sdf + static_cast<std::ptrdiff_t>(row) * b.w, b.w,
                            pixels_.begin() +
                                static_cast<std::ptrdiff_t>(spots[i].y + row) * width_ +
                                spots[i].x);
            stbtt_FreeSDF(b.sdf, nullptr);
            g.x0 = static_cast<float>(b.xoff) / em;
            g.y0 = static_cast<float>(b.yoff) / em;
            g.x1 = static_cast<float>(b.xoff + b.w) / em;
            g.y1 = static_cast<float>(b.yoff + b.h) / em;
            g.u0 = static_cast<float>(spots[i].x) / static_cast<float>(width_);
            g.v0 = static_cast<float>(spots[i].y) / static_cast<float>(height_);
            g.u1 = static_cast<float>(spots[i].x + b.w) / static_cast<float>(width_);
            g.v1 = static_cast<float>(spots[i].y + b.h) / static_cast<float>(height_);
        }
        glyphs_[b.c] = g;
    }
    for (const char32_t a : set)
        for (const char32_t b : set) {
            const int k =
                stbtt_GetCodepointKernAdvance(&info, static_cast<int>(a), static_cast<int>(b));
            if (k != 0)
                kerning_[pair_key(a, b)] = static_cast<float>(k) * scale / em;
        }
    ascii_.assign(kAscii, glyphs_.at(U'?'));
    ascii_kerning_.assign(static_cast<std::size_t>(kAscii) * kAscii, 0.0f);
    for (char32_t c = 0; c < kAscii; ++c) {
        if (const auto it = glyphs_.find(c); it != glyphs_.end())
            ascii_[c] = it->second;
        for (char32_t d = 0; d < kAscii; ++d)
            if (const auto k = kerning_.find(pair_key(c, d)); k != kerning_.end())
                ascii_kerning_[c * kAscii + d] = k->second;
    }
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    if (stbtt_GetCodepointBox(&info, '0', &x0, &y0, &x1, &y1))
        digit_height_ = static_cast<float>(y1) * scale / em;
}

const Glyph& FontAtlas::other(char32_t c) const {
    const auto it = glyphs_.find(c);
    return it != glyphs_.end() ? it->second : ascii_[U'?'];
}

float FontAtlas::other_kerning(char32_t a, char32_t b) const {
    const auto it = kerning_.find(pair_key(a, b));
    return it == kerning_.end() ? 0.0f : it->second;
}

float FontAtlas::width(std::string_view utf8) const {
    float w = 0;
    char32_t prev = 0;
    for (std::size_t i = 0; i < utf8.size();) {
        const char32_t c = next_code_point(utf8, i);
        w += glyph(c).advance + (prev ? kerning(prev, c) : 0.0f);
        prev = c;
    }
    return w;
}

} // namespace pplab::render
