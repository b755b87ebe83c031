// `pplab render`: a frame (or every frame) of a trace drawn offscreen to PNG, the same
// drawing as the window's canvas. Needs no display: Mesa's surfaceless EGL.
#include "cli.hpp"

#include "render/gl_renderer.hpp"
#include "render/offscreen.hpp"
#include "render/picture.hpp"
#include "render/target.hpp"
#include "scene/model.hpp"

#include "pplab/backend.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

namespace pplab::cli {

namespace {

struct RenderOptions {
    int frame = -1;
    std::string all_frames;
    std::string out;
    int width = 1280;
    int height = 800;
    std::string theme = "light";
    std::string camera = "follow";
};

std::string frame_file(const std::string& dir, std::size_t i) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%04zu.png", i);
    return (std::filesystem::path(dir) / name).string();
}

void render(const RequestOptions& opts, const RenderOptions& ro) {
    namespace fs = std::filesystem;
    // Everything the user could get wrong is checked before the first pixel.
    if (ro.frame < 0 && ro.all_frames.empty())
        throw InputError(
            "say what to draw: --frame K (see `pplab trace` for the frames) or --all-frames DIR");
    if (ro.frame >= 0 && ro.out.empty())
        throw InputError("--frame needs --out FILE.png");
    if (ro.width < 64 || ro.width > 8192 || ro.height < 64 || ro.height > 8192)
        throw InputError("--width and --height must be between 64 and 8192 pixels");
    if (!ro.out.empty()) {
        const fs::path parent = fs::path(ro.out).parent_path();
        if (!parent.empty() && !fs::is_directory(parent))
            throw InputError("cannot write '" + ro.out + "': no directory '" + parent.string() +
                             "'");
    }
    const Request r = opts.build();
    BackendChoice choice = choose_backend(opts.backend);
    if (!choice.note.empty())
        std::cerr << "note: " << choice.note << "\n";
    const scene::Model model(choice.backend->trace(r));
    const std::size_t frames = model.trace().frames.size();
    if (ro.frame >= 0 && static_cast<std::size_t>(ro.frame) >= frames)
        throw InputError("frame " + std::to_string(ro.frame) + " does not exist: this trace has " +
                         std::to_string(frames) + " frames, 0 to " + std::to_string(frames - 1));
    if (!ro.all_frames.empty()) {
        std::error_code ec;
        fs::create_directories(ro.all_frames, ec);
        if (!fs::is_directory(ro.all_frames))
            throw InputError("cannot create the directory '" + ro.all_frames + "'");
    }

    render::OffscreenContext context;
    render::GlRenderer gl;
    render::RenderTarget target;
    render::PictureOptions po;
    po.width = ro.width;
    po.height = ro.height;
    po.theme = ro.theme == "dark" ? scene::Theme::Dark : scene::Theme::Light;
    po.follow = ro.camera == "follow";
    if (ro.frame >= 0) {
        const auto pic = render::picture(gl, target, model, static_cast<std::size_t>(ro.frame), po);
        render::write_png(pic.image, ro.out);
        std::cout << "wrote " << ro.out << " (" << ro.width << "×" << ro.height << ", frame "
                  << ro.frame << ": "
                  << frame_label(model.trace().frames[static_cast<std::size_t>(ro.frame)],
                                 label_parts(model.trace()))
                  << ")\n";
        return;
    }
    for (std::size_t i = 0; i < frames; ++i)
        render::write_png(render::picture(gl, target, model, i, po).image,
                          frame_file(ro.all_frames, i));
    std::cout << "wrote " << frames << " frames to " << ro.all_frames << " (" << ro.width << "×"
              << ro.height << ")\n";
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
    auto* out = cmd->add_option("--out", ro->out, "the PNG file to write (with --frame)");
    out->excludes(all);
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
