#include "floating_window.hpp"

#include <imgui.h>

namespace pplab::ui {

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
    ImGui::End();
}

} // namespace pplab::ui
