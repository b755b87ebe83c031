// The window's panels. Each is a struct with draw(): immediate mode, redrawn every frame
// from State, keeping only what it must remember between frames (a cache, a camera).
#pragma once

#include "pplab/listing.hpp"
#include "state.hpp"
#include "tracer.hpp"

#include "render/gl_renderer.hpp"
#include "render/target.hpp"
#include "scene/camera.hpp"
#include "scene/scene.hpp"
#include "scene/view.hpp"

#include <optional>

namespace pplab::ui {

// Algorithm, launch, input, back end; the trace's progress and the inline error.
struct ControlsPanel {
    void draw(State& st, const Tracer& tracer);
};

// The running counters through the step shown, the step's own share highlighted.
struct CountersPanel {
    void draw(const State& st);
};

// The kernel's CUDA source with the lines of the current step highlighted.
class SourcePanel {
public:
    void draw(const State& st);

private:
    std::optional<Algorithm> algorithm_;
    Listing listing_;
    int scrolled_for_step_ = -1;
    const void* scrolled_for_model_ = nullptr;
};

// Kernel title, the step's caption in large type, and the back end's note (said once).
struct HeaderPanel {
    void draw(State& st);
};

// Step back and forward, play and pause, speed, the scrub slider.
struct TransportPanel {
    void draw(State& st);
};

// The scene, drawn by the app's own renderer into a texture: zoom, pan, fit or follow the
// step, hover a cell to see which thread wrote it and from what.
class CanvasPanel {
public:
    CanvasPanel(); // needs the GL context
    void draw(State& st, double dt);
    bool animating() const { return moving_; }
    const scene::Scene& scene() const { return scene_; }
    const scene::Camera& camera() const { return camera_; }

private:
    struct Key {
        const void* model = nullptr;
        std::size_t frame = 0;
        float anim = 0;
        scene::ViewOptions options;
        int width = 0, height = 0;
        std::vector<scene::AnswerRow> answers; // the classroom's values laid over the scene
        bool operator==(const Key& o) const;
    };
    void toolbar(State& st);
    void interact(State& st, float x0, float y0, float w, float h);
    void tooltip(const State& st, const scene::Cell& cell) const;
    void answer_tooltip(const State& st, const scene::Cell& cell) const;
    void legend(const State& st, float x0, float bottom, float cw, float ch) const;
    // The legend's box on a cw x ch canvas, margins included, in pixels: folded into a tab
    // where it would cover the picture (unless `unfolded`); (0, 0) without one.
    scene::Vec2 legend_size(float cw, float ch, bool unfolded = false) const;
    // Cells a camera would show under the legend's box (bottom left of a cw x ch canvas).
    int cells_under(const scene::Camera& cam, float cw, float ch, scene::Vec2 box) const;

    render::GlRenderer gl_;
    render::RenderTarget target_;
    scene::Scene scene_;
    scene::Camera camera_;
    bool have_camera_ = false;
    bool moving_ = false;
    std::optional<Key> built_;           // what scene_ was built from
    std::optional<scene::Camera> drawn_; // the camera of the texture's picture
    const void* model_seen_ = nullptr;
};

} // namespace pplab::ui
