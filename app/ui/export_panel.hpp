// Export for slides and sharing: the step on screen as PNG or SVG, the whole run as an
// animated GIF or a PNG sequence. A run is drawn a few pictures per window frame, so the
// window stays responsive and shows how far it got; every file appears whole or not at all.
#pragma once

#include "state.hpp"

#include "export/gif.hpp"
#include "export/run.hpp"
#include "render/gl_renderer.hpp"
#include "render/picture.hpp"
#include "render/target.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pplab::ui {

enum class ExportKind { Png, Svg, Gif, PngSequence };

class ExportPanel {
public:
    // From the menu: shows the window with `kind` chosen and a file name for it.
    void open_for(ExportKind kind, const State& st);
    // The window when open; a run being written goes on whether it is open or not.
    void draw(const State& st);
    bool busy() const { return run_.has_value(); }

    // The Write button (the tests press it through this). Needs the GL context.
    void write(const State& st);
    void cancel();

    bool open = false;
    ExportKind kind = ExportKind::Png;
    std::string path;
    int width = 1600, height = 1000;
    float seconds_per_step = exporting::kStepDelayCs / 100.0f;
    const std::string& message() const { return message_; }
    const std::string& error() const { return error_; }

private:
    struct Gl {
        render::GlRenderer renderer;
        render::RenderTarget target;
    };
    struct Run {
        std::shared_ptr<const scene::Model> model; // kept alive while its pictures are drawn
        std::vector<std::size_t> frames;
        std::size_t next = 0;
        render::PictureOptions options;
        std::unique_ptr<exporting::GifWriter> gif;
        std::unique_ptr<exporting::PngSequence> sequence;
    };

    void contents(const State& st);
    void continue_run();
    void fail(const std::string& what);
    render::PictureOptions options(const State& st) const;
    Gl& gl();

    std::unique_ptr<Gl> gl_; // made on the first export; the canvas's draws at the canvas's size
    std::optional<Run> run_;
    std::string message_, error_;
};

} // namespace pplab::ui
