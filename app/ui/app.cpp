#include "app.hpp"

#include "render/gl_renderer.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace pplab::ui {

namespace {

constexpr float kBaseFontPx = 18.0f;
constexpr float kMinScale = 0.75f, kMaxScale = 3.0f, kScaleStep = 0.25f;

// What the fonts must draw beyond ASCII: the captions' dashes and arrows, §, ×, the
// transport's triangles.
const ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x21FF, 0x2200,
                                0x22FF, 0x25A0, 0x25FF, 0x2700, 0x27BF, 0};

ImFont* add_font(std::span<const unsigned char> ttf, float px) {
    ImFontConfig cfg;
    cfg.FontDataOwnedByAtlas = false; // the bytes are the binary's own, embedded
    cfg.OversampleH = 2;
    return ImGui::GetIO().Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(ttf.data()),
                                                      static_cast<int>(ttf.size()), px, &cfg,
                                                      kGlyphRanges);
}

} // namespace

App::App(Platform platform)
    : platform_(std::move(platform)), tracer_(platform_.wake),
      canvas_(std::make_unique<CanvasPanel>()), timing_(platform_.wake) {
    ImGui::GetIO().IniFilename = nullptr; // the layout is computed, not remembered
    submitted_ = st_.settings;
    latest_job_ = tracer_.submit(st_.settings);
}

App::~App() = default;

void App::load_fonts() {
    const float s = st_.view.presenter_scale;
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    st_.fonts.regular = add_font(render::ui_font(), std::round(kBaseFontPx * s));
    st_.fonts.large = add_font(render::ui_font(), std::round(kBaseFontPx * 1.45f * s));
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
    ImGuiStyle style;
    if (st_.view.theme == scene::Theme::Light)
        ImGui::StyleColorsLight(&style);
    else
        ImGui::StyleColorsDark(&style);
    style.WindowRounding = 0;
    style.FrameRounding = 4;
    style.GrabRounding = 4;
    style.WindowPadding = ImVec2(12, 10);
    style.FramePadding = ImVec2(8, 5);
    style.ItemSpacing = ImVec2(8, 7);
    style.WindowBorderSize = 0;
    const scene::Palette pal = scene::palette(st_.view.theme);
    style.Colors[ImGuiCol_WindowBg] =
        ImVec4(pal.background.r, pal.background.g, pal.background.b, 1);
    style.Colors[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);
    style.Colors[ImGuiCol_Text] = ImVec4(pal.text.r, pal.text.g, pal.text.b, 1);
    style.Colors[ImGuiCol_TextDisabled] = ImVec4(pal.muted.r, pal.muted.g, pal.muted.b, 1);
    style.ScaleAllSizes(st_.view.presenter_scale);
    ImGui::GetStyle() = style;
    styled_ = st_.view.theme;
    styled_once_ = true;
}

bool App::animating() const {
    return st_.playback.moving() || canvas_->animating() || tracer_.busy() ||
           st_.classroom.runs.busy() || timing_.busy() || export_.busy();
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
        // Keep the playback position where it still exists in the new trace.
        std::optional<scene::StepKey> where;
        if (st_.model)
            where = st_.model->key(st_.playback.step);
        st_.model = r->model;
        const int steps = st_.steps();
        int step = where ? st_.model->find(*where) : 0;
        if (step < 0)
            step = std::min(st_.playback.step, steps - 1);
        st_.playback.step = std::clamp(step, 0, std::max(steps - 1, 0));
        st_.playback.t = 1.0f;
        st_.block = std::clamp(st_.block, 0, std::max(st_.model->grid(0) - 1, 0));
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
        st_.view.presenter_scale = std::clamp(s, kMinScale, kMaxScale);
        return;
    }
    if (io.WantTextInput)
        return;
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

void App::menu() {
    if (!ImGui::BeginMainMenuBar())
        return;
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("Light (projector)", nullptr, st_.view.theme == scene::Theme::Light))
            st_.view.theme = scene::Theme::Light;
        if (ImGui::MenuItem("Dark", nullptr, st_.view.theme == scene::Theme::Dark))
            st_.view.theme = scene::Theme::Dark;
        ImGui::Separator();
        if (ImGui::MenuItem("Larger text", "Ctrl +", false, st_.view.presenter_scale < kMaxScale))
            st_.view.presenter_scale = std::min(kMaxScale, st_.view.presenter_scale + kScaleStep);
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
    ImGui::TextDisabled("   presenter scale %.0f%%", st_.view.presenter_scale * 100);
    ImGui::EndMainMenuBar();
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
            {"PNG of this frame", ExportKind::Png},
            {"SVG of this frame (for slides)", ExportKind::Svg},
            {"GIF of the whole run", ExportKind::Gif},
            {"PNG sequence of the whole run", ExportKind::PngSequence},
        };
        for (const auto& [label, kind] : kinds)
            if (ImGui::MenuItem(label, nullptr, false, st_.model != nullptr))
                export_.open_for(kind, st_);
        ImGui::EndMenu();
    }
}

