#include "layout.hpp"

#include "render/text_layout.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace pplab::ui {

namespace {

using scene::Rect;

constexpr const char* kLeavePresent = "✕ present";
constexpr const char* kLeavePresentShort = "✕";

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
    // The style's sizes as ImGui's ScaleAllSizes makes them: floored (at 150% a frame's
    // padding is 7 px, not 7.5 rounded to 8).
    const auto scaled = [scale](float at_100) { return std::floor(at_100 * scale); };
    m.frame = m.font + 2 * scaled(kFramePaddingY);
    m.spacing = scaled(kItemSpacingY);
    m.padding_x = std::round(8.0f * scale); // the stage's own padding (App::stage)
    m.padding_y = std::round(6.0f * scale);
    m.item_spacing = scaled(kItemSpacingX);
    m.inner_spacing = scaled(kItemInnerSpacing);
    m.frame_padding_x = scaled(kFramePaddingX);
    m.window_padding_x = scaled(kWindowPaddingX);
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
        out.push_back(glue_last_word(m.caption(m.frame_at(static_cast<int>(i), block))));
    return out;
}

std::vector<std::string> menu_bar_menus(bool controls_folded, bool source_folded) {
    std::vector<std::string> items = {"View", "Classroom", "Timing", "Export", "Help"};
    if (controls_folded)
        items.emplace_back("Controls ▾");
    if (source_folded)
        items.emplace_back("Kernel source ▾");
    return items;
}

float menu_items_end(const Metrics& m, const TextWidth& measure,
                     const std::vector<std::string>& items) {
    // ImGui (BeginMenu in a menu bar) steps in half a spacing, draws the text, and the next
    // item starts two spacings on, less the half: the last text ends 1.5 spacings short.
    float x = std::max(m.window_padding_x, m.item_spacing);
    for (const std::string& item : items)
        x += measure(item, m.font) + m.item_spacing * 2;
    return items.empty() ? x : x - std::ceil(m.item_spacing * 1.5f);
}

float menu_offer_width(const Metrics& m, const TextWidth& measure) {
    return measure(kPresentOffer, m.font) + m.item_spacing * 2 + m.window_padding_x;
}

float largest_scale(float width, const TextWidth& measure) {
    for (float scale = kMaxScale; scale > kMinScale; scale -= kScaleStep) {
        const Metrics m = metrics(scale);
        const float stage = width - 2 * m.padding_x; // both columns folded at this size
        // The offer's item clear of the last menu's (App::present_offer): two spacings on.
        const bool menus = menu_items_end(m, measure, menu_bar_menus(true, true)) +
                               2 * m.item_spacing + menu_offer_width(m, measure) <=
                           width;
        if (menus && toolbar_width(m, measure, true) <= stage &&
            transport_width(m, measure, false) <= stage)
            return scale;
    }
    return kMinScale;
}

float menu_bar_width(const Metrics& m, const TextWidth& measure) {
    float w = measure("presenter scale 300% · P: present", m.font) + m.item_spacing * 2;
    for (const std::string& item : menu_bar_menus(true, true))
        w += measure(item, m.font) + m.item_spacing * 2;
    return w;
}

std::string scrub_label(const Metrics& m, const TextWidth& measure, int steps,
                        std::string_view name, float width) {
    const std::string n = std::to_string(std::max(steps, 1));
    const std::string full = "step %d of " + n;
    std::vector<std::string> forms;
    if (!name.empty())
        forms.push_back(full + "   ·   " + std::string(name));
    for (const std::string& form : {full, "%d of " + n, "%d/" + n})
        forms.push_back(form);
    for (const std::string& form : forms) {
        std::string widest = form; // the step with as many digits as the last
        widest.replace(widest.find("%d"), 2, n);
        if (measure(widest, m.font) <= width - m.font)
            return form;
    }
    return "%d";
}

std::string scale_readout(const Metrics& m, const TextWidth& measure, float scale, float room) {
    const std::string percent = std::to_string(static_cast<int>(std::lround(scale * 100))) + "%";
    std::vector<std::string> forms = {"presenter scale " + percent, percent};
    if (scale > 1.25f)
        forms.insert(forms.begin(), forms.front() + " · P: present");
    for (const std::string& form : forms)
        if (measure(form, m.font) + m.item_spacing * 2 <= room)
            return form;
    return {};
}

float toolbar_width(const Metrics& m, const TextWidth& measure, bool block_selector) {
    float w = 0;
    for (const char* mode : kCameraModeNames)
        w += radio_width(m, measure, mode) + m.item_spacing;
    if (block_selector)
        w += m.font * 2 + measure("Block", m.font) + m.frame * 2 + block_slider_min_width(m) +
             m.item_spacing * 4;
    return w;
}

float transport_button_width(const Metrics& m) {
    return m.frame * 1.2f;
}

float transport_speed_width(const Metrics& m, const TextWidth& measure) {
    return measure("speed 4×", m.font) + m.frame_padding_x * 4;
}

