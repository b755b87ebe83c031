#include "app.hpp"
#include "style.hpp"

#include "render/gl_renderer.hpp"

#include <imgui.h>
#include <imgui_internal.h> // ClosePopupsExceptModals: Escape closes a dropdown

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <utility>

namespace pplab::ui {

namespace {} // namespace

App::App(Platform platform, Settings initial)
    : platform_(std::move(platform)), tracer_(platform_.wake),
      canvas_(std::make_unique<CanvasPanel>()), timing_(platform_.wake) {
    ImGui::GetIO().IniFilename = nullptr; // the layout is computed, not remembered
    st_.settings = std::move(initial);
    submitted_ = st_.settings;
    latest_job_ = tracer_.submit(st_.settings);
}

App::~App() {
    // A run in flight is killed (its child process) and the student's text kept for next time.
    your_kernel_cancel(st_);
    drafts_save(st_.your);
}

void App::load_fonts() {
    const float s = st_.view.presenter_scale;
    const Metrics m = metrics(s);
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    st_.fonts.regular = add_font(render::ui_font(), m.font);
    st_.fonts.large = add_font(render::ui_font(), m.large);
    st_.fonts.small = add_font(render::ui_font(), std::round(m.font * 0.85f));
    st_.fonts.mono = add_font(render::code_font(), std::round(kBaseFontPx * 0.8f * s));
    st_.fonts.mono_large = add_font(render::code_font(), std::round(kBaseFontPx * 1.15f * s));
    io.FontDefault = st_.fonts.regular;
    io.Fonts->Build();
    fonts_dirty_ = false;
    fonts_scale_ = s;
    styled_once_ = false; // sizes in the style follow the scale
}

void App::apply_style() {
    if (styled_once_ && styled_ == st_.view.theme)
        return;
    ImGui::GetStyle() = window_style(st_.view.theme, st_.view.presenter_scale);
    styled_ = st_.view.theme;
    styled_once_ = true;
}

bool App::animating() const {
    return st_.playback.moving() || canvas_->animating() || tracer_.busy() ||
           st_.classroom.runs.busy() || timing_.busy() || export_.busy() || st_.your.busy();
}

void App::adopt_results() {
    while (auto r = tracer_.take()) {
        const bool latest = r->job == latest_job_;
        if (!r->model) {
            if (latest)
                st_.error = r->error;
            continue;
        }
        if (!latest && st_.model)
            continue; // a newer request is on its way
        if (latest)
            st_.error.clear();
        st_.chapter = r->model;
        if (!st_.your.on_canvas) // the Your kernel tab keeps the student's trace on screen
            show_model(st_, st_.chapter);
        if (!r->note.empty() && r->note != st_.note) {
            st_.note = r->note; // said once: the same note is not shown again once dismissed
            st_.note_dismissed = false;
        }
    }
}

void App::keys() {
    ImGuiIO& io = ImGui::GetIO();
    const int steps = st_.steps();
    Playback& p = st_.playback;
    const auto pressed = [](ImGuiKey_ k) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(k)); };
    const auto pressed_code = [](int code) { return code >= 0 && ImGui::IsKeyPressed(code); };
    if (io.KeyCtrl) {
        const Keys& k = platform_.keys;
        float s = st_.view.presenter_scale;
        if (pressed_code(k.plus) || pressed_code(k.keypad_plus))
            s += kScaleStep;
        if (pressed_code(k.minus) || pressed_code(k.keypad_minus))
            s -= kScaleStep;
        st_.view.presenter_scale = std::clamp(s, kMinScale, largest_scale_here());
        return;
    }
    if (io.WantTextInput)
        return;
    // Escape closes what is open over the stage first: a dropdown or menu, a drawer, then
    // present mode.
    if (pressed(ImGuiKey_Escape) && ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) {
        ImGui::ClosePopupsExceptModals();
    } else if (pressed(ImGuiKey_Escape)) {
        if (st_.view.controls_drawer || st_.view.source_drawer)
            st_.view.controls_drawer = st_.view.source_drawer = false;
        else
            st_.view.present = false;
    }
    if (pressed_code(platform_.keys.present))
        st_.view.present = !st_.view.present;
    if (platform_.keys.canvas_only >= 0 && ImGui::IsKeyPressed(platform_.keys.canvas_only)) {
        const bool show = !(st_.view.show_controls || st_.view.show_source);
        st_.view.show_controls = st_.view.show_source = show;
    }
    if (steps == 0)
        return;
    if (pressed(ImGuiKey_Space))
        p.toggle(steps);
    if (pressed(ImGuiKey_RightArrow))
        p.go_to(p.step + 1, steps), p.playing = false;
    if (pressed(ImGuiKey_LeftArrow))
        p.go_to(p.step - 1, steps), p.playing = false;
    if (pressed(ImGuiKey_Home))
        p.go_to(0, steps), p.playing = false;
    if (pressed(ImGuiKey_End))
        p.go_to(steps - 1, steps), p.playing = false;
}

