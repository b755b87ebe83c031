// The chapter's four exercises, its four pitfalls and the determinism runs, each one click
// away: the numbers they ask for, and a button that puts the scenario on the canvas.
#include "classroom_panel.hpp"

#include "pplab/bits.hpp"
#include "pplab/io.hpp"

#include <imgui.h>

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>
#include <string>

namespace pplab::ui {

namespace {

ImVec4 to_imgui(const scene::Rgba& c, float alpha = 1.0f) {
    return {c.r, c.g, c.b, c.a * alpha};
}

std::string value_text(float v) {
    return std::isnan(v) ? std::string("?") : format_value(v);
}

// The runs' sums grouped by bit pattern, each pattern once with the runs that gave it and its
// bits in large type; bits that differ from the first pattern are lit.
void bit_groups(const State& st, const std::vector<float>& sums) {
    const scene::Palette pal = scene::palette(st.view.theme);
    std::vector<std::pair<float, std::vector<int>>> groups; // in order of first appearance
    for (std::size_t k = 0; k < sums.size(); ++k) {
        const auto same = std::find_if(groups.begin(), groups.end(), [&](const auto& g) {
            return bits_of(g.first) == bits_of(sums[k]);
        });
        if (same == groups.end())
            groups.push_back({sums[k], {static_cast<int>(k) + 1}});
        else
            same->second.push_back(static_cast<int>(k) + 1);
    }
    constexpr std::size_t kShown = 6;
    const float first = groups.front().first;
    for (std::size_t i = 0; i < groups.size() && i < kShown; ++i) {
        const auto& [v, runs] = groups[i];
        std::string which = runs.size() == sums.size()
                                ? "all " + std::to_string(runs.size()) + " runs"
                            : runs.size() == 1 ? "run "
                                               : "runs ";
        if (runs.size() != sums.size())
            for (std::size_t r = 0; r < runs.size(); ++r)
                which += (r ? ", " : "") + std::to_string(runs[r]);
        ImGui::Spacing();
        ImGui::Text("%s", value_text(v).c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("%s", which.c_str());
        ImGui::PushFont(st.fonts.mono_large);
        const std::string bits = float_bits(v), diff = differing_bits(v, first);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float cw = ImGui::CalcTextSize("0").x, lh = ImGui::GetTextLineHeight();
        ImDrawList* dl = ImGui::GetWindowDrawList();
        for (std::size_t b = 0; b < diff.size(); ++b)
            if (diff[b] == '^')
                dl->AddRectFilled(ImVec2(at.x + static_cast<float>(b) * cw - 1, at.y),
                                  ImVec2(at.x + static_cast<float>(b + 1) * cw + 1, at.y + lh),
                                  ImGui::GetColorU32(to_imgui(pal.highlight, 0.8f)), 2);
        ImGui::TextUnformatted(bits.c_str());
        ImGui::PopFont();
    }
    if (groups.size() > kShown)
        ImGui::TextDisabled("and %zu more sums", groups.size() - kShown);
}

void section(const State& st, const char* title) {
    ImGui::Spacing();
    ImGui::Spacing();
    heading(st, title);
    ImGui::Separator();
}

bool showing(const State& st, Algorithm a, Pitfall p = Pitfall::None) {
    return st.model && st.model->request().algorithm == a &&
           st.model->request().options.pitfall == p;
}

// A timing report's pairs of stages, or how to measure them.
void timings(const State& st, std::string_view a, std::string_view b, const char* a_name,
             const char* b_name) {
    const TimingReport* report = timing_report(st);
    const std::vector<TimingPair> pairs =
        report ? timing_pairs(*report, a, b) : std::vector<TimingPair>{};
    if (pairs.empty()) {
        paragraph(std::string("With a GPU: pplab bench --families histogram --json FILE, then open "
                              "FILE in the Session tab, to set ") +
                      a_name + " against " + b_name + " in milliseconds.",
                  true);
        return;
    }
    ImGui::TextDisabled("%s, %s", report->device.c_str(), report->date.c_str());
    if (ImGui::BeginTable("timings", 4, ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("data");
        ImGui::TableSetupColumn("bytes");
        ImGui::TableSetupColumn(a_name);
        ImGui::TableSetupColumn(b_name);
        ImGui::TableHeadersRow();
        for (const TimingPair& p : pairs) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(p.distribution.c_str());
            ImGui::TableNextColumn();
            const auto size = static_cast<unsigned long long>(p.size);
            if (std::has_single_bit(size)) // the bench's sizes: 2^20 ... 2^28
                ImGui::Text("2^%d", static_cast<int>(std::bit_width(size)) - 1);
            else
                ImGui::Text("%lld", p.size);
            ImGui::TableNextColumn();
            ImGui::Text("%.3f ms", p.a_ms);
            ImGui::TableNextColumn();
            ImGui::Text("%.3f ms  (%.2f×)", p.b_ms, p.a_ms > 0 ? p.b_ms / p.a_ms : 0.0);
        }
        ImGui::EndTable();
    }
}

void exercise1(State& st) {
    Exercises& e = st.classroom.exercises;
    section(st, "1  Barriers: tree vs full");
    paragraph("The Stage-1 tree pays one barrier per level, log2(TILE); the full kernel of §8.6 "
              "one, after the warp totals. Counted from the traces of one block.",
              true);
    if (ImGui::BeginTable("barriers", 3,
                          ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_RowBg)) {
        ImGui::TableSetupColumn("TILE");
        ImGui::TableSetupColumn("reduceTree");
        ImGui::TableSetupColumn("reduceFull");
        ImGui::TableHeadersRow();
        const scene::Palette pal = scene::palette(st.view.theme);
        for (const BarrierCounts& b : e.barriers) {
            ImGui::TableNextRow();
            if (b.tile == e.tile)
                ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0,
                                       ImGui::GetColorU32(to_imgui(pal.highlight, 0.35f)));
            ImGui::TableNextColumn();
            ImGui::Text("%d", b.tile);
            ImGui::TableNextColumn();
            ImGui::Text("%d", b.tree);
            ImGui::TableNextColumn();
            ImGui::Text("%d", b.full);
        }
        ImGui::EndTable();
    }
    ImGui::TextDisabled("highlighted: the exercise's TILE = %d", e.tile);
}

void exercise2(State& st) {
    section(st, "2  Every lane writes s[warpId]");
    paragraph("Why does only lane 0 write s[warpId]? If every lane wrote its sum, 32 writes would "
              "race for each slot: one lands, and the code does not say which.",
              true);
    if (ImGui::Button("Show the race (reduce-full, every lane writes)"))
        exercise2_race(st);
    if (!showing(st, Algorithm::ReduceFull, Pitfall::EveryLaneWrites))
        return;
    const scene::Palette pal = scene::palette(st.view.theme);
    const Trace& t = st.model->trace();
    const bool cpu = t.backend == "cpu";
    for (const RaceSlot& r : race_slots(st)) {
        const std::set<float> distinct(r.candidates.begin(), r.candidates.end());
        std::string offered;
        int listed = 0;
        for (const float v : distinct) {
            if (listed++ == 6) {
                offered += ", …";
                break;
            }
            offered += (offered.empty() ? "" : ", ") + value_text(v);
        }
        const std::string slot = "s[" + std::to_string(r.warp) + "]";
        if (std::isnan(r.slot)) {
            ImGui::TextColored(to_imgui(pal.race), "%s = ?", slot.c_str());
            ImGui::SameLine();
            paragraph("undefined: one of " + std::to_string(distinct.size()) + " sums of warp " +
                      std::to_string(r.warp) + "'s lanes: " + offered +
                      " (lane 0 holds the warp total " + value_text(r.candidates.front()) + ")");
        } else {
            ImGui::TextColored(to_imgui(pal.race), "%s = %s", slot.c_str(),
                               value_text(r.slot).c_str());
            ImGui::SameLine();
            std::string lanes;
            for (const int l : r.winners)
                lanes += (lanes.empty() ? "" : ", ") + std::to_string(l);
            paragraph("the device kept the write of lane " + (lanes.empty() ? "?" : lanes) +
                      "; lane 0's warp total is " + value_text(r.candidates.front()));
        }
    }
    const double right = std::accumulate(t.request.input.begin(), t.request.input.end(), 0.0);
    const float result = t.result.empty() ? std::nanf("") : t.result.front();
    ImGui::Spacing();
    ImGui::PushFont(st.fonts.large);
    ImGui::Text("result: %s", value_text(result).c_str());
    ImGui::PopFont();
    paragraph(std::string(cpu ? "The CPU model does not pick a winner: the result is undefined, "
                                "never an invented number. "
                              : "What this run of the device produced; another run may differ. ") +
                  "The input adds up to " + value_text(static_cast<float>(right)) + ".",
              true);
}

void exercise3(State& st) {
    section(st, "3  Blelloch on [1, 2, 3, 4]");
    paragraph("Trace the downsweep by hand, level by level, and verify [0, 1, 3, 6]: in practice "
              "mode, type each level and check it.",
              true);
    if (ImGui::Button("Practise Exercise 3"))
        exercise3_practice(st);
}

void exercise4(State& st) {
    Exercises& e = st.classroom.exercises;
    section(st, "4  The empty-bin skip");
    paragraph("Global atomics the privatised fold issues, with `if (s_hist[b] != 0)` and "
              "without it: the skip saves most where bins are empty.",
              true);
    const float w = ImGui::GetFontSize() * 5.5f;
    ImGui::SetNextItemWidth(w);
    ImGui::InputInt("n", &e.n, 0);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    ImGui::InputInt("bins", &e.bins, 0);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    ImGui::InputInt("block", &e.block, 0);
    e.n = std::clamp(e.n, 1, kMaxN);
    e.bins = std::clamp(e.bins, 1, 4096);
    e.block = std::clamp(e.block, 1, kMaxBlock);
    exercise_figures(e);
    error_line(st, e.error);
    if (!e.fold.empty() && ImGui::BeginTable("fold", 4, ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("data");
        ImGui::TableSetupColumn("with the skip");
        ImGui::TableSetupColumn("without");
        ImGui::TableSetupColumn("saved");
        ImGui::TableHeadersRow();
        for (const FoldAtomics& f : e.fold) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(f.data == "seq" ? "seq (all bins full)" : f.data.c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%lld", f.with_skip);
            ImGui::TableNextColumn();
            ImGui::Text("%lld", f.without_skip);
            ImGui::TableNextColumn();
            ImGui::Text("%lld", f.without_skip - f.with_skip);
        }
        ImGui::EndTable();
    }
    timings(st, "hist-privatised", "hist-privatised-no-skip", "with the skip", "without");
    if (ImGui::Button("Show the fold without the skip"))
        exercise4_no_skip(st);
}

} // namespace

void draw_exercises(State& st) {
    exercise_figures(st.classroom.exercises);
    heading(st, "The chapter's exercises (§8.10)");
    exercise1(st);
    exercise2(st);
    exercise3(st);
    exercise4(st);
}

void draw_pitfalls(State& st) {
    heading(st, "Common pitfalls, each a toggle");
    paragraph("Each switches the canvas to the kernel with the mistake in it; turn it off to "
              "see the kernel as the chapter writes it.",
              true);
    const Pitfall on = st.model ? st.model->request().options.pitfall : Pitfall::None;
    const Pitfall asked = st.settings.pitfall;
    for (const Pitfall p : {Pitfall::NonPowerOfTwo, Pitfall::PartialWarp, Pitfall::NoFinalSync}) {
        ImGui::Spacing();
        ImGui::Spacing();
        bool checked = asked == p;
        ImGui::PushFont(st.fonts.large);
        const bool changed = ImGui::Checkbox(std::string(pitfall_title(p)).c_str(), &checked);
        ImGui::PopFont();
        if (changed)
            pitfall_toggle(st, p, checked);
        switch (p) {
        case Pitfall::NonPowerOfTwo:
            paragraph("reduce-tree with TILE = 6: the halving loop (6 → 3 → 1) never adds some "
                      "slots into s[0]. Marked on the canvas, with the wrong sum beside the "
                      "right one.",
                      true);
            break;
        case Pitfall::PartialWarp:
            paragraph("Only the first lanes call warpReduce: the others are greyed, and a lane "
                      "that shuffles from one of them gets an undefined value, marked ?.",
                      true);
            if (asked == p) {
                ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
                ImGui::SliderInt("lanes that call it", &st.settings.active_lanes, 1, kWarpSize - 1);
            }
            break;
        case Pitfall::NoFinalSync:
            paragraph("The scan without its final __syncthreads(): reads of the last level's "
                      "writes are not ordered after them. The cells at risk are marked; hover "
                      "one for who reads it.",
                      true);
            break;
        default:
            break;
        }
        if (asked == p && on != p)
            ImGui::TextDisabled("tracing…");
    }
    ImGui::Spacing();
    ImGui::Spacing();
    heading(st, "Global atomics for the whole histogram");
    paragraph("Every element's atomicAdd goes to global memory and queues on its bin (the "
              "contention row); privatising counts in shared memory and folds once per block.",
              true);
    if (ImGui::RadioButton("global atomics", showing(st, Algorithm::HistGlobal)))
        global_atomics_toggle(st, false);
    ImGui::SameLine();
    if (ImGui::RadioButton("privatised", showing(st, Algorithm::HistPrivatised)))
        global_atomics_toggle(st, true);
    if (st.model && info(st.model->request().algorithm).family == Family::Histogram) {
        const Summary sum = summarize(st.model->trace());
        ImGui::Text("global atomics in this run: %" PRId64, sum.total.global_atomics);
    }
    timings(st, "hist-privatised", "hist-global", "privatised", "global atomics");
}

void draw_determinism(State& st) {
    DeterminismRuns& d = st.classroom.runs;
    const scene::Palette pal = scene::palette(st.view.theme);
    heading(st, "Determinism (§8.6)");
    paragraph("The same float sum, run again and again. reduce-atomic adds the block totals in "
              "the order the blocks finish; reduce-full's tree fixes the order, so its sum is "
              "the same bit for bit.",
              true);
    const float w = ImGui::GetFontSize() * 6;
    ImGui::SetNextItemWidth(w);
    ImGui::InputInt("runs", &d.times, 0);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    ImGui::InputInt("n (random floats)", &d.n, 0);
    d.times = std::clamp(d.times, 2, 64);
    d.n = std::clamp(d.n, 1, kMaxN);
    ImGui::PushFont(st.fonts.large);
    if (d.busy()) {
        ImGui::TextDisabled("running…");
    } else if (ImGui::Button(("Run both " + std::to_string(d.times) + " times").c_str())) {
        determinism_start(st);
    }
    ImGui::PopFont();
    error_line(st, d.error);
    if (!d.outcome)
        return;
    const DeterminismRuns::Outcome& o = *d.outcome;
    paragraph("on " + o.backend + " (" + o.device + "); the bits are sign, exponent, fraction",
              true);
    if (!o.note.empty())
        paragraph(o.note, true);
    ImGui::Spacing();
    ImGui::PushFont(st.fonts.large);
    ImGui::TextColored(to_imgui(o.atomic.distinct > 1 ? pal.wrong : pal.text),
                       "reduce-atomic: %d different sums in %zu runs", o.atomic.distinct,
                       o.atomic.sums.size());
    ImGui::PopFont();
    bit_groups(st, o.atomic.sums);
    ImGui::Spacing();
    ImGui::PushFont(st.fonts.large);
    if (o.full.distinct == 1)
        ImGui::TextColored(to_imgui(pal.right), "reduce-full: the same sum in every run");
    else
        ImGui::TextColored(to_imgui(pal.wrong), "reduce-full: %d different sums", o.full.distinct);
    ImGui::PopFont();
    bit_groups(st, o.full.sums);
}

} // namespace pplab::ui
