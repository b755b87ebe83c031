#include "palette.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace pplab::scene {

namespace {

constexpr Rgba rgb(unsigned hex, float a = 1.0f) {
    return {static_cast<float>((hex >> 16) & 0xFF) / 255.0f,
            static_cast<float>((hex >> 8) & 0xFF) / 255.0f, static_cast<float>(hex & 0xFF) / 255.0f,
            a};
}

// Okabe & Ito (2008), "Color Universal Design".
constexpr Rgba kOrange = rgb(0xE69F00);
constexpr Rgba kSkyBlue = rgb(0x56B4E9);
constexpr Rgba kBlue = rgb(0x0072B2);
constexpr Rgba kVermillion = rgb(0xD55E00);
// Paul Tol's vibrant magenta: apart from Okabe & Ito's accents already in use.
constexpr Rgba kMagenta = rgb(0xEE3377);
// Paul Tol's muted indigo and sand, where Okabe & Ito's reddish purple and yellow come too
// close to their orange (the written cells) for a tritanope and a deuteranope
// (tests/gui/scene_test.cpp, LegendColoursAreDistinctInEveryView).
constexpr Rgba kIndigo = rgb(0x332288);
constexpr Rgba kSand = rgb(0xDDCC77);
// A student's right and wrong values sit beside a view's own entries. Okabe & Ito's bluish
// green and vermillion came within 7 of the pitfalls' magenta (deuteranopia), 16 of the sky
// blue (tritanopia) and 18 of the written cells' orange (deuteranopia): a green dark on the
// light background and pale on the dark one, and a crimson, stay over 21 from every entry
// (tests/gui/scene_test.cpp, CheckedHandTraceColoursAreDistinctInEveryView).
constexpr Rgba kCrimson = rgb(0xE6003C);

// Nine samples of matplotlib's viridis, interpolated linearly.
constexpr std::array<Rgba, 9> kViridis = {rgb(0x440154), rgb(0x472D7B), rgb(0x3B528B),
                                          rgb(0x2C728E), rgb(0x21918C), rgb(0x28AE80),
                                          rgb(0x5EC962), rgb(0xADDC30), rgb(0xFDE725)};

} // namespace

Palette palette(Theme theme) {
    Palette p;
    if (theme == Theme::Light) {
        p.background = rgb(0xFAFAF7);
        p.panel = rgb(0xEEF0F3);
        p.panel_border = rgb(0xD5D9DF);
        p.text = rgb(0x1D232B);
        p.muted = rgb(0x6B7480);
        p.cell = rgb(0xFFFFFF);
        p.cell_border = rgb(0x9AA3AE);
        p.cell_text = rgb(0x111418);
        p.future = rgb(0xC9CED6);
        p.active = mix(kSkyBlue, rgb(0xFFFFFF), 0.55f);
        p.highlight = kOrange;
        p.read = kBlue;
        p.idle_warp = rgb(0xA0A6AE); // darker than the earlier-written cells' pale blue
        p.keeps_own = kIndigo;
        p.arrow = kBlue;
        p.arrow_own = rgb(0x8C96A3);
        p.arrow_past = rgb(0xC2C8D0);
        // Apart from the working threads' blue and the written cells' orange in one view.
        p.carry = kIndigo;
        p.left_sum = kSkyBlue;
        p.inclusive = kBlue;
        p.barrier = rgb(0x4A5260);
        p.selection = kVermillion;
        p.right = rgb(0x145500);
    } else {
        p.background = rgb(0x15191F);
        p.panel = rgb(0x1F252D);
        p.panel_border = rgb(0x313943);
        p.text = rgb(0xE8ECF1);
        p.muted = rgb(0x98A2AE);
        p.cell = rgb(0x2A313A);
        p.cell_border = rgb(0x5C6673);
        p.cell_text = rgb(0xF2F4F7);
        p.future = rgb(0x3A434E);
        p.active = mix(kBlue, rgb(0x2A313A), 0.2f); // apart from the pitfalls' magenta
        p.highlight = kOrange;
        p.read = kSkyBlue;
        p.idle_warp = rgb(0x3A3F46);
        p.keeps_own = rgb(0xF2F4F7); // indigo is lost on the dark background
        p.arrow = kSkyBlue;
        p.arrow_own = rgb(0x7D8896);
        p.arrow_past = rgb(0x46505C);
        p.carry = p.keeps_own;
        p.left_sum = kSand;
        p.inclusive = kSkyBlue; // kBlue is too dark on the dark background
        p.barrier = rgb(0xB8C0CA);
        p.selection = kOrange;
        p.right = rgb(0xA5E1AA);
    }
    p.race = p.hazard = p.never_added = kMagenta;
    p.undefined = p.aggregate = kSand;
    p.wrong = kCrimson;
    return p;
}

std::string_view theme_id(Theme theme) {
    return theme == Theme::Light ? "light" : "dark";
}

Rgba viridis(float t) {
    if (!(t > 0.0f))
        return kViridis.front();
    if (t >= 1.0f)
        return kViridis.back();
    const float x = t * static_cast<float>(kViridis.size() - 1);
    const auto i = static_cast<std::size_t>(std::floor(x));
    return mix(kViridis[i], kViridis[i + 1], x - static_cast<float>(i));
}

Rgba value_scale(float t) {
    constexpr float kFrom = 0.45f;
    return viridis(kFrom + (1.0f - kFrom) * std::clamp(t, 0.0f, 1.0f));
}

Rgba text_on(const Rgba& fill) {
    const float luma = 0.2126f * fill.r + 0.7152f * fill.g + 0.0722f * fill.b;
    return luma > 0.5f ? rgb(0x111418) : rgb(0xFFFFFF);
}

} // namespace pplab::scene
