// The window's ImGui style and fonts at a presenter scale, made in one place so that the
// layout's Metrics (layout.hpp) and what ImGui draws agree, and the layout tests can measure
// text with the very fonts the window draws it in (the canvas's atlas lacks some of the
// window's glyphs: "✕", "▣").
#pragma once

#include "scene/palette.hpp"

#include <imgui.h>

#include <span>
#include <string_view>

namespace pplab::ui {

// A font from the binary's embedded TrueType bytes, with the glyphs the window draws beyond
// ASCII, added to the current context's atlas (the caller builds it).
ImFont* add_font(std::span<const unsigned char> ttf, float px);

ImGuiStyle window_style(scene::Theme theme, float scale);

// A text's width as ImGui::CalcTextSize gives it (rounded up to a whole pixel), in `font`
// scaled to `px`: what a button or a checkbox's label takes.
float text_width(const ImFont& font, std::string_view text, float px);

} // namespace pplab::ui
