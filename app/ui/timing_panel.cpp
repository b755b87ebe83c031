#include "timing_panel.hpp"
#include "pplab/files.hpp"

#include "floating_window.hpp"
#include "timing_view.hpp"

#include "pplab_ui_resources.hpp"

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

ImU32 colour(const scene::Rgba& c, float alpha = 1.0f) {
    return ImGui::GetColorU32(ImVec4(c.r, c.g, c.b, c.a * alpha));
}

constexpr scene::Rgba rgb(unsigned hex) {
    return {static_cast<float>((hex >> 16) & 0xFF) / 255.0f,
            static_cast<float>((hex >> 8) & 0xFF) / 255.0f, static_cast<float>(hex & 0xFF) / 255.0f,
            1.0f};
}

// One colour per step of the story, the same in the bars and the plot: Okabe & Ito's accents
// (yellow left out: it vanishes on the projector's white).
scene::Rgba stage_colour(std::size_t story_index) {
    constexpr std::array<scene::Rgba, 6> accents = {rgb(0xCC79A7), rgb(0x56B4E9), rgb(0x009E73),
                                                    rgb(0x0072B2), rgb(0xD55E00), rgb(0xE69F00)};
    return accents[story_index % accents.size()];
}

std::size_t story_index(Family f, std::string_view stage) {
    const auto s = story(f);
    return static_cast<std::size_t>(std::find(s.begin(), s.end(), stage) - s.begin());
}

std::string gbps_text(double v) {
    char b[32];
    std::snprintf(b, sizeof b, v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v);
    return b;
}

// A ratio to CUB: two decimals, or two significant digits for the stages hundreds of times
// slower (global atomics, one thread).
std::string ratio_text(double v) {
    char b[32];
    std::snprintf(b, sizeof b, v < 0.1 ? "%.2g" : "%.2f", v);
    return b;
}

// Which report is in the state, to notice another panel opening one (the classroom's
// Session tab reads the same State::classroom.timing).
std::string fingerprint(const State& st) {
    const auto& r = st.classroom.timing;
    return r ? r->device + "|" + r->date + "|" + std::to_string(r->rows.size()) : std::string();
}

void dashed(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float thickness, float dash) {
    const float len = std::hypot(b.x - a.x, b.y - a.y);
    const ImVec2 d((b.x - a.x) / std::max(len, 1e-3f), (b.y - a.y) / std::max(len, 1e-3f));
    for (float t = 0; t < len; t += 2 * dash) {
        const float e = std::min(t + dash, len);
        dl->AddLine(ImVec2(a.x + d.x * t, a.y + d.y * t), ImVec2(a.x + d.x * e, a.y + d.y * e), col,
                    thickness);
    }
}

// GB/s to pixels along one axis, linear from 0 or logarithmic over the decades shown.
struct Axis {
    double lo = 0, hi = 1;
    bool log = false;
    float p0 = 0, p1 = 1; // pixels of lo and hi