void App::frame(double now) {
    const double dt = last_ < 0 ? 0.0 : std::clamp(now - last_, 0.0, 0.25);
    last_ = now;
    if (fonts_scale_ != st_.view.presenter_scale)
        fonts_dirty_ = true;
    apply_style();
    tracer_.advance(); // without threads (the page): the trace's next stages, in this frame
    adopt_results();
    apply_jump(st_);
    practice_follow(st_);
    keys();
    st_.playback.update(dt, st_.steps());
    timing_.update(st_);

    menu();
    const ImGuiIO& io = ImGui::GetIO();
    const float s = st_.view.presenter_scale;
    const float top = ImGui::GetFrameHeight();
    const float width = io.DisplaySize.x, height = io.DisplaySize.y - top;
    const float left_w = st_.view.show_controls ? std::min(360.0f * s, width * 0.28f) : 0.0f;
    const float right_w = st_.view.show_source ? std::min(520.0f * s, width * 0.33f) : 0.0f;
    constexpr ImGuiWindowFlags fixed = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                       ImGuiWindowFlags_NoSavedSettings |
                                       ImGuiWindowFlags_NoBringToFrontOnFocus;
    const scene::Palette pal = scene::palette(st_.view.theme);
    const ImVec4 side(pal.panel.r, pal.panel.g, pal.panel.b, 1);

    if (left_w > 0) {
        ImGui::SetNextWindowPos(ImVec2(0, top));
        ImGui::SetNextWindowSize(ImVec2(left_w, height));
        ImGui::PushStyleColor(ImGuiCol_WindowBg, side);
        ImGui::Begin("Controls", nullptr, fixed);
        controls_.draw(st_, tracer_);
        ImGui::Spacing();
        ImGui::Spacing();
        counters_.draw(st_);
        ImGui::End();
        ImGui::PopStyleColor();
    }
    if (right_w > 0) {
        ImGui::SetNextWindowPos(ImVec2(width - right_w, top));
        ImGui::SetNextWindowSize(ImVec2(right_w, height));
        ImGui::PushStyleColor(ImGuiCol_WindowBg, side);
        ImGui::Begin("Source", nullptr, fixed);
        // The kernel's source, or the classroom: practice, exercises, pitfalls, sessions.
        if (ImGui::BeginTabBar("right_column")) {
            const bool pick = st_.classroom.select_tab;
            if (ImGui::BeginTabItem("Kernel source")) {
                if (!pick)
                    st_.classroom.show = false;
                source_.draw(st_);
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem("Classroom", nullptr,
                                    pick ? ImGuiTabItemFlags_SetSelected : 0)) {
                if (!pick)
                    st_.classroom.show = true;
                classroom_.draw(st_);
                ImGui::EndTabItem();
            }
            ImGui::EndTabBar();
        }
        ImGui::End();
        ImGui::PopStyleColor();
    }
    ImGui::SetNextWindowPos(ImVec2(left_w, top));
    ImGui::SetNextWindowSize(ImVec2(width - left_w - right_w, height));
    ImGui::Begin("Stage", nullptr,
                 fixed | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    header_.draw(st_);
    const float transport_h =
        ImGui::GetFrameHeightWithSpacing() * 2.5f + ImGui::GetStyle().ItemSpacing.y;
    ImGui::BeginChild("canvas_area", ImVec2(0, -transport_h), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    canvas_->draw(st_, dt);
    ImGui::EndChild();
    ImGui::Separator();
    transport_.draw(st_);
    ImGui::End();

    timing_.draw(st_, left_w, top, width - left_w, height); // over the stage and the source
    export_.draw(st_);

    if (show_help_) {
        ImGui::SetNextWindowSize(ImVec2(520 * s, 0), ImGuiCond_Appearing);
        ImGui::Begin("Keys and mouse", &show_help_, ImGuiWindowFlags_NoSavedSettings);
        ImGui::TextUnformatted("Space          play / pause\n"
                               "Right, Left    step forward (animated) / back\n"
                               "Home, End      first / last step\n"
                               "Ctrl +, Ctrl −  presenter scale\n"
                               "F              canvas only (hide the side panels)\n"
                               "Wheel, drag    zoom and pan the canvas\n"
                               "Double-click   fit the whole picture\n"
                               "Click in[]     show the block that reads it\n"
                               "Hover a cell   which thread wrote it, from what\n"
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
    }
}

} // namespace pplab::ui
