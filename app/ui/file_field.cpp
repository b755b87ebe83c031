#include "file_field.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

namespace pplab::ui {

bool file_field(FileChooser& files, const char* id, const char* hint, std::string& path,
                bool* entered) {
    bool chosen = false;
    if (files.chosen && files.chosen->first == id) {
        path = std::move(files.chosen->second);
        files.chosen.reset();
        chosen = true;
    }
    const ImGuiInputTextFlags flags = entered ? ImGuiInputTextFlags_EnterReturnsTrue : 0;
    const auto box = [&] {
        const bool enter = ImGui::InputTextWithHint(id, hint, &path, flags);
        if (entered)
            *entered = enter;
    };
    if (!files.dialog) {
        box();
        return chosen;
    }
    constexpr const char* kChoose = "Choose a file…";
    const ImGuiStyle& style = ImGui::GetStyle();
    const float button = ImGui::CalcTextSize(kChoose).x + style.FramePadding.x * 2;
    ImGui::SetNextItemWidth(
        std::max(ImGui::CalcItemWidth() - button - style.ItemSpacing.x, ImGui::GetFontSize() * 4));
    box();
    ImGui::SameLine();
    if (ImGui::Button((std::string(kChoose) + id).c_str()))
        files.dialog(id);
    return chosen;
}

} // namespace pplab::ui
