// The window's own fonts (ImGui's, from the embedded TrueType, with the window's glyph ranges)
// at every presenter scale the View menu offers, in an ImGui context of their own: the layout
// tests measure text as the window does. The canvas's atlas has no "✕" or "▣" and measured
// them narrower than the window draws them.
#pragma once

#include "layout.hpp"

#include <imgui.h>

#include <string_view>
#include <vector>

namespace pplab::test {

class WindowFonts {
public:
    WindowFonts();
    ~WindowFonts();
    WindowFonts(const WindowFonts&) = delete;
    WindowFonts& operator=(const WindowFonts&) = delete;

    // As App measures: with the font of that size (regular, large or small at some scale), or
    // failing that the nearest one scaled to it.
    float width(std::string_view text, float px) const;
    // Lines `text` wraps to in `wrap_width` pixels, as App::caption_lines counts them.
    int lines(std::string_view text, float px, float wrap_width) const;
    ui::TextWidth measure() const;

    // The context, with the regular font of `scale` current (for a frame drawn headless).
    ImGuiContext* context() const { return context_; }
    ImFont* regular(float scale) const;

private:
    const ImFont* nearest(float px) const;
    ImGuiContext* context_;
    std::vector<ImFont*> fonts_;
};

// The one instance (a font atlas at ten scales takes a moment to build).
const WindowFonts& window_fonts();

} // namespace pplab::test