    // The range for values up to `max_value` (and, on a log scale, down to `min_value`); the
    // chart sets the pixels.
    static Axis over(double max_value, double min_value, bool log) {
        Axis a;
        a.log = log;
        if (log) {
            a.lo = std::pow(10.0, std::floor(std::log10(std::max(min_value, 1e-3))));
            a.hi = std::pow(10.0, std::ceil(std::log10(std::max(max_value, a.lo * 10))));
        } else {
            const double step = nice_step(max_value * 1.05);
            a.lo = 0;
            a.hi = std::ceil(max_value * 1.05 / step) * step;
        }
        return a;
    }
    static double nice_step(double range) {
        const double raw = range / 5;
        const double p = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
        for (const double m : {1.0, 2.0, 5.0})
            if (m * p >= raw)
                return m * p;
        return 10 * p;
    }
    float at(double v) const {
        const double t =
            log ? (std::log10(std::max(v, lo)) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
                : (v - lo) / (hi - lo);
        return p0 + static_cast<float>(std::clamp(t, 0.0, 1.0)) * (p1 - p0);
    }
    std::vector<double> ticks() const {
        std::vector<double> out;
        if (log) {
            for (double v = lo; v <= hi * 1.001; v *= 10)
                out.push_back(v);
        } else {
            const double step = nice_step(hi);
            for (double v = 0; v <= hi * 1.0001; v += step)
                out.push_back(v);
        }
        return out;
    }
};

std::string tick_text(double v) {
    char b[32];
    std::snprintf(b, sizeof b, v < 1 && v > 0 ? "%.1f" : "%.0f", v);
    return b;
}

struct Look {
    ImU32 text, muted, grid, roof, cub;
    float font; // pixels
};

Look look(const State& st) {
    const scene::Palette pal = scene::palette(st.view.theme);
    Look l;
    l.text = ImGui::GetColorU32(ImGuiCol_Text);
    l.muted = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    l.grid = colour(pal.muted, 0.25f);
    l.roof = colour(pal.text, 0.85f);
    l.cub = colour(pal.muted);
    l.font = ImGui::GetFontSize();
    return l;
}

double smallest_positive(const Bars& bars, const std::vector<BlockSeries>& series) {
    double lo = bars.roof_gbps > 0 ? bars.roof_gbps : 1;
    for (const StageBar& b : bars.stages)
        if (b.row && b.row->gbps > 0)
            lo = std::min(lo, b.row->gbps);
    for (const BlockSeries& s : series)
        for (const TimingRow* p : s.points)
            if (p->gbps > 0)
                lo = std::min(lo, p->gbps);
    return lo;
}

double largest(const Bars& bars, const std::vector<BlockSeries>& series) {
    double hi = std::max(bars.roof_gbps, bars.cub ? bars.cub->gbps : 0.0);
    for (const StageBar& b : bars.stages)
        if (b.row)
            hi = std::max(hi, b.row->gbps);
    for (const BlockSeries& s : series)
        for (const TimingRow* p : s.points)
            hi = std::max(hi, p->gbps);
    return std::max(hi, 1.0);
}

// ---- the bars: one row per stage, CUB and the copy roof as reference lines ---------------

// Tick labels along a horizontal axis, every k-th where all would collide.
void x_ticks(ImDrawList* dl, const Axis& axis, float y, ImU32 col, float fs) {
    const std::vector<double> ticks = axis.ticks();
    float widest = 0;
    for (const double t : ticks)
        widest = std::max(widest, ImGui::CalcTextSize(tick_text(t).c_str()).x);
    const float pitch = ticks.size() > 1 ? std::abs(axis.at(ticks[1]) - axis.at(ticks[0])) : 1e9f;
    const std::size_t every =
        static_cast<std::size_t>(std::ceil((widest + fs) / std::max(pitch, 1.0f)));
    for (std::size_t i = 0; i < ticks.size(); i += std::max<std::size_t>(every, 1)) {
        const std::string s = tick_text(ticks[i]);
        const float x = axis.at(ticks[i]);
        dl->AddText(ImVec2(x - ImGui::CalcTextSize(s.c_str()).x / 2, y), col, s.c_str());
    }
}

void bars_chart(const State& st, Family f, const Bars& bars, const Axis& shape, float width) {
    const Look l = look(st);
    const float fs = l.font;
    const Algorithm current = st.settings.algorithm;
    // Each row: the stage's name, under it how it compares; its bar; GB/s at the bar's end.
    std::vector<std::string> titles, details, values;
    float label_w = 0, value_w = 0;
    for (const StageBar& b : bars.stages) {
        titles.push_back(stage_title(b.stage));
        std::string detail, value;
        if (b.row) {
            value = gbps_text(b.row->gbps) + " GB/s";
            detail = gbps_text(b.row->pct_copy) + "% of copy";
            if (b.row->vs_cub > 0)
                detail += "  ·  " + ratio_text(b.row->vs_cub) + "× CUB";
            if (b.row->block > 1)
                detail += "  ·  " + std::to_string(b.row->block) + " threads";
        }
        label_w = std::max({label_w, ImGui::CalcTextSize(titles.back().c_str()).x,
                            ImGui::CalcTextSize(detail.c_str()).x});
        value_w = std::max(value_w, ImGui::CalcTextSize(value.c_str()).x);
        details.push_back(std::move(detail));
        values.push_back(std::move(value));
    }
    label_w += fs * 1.2f;
    value_w += fs * 0.8f;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float row_h = fs * 2.75f, bar_h = fs * 1.5f;
    const float labels_h = fs * 2.6f; // the reference lines' names, two lines above the bars
    const float x0 = o.x + label_w, x1 = std::max(o.x + width - value_w, x0 + fs * 6);
    const float top = o.y + labels_h;
    const float bottom = top + row_h * static_cast<float>(bars.stages.size());
    Axis axis = shape;
    axis.p0 = x0;
    axis.p1 = x1;
    ImDrawList* dl = ImGui::GetWindowDrawList();

    for (const double t : axis.ticks())
        dl->AddLine(ImVec2(axis.at(t), top), ImVec2(axis.at(t), bottom), l.grid, 1.0f);
    dl->AddLine(ImVec2(x0, bottom), ImVec2(x1, bottom), l.muted, 1.0f);
    x_ticks(dl, axis, bottom + fs * 0.25f, l.muted, fs);
    const char* axis_title = "GB/s: the bytes that must move ÷ the time";
    dl->AddText(ImVec2(x0, bottom + fs * 1.45f), l.muted, axis_title);

    for (std::size_t i = 0; i < bars.stages.size(); ++i) {
        const StageBar& b = bars.stages[i];
        const float y = top + row_h * static_cast<float>(i);
        const float mid = y + row_h / 2;
        if (info(current).id == b.stage)
            dl->AddRectFilled(ImVec2(o.x, y + 1), ImVec2(o.x + width, y + row_h - 1),
                              colour(scene::palette(st.view.theme).highlight, 0.22f), fs * 0.2f);
        dl->AddText(ImVec2(o.x + fs * 0.4f, mid - fs * 1.1f), l.text, titles[i].c_str());
        dl->AddText(ImVec2(o.x + fs * 0.4f, mid + fs * 0.05f), l.muted, details[i].c_str());
        if (!b.row) {
            dl->AddText(ImVec2(x0 + fs * 0.4f, mid - fs / 2), l.muted, b.note.c_str());
            continue;
        }
        const float xe = std::max(axis.at(b.row->gbps), x0 + 2.0f);
        dl->AddRectFilled(ImVec2(x0, mid - bar_h / 2), ImVec2(xe, mid + bar_h / 2),
                          colour(stage_colour(story_index(f, b.stage))), fs * 0.15f);
        dl->AddText(ImVec2(xe + fs * 0.4f, mid - fs / 2), l.text, values[i].c_str());
    }

    // The roof and CUB: dashed across every row, named above them (one line each when the
    // two names would collide).
    struct Reference {
        double gbps;
        std::string name;
        ImU32 col;
    };
    std::vector<Reference> refs;
    if (bars.roof_gbps > 0)
        refs.push_back(
            {bars.roof_gbps, "copy roof " + gbps_text(bars.roof_gbps) + " GB/s", l.roof});
    if (bars.cub)
        refs.push_back({bars.cub->gbps, "CUB " + gbps_text(bars.cub->gbps) + " GB/s", l.cub});
    float used_right = -1e9f;
    for (std::size_t k = 0; k < refs.size(); ++k) {
        const float x = axis.at(refs[k].gbps);
        dashed(dl, ImVec2(x, top - fs * 0.2f), ImVec2(x, bottom), refs[k].col, 2.0f, fs * 0.35f);
        const float tw = ImGui::CalcTextSize(refs[k].name.c_str()).x;
        const float lx = std::clamp(x - tw / 2, o.x, o.x + width - tw);
        const bool second_line = k > 0 && lx < used_right + fs * 0.5f;
        dl->AddText(ImVec2(lx, o.y + (second_line ? fs * 1.25f : 0.0f)), refs[k].col,
                    refs[k].name.c_str());
        used_right = std::max(used_right, lx + tw);
    }
    ImGui::Dummy(ImVec2(width, bottom - o.y + fs * 2.8f));
}

// ---- GB/s against threads per block ------------------------------------------------------

void block_plot(const State& st, Family f, const std::vector<BlockSeries>& series, const Bars& refs,
                const Axis& shape, int highlight, float width, float height) {
    const Look l = look(st);
    const float fs = l.font;
    std::vector<int> blocks;
    for (const BlockSeries& s : series)
        for (const TimingRow* p : s.points)
            if (std::find(blocks.begin(), blocks.end(), p->block) == blocks.end())
                blocks.push_back(p->block);
    std::sort(blocks.begin(), blocks.end());
    const ImVec2 o = ImGui::GetCursorScreenPos();
    if (blocks.empty()) {
        ImGui::TextDisabled("No stage of this family was timed at several block sizes here.");
        return;
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float tick_w = 0;
    Axis axis = shape;
    for (const double t : axis.ticks())
        tick_w = std::max(tick_w, ImGui::CalcTextSize(tick_text(t).c_str()).x);
    const float names_w =
        std::max(ImGui::CalcTextSize("copy roof").x, ImGui::CalcTextSize("CUB").x);
    const float x0 = o.x + tick_w + fs * 0.6f, x1 = o.x + width - names_w - fs * 0.8f;
    const float top = o.y + fs * 1.6f, bottom = o.y + height - fs * 2.8f;
    axis.p0 = bottom;
    axis.p1 = top;
    dl->AddText(ImVec2(o.x, o.y), l.muted, "GB/s");
    for (const double t : axis.ticks()) {
        const float y = axis.at(t);
        dl->AddLine(ImVec2(x0, y), ImVec2(x1, y), l.grid, 1.0f);
        const std::string s = tick_text(t);
        dl->AddText(ImVec2(x0 - fs * 0.4f - ImGui::CalcTextSize(s.c_str()).x, y - fs / 2), l.muted,
                    s.c_str());
    }
    dl->AddLine(ImVec2(x0, bottom), ImVec2(x1, bottom), l.muted, 1.0f);
    const float pitch = (x1 - x0) / static_cast<float>(blocks.size());
    const auto x_of = [&](int b) {
        const auto i = std::find(blocks.begin(), blocks.end(), b) - blocks.begin();
        return x0 + pitch * (static_cast<float>(i) + 0.5f);
    };
    for (const int b : blocks) {
        const float x = x_of(b);
        if (b == highlight)
            dl->AddRectFilled(ImVec2(x - pitch * 0.3f, top), ImVec2(x + pitch * 0.3f, bottom),
                              colour(scene::palette(st.view.theme).highlight, 0.25f));
        const std::string s = std::to_string(b);
        dl->AddText(ImVec2(x - ImGui::CalcTextSize(s.c_str()).x / 2, bottom + fs * 0.25f),
                    b == highlight ? l.text : l.muted, s.c_str());
    }
    const char* x_title = "threads per block";
    dl->AddText(ImVec2((x0 + x1) / 2 - ImGui::CalcTextSize(x_title).x / 2, bottom + fs * 1.45f),
                l.muted, x_title);

    // The reference lines, named in the right margin; the lower name moves down when the
    // two would overlap.
    const float roof_y = refs.roof_gbps > 0 ? axis.at(refs.roof_gbps) : -1e9f;
    if (refs.roof_gbps > 0) {
        dashed(dl, ImVec2(x0, roof_y), ImVec2(x1, roof_y), l.roof, 2.0f, fs * 0.35f);
        dl->AddText(ImVec2(x1 + fs * 0.4f, roof_y - fs / 2), l.roof, "copy roof");
    }
    if (refs.cub) {
        const float y = axis.at(refs.cub->gbps);
        dashed(dl, ImVec2(x0, y), ImVec2(x1, y), l.cub, 2.0f, fs * 0.35f);
        float name_y = y - fs / 2;
        if (std::abs(name_y - (roof_y - fs / 2)) < fs)
            name_y = y < roof_y ? roof_y - fs * 1.5f : roof_y + fs * 0.5f;
        dl->AddText(ImVec2(x1 + fs * 0.4f, name_y), l.cub, "CUB");
    }
    // The current kernel's line first, thick: the others stay visible where they run along it.
    const std::string_view current = info(st.settings.algorithm).id;
    std::vector<const BlockSeries*> order;
    for (const BlockSeries& s : series)
        order.insert(s.stage == current ? order.begin() : order.end(), &s);
    for (const BlockSeries* each : order) {
        const BlockSeries& s = *each;
        const ImU32 col = colour(stage_colour(story_index(f, s.stage)));
        const bool is_current = current == s.stage;
        std::vector<ImVec2> pts;
        for (const TimingRow* p : s.points)
            pts.emplace_back(x_of(p->block), axis.at(p->gbps));
        dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), col, 0,
                        is_current ? fs * 0.26f : fs * 0.13f);
        for (const ImVec2& p : pts)
            dl->AddCircleFilled(p, is_current ? fs * 0.34f : fs * 0.24f, col);
    }
    ImGui::Dummy(ImVec2(width, height));

    // The legend: a swatch and the stage's name, wrapped to the plot's width.
    float x = 0;
    for (const BlockSeries& s : series) {
        const std::string name = stage_title(s.stage);
        const float w = fs * 1.6f + ImGui::CalcTextSize(name.c_str()).x + fs;
        if (x > 0 && x + w <= width)
            ImGui::SameLine(0, 0);
        else
            x = 0;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        dl->AddLine(ImVec2(p.x, p.y + fs * 0.55f), ImVec2(p.x + fs * 1.2f, p.y + fs * 0.55f),
                    colour(stage_colour(story_index(f, s.stage))), fs * 0.26f);
        ImGui::Dummy(ImVec2(fs * 1.6f, fs));
        ImGui::SameLine(0, 0);
        ImGui::TextUnformatted(name.c_str());
        ImGui::SameLine(0, 0);
        ImGui::Dummy(ImVec2(fs, fs));
        x += w;
    }
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
        ImGui::SetTooltip("global atomics run at a few GB/s: on a log scale they stay visible");
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
    const Axis shape =
        Axis::over(largest(bars, series), smallest_positive(bars, series), log_scale);

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
