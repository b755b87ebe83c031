// The panels that show, rather than edit: counters, source, header.
#include "panels.hpp"

#include "pplab/stats.hpp"

#include <imgui.h>

#include <cinttypes>
#include <string>

namespace pplab::ui {

namespace {

ImVec4 to_imgui(const scene::Rgba& c, float alpha = 1.0f) {
    return {c.r, c.g, c.b, c.a * alpha};
}
ImU32 to_u32(const scene::Rgba& c, float alpha = 1.0f) {
    return ImGui::GetColorU32(to_imgui(c, alpha));
}

} // namespace

void CountersPanel::draw(const State& st) {
    ImGui::TextDisabled("Counters, so far");
    ImGui::Separator();
    if (!st.model)
        return;
    const scene::Model& m = *st.model;
    const std::size_t frame = st.frame();
    const scene::StepGroup& g = m.steps().at(static_cast<std::size_t>(st.playback.step));
    // Through the whole step (every block has done it), and what this step added.
    const Counters& total = m.cost_through(static_cast<std::size_t>(g.last));
    const Counters before =
        g.first > 0 ? m.cost_through(static_cast<std::size_t>(g.first - 1)) : Counters{};
    const Counters step = scene::difference(total, before);
    const std::pair<const char*, std::int64_t Counters::*> rows[] = {
        {"barriers", &Counters::barriers},
        {"shared reads", &Counters::shared_reads},
        {"shared writes", &Counters::shared_writes},
        {"shuffles", &Counters::shuffles},
        {"shared atomics", &Counters::shared_atomics},
        {"global atomics", &Counters::global_atomics},
        {"global reads", &Counters::global_reads},
        {"global writes", &Counters::global_writes},
        {"additions", &Counters::additions},
    };
    const scene::Palette pal = scene::palette(st.view.theme);
    if (ImGui::BeginTable("counters", 3, ImGuiTableFlags_SizingStretchProp)) {
        for (const auto& [name, field] : rows) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(name);
            ImGui::TableNextColumn();
            ImGui::Text("%" PRId64, total.*field);
            ImGui::TableNextColumn();
            if (step.*field != 0)
                ImGui::TextColored(to_imgui(pal.read), "+%" PRId64, step.*field);
        }
        ImGui::EndTable();
    }
    const Frame& f = m.trace().frames.at(frame);
    const int so_far = barriers_so_far(m.trace(), frame);
    const Summary summary = summarize(m.trace());
    if (f.block >= 0)
        ImGui::TextDisabled("block %d has passed %d of %d barriers", f.block, so_far,
                            summary.barriers_per_block);
}

