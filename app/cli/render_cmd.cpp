// `pplab render`: a frame (or every frame) of a trace drawn offscreen to PNG, the same
// drawing as the window's canvas; a frame as SVG for slides; the whole run as an animated
// GIF. Needs no display: Mesa's surfaceless EGL (the SVG needs no GL at all).
#include "cli.hpp"

#include "export/gif.hpp"
#include "export/run.hpp"
#include "export/svg.hpp"

#include "render/gl_renderer.hpp"
#include "render/offscreen.hpp"
#include "render/picture.hpp"
#include "render/target.hpp"
#include "scene/model.hpp"

#include "pplab/backend.hpp"
#include "pplab/files.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pplab::cli {

namespace {

struct RenderOptions {
    int frame = -1;
    std::string all_frames;
    std::string out;
    std::string svg;
    std::string gif;
    int delay_ms = exporting::kStepDelayCs * 10;
    bool delay_given = false;
    int width = 1280;
    int height = 800;
    std::string theme = "light";
    std::string camera = "follow";
};

// Everything the user could get wrong is checked before the first pixel.
void check_render_options(const RenderOptions& ro) {
    if (!ro.svg.empty() && ro.frame < 0)
        throw InputError("--svg draws one frame: say which with --frame K");
    if (ro.frame < 0 && ro.all_frames.empty() && ro.gif.empty())
        throw InputError("say what to draw: --frame K (see `pplab trace` for the frames), "
                         "--all-frames DIR or --gif FILE");
    if (ro.frame >= 0 && ro.out.empty() && ro.svg.empty())
        throw InputError("--frame needs --out FILE.png or --svg FILE.svg");
    if (!ro.out.empty() && ro.frame < 0)
        throw InputError("--out writes the frame chosen with --frame K; the run goes to "
                         "--gif FILE or --all-frames DIR");
    if (ro.delay_given && ro.gif.empty())
        throw InputError("--delay is how long each step of a GIF stays on screen: it goes with "
                         "--gif FILE");
    if (ro.width < 64 || ro.width > 8192 || ro.height < 64 || ro.height > 8192)
        throw InputError("--width and --height must be between 64 and 8192 pixels");
    if (ro.delay_ms < 20 || ro.delay_ms > 60000)
        throw InputError("--delay must be between 20 and 60000 milliseconds");
    for (const std::string* file : {&ro.out, &ro.svg, &ro.gif})
        if (!file->empty())
            check_output_file(*file);
    if (!ro.all_frames.empty())
        check_output_folder(ro.all_frames);
    if (!ro.gif.empty() && !exporting::gif_supported())
        throw InputError("this build has no GIF support: install Debian's libgif-dev "
                         "(scripts/install-deps.sh) and configure again");
}

// The pictures that need a GL context: the GIF, the frame's PNG, every frame's PNG. Each is
// staged in `outputs`; `said` gets the line to print once all are in place.
void draw_pictures(const scene::Model& model, const RenderOptions& ro,
                   const render::PictureOptions& po, Outputs& outputs,
                   std::vector<std::string>& said) {
    render::OffscreenContext context;
    render::GlRenderer gl;
    render::RenderTarget target;
    const std::string size = std::to_string(ro.width) + "×" + std::to_string(ro.height);
    if (!ro.gif.empty()) {
        const std::vector<std::size_t> run = exporting::run_frames(model, 0);
        exporting::GifWriter gif(outputs, ro.gif, ro.width, ro.height);
        for (std::size_t i = 0; i < run.size(); ++i)
            gif.add(render::picture(gl, target, model, run[i], po).image,
                    i + 1 == run.size() ? std::max(ro.delay_ms / 10, exporting::kLastStepDelayCs)
                                        : ro.delay_ms / 10);
        gif.finish();
        said.push_back("wrote " + ro.gif + " (GIF, " + size + ", " + std::to_string(run.size()) +
                       " steps, " + std::to_string(ro.delay_ms) + " ms each)");
    }
    if (ro.frame >= 0 && !ro.out.empty()) {
        const auto frame = static_cast<std::size_t>(ro.frame);
        outputs.add_file(ro.out,
                         render::png_bytes(render::picture(gl, target, model, frame, po).image));
        said.push_back("wrote " + ro.out + " (" + size + ", frame " + std::to_string(ro.frame) +
                       ": " + frame_label(model.trace().frames[frame], label_parts(model.trace())) +
                       ")");
    }
    if (!ro.all_frames.empty()) {
        exporting::PngSequence frames(outputs, ro.all_frames);
        for (std::size_t i = 0; i < model.trace().frames.size(); ++i)
            frames.add(render::picture(gl, target, model, i, po).image);
        said.push_back("wrote " + std::to_string(frames.frames()) + " frames to " + ro.all_frames +
                       " (" + size + ")");
    }
}

void render(const RequestOptions& opts, const RenderOptions& ro) {
    check_render_options(ro);
    const Request r = opts.build();
    BackendChoice choice = choose_backend(opts.backend_choice());
    if (!choice.note.empty())
        std::cerr << "note: " << choice.note << "\n";
    const scene::Model model(choice.backend->trace(r));
    const std::size_t frames = model.trace().frames.size();
    if (ro.frame >= 0 && static_cast<std::size_t>(ro.frame) >= frames)
        throw InputError("frame " + std::to_string(ro.frame) + " does not exist: this trace has " +
                         std::to_string(frames) + " frames, 0 to " + std::to_string(frames - 1));

    render::PictureOptions po;
    po.width = ro.width;
    po.height = ro.height;
    po.theme = ro.theme == "dark" ? scene::Theme::Dark : scene::Theme::Light;
    po.follow = ro.camera == "follow";
    // Every output is staged, then all are moved into place together: a failure part-way
    // (a full disk while the GIF is written) leaves none of them.
    Outputs outputs;
    std::vector<std::string> said;
    if (!ro.svg.empty()) {
        const render::FontAtlas font(render::ui_font());
        const auto frame = static_cast<std::size_t>(ro.frame);
        outputs.add_file(ro.svg, exporting::svg(render::compose(font, model, frame, po), font));
        said.push_back("wrote " + ro.svg + " (SVG, " + std::to_string(ro.width) + "×" +
                       std::to_string(ro.height) + ", frame " + std::to_string(ro.frame) + ")");
    }
    if (!ro.out.empty() || !ro.gif.empty() || !ro.all_frames.empty()) // vectors need no GL
        draw_pictures(model, ro, po, outputs, said);
    outputs.commit();
    std::string text;
    for (const std::string& line : said)
        text += line + "\n";
    print(text);
}

} // namespace

