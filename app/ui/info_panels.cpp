// The panels that show, rather than edit: counters, source, header.
#include "imgui_colors.hpp"
#include "panels.hpp"
#include "style.hpp"

#include "pplab/stats.hpp"

#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <string>

namespace pplab::ui {

void CountersPanel::draw(const State& st) {
    ImGui::TextDisabled("Counters, so far");
    ImGui::Separator();
    if (!st.model)
        return;
    const scene::Model& m = *st.model;
    const std::size_t frame = st.frame();
    // Through the whole step (every block has done it), and what this step added: the same
    // function gives the pictures' counters.
    const Counters& total = m.counters_at(st.playback.step);
    const Counters step = m.step_counters(st.playback.step);
    const scene::Palette pal = scene::palette(st.view.theme);
    if (ImGui::BeginTable("counters", 3, ImGuiTableFlags_SizingStretchProp)) {
        for (const auto& [name, id, field] : counter_fields()) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(name.data(), name.data() + name.size());
            ImGui::TableNextColumn();
            ImGui::Text("%" PRId64, total.*field);
            ImGui::TableNextColumn();
            if (step.*field != 0)
                ImGui::TextColored(to_imgui(pal.read), "+%" PRId64, step.*field);
        }
        ImGui::EndTable();
    }
    const Frame& f = m.trace().frames.at(frame);
    ImGui::PushTextWrapPos(0.0f); // at 125% in 1280x720 the line ran past the column's edge
    if (m.barriers_per_block() == 0)
        ImGui::TextDisabled("no __syncthreads() in this kernel");
    else if (f.block >= 0)
        ImGui::TextDisabled("block %d has passed %d of %d barriers", f.block,
                            m.barriers_so_far(frame), m.barriers_per_block());
    ImGui::PopTextWrapPos();
}

void HeaderPanel::draw(State& st, const WindowLayout& l) {
    const scene::Palette pal = scene::palette(st.view.theme);
    ImGui::SetCursorScreenPos(ImVec2(l.caption.x, l.caption.y));
    ImFont* font = l.caption_font == st.fonts.large->FontSize   ? st.fonts.large
                   : l.caption_font == st.fonts.small->FontSize ? st.fonts.small
                                                                : st.fonts.regular;
    ImGui::PushFont(font);
    // The caption's box keeps its height whatever the step says: the canvas never jumps.
    ImGui::BeginChild("caption", ImVec2(l.caption.w, l.caption.h), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                          ImGuiWindowFlags_NoInputs);
    if (!st.model) {
        ImGui::TextUnformatted(st.error.empty() ? "Tracing…" : "Nothing to show yet");
    } else {
        // Broken at spaces only, as the height was measured (ImGui's own wrapping breaks after
        // a '.' too: "s[threadIdx." and "x]" at 150%).
        const std::string caption = glue_last_word(st.model->caption(st.frame()));
        // One text of its lines: its lines a font's height apart, as the height was measured.
        std::string lines;
        for (const std::string& line : caption_wrapped(*font, font->FontSize, l.caption.w, caption))
            lines += (lines.empty() ? "" : "\n") + line;
        ImGui::PushStyleColor(ImGuiCol_Text, to_imgui(pal.text));
        ImGui::TextUnformatted(lines.c_str());
        ImGui::PopStyleColor();
    }
    ImGui::EndChild();
    ImGui::PopFont();
}

namespace {

// The transport's buttons: a symbol each (the tooltip and the Help window say the key).
struct TransportButton {
    const char* label;
    const char* tip;
};
constexpr TransportButton kTransport[] = {
    {"|◀##start", "first step (Home)"}, {"◀##back", "step back (Left)"},
    {"▶##play", "play (Space)"},        {"▶##forward", "step forward, animated (Right)"},
    {"▶|##end", "last step (End)"},
};

float button_width(const State& st) {
    return transport_button_width(metrics(st.view.presenter_scale));
}

float speed_width(const State& st) {
    return transport_speed_width(metrics(st.view.presenter_scale), imgui_text_width());
}

} // namespace

GrabColours hide_slider_grab() {
    const GrabColours grab{ImGui::GetColorU32(ImGuiCol_SliderGrab),
                           ImGui::GetColorU32(ImGuiCol_SliderGrabActive)};
    ImGui::PushStyleColor(ImGuiCol_SliderGrab, IM_COL32(0, 0, 0, 0));
    ImGui::PushStyleColor(ImGuiCol_SliderGrabActive, IM_COL32(0, 0, 0, 0));
    return grab;
}

