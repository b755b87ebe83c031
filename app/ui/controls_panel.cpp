#include "panels.hpp"
#include "style.hpp"

#include "pplab/request.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <string>
#include <vector>

namespace pplab::ui {

namespace {

void section(const char* title) {
    ImGui::Spacing();
    ImGui::TextDisabled("%s", title);
    ImGui::Separator();
}

void algorithm_section(Settings& s, const AlgorithmInfo& ai, const Metrics& m) {
    section("Algorithm");
    // A field too narrow for "scanBlocks + addCarries   beyond the chapter (§8.7 larger
    // arrays)" (150% and up) names the kernel alone, the whole on hover: never cut mid-phrase.
    const std::string whole = algorithm_label(ai);
    const DropdownText shown =
        algorithm_shown(ai, ImGui::GetContentRegionAvail().x, m, imgui_text_width());
    ImGui::SetNextItemWidth(-1);
    const bool open = ImGui::BeginCombo("##algorithm", shown.text.c_str(),
                                        ImGuiComboFlags_HeightLargest |
                                            (shown.arrow ? 0 : ImGuiComboFlags_NoArrowButton));
    if (!open && shown.text != whole && ImGui::IsItemHovered())
        tooltip("%s", whole.c_str());
    if (open) {
        std::string heading;
        for (const AlgorithmInfo& i : algorithms()) {
            if (!i.traced)
                continue; // production kernels are timed, not stepped through
            // The production kernels come after the chapter's: under a heading of their own.
            const std::string group =
                i.production ? std::string("Production") : std::string(family_name(i.family));
            if (heading != group) {
                heading = group;
                ImGui::TextDisabled("%s", heading.c_str());
            }
            const bool selected = i.algorithm == s.algorithm;
            if (ImGui::Selectable(algorithm_label(i).c_str(), selected))
                s = switch_algorithm(s, i.algorithm);
            if (selected)
                ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", std::string(ai.doc).c_str());
    ImGui::PopTextWrapPos();
}

// Block size, and the grid for the grid-stride kernels.
void launch_section(Settings& s, const AlgorithmInfo& ai, float field_w, const Metrics& m,
                    int auto_grid) {
    section("Launch");
    const std::vector<int> blocks = block_choices(s.algorithm, s.pitfall);
    // A field too narrow for "auto (n rounded up)" (150% and up) says "auto", in full on hover.
    const std::string shown =
        block_size_shown(s.block, ai.single_block, field_w, m, imgui_text_width());
    const bool cut = shown != block_size_text(s.block, ai.single_block);
    ImGui::SetNextItemWidth(field_w);
    if (ImGui::BeginCombo("Block size", shown.c_str())) {
        for (const int b : blocks)
            if (ImGui::Selectable(block_size_text(b, ai.single_block).c_str(), b == s.block))
                s.block = b;
        ImGui::EndCombo();
    } else if (cut && ImGui::IsItemHovered()) {
        tooltip("%s", block_size_text(s.block, ai.single_block).c_str());
    }
    if (ai.grid_stride) {
        // 0 is "as many as ELEMS_PER_THREAD asks": the field shows that number, "8 (auto)",
        // not a grid of 0 blocks; a step or a typed number makes it the user's own.
        int grid = s.grid == 0 && auto_grid > 0 ? auto_grid : s.grid;
        const int step = 1, step_fast = 8;
        ImGui::SetNextItemWidth(field_w);
        if (ImGui::InputScalar("Blocks (grid)", ImGuiDataType_S32, &grid, &step, &step_fast,
                               s.grid == 0 && auto_grid > 0 ? "%d (auto)" : "%d"))
            s.grid = std::clamp(grid, 0, 65535);
        if (ImGui::IsItemHovered())
            tooltip("0: about %d elements per thread (the chapter's ELEMS_PER_THREAD)",
                    kElemsPerThread);
    }
}

// The chapter's pitfall in this kernel, if it has one (Classroom › Pitfalls explains each).
void pitfall_toggle_row(Settings& s, float field_w) {
    for (int i = 1; i < kPitfallCount; ++i) {
        const auto p = static_cast<Pitfall>(i);
        if (pitfall_algorithm(p) != s.algorithm)
            continue;
        bool on = s.pitfall == p;
        if (ImGui::Checkbox("##pitfall", &on)) {
            s.pitfall = on ? p : Pitfall::None;
            s = switch_algorithm(s, s.algorithm); // a block the kernel takes without it
        }
        ImGui::SameLine();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(("Pitfall: " + std::string(pitfall_title(p))).c_str());
        ImGui::PopTextWrapPos();
        if (on && p == Pitfall::PartialWarp) {
            ImGui::SetNextItemWidth(field_w);
            ImGui::SliderInt("Lanes in", &s.active_lanes, 1, kWarpSize - 1);
            if (ImGui::IsItemHovered())
                tooltip("lanes 0 to this minus one call warpReduce; the rest do not");
        }
    }
}

// Generated, typed or from a file; then what the family adds (bins, inclusive, arrival order).
void input_section(State& st, const AlgorithmInfo& ai, float field_w, const Metrics& m) {
    Settings& s = st.settings;
    section("Input");
    int mode = static_cast<int>(s.input);
    std::vector<float> widths;
    for (const char* name : kInputModeNames)
        widths.push_back(radio_width(m, imgui_text_width(), name));
    const std::vector<int> rows =
        tab_rows(widths, ImGui::GetContentRegionAvail().x, m.item_spacing);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i > 0 && rows[i] == rows[i - 1])
            ImGui::SameLine();
        ImGui::RadioButton(kInputModeNames[i], &mode, static_cast<int>(i));
    }
    s.input = static_cast<InputMode>(mode);
    const bool histogram = ai.family == Family::Histogram;
    switch (s.input) {
    case InputMode::Generator: {
        ImGui::SetNextItemWidth(field_w);
        ImGui::InputInt("n", &s.n, 1, 64);
        s.n = std::clamp(s.n, 1, kMaxN);
        ImGui::SetNextItemWidth(field_w);
        if (ImGui::BeginCombo(histogram ? "Distribution" : "Values",
                              std::string(generator_id(s.generator)).c_str())) {
            for (const Generator g : generator_choices(s.algorithm))
                if (ImGui::Selectable(std::string(generator_id(g)).c_str(), g == s.generator))
                    s.generator = g;
            ImGui::EndCombo();
        }
        ImGui::SetNextItemWidth(field_w);
        ImGui::InputScalar("Seed", ImGuiDataType_U64, &s.seed);
        break;
    }
    case InputMode::List:
        ImGui::InputTextMultiline("##list", &s.list, ImVec2(-1, ImGui::GetTextLineHeight() * 4));
        ImGui::TextDisabled(histogram ? "bin numbers, separated by commas or spaces"
                                      : "numbers, separated by commas or spaces");
        break;
    case InputMode::File:
        ImGui::SetNextItemWidth(-1);
        file_field(st.files, "##file", "path of a file with the input list", s.file);
        break;
    }
    if (histogram) {
        ImGui::SetNextItemWidth(field_w);
        ImGui::InputInt("Bins", &s.bins, 1, 16);
        s.bins = std::clamp(s.bins, 1, 4096);
        ImGui::Checkbox("Skip empty bins in the fold", &s.skip_empty);
        if (ImGui::IsItemHovered())
            tooltip("if (s_hist[b] != 0): Exercise 4");
    }
    // Hillis-Steele is inclusive by construction, scanFast exclusive.
    if (ai.family == Family::Scan && s.algorithm != Algorithm::ScanHillisSteele &&
        s.algorithm != Algorithm::ScanFast)
        ImGui::Checkbox("Inclusive scan", &s.inclusive);
    if (has_schedule(s.algorithm)) {
        const bool atomic = s.algorithm == Algorithm::ReduceAtomic;
        ImGui::SetNextItemWidth(field_w);
        ImGui::InputScalar(atomic ? "Arrival order" : "Schedule", ImGuiDataType_U64, &s.order_seed);
        if (ImGui::IsItemHovered())
            tooltip(atomic ? "the CPU model's stand-in for the order in which blocks "
                             "finish"
                           : "the CPU model's stand-in for the order in which tiles "
                             "publish and look back (a GPU run shows its own)");
        if (ImGui::Button(atomic ? "Another order" : "Another schedule"))
            ++s.order_seed;
    }
}

void back_end_section(State& st, float field_w) {
    Settings& s = st.settings;
    section("Back end");
    const char* backends[] = {"auto", "cpu", "cuda"};
    ImGui::SetNextItemWidth(field_w);
    if (ImGui::BeginCombo("Run on", s.backend.c_str())) {
        for (const char* b : backends)
            if (ImGui::Selectable(b, s.backend == b))
                s.backend = b;
        ImGui::EndCombo();
    }
    if (st.model) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::Text("%s: %s", st.model->trace().backend.c_str(), st.model->trace().device.c_str());
        ImGui::PopTextWrapPos();
    }
}

// The tracer's progress, and the last error in the chapter's words.
void trace_status(const State& st, const Tracer& tracer) {
    if (tracer.busy()) {
        ImGui::Spacing();
        const std::string what = tracer.stage();
        ImGui::ProgressBar(tracer.progress(), ImVec2(-1, 0),
                           what.empty() ? "queued" : what.c_str());
        ImGui::TextDisabled("tracing for %.1f s; the last trace stays on screen",
                            tracer.busy_seconds());
    }
    if (!st.error.empty()) {
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.84f, 0.25f, 0.1f, 1.0f));
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(st.error.c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
        if (st.model)
            ImGui::TextDisabled("showing the last trace that worked");
    }
}

} // namespace

void ControlsPanel::draw(State& st, const Tracer& tracer) {
    const AlgorithmInfo& ai = info(st.settings.algorithm);
    const Metrics m = metrics(st.view.presenter_scale);
    algorithm_section(st.settings, ai, m);
    const float label_w =
        ImGui::CalcTextSize("Blocks (grid)").x + ImGui::GetStyle().ItemInnerSpacing.x * 2;
    const float field_w = ImGui::GetContentRegionAvail().x - label_w;
    // The grid the trace on screen launched with, when the grid is left to the kernel.
    const int auto_grid =
        st.model && st.model->request().algorithm == st.settings.algorithm ? st.model->grid(0) : 0;
    launch_section(st.settings, ai, field_w, m, auto_grid);
    pitfall_toggle_row(st.settings, field_w);
    input_section(st, ai, field_w, m);
    back_end_section(st, field_w);
    trace_status(st, tracer);
}

} // namespace pplab::ui
