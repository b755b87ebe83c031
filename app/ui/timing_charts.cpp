#include "timing_charts.hpp"

#include <imgui.h>

#include <cstdio>

namespace pplab::ui {

namespace {

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

// A ratio to CUB: two decimals, or two significant digits for the stages hundreds of times
// slower (global atomics, one thread).
std::string ratio_text(double v) {
    char b[32];
    std::snprintf(b, sizeof b, v < 0.1 ? "%.2g" : "%.2f", v);
    return b;
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

std::string tick_text(double v) {
    char b[32];
    std::snprintf(b, sizeof b, v < 1 && v > 0 ? "%.1f" : "%.0f", v);
    return b;
}

struct ChartStyle {
    ImU32 text, muted, grid, roof, cub;
    float font; // pixels
};

ChartStyle chart_style(const State& st) {
    const scene::Palette pal = scene::palette(st.view.theme);
    ChartStyle style;
    style.text = ImGui::GetColorU32(ImGuiCol_Text);
    style.muted = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    style.grid = colour(pal.muted, 0.25f);
    style.roof = colour(pal.text, 0.85f);
    style.cub = colour(pal.muted);
    style.font = ImGui::GetFontSize();
    return style;
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

} // namespace

std::string gbps_text(double v) {
    char b[32];
    std::snprintf(b, sizeof b, v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v);
    return b;
}

Axis chart_axis(const Bars& bars, const std::vector<BlockSeries>& series, bool log_scale) {
    return Axis::over(largest(bars, series), smallest_positive(bars, series), log_scale);
}

void bars_chart(const State& st, Family f, const Bars& bars, const Axis& shape, float width) {
    const ChartStyle style = chart_style(st);
    const float fs = style.font;
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
        dl->AddLine(ImVec2(axis.at(t), top), ImVec2(axis.at(t), bottom), style.grid, 1.0f);
    dl->AddLine(ImVec2(x0, bottom), ImVec2(x1, bottom), style.muted, 1.0f);
    x_ticks(dl, axis, bottom + fs * 0.25f, style.muted, fs);
    const char* axis_title = "GB/s: the bytes that must move ÷ the time";
    dl->AddText(ImVec2(x0, bottom + fs * 1.45f), style.muted, axis_title);

    for (std::size_t i = 0; i < bars.stages.size(); ++i) {
        const StageBar& b = bars.stages[i];
        const float y = top + row_h * static_cast<float>(i);
        const float mid = y + row_h / 2;
        if (info(current).id == b.stage)
            dl->AddRectFilled(ImVec2(o.x, y + 1), ImVec2(o.x + width, y + row_h - 1),
                              colour(scene::palette(st.view.theme).highlight, 0.22f), fs * 0.2f);
        dl->AddText(ImVec2(o.x + fs * 0.4f, mid - fs * 1.1f), style.text, titles[i].c_str());
        dl->AddText(ImVec2(o.x + fs * 0.4f, mid + fs * 0.05f), style.muted, details[i].c_str());
        if (!b.row) {
            dl->AddText(ImVec2(x0 + fs * 0.4f, mid - fs / 2), style.muted, b.note.c_str());
            continue;
        }
        const float xe = std::max(axis.at(b.row->gbps), x0 + 2.0f);
        dl->AddRectFilled(ImVec2(x0, mid - bar_h / 2), ImVec2(xe, mid + bar_h / 2),
                          colour(stage_colour(story_index(f, b.stage))), fs * 0.15f);
        dl->AddText(ImVec2(xe + fs * 0.4f, mid - fs / 2), style.text, values[i].c_str());
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
            {bars.roof_gbps, "copy roof " + gbps_text(bars.roof_gbps) + " GB/s", style.roof});
    if (bars.cub)
        refs.push_back({bars.cub->gbps, "CUB " + gbps_text(bars.cub->gbps) + " GB/s", style.cub});
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
    const ChartStyle style = chart_style(st);
    const float fs = style.font;
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
    dl->AddText(ImVec2(o.x, o.y), style.muted, "GB/s");
    for (const double t : axis.ticks()) {
        const float y = axis.at(t);
        dl->AddLine(ImVec2(x0, y), ImVec2(x1, y), style.grid, 1.0f);
        const std::string s = tick_text(t);
        dl->AddText(ImVec2(x0 - fs * 0.4f - ImGui::CalcTextSize(s.c_str()).x, y - fs / 2),
                    style.muted, s.c_str());
    }
    dl->AddLine(ImVec2(x0, bottom), ImVec2(x1, bottom), style.muted, 1.0f);
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
                    b == highlight ? style.text : style.muted, s.c_str());
    }
    const char* x_title = "threads per block";
    dl->AddText(ImVec2((x0 + x1) / 2 - ImGui::CalcTextSize(x_title).x / 2, bottom + fs * 1.45f),
                style.muted, x_title);

    // The reference lines, named in the right margin; the lower name moves down when the
    // two would overlap.
    const float roof_y = refs.roof_gbps > 0 ? axis.at(refs.roof_gbps) : -1e9f;
    if (refs.roof_gbps > 0) {
        dashed(dl, ImVec2(x0, roof_y), ImVec2(x1, roof_y), style.roof, 2.0f, fs * 0.35f);
        dl->AddText(ImVec2(x1 + fs * 0.4f, roof_y - fs / 2), style.roof, "copy roof");
    }
    if (refs.cub) {
        const float y = axis.at(refs.cub->gbps);
        dashed(dl, ImVec2(x0, y), ImVec2(x1, y), style.cub, 2.0f, fs * 0.35f);
        float name_y = y - fs / 2;
        if (std::abs(name_y - (roof_y - fs / 2)) < fs)
            name_y = y < roof_y ? roof_y - fs * 1.5f : roof_y + fs * 0.5f;
        dl->AddText(ImVec2(x1 + fs * 0.4f, name_y), style.cub, "CUB");
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

} // namespace pplab::ui
