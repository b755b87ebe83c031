// The window's contents, independent of GLFW: main.cpp (or a test) owns the context and the
// ImGui backends, and calls frame() between ImGui::NewFrame() and ImGui::Render().
#pragma once

#include "classroom_panel.hpp"
#include "export_panel.hpp"
#include "panels.hpp"
#include "state.hpp"
#include "timing_panel.hpp"
#include "tracer.hpp"
#include "your_kernel_panel.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pplab::ui {

// Key codes of the platform for what ImGui 1.86's key map does not name.
struct Keys {
    int plus = -1, minus = -1, keypad_plus = -1, keypad_minus = -1;
    int canvas_only = -1; // F: hide both side panels, or show them again
    int present = -1;     // P: present mode (caption, canvas, transport only)
};

struct Platform {
    std::function<void()> wake; // makes the event loop run a frame (from any thread)
    Keys keys;
};

class App {
public:
    // Needs the GL context and ImGui's context; `initial`: the first trace's settings (the
    // page's link).
    explicit App(Platform platform, Settings initial = {});
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    // Draws every panel; `now` in seconds (any monotonic clock).
    void frame(double now);
    // Whether the next frame should come soon, without waiting for input.
    bool animating() const;
    // The fonts must be (re)built before the next ImGui::NewFrame: at start-up and after
    // a presenter-scale change. load_fonts() rebuilds ImGui's atlas; the caller then
    // uploads it (ImGui_ImplOpenGL3_CreateFontsTexture).
    bool fonts_dirty() const { return fonts_dirty_; }
    void load_fonts();

    // A file dropped on the window: a saved session (.json) opens; anything else is read as
    // a hand-trace and checked against the trace on screen.
    void open_file(const std::string& path);

    State& state() { return st_; }
    const State& state() const { return st_; }
    const Tracer& tracer() const { return tracer_; }
    const CanvasPanel& canvas() const { return *canvas_; }
    // Where the last frame put the window's parts.
    const WindowLayout& layout() const { return layout_; }
    TimingPanel& timing() { return timing_; }
    ExportPanel& exporter() { return export_; }
    // The presenter scale as the menu bar said it in the last frame ("" where it had no room).
    const std::string& scale_shown() const { return scale_shown_; }
    // The largest presenter scale the window's width serves (ui::largest_scale): where Ctrl +
    // stops, and where the page holds a link's scale.
    float largest_scale_here() const;

private:
    void adopt_results();
    void keys();
    LayoutRequest layout_request(float scale);
    WindowLayout compute_layout();
    // The canvas's size in this window at presenter scale 100%, the columns as they are now
    // (none at 100% or below).
    scene::Vec2 canvas_at_100();
    int caption_lines(float font, float width);
    void menu();
    void columns();
    void column(const char* name, bool left, const scene::Rect& docked, bool folded, bool& drawer,
                float drawer_width);
    void stage(double dt);
    void classroom_menu();
    // The back end's note in the menu bar (the whole on hover), when `keep` pixels stay free.
    void backend_note(float keep);
    // Whether present mode is offered at the menu bar's end: larger text, and no room for the
    // offer in the transport's row.
    bool present_offered_here() const;
    void present_offer();
    void timing_and_export_menus();
    void apply_style();

    Platform platform_;
    State st_;
    Tracer tracer_;
    ControlsPanel controls_;
    CountersPanel counters_;
    SourcePanel source_;
    HeaderPanel header_;
    TransportPanel transport_;
    std::unique_ptr<CanvasPanel> canvas_;
    ClassroomPanel classroom_;
    YourKernelPanel your_kernel_;
    TimingPanel timing_;
    ExportPanel export_;
    std::string scale_shown_;
    float display_width_ = 0; // the window's width in the last frame
    Settings submitted_;
    std::uint64_t latest_job_ = 0;
    bool fonts_dirty_ = true;
    float fonts_scale_ = 0;
    double last_ = -1;
    bool show_help_ = false;
    WindowLayout layout_;
    struct CaptionCache {
        std::weak_ptr<const scene::Model> model; // not an address a new trace may take
        int block = 0;
        float font = 0, width = 0;
        int lines = 0;
    };
    std::vector<CaptionCache> caption_cache_;
    struct At100 {
        std::weak_ptr<const scene::Model> model;
        int block = 0;
        scene::Vec2 display;
        bool controls = false, source = false, present = false;
        scene::Vec2 canvas;
    };
    At100 at_100_;
    scene::Theme styled_ = scene::Theme::Dark;
    bool styled_once_ = false;
};

} // namespace pplab::ui