float transport_width(const Metrics& m, const TextWidth& measure, bool present,
                      std::string_view offer) {
    // As TransportPanel::draw lays the row out: five buttons (play twice as wide) a spacing
    // apart, two spacings, the scrub, then a spacing before each of the speed, loop and the
    // present-mode button. Not a pixel more: at 1280x720 and 200% "✕" has 12 px to spare.
    const float buttons = 6 * transport_button_width(m) + 4 * m.item_spacing;
    const float scrub = m.font * 8;
    const float loop = radio_width(m, measure, "loop") + m.item_spacing;
    const std::string_view button = present ? kLeavePresentShort : offer;
    const float leave =
        button.empty() ? 0.0f : measure(button, m.font) + m.frame_padding_x * 2 + m.item_spacing;
    return buttons + 3 * m.item_spacing + scrub + transport_speed_width(m, measure) + loop + leave;
}

const char* present_button(const Metrics& m, const TextWidth& measure, float width, bool present) {
    if (present) // "✕" where the whole label would cost a second row (1280x720 at 200%)
        return transport_width(m, measure, false, kLeavePresent) <= width ? kLeavePresent
                                                                          : kLeavePresentShort;
    if (m.scale <= 1.25f || transport_width(m, measure, false) > width)
        return ""; // small text, or two rows already: no offer
    for (const char* offer : {"▣ present (P)", "▣ P"})
        if (transport_width(m, measure, false, offer) <= width)
            return offer;
    return "";
}

scene::Rect slider_value_bar(const scene::Rect& frame, float fraction) {
    const float h = std::max(3.0f, std::round(frame.h * 0.16f));
    const float w = std::max(h, frame.w * std::clamp(fraction, 0.0f, 1.0f));
    return {frame.x, frame.bottom() - h, w, h};
}

scene::Rect frame_text_band(const scene::Rect& frame, float font) {
    return {frame.x, frame.y + std::floor((frame.h - font) * 0.5f), frame.w, font};
}

float block_slider_min_width(const Metrics& m) {
    return m.font * 7;
}

bool dropdown_holds(std::string_view text, float field_w, const Metrics& m,
                    const TextWidth& measure, bool arrow) {
    return measure(text, m.font) + m.frame_padding_x * 2 + (arrow ? m.frame : 0.0f) <= field_w;
}

std::string block_size_text(int block, bool single_block) {
    if (block != 0)
        return std::to_string(block);
    return single_block ? "auto (n rounded up)" : "auto (256)";
}

DropdownText dropdown_text(std::string whole, std::string_view shorter, float field_w,
                           const Metrics& m, const TextWidth& measure) {
    if (dropdown_holds(whole, field_w, m, measure))
        return {std::move(whole), true};
    if (dropdown_holds(shorter, field_w, m, measure))
        return {std::string(shorter), true};
    // Without the arrow; then the shorter text's first words and "…" (at least one word).
    std::string_view words = shorter;
    std::string text(words);
    while (!dropdown_holds(text, field_w, m, measure, false)) {
        const std::size_t space = words.find_last_of(' ');
        if (space == std::string_view::npos || space == 0)
            break; // one word left: it stays whole (ImGui clips it at the field's end)
        words = words.substr(0, space);
        text = std::string(words) + " …";
    }
    return {text, false};
}

std::string algorithm_label(const AlgorithmInfo& i) {
    return std::string(i.title) + "   " + std::string(i.section);
}

DropdownText algorithm_shown(const AlgorithmInfo& i, float field_w, const Metrics& m,
                             const TextWidth& measure) {
    return dropdown_text(algorithm_label(i), i.title, field_w, m, measure);
}

std::string block_size_shown(int block, bool single_block, float field_w, const Metrics& m,
                             const TextWidth& measure) {
    std::string shown = block_size_text(block, single_block);
    return block == 0 ? dropdown_text(shown, "auto", field_w, m, measure).text : shown;
}

std::vector<int> tab_rows(const std::vector<float>& widths, float width, float spacing) {
    const int tabs = static_cast<int>(widths.size());
    std::vector<int> row(widths.size(), 0);
    for (int rows = 1; rows <= tabs; ++rows) {
        const int per_row = (tabs + rows - 1) / rows;
        bool fits = true;
        for (int first = 0; first < tabs && fits; first += per_row) {
            float used = -spacing;
            for (int i = first; i < std::min(first + per_row, tabs); ++i) {
                used += widths[static_cast<std::size_t>(i)] + spacing;
                row[static_cast<std::size_t>(i)] = first / per_row;
            }
            fits = used <= width;
        }
        if (fits)
            return row;
    }
    for (int i = 0; i < tabs; ++i) // one a row: each as whole as the row allows
        row[static_cast<std::size_t>(i)] = i;
    return row;
}

float tab_width(const Metrics& m, const TextWidth& measure, std::string_view name) {
    return measure(name, m.font) + 2 * m.frame_padding_x;
}

float radio_width(const Metrics& m, const TextWidth& measure, std::string_view text) {
    return m.frame + m.inner_spacing + measure(text, m.font);
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

WindowPlacement place_window(const ScreenRect& work_area, const FrameExtents& frame) {
    const int room_w = std::max(work_area.w - frame.left - frame.right, 1);
    const int room_h = std::max(work_area.h - frame.top - frame.bottom, 1);
    WindowPlacement p;
    p.contents.w = std::min(kUsualWindow.w, room_w);
    p.contents.h = std::min(kUsualWindow.h, room_h);
    p.fills_work_area = p.contents.w < kUsualWindow.w || p.contents.h < kUsualWindow.h;
    p.contents.x = work_area.x + frame.left + (room_w - p.contents.w) / 2;
    p.contents.y = work_area.y + frame.top + (room_h - p.contents.h) / 2;
    return p;
}

} // namespace pplab::ui