void SourcePanel::draw(const State& st) {
    if (!st.model)
        return;
    const Algorithm a = st.model->request().algorithm;
    if (algorithm_ != a) {
        listing_ = listing(a);
        algorithm_ = a;
        scrolled_for_step_ = -1;
    }
    const Step now = st.model->steps().at(static_cast<std::size_t>(st.playback.step)).step;
    const scene::Palette pal = scene::palette(st.view.theme);
    ImGui::TextDisabled("%s", (std::string(info(a).id) + ".cu, the chapter's kernel").c_str());
    ImGui::Separator();
    ImGui::BeginChild("source", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(st.fonts.mono);
    const float line_h = ImGui::GetTextLineHeightWithSpacing();
    int first_hit = -1;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (std::size_t i = 0; i < listing_.lines.size(); ++i) {
        const bool hot = listing_.runs(i, now);
        if (hot) {
            if (first_hit < 0)
                first_hit = static_cast<int>(i);
            const ImVec2 p = ImGui::GetCursorScreenPos();
            dl->AddRectFilled(
                ImVec2(p.x - 4, p.y - 1),
                ImVec2(p.x + ImGui::GetWindowWidth() + ImGui::GetScrollX(), p.y + line_h - 1),
                to_u32(pal.highlight, 0.3f));
            dl->AddRectFilled(ImVec2(p.x - 4, p.y - 1), ImVec2(p.x - 1, p.y + line_h - 1),
                              to_u32(pal.highlight));
        }
        ImGui::TextColored(to_imgui(pal.muted, 0.8f), "%2zu", i + 1);
        ImGui::SameLine();
        const std::string& text = listing_.lines[i];
        const bool comment = text.find_first_not_of(' ') != std::string::npos &&
                             text.compare(text.find_first_not_of(' '), 2, "//") == 0;
        if (comment)
            ImGui::TextColored(to_imgui(pal.muted), "%s", text.c_str());
        else
            ImGui::TextUnformatted(text.c_str());
    }
    // Bring the step's lines into view once per step, not while the user scrolls.
    if (first_hit >= 0 &&
        (scrolled_for_step_ != st.playback.step || scrolled_for_model_ != st.model.get())) {
        ImGui::SetScrollY(std::max(0.0f, static_cast<float>(first_hit) * line_h -
                                             ImGui::GetWindowHeight() * 0.3f));
        scrolled_for_step_ = st.playback.step;
        scrolled_for_model_ = st.model.get();
    }
    ImGui::PopFont();
    ImGui::EndChild();
}

void HeaderPanel::draw(State& st) {
    const scene::Palette pal = scene::palette(st.view.theme);
    if (!st.note.empty() && !st.note_dismissed) {
        ImGui::PushStyleColor(ImGuiCol_ChildBg, to_imgui(pal.highlight, 0.22f));
        const ImGuiStyle& style = ImGui::GetStyle();
        const float wrap = ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() * 2 -
                           style.WindowPadding.x * 2;
        const float h = ImGui::CalcTextSize(st.note.c_str(), nullptr, false, wrap).y +
                        style.WindowPadding.y * 2 + 2;
        ImGui::BeginChild("note", ImVec2(0, h), true, ImGuiWindowFlags_NoScrollbar);
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
        ImGui::TextUnformatted(st.note.c_str());
        ImGui::PopTextWrapPos();
        ImGui::SameLine(ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight());
        if (ImGui::Button("×"))
            st.note_dismissed = true;
        ImGui::EndChild();
        ImGui::PopStyleColor();
    }
    if (!st.model) {
        ImGui::PushFont(st.fonts.large);
        ImGui::TextUnformatted(st.error.empty() ? "Tracing…" : "Nothing to show yet");
        ImGui::PopFont();
        return;
    }
    const scene::Model& m = *st.model;
    const AlgorithmInfo& ai = info(m.request().algorithm);
    const std::size_t frame = st.frame();
    ImGui::PushFont(st.fonts.large);
    ImGui::TextUnformatted(ai.title.data(), ai.title.data() + ai.title.size());
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::TextDisabled("%s", std::string(ai.section).c_str());
    ImGui::PushFont(st.fonts.large);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(to_imgui(pal.text), "%s", m.dataflow().caption(frame).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
}

void TransportPanel::draw(State& st) {
    const int steps = st.steps();
    Playback& p = st.playback;
    const float h = ImGui::GetFrameHeight() * 1.25f;
    const ImVec2 button(h * 1.5f, h);
    if (ImGui::Button("|◀##start", button))
        p.go_to(0, steps), p.playing = false;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("first step (Home)");
    ImGui::SameLine();
    if (ImGui::Button("◀ step##back", ImVec2(button.x * 1.6f, h)))
        p.go_to(p.step - 1, steps), p.playing = false;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("step back (Left)");
    ImGui::SameLine();
    if (ImGui::Button(p.playing ? "❚❚ pause##play" : "▶ play##play", ImVec2(button.x * 1.9f, h)))
        p.toggle(steps);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(p.playing ? "pause (Space)" : "play (Space)");
    ImGui::SameLine();
    if (ImGui::Button("step ▶##forward", ImVec2(button.x * 1.6f, h)))
        p.go_to(p.step + 1, steps), p.playing = false;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("step forward, animated (Right)");
    ImGui::SameLine();
    if (ImGui::Button("▶|##end", button))
        p.go_to(steps - 1, steps), p.playing = false;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("last step (End)");
    ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("speed 4.00×").x +
                            ImGui::GetStyle().FramePadding.x * 4);
    ImGui::SliderFloat("##speed", &p.speed, 0.25f, 4.0f, "speed %.2g×",
                       ImGuiSliderFlags_Logarithmic);
    ImGui::SameLine();
    ImGui::Checkbox("loop", &p.loop);

    int shown = p.step + 1;
    std::string label = "step %d of " + std::to_string(std::max(steps, 1));
    if (st.model) {
        const Frame& f = st.model->trace().frames.at(st.frame());
        label += "   ·   " + std::string(step_id(f.step)) +
                 (step_has_levels(f.step) ? " " + std::to_string(f.level) : "");
        if (f.pass > 0)
            label += "   ·   pass " + std::to_string(f.pass);
    }
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderInt("##scrub", &shown, 1, std::max(steps, 1), label.c_str())) {
        p.go_to(shown - 1, steps);
        p.t = 1.0f;
        p.playing = false;
    }
}

} // namespace pplab::ui