int App::caption_lines(float font_px, float width) {
    if (!st_.model)
        return 1;
    for (const CaptionCache& c : caption_cache_)
        if (c.model.lock() == st_.model && c.block == st_.block && c.font == font_px &&
            c.width == width)
            return c.lines;
    // Right after a presenter scale change the layout asks for sizes the fonts reload only
    // at the next frame: measured with the nearest font scaled to the size, and not kept, so
    // the caption's height never stays at what another font measured (150% cut its second line).
    ImFont* font = font_px == st_.fonts.large->FontSize   ? st_.fonts.large
                   : font_px == st_.fonts.small->FontSize ? st_.fonts.small
                                                          : st_.fonts.regular;
    int lines = 1;
    for (const std::string& text : captions_to_measure(*st_.model, st_.block))
        lines =
            std::max(lines, static_cast<int>(caption_wrapped(*font, font_px, width, text).size()));
    if (font->FontSize != font_px)
        return lines;
    if (caption_cache_.size() > 16)
        caption_cache_.clear();
    caption_cache_.push_back({st_.model, st_.block, font_px, width, lines});
    return lines;
}

LayoutRequest App::layout_request(float scale) {
    const ImGuiIO& io = ImGui::GetIO();
    LayoutRequest r;
    r.width = io.DisplaySize.x;
    r.height = io.DisplaySize.y;
    r.scale = scale;
    r.show_controls = st_.view.show_controls;
    r.show_source = st_.view.show_source;
    r.present = st_.view.present;
    r.caption_lines = [this](float font, float width) { return caption_lines(font, width); };
    r.menu_width = menu_bar_width(metrics(scale), imgui_text_width());
    r.toolbar_width = CanvasPanel::toolbar_width(st_, scale);
    r.transport_width = TransportPanel::one_row_width(st_, scale);
    return r;
}

WindowLayout App::compute_layout() {
    return window_layout(layout_request(st_.view.presenter_scale));
}

scene::Vec2 App::canvas_at_100() {
    if (st_.view.presenter_scale <= 1.0f || !st_.model)
        return {};
    const ImVec2 size = ImGui::GetIO().DisplaySize;
    At100 key{
        st_.model,        st_.block, {size.x, size.y}, st_.view.show_controls, st_.view.show_source,
        st_.view.present, {}};
    if (!(at_100_.model.lock() == key.model.lock() && at_100_.block == key.block &&
          at_100_.display == key.display && at_100_.controls == key.controls &&
          at_100_.source == key.source && at_100_.present == key.present)) {
        const WindowLayout l = window_layout(layout_request(1.0f));
        key.canvas = {l.canvas.w, l.canvas.h};
        at_100_ = std::move(key);
    }
    return at_100_.canvas;
}

