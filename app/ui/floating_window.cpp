#include "floating_window.hpp"

#include <imgui.h>

#include <algorithm>

namespace pplab::ui {

namespace {

// The window's title bar (its name, its close box) under the menu bar and its left edge on the
// screen: the Export window, centred on a third of the height, rose above the screen's top in
// 1280x720 at 200%, its first choice under the menu bar and no way to close it.
void keep_title_on_screen() {
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float top = ImGui::GetFrameHeight(); // the menu bar
    const ImVec2 kept{std::clamp(pos.x, 0.0f, std::max(0.0f, display.x - size.x)),
                      std::clamp(pos.y, top, std::max(top, display.y - size.y))};
    if (kept.x != pos.x || kept.y != pos.y)
        ImGui::SetWindowPos(kept);
}

} // namespace

void floating_window(const char* title, bool* open, scene::Theme theme,
                     const std::function<void()>& contents, bool fit) {
    if (ImGui::Begin(title, open,
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse |
                         (fit ? ImGuiWindowFlags_AlwaysAutoResize : 0))) {
        const scene::Palette pal = scene::palette(theme);
        ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(pal.panel.r, pal.panel.g, pal.panel.b, 1));
        contents();
        ImGui::PopStyleColor();
    }
    keep_title_on_screen();
    ImGui::End();
}

} // namespace pplab::ui
