// `pplab render`: a step (or every step) of a trace drawn offscreen to PNG, the same drawing
// as the window's canvas; a step as SVG for slides; the whole run as an animated GIF. Steps
// are numbered as the window's transport numbers them (1 to N). Needs no display: Mesa's
// surfaceless EGL (the SVG needs no GL at all).
#include "cli.hpp"

#include "export/gif.hpp"
#include "export/layout_json.hpp"
#include "export/run.hpp"
#include "export/svg.hpp"

#include "render/gl_renderer.hpp"
#include "render/offscreen.hpp"
#include "render/picture.hpp"
#include "render/target.hpp"
#include "scene/model.hpp"

#include "pplab/backend.hpp"
#include "pplab/files.hpp"
#include "pplab/quote.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pplab::cli {

namespace {

struct RenderOptions {
    int step = 0; // 1-based, as the window's transport; 0: none asked for
    bool step_given = false;
    int block = 0;
    std::string all_steps;
    std::string out;
    std::string svg;
    std::string layout;
    std::string gif;
    int delay_ms = exporting::kStepDelayCs * 10;
    bool delay_given = false;
    int width = 1280;
    int height = 800;
    std::string size;      // "WxH", instead of --width and --height
    int scale_percent = 0; // the presenter scale; 0: text grows with the picture
    std::string theme = "light";
    bool theme_given = false;
    std::string camera = "follow";
};

// "1600x1000" -> width and height; anything else is the user's mistake, said plainly.
void parse_size(RenderOptions& ro) {
    if (ro.size.empty())
        return;
    int w = 0, h = 0;
    char x = 0, extra = 0;
    if (std::sscanf(ro.size.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X'))
        throw InputError("--size " + quote(ro.size) +
                         " is not WIDTHxHEIGHT in pixels, e.g. 1600x1000");
    ro.width = w;
    ro.height = h;
}

// Everything the user could get wrong is checked before the first pixel.
void check_render_options(RenderOptions& ro) {
    parse_size(ro);
    if (ro.step_given && ro.step < 1)
        throw InputError("there is no step " + std::to_string(ro.step) +
                         ": steps count from 1, as the window's transport does");
    if (!ro.svg.empty() && ro.step <= 0)
        throw InputError("--svg draws one step: say which with --step K");
    if (ro.step <= 0 && ro.all_steps.empty() && ro.gif.empty())
        throw InputError("say what to draw: --step K (1 to the number of steps, as the window's "
                         "transport counts them), --all-steps DIR or --gif FILE");
    if (!ro.layout.empty() && ro.step <= 0)
        throw InputError("--layout reports one step: say which with --step K");
    if (ro.step > 0 && ro.out.empty() && ro.svg.empty() && ro.layout.empty())
        throw InputError("--step needs --out FILE.png, --svg FILE.svg or --layout FILE.json");
    if (!ro.out.empty() && ro.step <= 0)
        throw InputError("--out writes the step chosen with --step K; the run goes to --gif FILE "
                         "or --all-steps DIR");
    if (ro.theme_given && ro.out.empty() && ro.svg.empty() && ro.gif.empty() &&
        ro.all_steps.empty())
        throw InputError("--theme colours a picture: it goes with --out, --svg, --gif or "
                         "--all-steps (a --layout has no colours)");
    if (ro.delay_given && ro.gif.empty())
        throw InputError("--delay is how long each step of a GIF stays on screen: it goes with "
                         "--gif FILE");
    if (ro.scale_percent != 0 && (ro.scale_percent < 50 || ro.scale_percent > 400))
        throw InputError("--scale must be between 50 and 400 (percent)");
    if (ro.width < 64 || ro.width > 8192 || ro.height < 64 || ro.height > 8192)
        throw InputError("the picture must be between 64 and 8192 pixels each way");
    if (ro.delay_ms < 20 || ro.delay_ms > 60000)
        throw InputError("--delay must be between 20 and 60000 milliseconds");
    for (const std::string* file : {&ro.out, &ro.svg, &ro.layout, &ro.gif})
        if (!file->empty())
            check_output_file(*file);
    if (!ro.all_steps.empty())
        check_output_folder(ro.all_steps);
    if (!ro.gif.empty() && !exporting::gif_supported())
        throw InputError("this build has no GIF support: install Debian's libgif-dev "
                         "(scripts/install-deps.sh) and configure again");
}

// The pictures that need a GL context: the GIF, the step's PNG, every step's PNG. Each is
// staged in `outputs`; `said` gets the line to print once all are in place.
void draw_pictures(const scene::Model& model, const RenderOptions& ro, std::size_t frame,
                   const render::PictureOptions& po, Outputs& outputs,
                   std::vector<std::string>& said) {
    render::OffscreenContext context;
    render::GlRenderer gl;
    render::RenderTarget target;
    const std::string size = std::to_string(ro.width) + "×" + std::to_string(ro.height);
    const std::vector<std::size_t> run = exporting::run_frames(model, ro.block);
    if (!ro.gif.empty()) {
        exporting::GifWriter gif(outputs, ro.gif, ro.width, ro.height);
        for (std::size_t i = 0; i < run.size(); ++i)
            gif.add(render::picture(gl, target, model, run[i], po).image,
                    i + 1 == run.size() ? std::max(ro.delay_ms / 10, exporting::kLastStepDelayCs)
                                        : ro.delay_ms / 10);
        gif.finish();
        said.push_back("wrote " + ro.gif + " (GIF, " + size + ", " + std::to_string(run.size()) +
                       " steps, " + std::to_string(ro.delay_ms) + " ms each)");
    }
    if (ro.step > 0 && !ro.out.empty()) {
        outputs.add_file(ro.out,
                         render::png_bytes(render::picture(gl, target, model, frame, po).image));
        said.push_back("wrote " + ro.out + " (" + size + ", step " + std::to_string(ro.step) +
                       " of " + std::to_string(run.size()) + ": " +
                       frame_label(model.trace().frames[frame], label_parts(model.trace())) + ")");
    }
    if (!ro.all_steps.empty()) {
        // A new folder, moved into place whole: never mixed with an earlier run's steps.
        exporting::PngSequence steps(outputs, ro.all_steps);
        for (const std::size_t f : run)
            steps.add(render::picture(gl, target, model, f, po).image);
        steps.finish();
        said.push_back("wrote " + std::to_string(run.size()) + " steps to " + ro.all_steps + " (" +
                       size + ")");
    }
}

void render(const RequestOptions& opts, RenderOptions ro) {
    check_render_options(ro);
    const Request r = opts.build();
    BackendChoice choice = choose_backend(opts.backend_choice());
    const scene::Model model(choice.backend->trace(r));
    const auto steps = static_cast<int>(model.steps().size());
    const std::size_t frame = model.frame_asked(ro.step, ro.block);
    // Every check first, then the notes (which back end ran it).
    if (!choice.note.empty())
        std::cerr << "note: " << choice.note << "\n";

    render::PictureOptions po;
    po.width = ro.width;
    po.height = ro.height;
    po.theme = ro.theme == "dark" ? scene::Theme::Dark : scene::Theme::Light;
    po.follow = ro.camera == "follow";
    po.scale = static_cast<float>(ro.scale_percent) / 100.0f;
    // Every output is staged, then all are moved into place together: a failure part-way
    // (a full disk while the GIF is written) leaves none of them.
    Outputs outputs;
    std::vector<std::string> said;
    if (!ro.svg.empty() || !ro.layout.empty()) {
        const render::FontAtlas font(render::ui_font());
        const render::Composition c = render::compose(font, model, frame, po);
        const std::string of_step =
            "step " + std::to_string(ro.step) + " of " + std::to_string(steps);
        if (!ro.svg.empty()) {
            outputs.add_file(ro.svg, exporting::svg(c, font));
            said.push_back("wrote " + ro.svg + " (SVG, " + std::to_string(ro.width) + "×" +
                           std::to_string(ro.height) + ", " + of_step + ")");
        }
        if (!ro.layout.empty()) {
            outputs.add_file(ro.layout, exporting::layout_json(c, font));
            said.push_back("wrote " + ro.layout + " (the layout of " + of_step +
                           " in the picture's pixels)");
        }
    }
    if (!ro.out.empty() || !ro.gif.empty() || !ro.all_steps.empty()) // vectors need no GL
        draw_pictures(model, ro, frame, po, outputs, said);
    outputs.commit();
    std::string text;
    for (const std::string& line : said)
        text += line + "\n";
    print(text);
}

} // namespace

void add_render(CLI::App& app) {
    auto* cmd =
        app.add_subcommand("render", "draw steps of a trace to PNG, offscreen (no display needed)");
    auto opts = std::make_shared<RequestOptions>();
    auto ro = std::make_shared<RenderOptions>();
    opts->add_to(*cmd);
    auto* frame = cmd->add_option("--step", ro->step,
                                  "the step to draw, 1 to N, as the window's transport counts")
                      ->each([ro](const std::string&) { ro->step_given = true; });
    cmd->add_option("--shown-block", ro->block,
                    "the block the picture shows (as the window's Block slider), from 0")
        ->capture_default_str();
    auto* all =
        cmd->add_option("--all-steps", ro->all_steps, "draw every step into DIR/step_NNNN.png");
    frame->excludes(all);
    auto* out = cmd->add_option("--out", ro->out, "the PNG file of the step (with --step)");
    out->excludes(all);
    cmd->add_option("--svg", ro->svg,
                    "the step (--step K) as SVG for slides: cells, values, arrows and labels "
                    "as vectors")
        ->excludes(all);
    cmd->add_option("--layout", ro->layout,
                    "the step's layout as JSON: the canvas and every cell, label, legend entry, "
                    "caption and line label drawn, as rectangles in the picture's pixels with "
                    "their text and its size")
        ->excludes(all);
    cmd->add_option("--gif", ro->gif,
                    "the whole run as an animated GIF, one picture per step as the window plays "
                    "it (the block --shown-block names)")
        ->excludes(frame);
    cmd->add_option("--delay", ro->delay_ms, "milliseconds each step stays on screen in the GIF")
        ->capture_default_str()
        ->each([ro](const std::string&) { ro->delay_given = true; });
    auto* width =
        cmd->add_option("--width", ro->width, "image width in pixels")->capture_default_str();
    auto* height =
        cmd->add_option("--height", ro->height, "image height in pixels")->capture_default_str();
    cmd->add_option("--size", ro->size, "the picture's size as WIDTHxHEIGHT, e.g. 1920x1080")
        ->excludes(width)
        ->excludes(height);
    cmd->add_option("--scale", ro->scale_percent,
                    "presenter scale in percent (100: the window's normal text; 200: twice as "
                    "large); without it text grows with the picture");
    cmd->add_option("--theme", ro->theme, "light (projectors) or dark")
        ->check(CLI::IsMember({"light", "dark"}))
        ->capture_default_str()
        ->each([ro](const std::string&) { ro->theme_given = true; });
    cmd->add_option("--camera", ro->camera,
                    "follow: the whole picture, or the step when the whole is too small to read; "
                    "fit: always the whole picture")
        ->check(CLI::IsMember({"follow", "fit"}))
        ->capture_default_str();
    cmd->callback([opts, ro] { render(*opts, *ro); });
}

} // namespace pplab::cli
