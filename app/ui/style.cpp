#include "style.hpp"

#include "layout.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdarg>

namespace pplab::ui {

namespace {

// What the fonts must draw beyond ASCII: the captions' dashes and arrows, §, ×, the
// transport's triangles, the present-mode buttons' "▣" and "✕".
const ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x21FF, 0x2200,
                                0x22FF, 0x25A0, 0x25FF, 0x2700, 0x27BF, 0};

} // namespace

ImFont* add_font(std::span<const unsigned char> ttf, float px) {
    ImFontConfig cfg;
    cfg.FontDataOwnedByAtlas = false; // the bytes are the binary's own, embedded
    cfg.OversampleH = 2;
    return ImGui::GetIO().Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(ttf.data()),
                                                      static_cast<int>(ttf.size()), px, &cfg,
                                                      kGlyphRanges);
}

ImGuiStyle window_style(scene::Theme theme, float scale) {
    ImGuiStyle style;
    if (theme == scene::Theme::Light)
        ImGui::StyleColorsLight(&style);
    else
        ImGui::StyleColorsDark(&style);
    style.WindowRounding = 0;
    style.FrameRounding = 4;
    style.GrabRounding = 4;
    style.WindowPadding = ImVec2(kWindowPaddingX, 10);
    style.FramePadding = ImVec2(kFramePaddingX, kFramePaddingY);
    style.ItemSpacing = ImVec2(kItemSpacingX, kItemSpacingY);
    style.ItemInnerSpacing = ImVec2(kItemInnerSpacing, kItemInnerSpacing);
    style.WindowBorderSize = 0;
    const scene::Palette pal = scene::palette(theme);
    style.Colors[ImGuiCol_WindowBg] =
        ImVec4(pal.background.r, pal.background.g, pal.background.b, 1);
    style.Colors[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);
    style.Colors[ImGuiCol_Text] = ImVec4(pal.text.r, pal.text.g, pal.text.b, 1);
    style.Colors[ImGuiCol_TextDisabled] = ImVec4(pal.muted.r, pal.muted.g, pal.muted.b, 1);
    // Popups and tooltips are opaque: what is under them never shows through their text.
    for (const ImGuiCol c : {ImGuiCol_PopupBg, ImGuiCol_MenuBarBg})
        style.Colors[c].w = 1.0f;
    style.ScaleAllSizes(scale);
    return style;
}

float text_width(const ImFont& font, std::string_view text, float px) {
    const float w = font.CalcTextSizeA(px, FLT_MAX, 0.0f, text.data(), text.data() + text.size()).x;
    return std::floor(w + 0.99999f); // ImGui's own rounding (CalcTextSize)
}

std::vector<std::string> wrap_at_spaces(std::string_view text, float width,
                                        const std::function<float(std::string_view)>& measure) {
    std::vector<std::string> lines;
    std::size_t from = 0;
    for (;;) {
        const std::size_t end = std::min(text.find('\n', from), text.size());
        const std::string_view part = text.substr(from, end - from);
        std::string line;
        for (std::size_t w = 0; w < part.size();) {
            const std::size_t space = std::min(part.find(' ', w), part.size());
            const std::string_view word = part.substr(w, space - w);
            w = space + 1;
            if (word.empty())
                continue;
            const std::string longer =
                line.empty() ? std::string(word) : line + " " + std::string(word);
            if (line.empty() || measure(longer) <= width) {
                line = longer;
            } else {
                lines.push_back(std::move(line));
                line = std::string(word);
            }
        }
        lines.push_back(std::move(line));
        if (end >= text.size())
            return lines;
        from = end + 1;
    }
}

std::vector<std::string> caption_wrapped(const ImFont& font, float px, float width,
                                         std::string_view text) {
    return wrap_at_spaces(text, width, [&](std::string_view piece) {
        return font.CalcTextSizeA(px, FLT_MAX, 0.0f, piece.data(), piece.data() + piece.size()).x;
    });
}

void tooltip(const char* fmt, ...) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(
        std::min(ImGui::GetFontSize() * 28.0f, ImGui::GetIO().DisplaySize.x * 0.8f));
    va_list args;
    va_start(args, fmt);
    ImGui::TextV(fmt, args);
    va_end(args);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

} // namespace pplab::ui
