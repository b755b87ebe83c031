// Practice mode's tab: the hidden level as a grid of editable cells in large type (legible
// from the back of the room), Check / Reveal / Next, the explanations of wrong cells and the
// session's summary.
#include "classroom_panel.hpp"
#include "style.hpp"

#include "pplab/io.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace pplab::ui {

namespace {

constexpr int kColumns = 8;         // cells a row at most: a warp's 32 lanes in four rows
constexpr std::size_t kExplain = 6; // explanations listed before "and N more"

ImVec4 to_imgui(const scene::Rgba& c, float alpha = 1.0f) {
    return {c.r, c.g, c.b, c.a * alpha};
}

std::string value_text(float v) {
    return std::isnan(v) ? std::string("?") : format_value(v);
}

// One frame of the level: its cells, each an input in the large font, tinted by its verdict.
// Returns true when Enter was pressed in a cell (check now).
bool cell_grid(State& st, std::size_t k) {
    PracticeLevel& level = st.classroom.practice.level;
    const scene::Palette pal = scene::palette(st.view.theme);
    const Frame& f = st.model->trace().frames.at(static_cast<std::size_t>(level.frames[k]));
    const bool shown = level.right || level.revealed;
    bool enter = false;
    ImGui::PushFont(st.fonts.large);
    const float cell_w = ImGui::CalcTextSize("-0000").x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::PopFont();
    // As many cells a row as fit (the presenter scale grows them), a power of two at most 8.
    const float fit = (ImGui::GetContentRegionAvail().x + ImGui::GetStyle().ItemSpacing.x) /
                      (cell_w + ImGui::GetStyle().ItemSpacing.x);
    std::size_t columns = kColumns;
    while (columns > 1 && static_cast<float>(columns) > fit)
        columns /= 2;
    for (std::size_t c = 0; c < level.typed[k].size(); ++c) {
        if (c % columns != 0)
            ImGui::SameLine();
        ImGui::BeginGroup();
        ImGui::TextDisabled("%zu", c);
        const scene::Verdict v = level.verdicts[k][c];
        const int colours = v == scene::Verdict::Typed ? 0 : 2;
        if (v != scene::Verdict::Typed) {
            const scene::Rgba& mark = v == scene::Verdict::Right ? pal.right : pal.wrong;
            ImGui::PushStyleColor(ImGuiCol_FrameBg, to_imgui(mix(mark, pal.cell, 0.55f)));
            ImGui::PushStyleColor(ImGuiCol_Border, to_imgui(mark));
        }
        ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize,
                            v == scene::Verdict::Typed ? 1.0f : 3.0f);
        ImGui::PushFont(st.fonts.large);
        ImGui::SetNextItemWidth(cell_w);
        const std::string id = "##cell" + std::to_string(k) + "_" + std::to_string(c);
        const ImGuiInputTextFlags flags = ImGuiInputTextFlags_EnterReturnsTrue |
                                          ImGuiInputTextFlags_AutoSelectAll |
                                          (shown ? ImGuiInputTextFlags_ReadOnly : 0);
        if (ImGui::InputText(id.c_str(), &level.typed[k][c], flags))
            enter = true;
        ImGui::PopFont();
        ImGui::PopStyleVar();
        ImGui::PopStyleColor(colours);
        if (v == scene::Verdict::Wrong && ImGui::IsItemHovered()) {
            tooltip("%s", level.why[k][c].c_str());
        }
        if (shown)
            ImGui::TextColored(to_imgui(v == scene::Verdict::Wrong ? pal.wrong : pal.muted), "= %s",
                               value_text(f.values[c]).c_str());
        ImGui::EndGroup();
    }
    return enter;
}

void summary(const State& st) {
    const Practice& p = st.classroom.practice;
    if (p.done.empty())
        return;
    const scene::Palette pal = scene::palette(st.view.theme);
    ImGui::Spacing();
    ImGui::Separator();
    const int revealed = static_cast<int>(std::count_if(
        p.done.begin(), p.done.end(), [](const PracticeRecord& r) { return r.revealed; }));
    ImGui::PushFont(st.fonts.large);
    ImGui::Text("%d of %zu levels right first time", p.first_time(), p.done.size());
    ImGui::PopFont();
    if (revealed > 0)
        ImGui::TextDisabled("%d revealed", revealed);
    // The latest levels, newest last: what the class has done so far.
    const std::size_t from = p.done.size() > 8 ? p.done.size() - 8 : 0;
    for (std::size_t i = from; i < p.done.size(); ++i) {
        const PracticeRecord& r = p.done[i];
        if (r.first_time)
            ImGui::TextColored(to_imgui(pal.right), "✓");
        else
            ImGui::TextColored(to_imgui(r.revealed ? pal.muted : pal.wrong),
                               r.revealed ? "·" : "✗");
        ImGui::SameLine();
        ImGui::Text("%s%s", r.label.c_str(),
                    r.revealed     ? "  (revealed)"
                    : r.first_time ? ""
                                   : "  (after a retry)");
    }
}

} // namespace