void App::menu() {
    if (st_.view.present || !ImGui::BeginMainMenuBar())
        return;
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("Present", "P", st_.view.present))
            st_.view.present = !st_.view.present;
        ImGui::Separator();
        if (ImGui::MenuItem("Light (projector)", nullptr, st_.view.theme == scene::Theme::Light))
            st_.view.theme = scene::Theme::Light;
        if (ImGui::MenuItem("Dark", nullptr, st_.view.theme == scene::Theme::Dark))
            st_.view.theme = scene::Theme::Dark;
        ImGui::Separator();
        // The scale said here too: the menu bar has no room for it in a small window at 200%.
        const float largest = largest_scale_here();
        ImGui::TextDisabled("presenter scale %d%%",
                            static_cast<int>(std::lround(st_.view.presenter_scale * 100)));
        if (ImGui::MenuItem("Larger text", "Ctrl +", false, st_.view.presenter_scale < largest))
            st_.view.presenter_scale = std::min(largest, st_.view.presenter_scale + kScaleStep);
        if (st_.view.presenter_scale >= largest && largest < kMaxScale)
            ImGui::TextDisabled("the largest this window's width allows");
        if (ImGui::MenuItem("Smaller text", "Ctrl −", false, st_.view.presenter_scale > kMinScale))
            st_.view.presenter_scale = std::max(kMinScale, st_.view.presenter_scale - kScaleStep);
        ImGui::Separator();
        if (ImGui::MenuItem("Canvas only", "F", !st_.view.show_controls && !st_.view.show_source)) {
            const bool show = !(st_.view.show_controls || st_.view.show_source);
            st_.view.show_controls = st_.view.show_source = show;
        }
        ImGui::MenuItem("Controls", nullptr, &st_.view.show_controls);
        ImGui::MenuItem("Kernel source", nullptr, &st_.view.show_source);
        ImGui::MenuItem("Arrows of earlier steps", nullptr, &st_.view.past_arrows);
        ImGui::EndMenu();
    }
    classroom_menu();
    timing_and_export_menus();
    if (ImGui::BeginMenu("Help")) {
        ImGui::MenuItem("Keys and mouse", nullptr, &show_help_);
        ImGui::EndMenu();
    }
    // Folded columns open as drawers over the stage.
    const auto drawer = [](const char* label, bool& open) {
        if (ImGui::MenuItem(label, nullptr, open))
            open = !open;
    };
    if (layout_.controls_folded)
        drawer("Controls ▾", st_.view.controls_drawer);
    if (layout_.source_folded)
        drawer("Kernel source ▾", st_.view.source_drawer);
    if (layout_.toolbar.empty())
        CanvasPanel::toolbar(st_);
    // The presenter scale (as long as the row has room: "200%" at least, beside the present
    // offer where the transport has none), then the kernel's name where there is room left.
    const ImGuiStyle& style = ImGui::GetStyle();
    const Metrics m = metrics(st_.view.presenter_scale);
    const float offer_w = present_offered_here() ? menu_offer_width(m, imgui_text_width()) : 0.0f;
    const std::string scale =
        scale_readout(m, imgui_text_width(), st_.view.presenter_scale,
                      ImGui::GetContentRegionAvail().x - offer_w - style.ItemSpacing.x);
    const float scale_w =
        scale.empty() ? 0.0f : ImGui::CalcTextSize(scale.c_str()).x + style.ItemSpacing.x * 2;
    backend_note(scale_w + offer_w);
    if (st_.model) {
        const AlgorithmInfo& ai = info(st_.model->request().algorithm);
        const std::string title = (st_.your.on_canvas ? "Your kernel: " : "") +
                                  std::string(ai.title) + "  " + std::string(ai.section);
        if (ImGui::CalcTextSize(title.c_str()).x + scale_w + offer_w + style.ItemSpacing.x * 4 <
            ImGui::GetContentRegionAvail().x) {
            ImGui::SameLine(0, style.ItemSpacing.x * 3);
            ImGui::TextUnformatted(title.c_str());
        }
    }
    scale_shown_.clear();
    if (!scale.empty() && scale_w + offer_w < ImGui::GetContentRegionAvail().x) {
        ImGui::SameLine(ImGui::GetWindowWidth() - scale_w - offer_w);
        ImGui::TextDisabled("%s", scale.c_str());
        scale_shown_ = scale;
    }
    if (offer_w > 0)
        present_offer();
    ImGui::EndMainMenuBar();
}

