#include "layout.hpp"

#include "render/text_layout.hpp"

#include <algorithm>
#include <cmath>

namespace pplab::ui {

namespace {

using scene::Rect;

// The caption's type sizes, largest first: the first that needs at most two lines is used.
constexpr float kCaptionSizes[] = {1.0f, 0.0f, -1.0f}; // large, regular, small (see below)
constexpr int kCaptionLinesWanted = 2;

float caption_font(const Metrics& m, float which) {
    if (which > 0)
        return m.large;
    return which == 0 ? m.font : std::round(m.font * 0.85f);
}

struct Docking {
    bool controls = false, source = false;
};

WindowLayout arrange(const LayoutRequest& r, const Metrics& m, Docking dock) {
    WindowLayout l;
    const float w = r.width, h = r.height;
    float top = 0;
    const bool toolbar_in_menu =
        !r.present && r.menu_width + r.toolbar_width + 2 * m.padding_x <= w;
    if (!r.present) {
        l.menu = {0, 0, w, m.frame};
        top = m.frame;
    }
    const float left = dock.controls ? std::min(360.0f * m.scale, w * 0.28f) : 0.0f;
    const float right = dock.source ? std::min(520.0f * m.scale, w * 0.33f) : 0.0f;
    if (left > 0)
        l.controls = {0, top, left, h - top};
    if (right > 0)
        l.source = {w - right, top, right, h - top};
    l.controls_folded = !r.present && r.show_controls && !dock.controls;
    l.source_folded = !r.present && r.show_source && !dock.source;
    l.drawer_width_controls = std::min(360.0f * m.scale, w * 0.9f);
    l.drawer_width_source = std::min(520.0f * m.scale, w * 0.9f);
    l.stage = {left, top, w - left - right, h - top};

    const float inner_x = l.stage.x + m.padding_x,
                inner_w = std::max(l.stage.w - 2 * m.padding_x, 1.0f);
    float y = l.stage.y + m.padding_y;
    if (!r.present && !toolbar_in_menu) {
        l.toolbar = {inner_x, y, inner_w, m.frame};
        y += m.frame + m.spacing;
    }
    // The caption: the largest type that keeps it to two lines, its height fixed for the trace.
    for (const float which : kCaptionSizes) {
        l.caption_font = caption_font(m, which);
        l.caption_lines = r.caption_lines ? std::max(1, r.caption_lines(l.caption_font, inner_w))
                                          : kCaptionLinesWanted;
        if (l.caption_lines <= kCaptionLinesWanted)
            break;
    }
    const float caption_h = static_cast<float>(l.caption_lines) * l.caption_font;
    l.caption = {inner_x, y, inner_w, caption_h};
    y += caption_h + m.spacing;

    const float row = std::round(m.frame * 1.15f);
    const int rows = r.transport_width <= inner_w ? 1 : 2;
    const float transport_h = m.spacing + row + (rows == 2 ? m.spacing + m.frame : 0.0f);
    const float bottom = l.stage.bottom() - m.padding_y;
    l.transport = {inner_x, bottom - transport_h, inner_w, transport_h};
    l.canvas = {inner_x, y, inner_w, std::max(l.transport.y - m.spacing - y, 16.0f)};
    return l;
}

float share(const WindowLayout& l, const LayoutRequest& r) {
    return l.canvas.w * l.canvas.h / std::max(r.width * r.height, 1.0f);
}

} // namespace

Metrics metrics(float scale) {
    Metrics m;
    m.scale = scale;
    m.font = std::round(kBaseFontPx * scale);
    // Captions are read from the back of the room: half as large again at 100%; above it the
    // presenter scale already enlarges everything, and the caption keeps a fixed lead.
    m.large = std::round(kBaseFontPx * (scale <= 1.0f ? 1.45f * scale : scale + 0.45f));
    m.frame = m.font + 2 * std::round(5.0f * scale);
    m.spacing = std::round(7.0f * scale);
    m.padding_x = std::round(8.0f * scale);
    m.padding_y = std::round(6.0f * scale);
    m.item_spacing = std::round(8.0f * scale);
    m.inner_spacing = std::round(4.0f * scale);
    m.frame_padding_x = std::round(8.0f * scale);
    return m;
}

std::string glue_last_word(std::string caption) {
    return render::glue_last_word(std::move(caption)); // as the pictures wrap it
}

std::vector<std::string> captions_to_measure(const scene::Model& m, int block) {
    const std::size_t steps = m.steps().size();
    const std::size_t every = std::max<std::size_t>(1, steps / 300);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < steps; i += every)
        out.push_back(glue_last_word(m.dataflow().caption(m.frame_at(static_cast<int>(i), block))));
    return out;
}

float menu_bar_width(const Metrics& m, const TextWidth& measure) {
    float w = 0;
    for (const char* item : {"View", "Classroom", "Timing", "Export", "Help", "Controls ▾",
                             "Kernel source ▾", "presenter scale 300% · P: present"})
        w += measure(item, m.font) + m.item_spacing * 2;
    return w;
}

float toolbar_width(const Metrics& m, const TextWidth& measure, bool block_selector) {
    float w = 0;
    for (const char* mode : kCameraModeNames)
        w += m.frame + m.inner_spacing + measure(mode, m.font) + m.item_spacing;
    if (block_selector)
        w += m.font * 2 + measure("Block", m.font) + m.frame * 2 + m.font * 7 + m.item_spacing * 4;
    return w;
}

float transport_button_width(const Metrics& m) {
    return m.frame * 1.2f;
}

float transport_speed_width(const Metrics& m, const TextWidth& measure) {
    return measure("speed 4×", m.font) + m.frame_padding_x * 4;
}

const char* present_button(float scale, bool present) {
    return present ? "✕ present" : scale > 1.25f ? "▣ present (P)" : "";
}

float transport_width(const Metrics& m, const TextWidth& measure, bool present,
                      bool offer_present) {
    const float buttons = 6 * transport_button_width(m) + 5 * m.item_spacing;
    const float scrub = m.font * 8;
    const float loop = m.frame + measure("loop", m.font) + m.inner_spacing + m.item_spacing;
    const std::string_view button =
        present || offer_present ? present_button(m.scale, present) : "";
    const float leave =
        button.empty() ? 0.0f : measure(button, m.font) + m.frame_padding_x * 2 + m.item_spacing;
    return buttons + scrub + transport_speed_width(m, measure) + loop + leave + 3 * m.item_spacing;
}

float canvas_share_target(float scale) {
    return std::clamp(0.3f + 0.4f * (scale - 1.0f), 0.3f, 0.5f);
}

WindowLayout window_layout(const LayoutRequest& r) {
    const Metrics m = metrics(r.scale);
    if (r.present)
        return arrange(r, m, {});
    const float target = canvas_share_target(r.scale);
    // Both columns, then without the source column, then without either.
    const Docking tries[] = {{r.show_controls, r.show_source}, {r.show_controls, false}, {}};
    WindowLayout l;
    for (const Docking& d : tries) {
        l = arrange(r, m, d);
        if (share(l, r) >= target)
            break;
    }
    return l;
}

} // namespace pplab::ui
