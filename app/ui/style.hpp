// The window's ImGui style and fonts at a presenter scale, made in one place so that the
// layout's Metrics (layout.hpp) and what ImGui draws agree, and the layout tests can measure
// text with the very fonts the window draws it in (the canvas's atlas lacks some of the
// window's glyphs: "✕", "▣").
#pragma once

#include "scene/palette.hpp"

#include <imgui.h>

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pplab::ui {

// A font from the binary's embedded TrueType bytes, with the glyphs the window draws beyond
// ASCII, added to the current context's atlas (the caller builds it).
ImFont* add_font(std::span<const unsigned char> ttf, float px);

ImGuiStyle window_style(scene::Theme theme, float scale);

// A text's width as ImGui::CalcTextSize gives it (rounded up to a whole pixel), in `font`
// scaled to `px`: what a button or a checkbox's label takes.
float text_width(const ImFont& font, std::string_view text, float px);

// `text` broken into lines no wider than `width` (as `measure` gives a piece's width) at spaces
// only, never inside a word, a number or an expression ("TILE/2-1" and "0." stay whole); a
// newline always breaks, and a piece wider than `width` has a line of its own.
std::vector<std::string> wrap_at_spaces(std::string_view text, float width,
                                        const std::function<float(std::string_view)>& measure);

// A caption's lines in `font` at `px`, at most `width` wide, broken at spaces only (never
// inside "s[threadIdx.x]", as ImGui's wrapping does after a '.'): the header draws these and
// the layout counts them.
std::vector<std::string> caption_wrapped(const ImFont& font, float px, float width,
                                         std::string_view text);

// ImGui::SetTooltip wrapped at 28 em, and never wider than most of the window: ImGui's own runs
// on one line, off the right edge at 200% (the Run button's).
void tooltip(const char* fmt, ...) IM_FMTARGS(1);

} // namespace pplab::ui