float App::largest_scale_here() const {
    const float width = ImGui::GetIO().DisplaySize.x;
    return width > 0 ? largest_scale(width, imgui_text_width()) : kMaxScale;
}

bool App::present_offered_here() const {
    return st_.view.presenter_scale > 1.25f &&
           *present_button(metrics(st_.view.presenter_scale), imgui_text_width(),
                           layout_.transport.w, false) == '\0';
}

// Large text in a small window (1280x720 at 200%): the transport's row has no room for its
// offer; present mode is still one click away, at the menu bar's end (only there: one offer at
// a time).
void App::present_offer() {
    const char* offer = kPresentOffer;
    // A menu bar item takes its text and the bar's item spacing around it; the bar keeps the
    // window's padding at its end.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float at = ImGui::GetWindowWidth() - style.WindowPadding.x - style.ItemSpacing.x * 2 -
                     ImGui::CalcTextSize(offer).x;
    if (at < ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + style.ItemSpacing.x)
        return; // no room after the last menu
    ImGui::SameLine(at);
    if (ImGui::MenuItem(offer))
        st_.view.present = true;
    if (ImGui::IsItemHovered())
        tooltip("present mode (P): caption, canvas and transport alone");
}

void App::backend_note(float keep) {
    if (st_.note.empty())
        return;
    // "no GPU: …; using the CPU lockstep model …" -> "no GPU: CPU model", the whole on hover.
    const std::string tag =
        "● " + st_.note.substr(0, std::min<std::size_t>(st_.note.find(':'), 40)) + ": CPU model";
    const ImGuiStyle& style = ImGui::GetStyle();
    if (ImGui::CalcTextSize(tag.c_str()).x + keep + style.ItemSpacing.x * 3 >
        ImGui::GetContentRegionAvail().x)
        return;
    ImGui::SameLine(0, style.ItemSpacing.x * 3);
    const scene::Palette pal = scene::palette(st_.view.theme);
    // Said once, visibly: in the highlight colour until read (hovered), then quietly.
    const scene::Rgba c = st_.note_dismissed ? pal.muted : pal.highlight;
    ImGui::TextColored(ImVec4(c.r, c.g, c.b, 1), "%s", tag.c_str());
    if (ImGui::IsItemHovered()) {
        st_.note_dismissed = true;
        tooltip("%s", st_.note.c_str());
    }
}

void App::open_file(const std::string& path) {
    Classroom& c = st_.classroom;
    if (path.ends_with(".json")) {
        c.session_path = path;
        session_open(st_);
        open_classroom(st_, ClassroomTab::Session);
        return;
    }
    c.hand.path = path;
    hand_trace_read(c.hand);
    if (c.hand.error.empty())
        hand_trace_check(st_);
    open_classroom(st_, ClassroomTab::HandTrace);
}

void App::classroom_menu() {
    if (!ImGui::BeginMenu("Classroom"))
        return;
    Practice& p = st_.classroom.practice;
    if (ImGui::MenuItem("Practice mode", nullptr, p.on)) {
        if (p.on)
            p.on = false;
        else
            practice_start(st_);
        open_classroom(st_, ClassroomTab::Practice);
    }
    if (ImGui::MenuItem("Exercise 3: Blelloch on [1, 2, 3, 4]"))
        exercise3_practice(st_);
    ImGui::Separator();
    const std::pair<const char*, ClassroomTab> tabs[] = {
        {"Check a hand-trace", ClassroomTab::HandTrace},
        {"Exercises", ClassroomTab::Exercises},
        {"Pitfalls", ClassroomTab::Pitfalls},
        {"Determinism", ClassroomTab::Determinism},
        {"Save or open a session", ClassroomTab::Session},
    };
    for (const auto& [label, tab] : tabs)
        if (ImGui::MenuItem(label))
            open_classroom(st_, tab);
    ImGui::EndMenu();
}

