// The canvas's text: DejaVu Sans baked once into a signed-distance atlas, so one texture
// draws crisp text at every zoom and presenter scale.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace pplab::render {

// The atlas's distance field reaches this many texels round each glyph: its value (0..1, 0.5
// on the outline) changes by 128 / kDistancePadding levels of 255 a texel (the glyph shader's
// DISTANCE_PER_TEXEL).
inline constexpr int kDistancePadding = 5;

// Positions in em (the font size), relative to the pen on the baseline, y down.
struct Glyph {
    float advance = 0;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0; // the quad
    float u0 = 0, v0 = 0, u1 = 0, v1 = 0; // its place in the atlas
};

class FontAtlas {
public:
    // Throws std::runtime_error when the bytes are not a TrueType font.
    explicit FontAtlas(std::span<const unsigned char> ttf);

    const Glyph& glyph(char32_t c) const {
        return c < kAscii ? ascii_[c] : other(c);
    } // '?' if not baked
    float kerning(char32_t a, char32_t b) const {
        return a < kAscii && b < kAscii ? ascii_kerning_[a * kAscii + b] : other_kerning(a, b);
    }
    float width(std::string_view utf8) const;            // em
    float digit_height() const { return digit_height_; } // em, to centre numbers in cells
    // The "em" here is the font's full height (ascent to descent); CSS and SVG's font-size
    // is its em square: this many font-size units per unit of our size.
    float font_size() const { return font_size_; }

    int atlas_width() const { return width_; }
    int atlas_height() const { return height_; }
    const std::vector<std::uint8_t>& pixels() const { return pixels_; }

private:
    // Text is laid out every frame: ASCII, nearly all of it, is looked up in flat tables.
    static constexpr char32_t kAscii = 128;
    const Glyph& other(char32_t c) const;
    float other_kerning(char32_t a, char32_t b) const;

    std::vector<Glyph> ascii_;
    std::vector<float> ascii_kerning_;
    std::unordered_map<char32_t, Glyph> glyphs_;
    std::unordered_map<std::uint64_t, float> kerning_;
    float digit_height_ = 0.7f;
    float font_size_ = 1.0f;
    int width_ = 0, height_ = 0;
    std::vector<std::uint8_t> pixels_;
};

std::u32string decode_utf8(std::string_view s);

// The code point starting at s[i], advancing i past it ('?' for a malformed sequence).
char32_t next_code_point(std::string_view s, std::size_t& i);

} // namespace pplab::render
