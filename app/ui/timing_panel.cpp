#include "timing_panel.hpp"
#include "pplab/files.hpp"

#include "floating_window.hpp"
#include "timing_charts.hpp"
#include "timing_view.hpp"

#include "pplab_ui_resources.hpp"
#include "style.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace pplab::ui {

namespace {

constexpr std::string_view kBuiltin = "h200-bench.json";
constexpr const char* kBuiltinPath = "bench/results/h200-bench.json";
constexpr int kTimedBlocks[] = {64, 128, 256, 512, 1024};
constexpr int kChapterTile = 256;

// Which report is in the state, to notice another panel opening one (the classroom's
// Session tab reads the same State::classroom.timing).
std::string fingerprint(const State& st) {
    const auto& r = st.classroom.timing;
    return r ? r->device + "|" + r->date + "|" + std::to_string(r->rows.size()) : std::string();
}

} // namespace

TimingPanel::TimingPanel(std::function<void()> wake) : job_(std::move(wake)) {
    gpu_ = timing_available(why_no_gpu_);
}

void TimingPanel::update(State& st) {
    if (auto done = job_.take()) {
        if (done->report) {
            st.classroom.timing = std::move(*done->report);
            source_ = "measured on this machine's GPU";
            shown_ = fingerprint(st);
            error_.clear();
        } else {
            error_ = done->error;
        }
    }
    if (!offered_builtin_) {
        offered_builtin_ = true;
        if (!st.classroom.timing)
            open_builtin(st);
    }
    if (fingerprint(st) != shown_) {
        shown_ = fingerprint(st);
        source_ = st.classroom.timing ? st.classroom.timing_path : std::string();
    }
    const Family f = info(st.settings.algorithm).family;
    if (f != family_seen_) {
        family_seen_ = f;
        size = 0;
        distribution.clear();
    }
    if (st.settings.block != settings_block_seen_) {
        // The kernel's block size when it was timed; else the chapter's TILE of 256.
        settings_block_seen_ = st.settings.block;
        const auto timed = std::find(std::begin(kTimedBlocks), std::end(kTimedBlocks),
                                     st.settings.block) != std::end(kTimedBlocks);
        block = timed ? st.settings.block : kChapterTile;
    }
}

void TimingPanel::open_builtin(State& st) {
    const auto* r = resources::find(kBuiltin);
    try {
        if (!r)
            throw InputError("this build carries no timing figures");
        st.classroom.timing = timing_from_json(r->text());
        source_ = std::string(kBuiltinPath) + ", built into pplab";
        shown_ = fingerprint(st);
        error_.clear();
    } catch (const InputError& e) {
        error_ = e.what();
    }
}

void TimingPanel::open_file(State& st, const std::string& path) {
    try {
        st.classroom.timing = timing_from_json(read_text_file(path));
        source_ = path;
        shown_ = fingerprint(st);
        error_.clear();
    } catch (const InputError& e) {
        error_ = e.what();
    }
}

void TimingPanel::measure(const State& st) {
    // pplab bench's sizes (2^20 to 2^28) for the current family alone: every size the panel
    // offers, the copy roof measured at 1 GiB as in the committed figures, and progress (and
    // Stop) between sizes.
    TimingOptions o;
    o.families = {info(st.settings.algorithm).family};
    o.blocks.assign(std::begin(kTimedBlocks), std::end(kTimedBlocks));
    error_.clear();
    job_.start(std::move(o));
}

void TimingPanel::status(State& st) {
    const scene::Palette pal = scene::palette(st.view.theme);
    if (!source_.empty())
        ImGui::TextDisabled("Figures from %s", source_.c_str());
    if (job_.busy()) {
        // The bench reports what it times next; the seconds show it is alive where one
        // stage (a histogram's sizes) moves the fraction only at its end.
        const std::string what =
            job_.stage() + "  ·  " + std::to_string(static_cast<int>(job_.seconds())) + " s";
        ImGui::ProgressBar(static_cast<float>(job_.progress()),
                           ImVec2(-ImGui::CalcTextSize("Stop").x * 2.5f, 0), what.c_str());
        ImGui::SameLine();
        if (ImGui::Button("Stop"))
            job_.stop();
    } else if (gpu_) {
        if (ImGui::Button("Measure on this GPU"))
            measure(st);
        ImGui::SameLine();
        ImGui::TextDisabled("every stage, size and block size of the family: validated, then "
                            "timed (a minute or two)");
    } else {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("No timing on this machine: %s. The figures shown were measured on "
                            "the GPU named above.",
                            why_no_gpu_.c_str());
        ImGui::PopTextWrapPos();
    }
    if (ImGui::Button("H200 figures"))
        open_builtin(st);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("Open").x * 2.5f);
    bool enter = false;
    const bool chosen =
        file_field(st.files, "##timing_file", "a pplab bench --json FILE", path_, &enter);
    ImGui::SameLine();
    if ((ImGui::Button("Open") || enter || chosen) && !path_.empty())
        open_file(st, path_);
    if (!error_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(pal.wrong.r, pal.wrong.g, pal.wrong.b, 1));
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(error_.c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
    }
}

