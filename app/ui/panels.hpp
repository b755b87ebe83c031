// The window's panels. Each is a struct with draw(): immediate mode, redrawn every frame
// from State, keeping only what it must remember between frames (a cache, a camera).
#pragma once

#include "layout.hpp"
#include "pplab/listing.hpp"
#include "state.hpp"
#include "tracer.hpp"

#include "render/canvas_layout.hpp"
#include "render/gl_renderer.hpp"
#include "render/target.hpp"
#include "scene/camera.hpp"
#include "scene/scene.hpp"
#include "scene/view.hpp"

#include <optional>
#include <string>

namespace pplab::ui {

// Text widths as ImGui's current font measures them (for the layout rule's sizes).
TextWidth imgui_text_width();

// A slider's grab hidden (it would cover the slider's text) and its value drawn as a bar along
// the frame's foot (slider_value_bar): hide before the sliders, pop two style colours after,
// and draw each slider's bar right after it.
struct GrabColours {
    unsigned idle = 0, active = 0;
};
GrabColours hide_slider_grab();
void slider_foot(float fraction, const GrabColours& grab);

// Algorithm, launch, input, back end; the trace's progress and the inline error.
struct ControlsPanel {
    void draw(State& st, const Tracer& tracer);
};

// The running counters through the step shown, the step's own share highlighted.
struct CountersPanel {
    void draw(const State& st);
};

// The kernel's CUDA source with the lines of the current step highlighted.
// One row of the kernel source as the panel draws it.
struct SourceRow {
    enum class Kind {
        Chapter, // the chapter's line, verbatim
        Pplab,   // pplab's code around the chapter's
        Changed, // pplab's change to the chapter's code, or a line this launch's option adds
        Removed, // a chapter line this launch does not run (struck through)
        Note,    // a note under the line before it: where the chapter's text and the run part
    };
    Kind kind = Kind::Chapter;
    std::string text;
    int line = -1; // the listing's line (for a note, the line it annotates); -1: removed
};

// The rows of a listing for a trace: removed lines in their places, notes under their lines.
std::vector<SourceRow> source_rows(const Listing& l, const Trace& t);

class SourcePanel {
public:
    void draw(const State& st);
    const std::vector<SourceRow>& rows() const { return rows_; }

private:
    void rebuild(const scene::Model& m);
    void draw_header(const State& st) const;

    const scene::Model* listing_for_ = nullptr;
    Listing listing_;
    std::vector<SourceRow> rows_;
    bool diff_ = false;
    int scrolled_for_step_ = -1;
    const void* scrolled_for_model_ = nullptr;
};

// The step's caption, in the type and the fixed height the layout gave it.
struct HeaderPanel {
    void draw(State& st, const WindowLayout& l);
};

// Step back and forward, play and pause, the scrub slider, speed and loop: one row when
// `width` (the layout's) holds it, else two; the present-mode offer where the row has room.
struct TransportPanel {
    void draw(State& st, float width);
    // Pixels one row needs in the current font (without the present-mode offer).
    // At the presenter scale on screen, or at `scale`.
    static float one_row_width(const State& st, float scale = 0);
};

// The scene, drawn by the app's own renderer into a texture: zoom, pan, fit or follow the
// step, hover a cell to see which thread wrote it and from what.
class CanvasPanel {
public:
    CanvasPanel(); // needs the GL context
    // `canvas_at_100`: the canvas's size in this window at presenter scale 100% (the follow
    // view never draws a value cell smaller above it; render::CanvasRequest::canvas_at_100).
    void draw(State& st, double dt, scene::Vec2 canvas_at_100 = {});
    // Camera modes and the block shown: in the menu bar when it has room, else above the
    // canvas. toolbar_width(): the pixels it needs in the current font, at the presenter scale
    // on screen or at `scale`.
    static void toolbar(State& st);
    static float toolbar_width(const State& st, float scale = 0);
    bool animating() const { return moving_; }
    const scene::Scene& scene() const { return scene_; }
    const scene::Camera& camera() const { return camera_; }
    // Where the camera is going, the notice and the legend (canvas pixels).
    const render::CanvasFrame& framed() const { return framed_; }
    // The tracer's refusal laid over the top of the canvas (screen pixels; empty: none).
    const scene::Rect& error_banner() const { return banner_; }
    const std::string& error_banner_text() const { return banner_text_; }

private:
    struct Key {
        const void* model = nullptr;
        std::size_t frame = 0;
        float anim = 0;
        scene::ViewOptions options;
        int width = 0, height = 0;
        std::vector<scene::AnswerRow> answers;  // the classroom's values laid over the scene
        std::vector<scene::HazardMark> hazards; // a student's kernel's hazards
        bool operator==(const Key& o) const;
    };
    void settle(const State& st, std::size_t frame, const render::CanvasRequest& request,
                const scene::ViewOptions& vo, const std::vector<scene::AnswerRow>& answers,
                const std::vector<scene::HazardMark>& hazards);
    void interact(State& st, float x0, float y0, float w, float h);
    void draw_error_banner(const State& st, float x, float y, float w);
    void tooltip(const State& st, const scene::Cell& cell) const;
    void answer_tooltip(const State& st, const scene::Cell& cell) const;

    render::GlRenderer gl_;
    render::RenderTarget target_;
    scene::Scene scene_;
    scene::Camera camera_;
    bool have_camera_ = false;
    bool moving_ = false;
    render::CanvasFrame framed_;
    render::CanvasRequest framed_for_;
    // The rows' room (render::rows_room), shrunk to what the framing left and kept while the
    // trace, the frame, the canvas and the scale stay: it settles, as lay_out_canvas's does.
    struct RoomFor {
        const void* model = nullptr;
        std::size_t frame = 0;
        int width = 0, height = 0;
        float scale = 0;
        bool operator==(const RoomFor&) const = default;
    };
    RoomFor room_for_;
    float room_ = 0;
    // Following or fitting: what the zoom the scene is built at was settled for, and the
    // options render::lay_out_canvas settled it at.
    struct Settled {
        const void* model = nullptr;
        std::size_t frame = 0;
        render::CanvasRequest request; // the canvas's size among it
        scene::ViewOptions options;
        std::vector<scene::AnswerRow> answers;
        std::vector<scene::HazardMark> hazards;
        bool operator==(const Settled&) const = default;
    };
    std::optional<Settled> settled_for_;
    scene::ViewOptions settled_;
    // Its framing (the step at rest): the target while the values fly, none where the scene
    // could not be built.
    std::optional<render::CanvasFrame> settled_frame_;
    std::optional<Key> built_;           // what scene_ was built from
    std::optional<scene::Camera> drawn_; // the camera of the texture's picture
    const void* model_seen_ = nullptr;
    scene::Rect banner_;
    std::string banner_text_;
};

} // namespace pplab::ui