void add_render(CLI::App& app) {
    auto* cmd = app.add_subcommand("render",
                                   "draw frames of a trace to PNG, offscreen (no display needed)");
    auto opts = std::make_shared<RequestOptions>();
    auto ro = std::make_shared<RenderOptions>();
    opts->add_to(*cmd);
    auto* frame =
        cmd->add_option("--frame", ro->frame, "the frame to draw, 0-based, in `pplab trace` order");
    auto* all =
        cmd->add_option("--all-frames", ro->all_frames, "draw every frame into DIR/frame_NNNN.png");
    frame->excludes(all);
    auto* out = cmd->add_option("--out", ro->out, "the PNG file of the frame (with --frame)");
    out->excludes(all);
    cmd->add_option("--svg", ro->svg,
                    "the frame (--frame K) as SVG for slides: cells, values, arrows and labels "
                    "as vectors")
        ->excludes(all);
    cmd->add_option("--gif", ro->gif,
                    "the whole run as an animated GIF, one picture per step as the window plays "
                    "it (block 0)")
        ->excludes(frame);
    cmd->add_option("--delay", ro->delay_ms, "milliseconds each step stays on screen in the GIF")
        ->capture_default_str()
        ->each([ro](const std::string&) { ro->delay_given = true; });
    cmd->add_option("--width", ro->width, "image width in pixels")->capture_default_str();
    cmd->add_option("--height", ro->height, "image height in pixels")->capture_default_str();
    cmd->add_option("--theme", ro->theme, "light (projectors) or dark")
        ->check(CLI::IsMember({"light", "dark"}))
        ->capture_default_str();
    cmd->add_option("--camera", ro->camera,
                    "follow: the whole picture, or the step when the whole is too small to read; "
                    "fit: always the whole picture")
        ->check(CLI::IsMember({"follow", "fit"}))
        ->capture_default_str();
    cmd->callback([opts, ro] { render(*opts, *ro); });
}

} // namespace pplab::cli