void App::timing_and_export_menus() {
    if (ImGui::BeginMenu("Timing")) {
        ImGui::MenuItem("Every stage beside CUB and the copy roof", nullptr, &timing_.open);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Export")) {
        const std::pair<const char*, ExportKind> kinds[] = {
            {"PNG of this step", ExportKind::Png},
            {"SVG of this step (for slides)", ExportKind::Svg},
            {"GIF of the whole run", ExportKind::Gif},
            {"PNG sequence of the whole run", ExportKind::PngSequence},
        };
        for (const auto& [label, kind] : kinds)
            if (ImGui::MenuItem(label, nullptr, false, st_.model != nullptr))
                export_.open_for(kind, st_);
        ImGui::EndMenu();
    }
}

void App::column(const char* name, bool left, const scene::Rect& docked, bool folded, bool& drawer,
                 float drawer_width) {
    const ImGuiIO& io = ImGui::GetIO();
    scene::Rect at = docked;
    if (!docked.empty()) {
        drawer = false;
    } else if (folded && drawer) {
        // Over the stage, from the edge it belongs to, below the menu bar.
        at = {left ? 0.0f : io.DisplaySize.x - drawer_width, layout_.menu.bottom(), drawer_width,
              io.DisplaySize.y - layout_.menu.bottom()};
    } else {
        return;
    }
    constexpr ImGuiWindowFlags fixed =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings;
    const scene::Palette pal = scene::palette(st_.view.theme);
    ImGui::SetNextWindowPos(ImVec2(at.x, at.y));
    ImGui::SetNextWindowSize(ImVec2(at.w, at.h));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(pal.panel.r, pal.panel.g, pal.panel.b, 1));
    const bool over = docked.empty();
    if (over) // a drawer: framed, and closed by a click outside it
        ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize,
                            std::max(1.0f, st_.view.presenter_scale));
    ImGui::Begin(name, nullptr, fixed | (over ? 0 : ImGuiWindowFlags_NoBringToFrontOnFocus));
    if (over && ImGui::IsMouseClicked(ImGuiMouseButton_Left) &&
        !ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows |
                                ImGuiHoveredFlags_AllowWhenBlockedByPopup) &&
        !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId) &&
        io.MousePos.y > layout_.menu.bottom())
        drawer = false;
    if (left) {
        controls_.draw(st_, tracer_);
        ImGui::Spacing();
        ImGui::Spacing();
        counters_.draw(st_);
    } else if (ImGui::BeginTabBar("right_column")) {
        // The kernel's source, or the classroom: practice, exercises, pitfalls, sessions.
        const bool pick = st_.classroom.select_tab;
        bool yours = false;
        if (ImGui::BeginTabItem("Kernel source")) {
            if (!pick)
                st_.classroom.show = false;
            source_.draw(st_);
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Classroom", nullptr, pick ? ImGuiTabItemFlags_SetSelected : 0)) {
            if (!pick)
                st_.classroom.show = true;
            classroom_.draw(st_);
            ImGui::EndTabItem();
        }
        // The student's kernel: while its tab is open, its trace is the one on the canvas.
        if (ImGui::BeginTabItem(
                "Your kernel", nullptr,
                std::exchange(st_.your.select_tab, false) ? ImGuiTabItemFlags_SetSelected : 0)) {
            yours = !pick;
            if (yours)
                st_.classroom.show = false;
            your_kernel_.draw(st_);
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
        your_kernel_show(st_, yours);
    }
    ImGui::End();
    if (over)
        ImGui::PopStyleVar();
    ImGui::PopStyleColor();
}

void App::columns() {
    column("Controls", true, layout_.controls, layout_.controls_folded, st_.view.controls_drawer,
           layout_.drawer_width_controls);
    column("Source", false, layout_.source, layout_.source_folded, st_.view.source_drawer,
           layout_.drawer_width_source);
}