void TimingPanel::choices(const State& st, Family f) {
    const TimingReport& r = *st.classroom.timing;
    const float fs = ImGui::GetFontSize();
    const std::vector<long long> sizes = timed_sizes(r, f);
    if (std::find(sizes.begin(), sizes.end(), size) == sizes.end())
        size = default_size(r, f);
    const double bytes_per = f == Family::Histogram ? 1.0 : 4.0;
    const auto size_label = [&](long long n) {
        return size_text(n) + (f == Family::Histogram ? " bytes  (" : " floats  (") +
               bytes_text(static_cast<double>(n) * bytes_per) + ")";
    };
    ImGui::SetNextItemWidth(fs * 13);
    if (ImGui::BeginCombo("Size", size_label(size).c_str())) {
        for (const long long n : sizes)
            if (ImGui::Selectable(size_label(n).c_str(), n == size))
                size = n;
        ImGui::EndCombo();
    }
    const std::vector<std::string> dists = timed_distributions(r, f);
    if (std::find(dists.begin(), dists.end(), distribution) == dists.end())
        distribution = dists.empty() ? std::string() : dists.front();
    if (f == Family::Histogram) {
        ImGui::SameLine(0, fs * 1.5f);
        ImGui::SetNextItemWidth(fs * 9);
        if (ImGui::BeginCombo("Data", distribution.c_str())) {
            for (const std::string& d : dists)
                if (ImGui::Selectable(d.c_str(), d == distribution))
                    distribution = d;
            ImGui::EndCombo();
        }
    }
    ImGui::SameLine(0, fs * 1.5f);
    const auto block_label = [&](int b) {
        if (b == 0)
            return std::string("the fastest of each");
        return std::to_string(b) + (b == st.settings.block ? " (the kernel's)" : "");
    };
    ImGui::SetNextItemWidth(fs * 10);
    if (ImGui::BeginCombo("Threads per block", block_label(block).c_str())) {
        if (ImGui::Selectable(block_label(0).c_str(), block == 0))
            block = 0;
        for (const int b : timed_blocks(r, f))
            if (ImGui::Selectable(block_label(b).c_str(), b == block))
                block = b;
        ImGui::EndCombo();
    }
    ImGui::SameLine(0, fs * 1.5f);
    ImGui::Checkbox("Log scale", &log_scale);
    if (ImGui::IsItemHovered())
        tooltip("global atomics run at a few GB/s: on a log scale they stay visible");
}

void TimingPanel::draw(State& st, float x, float y, float w, float h) {
    if (!open)
        return;
    if (!placed_) {
        ImGui::SetNextWindowPos(ImVec2(x, y));
        ImGui::SetNextWindowSize(ImVec2(w, h));
        placed_ = true;
    }
    floating_window("Timing", &open, st.view.theme, [&] { contents(st); });
}

void TimingPanel::contents(State& st) {
    const Family f = info(st.settings.algorithm).family;
    const TimingReport* r = st.classroom.timing ? &*st.classroom.timing : nullptr;
    ImGui::PushFont(st.fonts.large);
    ImGui::Text("%s: every stage beside CUB and the copy roof",
                std::string(family_name(f)).c_str());
    ImGui::PopFont();
    if (r)
        ImGui::Text("%s  ·  %s  ·  median of %d runs after %d warm-ups  ·  copy %s GB/s",
                    r->device.c_str(), r->date.substr(0, 10).c_str(), r->runs, r->warmups,
                    gbps_text(r->copy_gbps).c_str());
    status(st);
    if (!r) {
        ImGui::TextWrapped("No figures yet: open the file `pplab bench --json FILE` wrote.");
        return;
    }
    ImGui::Separator();
    choices(st, f);
    const Bars bars = stage_bars(*r, f, size, distribution, block);
    const std::vector<BlockSeries> series = block_series(*r, f, size, distribution);
    const Axis shape = chart_axis(bars, series, log_scale);

    const float fs = ImGui::GetFontSize();
    const float avail = ImGui::GetContentRegionAvail().x;
    const bool side_by_side = avail > fs * 90;
    const float bars_w = side_by_side ? avail * 0.56f : avail;
    const float plot_w = side_by_side ? avail - bars_w - fs * 1.5f : avail;
    ImGui::BeginGroup();
    ImGui::TextUnformatted(block == 0 ? "Each stage at its fastest block size"
                                      : ("Each stage at " + std::to_string(block) +
                                         " threads per block where it takes one")
                                            .c_str());
    bars_chart(st, f, bars, shape, bars_w);
    ImGui::EndGroup();
    if (side_by_side)
        ImGui::SameLine(0, fs * 1.5f);
    ImGui::BeginGroup();
    ImGui::TextUnformatted("GB/s against threads per block");
    block_plot(st, f, series, bars, shape, block, plot_w, fs * 15);
    ImGui::EndGroup();

    ImGui::Spacing();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled(
        "Bytes that must move: reduce n×4 read; scan n×4 read and n×4 written; histogram n bytes "
        "read. Read-only kernels can pass the copy roof: the copy also writes.");
    ImGui::PopTextWrapPos();
    if (!r->notes.empty() &&
        ImGui::CollapsingHeader(
            ("What the run left out (" + std::to_string(r->notes.size()) + ")").c_str())) {
        for (const std::string& n : r->notes)
            ImGui::BulletText("%s", n.c_str());
    }
}

} // namespace pplab::ui
