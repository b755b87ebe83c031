// The classroom column's tab bar, and its two file tabs: a hand-trace to check, a session
// (a trace with its request) to save or open.
#include "classroom_panel.hpp"
#include "layout.hpp"
#include "panels.hpp"
#include "style.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <string>

namespace pplab::ui {

namespace {

ImVec4 to_imgui(const scene::Rgba& c, float alpha = 1.0f) {
    return {c.r, c.g, c.b, c.a * alpha};
}

struct TabInfo {
    ClassroomTab tab;
    const char* label;
    void (*draw)(State&);
};

constexpr TabInfo kTabs[] = {
    {ClassroomTab::Practice, "Practice", draw_practice},
    {ClassroomTab::HandTrace, "Hand-trace", draw_hand_trace},
    {ClassroomTab::Exercises, "Exercises", draw_exercises},
    {ClassroomTab::Pitfalls, "Pitfalls", draw_pitfalls},
    {ClassroomTab::Determinism, "Determinism", draw_determinism},
    {ClassroomTab::Session, "Session", draw_session},
};

// The hand-trace's levels as `pplab check` would report them.
void verdicts(State& st) {
    const HandTrace& h = st.classroom.hand;
    if (!h.result)
        return;
    const scene::Palette pal = scene::palette(st.view.theme);
    const CheckResult& r = *h.result;
    ImGui::PushFont(st.fonts.large);
    ImGui::TextColored(to_imgui(r.all_right() ? pal.right : pal.wrong), "%s %s",
                       r.all_right() ? "✓" : "✗", r.summary().c_str());
    ImGui::PopFont();
    if (h.model != st.model.get()) {
        paragraph("checked against another trace: check again to compare with this one", true);
        return;
    }
    if (!r.alignment.empty())
        paragraph(r.alignment, true);
    if (r.first_wrong() >= 0) {
        const LevelVerdict& first = r.levels[static_cast<std::size_t>(r.first_wrong())];
        ImGui::Spacing();
        ImGui::TextUnformatted("The first mistake:");
        ImGui::PushStyleColor(ImGuiCol_Text, to_imgui(pal.wrong));
        paragraph(first.explanation);
        ImGui::PopStyleColor();
        if (ImGui::Button("Show the first mistake"))
            hand_trace_show_first_mistake(st);
        ImGui::SameLine();
    }
    if (ImGui::Button("Clear the marks"))
        st.classroom.hand.result.reset();
    ImGui::Spacing();
    if (ImGui::BeginTable("levels", 2, ImGuiTableFlags_SizingStretchProp)) {
        for (const LevelVerdict& v : r.levels) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (v.right)
                ImGui::TextColored(to_imgui(pal.right), "✓");
            else
                ImGui::TextColored(to_imgui(pal.wrong), "✗");
            ImGui::TableNextColumn();
            if (v.right)
                ImGui::Text("line %d  %s", v.line_number, v.label.c_str());
            else
                ImGui::Text("line %d  %s: %zu wrong", v.line_number, v.label.c_str(),
                            v.wrong_cells.size());
        }
        ImGui::EndTable();
    }
}

} // namespace

void heading(const State& st, const char* text) {
    ImGui::PushFont(st.fonts.large);
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
}

void paragraph(const std::string& text, bool muted) {
    ImGui::PushTextWrapPos(0.0f);
    if (muted)
        ImGui::TextDisabled("%s", text.c_str());
    else
        ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
}

void error_line(const State& st, const std::string& text) {
    if (text.empty())
        return;
    ImGui::PushStyleColor(ImGuiCol_Text, to_imgui(scene::palette(st.view.theme).wrong));
    paragraph(text);
    ImGui::PopStyleColor();
}

std::vector<std::string_view> classroom_tab_names() {
    std::vector<std::string_view> names;
    for (const TabInfo& t : kTabs)
        names.emplace_back(t.label);
    return names;
}

namespace {

// The sub-tabs as buttons in the colours of tabs, in as many rows as hold every name whole
// (ImGui's tab bar would scroll them, its arrows over "Determinism", at 150% in 1280x720).
void sub_tabs(Classroom& c, float scale) {
    const Metrics m = metrics(scale);
    std::vector<float> widths;
    for (const TabInfo& t : kTabs)
        widths.push_back(tab_width(m, imgui_text_width(), t.label));
    const float spacing = ImGui::GetStyle().ItemInnerSpacing.x;
    const std::vector<int> rows = tab_rows(widths, ImGui::GetContentRegionAvail().x, spacing);
    const ImGuiStyle& style = ImGui::GetStyle();
    for (std::size_t i = 0; i < std::size(kTabs); ++i) {
        if (i > 0 && rows[i] == rows[i - 1])
            ImGui::SameLine(0, spacing);
        const bool open = c.tab == kTabs[i].tab;
        ImGui::PushStyleColor(ImGuiCol_Button,
                              style.Colors[open ? ImGuiCol_TabActive : ImGuiCol_Tab]);
        ImGui::PushStyleColor(ImGuiCol_ButtonHovered, style.Colors[ImGuiCol_TabHovered]);
        ImGui::PushStyleColor(ImGuiCol_ButtonActive, style.Colors[ImGuiCol_TabActive]);
        if (ImGui::Button(kTabs[i].label, ImVec2(widths[i], 0)))
            c.tab = kTabs[i].tab;
        ImGui::PopStyleColor(3);
    }
    ImGui::Separator();
}

} // namespace

