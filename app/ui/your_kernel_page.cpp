// The "Your kernel" tab in the page (web/): a student's kernel runs in a child process with
// limits (DESIGN.md), which a browser cannot start, so the tab says so plainly and where to go
// instead; the canvas keeps the chapter's kernel. The desktop's tab is your_kernel_panel.cpp.
#include "your_kernel_panel.hpp"

#include "imgui_colors.hpp"

#include <imgui.h>

namespace pplab::ui {

void YourKernelPanel::draw(State& st) {
    const scene::Palette pal = scene::palette(st.view.theme);
    ImGui::PushFont(st.fonts.large);
    ImGui::TextColored(to_imgui(pal.text), "%s", kDesktopOnly);
    ImGui::PopFont();
    ImGui::Spacing();
    ImGui::TextWrapped("%s", kDesktopOnlyWhy);
    ImGui::Spacing();
    ImGui::TextWrapped(
        "In the desktop app (the README's Quick start), this tab holds an editor with "
        "the listing the controls show: Run traces your kernel on this canvas, "
        "finds its races and tells you where it departs from the chapter's. The "
        "same from a terminal:");
    ImGui::PushFont(st.fonts.mono);
    ImGui::TextUnformatted("  pplab listing --algo reduce-tree --out mine.cu\n"
                           "  pplab run --kernel mine.cu --algo reduce-tree --check\n"
                           "  pplab puzzle list");
    ImGui::PopFont();
}

// Nothing runs here: no run to cancel or poll, no drafts, no student's trace to mark.
void drafts_save(const YourKernel&) {}
void your_kernel_cancel(State&) {}
void your_kernel_poll(State&) {}
void your_kernel_settings_changed(State&) {}
void your_kernel_show(State& st, bool open) {
    st.your.tab_open = open;
}
std::vector<scene::HazardMark> hazard_marks(const State&) {
    return {};
}

} // namespace pplab::ui