void App::stage(double dt) {
    const scene::Rect& at = layout_.stage;
    const Metrics m = metrics(st_.view.presenter_scale);
    ImGui::SetNextWindowPos(ImVec2(at.x, at.y));
    ImGui::SetNextWindowSize(ImVec2(at.w, at.h));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(m.padding_x, m.padding_y));
    ImGui::Begin("Stage", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                     ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PopStyleVar();
    const auto place = [&](const scene::Rect& r) { ImGui::SetCursorScreenPos(ImVec2(r.x, r.y)); };
    if (!layout_.toolbar.empty()) {
        place(layout_.toolbar);
        CanvasPanel::toolbar(st_);
    }
    header_.draw(st_, layout_);
    place(layout_.canvas);
    const scene::Rect& c = layout_.canvas;
    ImGui::BeginChild("canvas_area", ImVec2(c.w, c.h), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    canvas_->draw(st_, dt, canvas_at_100());
    ImGui::EndChild();
    place(layout_.transport);
    ImGui::Separator();
    transport_.draw(st_, layout_.transport.w);
    ImGui::End();
}

void App::frame(double now) {
    const double dt = last_ < 0 ? 0.0 : std::clamp(now - last_, 0.0, 0.25);
    last_ = now;
    // A window made narrower takes the presenter scale down to what its menu bar holds (the
    // user's own choices are held to it where they are made: Ctrl +, the View menu).
    if (const float w = ImGui::GetIO().DisplaySize.x; w != display_width_) {
        if (w < display_width_)
            st_.view.presenter_scale = std::min(st_.view.presenter_scale, largest_scale_here());
        display_width_ = w;
    }
    if (fonts_scale_ != st_.view.presenter_scale)
        fonts_dirty_ = true;
    apply_style();
    tracer_.advance(); // without threads (the page): the trace's next stages, in this frame
    adopt_results();
    your_kernel_poll(st_);
    apply_jump(st_);
    practice_follow(st_);
    keys();
    st_.playback.update(dt, st_.steps());
    timing_.update(st_);

    layout_ = compute_layout();
    menu();
    stage(dt);
    columns(); // after the stage: a drawer lies over it
    const ImGuiIO& io = ImGui::GetIO();
    const float s = st_.view.presenter_scale;
    const float top = layout_.menu.bottom();
    timing_.draw(st_, layout_.stage.x, top, io.DisplaySize.x - layout_.stage.x,
                 io.DisplaySize.y - top); // over the stage and the source
    export_.draw(st_);

    if (show_help_) {
        ImGui::SetNextWindowSize(ImVec2(560 * s, 0), ImGuiCond_Appearing);
        ImGui::Begin("Keys and mouse", &show_help_, ImGuiWindowFlags_NoSavedSettings);
        ImGui::TextUnformatted("Space          play / pause\n"
                               "Right, Left    step forward (animated) / back\n"
                               "Home, End      first / last step\n"
                               "Ctrl +, Ctrl −  presenter scale\n"
                               "P              present: caption, canvas, transport\n"
                               "Escape         close a dropdown, a drawer, present\n"
                               "F              canvas only (hide the side panels)\n"
                               "Wheel, drag    zoom and pan the canvas\n"
                               "Double-click   fit the whole picture\n"
                               "Click in[]     show the block that reads it\n"
                               "Hover a cell   its value, which thread wrote it\n"
                               "Drop a file    a session (.json) opens; a hand-trace\n"
                               "               is checked (Classroom)");
        ImGui::End();
    }

    if (st_.adopt_settings) {
        // A saved trace was opened: its settings are what is on screen, and a trace still
        // on its way for the settings before is not wanted.
        submitted_ = st_.settings;
        latest_job_ = 0;
        st_.adopt_settings = false;
    }
    if (!(st_.settings == submitted_)) {
        submitted_ = st_.settings;
        latest_job_ = tracer_.submit(st_.settings);
        your_kernel_settings_changed(st_);
    }
}

} // namespace pplab::ui