void ClassroomPanel::draw(State& st) {
    Classroom& c = st.classroom;
    determinism_poll(c.runs);
    sub_tabs(c, st.view.presenter_scale);
    c.select_tab = false;
    for (const TabInfo& t : kTabs)
        if (c.tab == t.tab) {
            ImGui::BeginChild(t.label, ImVec2(0, 0), false);
            t.draw(st);
            ImGui::EndChild();
        }
}

void draw_hand_trace(State& st) {
    HandTrace& h = st.classroom.hand;
    heading(st, "Check a hand-trace");
    paragraph("One level per line, as pplab trace prints them: \"downsweep 0: 1 0 3 3\". Labels "
              "are optional; write ? for a value the code leaves undefined. The canvas marks "
              "each checked cell right or wrong.",
              true);
    ImGui::Spacing();
    const float button_w =
        ImGui::CalcTextSize("Read the file").x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - button_w -
                            ImGui::GetStyle().ItemSpacing.x);
    if (file_field(st.files, "##answer_path", "answer file, e.g. exercise3.txt", h.path))
        hand_trace_read(h);
    ImGui::SameLine();
    if (ImGui::Button("Read the file"))
        hand_trace_read(h);
    ImGui::PushFont(st.fonts.mono);
    ImGui::InputTextMultiline("##answer", &h.text,
                              ImVec2(-1, ImGui::GetTextLineHeightWithSpacing() * 8));
    ImGui::PopFont();
    if (ImGui::Button("Check against the trace on screen"))
        hand_trace_check(st);
    ImGui::SameLine();
    if (ImGui::Button("Labels to fill in") && st.model) {
        // The trace's level labels, so a student only writes the values.
        const Trace& t = st.model->trace();
        const LabelParts parts = label_parts(t);
        h.text.clear();
        for (const Frame& f : t.frames)
            h.text += frame_label(f, parts) + ": \n";
    }
    if (ImGui::IsItemHovered())
        tooltip("every level's label, for the values to be written after it");
    error_line(st, h.error);
    ImGui::Spacing();
    verdicts(st);
}

void draw_session(State& st) {
    Classroom& c = st.classroom;
    heading(st, "Save or open a session");
    paragraph("A saved trace holds its request and every level, bit for bit. It opens on a "
              "laptop without a GPU as it was recorded (its back end and device), and is not "
              "traced again until a setting changes.",
              true);
    ImGui::Spacing();
    ImGui::SetNextItemWidth(-1);
    if (file_field(st.files, "##session_path", "file, e.g. lesson8.json", c.session_path))
        session_open(st);
    if (ImGui::Button("Save the trace on screen"))
        session_save(st);
    ImGui::SameLine();
    if (ImGui::Button("Open"))
        session_open(st);
    if (!c.session_message.empty()) {
        if (c.session_error)
            error_line(st, c.session_message);
        else
            paragraph(c.session_message, true);
    }
    ImGui::Spacing();
    ImGui::Spacing();
    heading(st, "A timing report");
    paragraph("What pplab bench --json measured on a GPU: Exercise 4 and the global-atomics "
              "pitfall set their kernels' times side by side.",
              true);
    ImGui::SetNextItemWidth(-1);
    if (file_field(st.files, "##timing_path", "e.g. bench/results/h200-bench.json", c.timing_path))
        timing_read(c);
    if (ImGui::Button("Open the report"))
        timing_read(c);
    error_line(st, c.timing_error);
    if (c.timing)
        paragraph(c.timing->device + ", " + c.timing->date + ": " +
                      std::to_string(c.timing->rows.size()) + " rows",
                  true);
    if (st.model) {
        ImGui::Spacing();
        const Trace& t = st.model->trace();
        paragraph("On screen: " + std::string(info(t.request.algorithm).id) +
                      ", n = " + std::to_string(t.request.n()) + ", recorded by " + t.backend +
                      " (" + t.device + ")",
                  true);
    }
}

} // namespace pplab::ui