void slider_foot(float fraction, const GrabColours& grab) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const scene::Rect bar = slider_value_bar({a.x, a.y, b.x - a.x, b.y - a.y}, fraction);
    ImGui::GetWindowDrawList()->AddRectFilled({bar.x, bar.y}, {bar.right(), bar.bottom()},
                                              ImGui::IsItemActive() ? grab.active : grab.idle,
                                              ImGui::GetStyle().FrameRounding,
                                              ImDrawFlags_RoundCornersBottom);
}

TextWidth imgui_text_width() {
    return [](std::string_view text, float px) { return text_width(*ImGui::GetFont(), text, px); };
}

float TransportPanel::one_row_width(const State& st, float scale) {
    return transport_width(metrics(scale > 0 ? scale : st.view.presenter_scale), imgui_text_width(),
                           st.view.present);
}

void TransportPanel::draw(State& st, float width) {
    const bool one_row = one_row_width(st) <= width;
    const int steps = st.steps();
    Playback& p = st.playback;
    const float h = std::round(ImGui::GetFrameHeight() * 1.15f);
    const ImGuiStyle& style = ImGui::GetStyle();
    for (int i = 0; i < 5; ++i) {
        if (i > 0)
            ImGui::SameLine();
        const bool play = i == 2;
        const std::string label =
            play ? (p.playing ? "❚❚##play" : "▶##play") : std::string(kTransport[i].label);
        if (ImGui::Button(label.c_str(), ImVec2(button_width(st) * (play ? 2 : 1), h))) {
            switch (i) {
            case 0:
                p.go_to(0, steps), p.playing = false;
                break;
            case 1:
                p.go_to(p.step - 1, steps), p.playing = false;
                break;
            case 2:
                p.toggle(steps);
                break;
            case 3:
                p.go_to(p.step + 1, steps), p.playing = false;
                break;
            default:
                p.go_to(steps - 1, steps), p.playing = false;
            }
        }
        if (ImGui::IsItemHovered())
            tooltip("%s", play && p.playing ? "pause (Space)" : kTransport[i].tip);
    }
    // The scrub slider: the one numbering of steps, which pictures and `pplab render --step`
    // use too.
    int shown = p.step + 1;
    const std::string name = !st.model ? std::string()
                             : st.step_note.empty() || st.step_note_at != p.step
                                 ? step_name(*st.model, p.step)
                                 : st.step_note;
    const float loop_w = ImGui::GetFrameHeight() + ImGui::CalcTextSize("loop").x +
                         style.ItemInnerSpacing.x + style.ItemSpacing.x;
    const std::string present = present_button(metrics(st.view.presenter_scale), imgui_text_width(),
                                               width, st.view.present);
    const float leave_w = present.empty() ? 0.0f
                                          : ImGui::CalcTextSize(present.c_str()).x +
                                                style.FramePadding.x * 2 + style.ItemSpacing.x;
    const float tail = speed_width(st) + loop_w + leave_w + style.ItemSpacing.x;
    if (one_row)
        ImGui::SameLine(0, style.ItemSpacing.x * 2);
    const float scrub_w = ImGui::GetContentRegionAvail().x - tail;
    // Short of room the step's name goes first (the canvas says it), then words.
    const std::string label =
        scrub_label(metrics(st.view.presenter_scale), imgui_text_width(), steps, name, scrub_w);
    ImGui::SetNextItemWidth(scrub_w);
    ImGui::AlignTextToFramePadding();
    const GrabColours grab = hide_slider_grab();
    if (ImGui::SliderInt("##scrub", &shown, 1, std::max(steps, 1), label.c_str())) {
        p.go_to(shown - 1, steps);
        p.t = 1.0f;
        p.playing = false;
    }
    slider_foot(steps > 1 ? static_cast<float>(shown) / static_cast<float>(steps) : 1.0f, grab);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(speed_width(st));
    ImGui::SliderFloat("##speed", &p.speed, 0.25f, 4.0f, "speed %.2g×",
                       ImGuiSliderFlags_Logarithmic);
    slider_foot(std::log(p.speed / 0.25f) / std::log(16.0f), grab); // 0.25× to 4×, logarithmic
    ImGui::PopStyleColor(2);
    ImGui::SameLine();
    ImGui::Checkbox("loop", &p.loop);
    if (!present.empty()) {
        ImGui::SameLine();
        if (ImGui::Button(present.c_str()))
            st.view.present = !st.view.present;
        if (ImGui::IsItemHovered())
            tooltip(st.view.present ? "leave present mode (P or Escape)"
                                    : "the caption, the canvas and the transport "
                                      "alone, for the back of the room (P)");
    }
}

} // namespace pplab::ui