void draw_practice(State& st) {
    Practice& p = st.classroom.practice;
    if (!p.on || !st.model) {
        heading(st, "Practice mode");
        paragraph("The canvas shows a level and hides the next. Type the next level's values, "
                  "then Check: each cell is marked right or wrong, and a wrong one says which "
                  "thread wrote it, in which step, from which cells. Reveal shows the answer.",
                  true);
        ImGui::Spacing();
        if (ImGui::Button("Start practising from this step") && st.model)
            practice_start(st);
        if (ImGui::Button("Exercise 3: Blelloch on [1, 2, 3, 4]"))
            exercise3_practice(st);
        summary(st);
        return;
    }
    PracticeLevel& level = p.level;
    if (level.step < 0) {
        heading(st, "The last step is on screen");
        paragraph("There is no level after it. Step back, or start again from the first level.",
                  true);
        if (ImGui::Button("Start again"))
            practice_level(st, 1);
        ImGui::SameLine();
        if (ImGui::Button("Stop practising"))
            p.on = false;
        summary(st);
        return;
    }
    ImGui::PushFont(st.fonts.large);
    ImGui::Text("Type %s",
                level.labels.size() == 1 ? level.labels.front().c_str() : "the next level");
    ImGui::PopFont();
    paragraph(st.model->caption(static_cast<std::size_t>(level.frames.front())), true);
    error_line(st, level.error);
    if (level.typed.empty()) {
        if (ImGui::Button("Stop practising"))
            p.on = false;
        return;
    }
    ImGui::Spacing();
    bool enter = false;
    for (std::size_t k = 0; k < level.typed.size(); ++k) {
        if (level.typed.size() > 1)
            ImGui::TextUnformatted(level.labels[k].c_str());
        enter = cell_grid(st, k) || enter;
    }
    ImGui::Spacing();
    const bool shown = level.right || level.revealed;
    ImGui::PushFont(st.fonts.large);
    if (!shown) {
        if (ImGui::Button("Check") || enter)
            practice_check(st);
        ImGui::SameLine();
        if (ImGui::Button("Reveal"))
            practice_reveal(st);
    } else if (ImGui::Button("Next level ▶")) {
        practice_next(st);
    }
    ImGui::PopFont();
    if (!shown) {
        ImGui::SameLine();
        if (ImGui::Button("Copy the level above"))
            practice_copy_above(st);
        if (ImGui::IsItemHovered())
            tooltip("fill in the values before this step: threads that do not work "
                    "keep theirs");
    }
    ImGui::SameLine();
    if (ImGui::Button("Stop"))
        p.on = false;

    const scene::Palette pal = scene::palette(st.view.theme);
    if (level.right) {
        ImGui::PushFont(st.fonts.large);
        ImGui::TextColored(to_imgui(pal.right),
                           level.attempts == 1 ? "✓ Right first time" : "✓ Right");
        ImGui::PopFont();
    }
    // Each wrong cell, explained in the kernel's terms.
    std::size_t listed = 0, wrong = 0;
    for (std::size_t k = 0; k < level.why.size(); ++k)
        for (std::size_t c = 0; c < level.why[k].size(); ++c) {
            if (level.verdicts[k][c] != scene::Verdict::Wrong)
                continue;
            ++wrong;
            if (listed == kExplain)
                continue;
            ++listed;
            ImGui::Spacing();
            // The first mistake in large type: the class reads it together.
            ImGui::PushFont(listed == 1 ? st.fonts.large : st.fonts.regular);
            ImGui::PushStyleColor(ImGuiCol_Text, to_imgui(pal.wrong));
            paragraph("✗ " + level.why[k][c]);
            ImGui::PopStyleColor();
            ImGui::PopFont();
        }
    if (wrong > listed)
        ImGui::TextDisabled("and %zu more wrong cells (hover a cell for its explanation)",
                            wrong - listed);
    summary(st);
}

} // namespace pplab::ui
