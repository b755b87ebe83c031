#include "export_panel.hpp"

#include "export/svg.hpp"
#include "floating_window.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>

namespace pplab::ui {

namespace {

namespace fs = std::filesystem;

// Pictures of a run drawn per window frame at most this long, so the window keeps redrawing.
constexpr auto kFrameBudget = std::chrono::milliseconds(40);

const char* kind_name(ExportKind k) {
    switch (k) {
    case ExportKind::Png:
        return "PNG of this step";
    case ExportKind::Svg:
        return "SVG of this step (vectors, for slides)";
    case ExportKind::Gif:
        return "GIF of the whole run (animated)";
    case ExportKind::PngSequence:
        return "PNG sequence of the whole run";
    }
    return "";
}

std::string default_name(ExportKind k, const State& st) {
    const std::string algo(info(st.settings.algorithm).id);
    char step[24];
    std::snprintf(step, sizeof step, "-step%02d", st.playback.step + 1);
    switch (k) {
    case ExportKind::Png:
        return algo + step + ".png";
    case ExportKind::Svg:
        return algo + step + ".svg";
    case ExportKind::Gif:
        return algo + ".gif";
    case ExportKind::PngSequence:
        return algo + "-steps";
    }
    return algo;
}

// In the folder the window was started from, written out whole: the teacher sees where.
std::string default_path(ExportKind k, const State& st) {
    return (fs::current_path() / default_name(k, st)).string();
}

std::string size_text(const fs::path& p) {
    std::error_code ec;
    std::uintmax_t bytes = 0;
    if (fs::is_directory(p, ec)) {
        for (const auto& e : fs::directory_iterator(p, ec))
            bytes += e.file_size(ec);
    } else {
        bytes = fs::file_size(p, ec);
    }
    char b[32];
    std::snprintf(b, sizeof b, bytes >= (1u << 20) ? "%.1f MB" : "%.0f kB",
                  bytes >= (1u << 20) ? static_cast<double>(bytes) / (1 << 20)
                                      : static_cast<double>(bytes) / 1024);
    return b;
}

} // namespace

void ExportPanel::open_for(ExportKind k, const State& st) {
    if (busy())
        return; // the run being written keeps the window as it is
    kind = k;
    path = default_path(k, st);
    message_.clear();
    error_.clear();
    open = true;
}

ExportPanel::Gl& ExportPanel::gl() {
    if (!gl_)
        gl_ = std::make_unique<Gl>();
    return *gl_;
}

render::PictureOptions ExportPanel::options(const State& st) const {
    render::PictureOptions o;
    o.width = width;
    o.height = height;
    o.theme = st.view.theme;
    o.follow = st.view.camera != CameraMode::Fit;
    return o;
}

void ExportPanel::fail(const std::string& what) {
    run_.reset(); // the writers remove their partial files
    error_ = what;
    message_.clear();
}

void ExportPanel::write(const State& st) {
    message_.clear();
    error_.clear();
    if (!st.model) {
        error_ = "nothing to export yet: the trace is still on its way";
        return;
    }
    if (path.empty()) {
        error_ = "say where to write it";
        return;
    }
    if (width < 64 || width > 8192 || height < 64 || height > 8192) {
        error_ = "the size must be between 64 and 8192 pixels each way";
        return;
    }
    try {
        const render::PictureOptions o = options(st);
        switch (kind) {
        case ExportKind::Png: {
            const std::size_t frame = st.frame();
            render::write_png(
                render::picture(gl().renderer, gl().target, *st.model, frame, o).image, path);
            message_ = "wrote " + fs::absolute(path).string() + " (" + size_text(path) + ")";
            return;
        }
        case ExportKind::Svg: {
            const render::FontAtlas& font = gl().renderer.font();
            exporting::write_svg(render::compose(font, *st.model, st.frame(), o), font, path);
            message_ = "wrote " + fs::absolute(path).string() + " (" + size_text(path) + ")";
            return;
        }
        case ExportKind::Gif:
        case ExportKind::PngSequence: {
            Run r;
            r.model = st.model;
            r.frames = exporting::run_frames(*st.model, st.block);
            r.options = o;
            if (kind == ExportKind::Gif)
                r.gif = std::make_unique<exporting::GifWriter>(path, width, height);
            else
                r.sequence = std::make_unique<exporting::PngSequence>(path);
            run_ = std::move(r);
            continue_run();
            return;
        }
        }
    } catch (const std::exception& e) {
        fail(e.what());
    }
}

void ExportPanel::cancel() {
    if (run_)
        fail("cancelled: nothing was written");
}

void ExportPanel::continue_run() {
    if (!run_)
        return;
    const auto start = std::chrono::steady_clock::now();
    try {
        Run& r = *run_;
        while (r.next < r.frames.size() &&
               std::chrono::steady_clock::now() - start < kFrameBudget) {
            const render::Image image =
                render::picture(gl().renderer, gl().target, *r.model, r.frames[r.next], r.options)
                    .image;
            ++r.next;
            if (r.gif) {
                const bool last = r.next == r.frames.size();
                const int cs = static_cast<int>(seconds_per_step * 100.0f + 0.5f);
                r.gif->add(image, last ? std::max(cs, exporting::kLastStepDelayCs) : cs);
            } else {
                r.sequence->add(image);
            }
        }
        if (r.next < r.frames.size())
            return;
        if (r.gif)
            r.gif->finish();
        else
            r.sequence->finish();
        message_ = "wrote " + fs::absolute(path).string() + " (" + std::to_string(r.frames.size()) +
                   " steps, " + size_text(path) + ")";
        run_.reset();
    } catch (const std::exception& e) {
        fail(e.what());
    }
}

void ExportPanel::draw(const State& st) {
    continue_run();
    if (!open)
        return;
    const float fs = ImGui::GetFontSize();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(display.x / 2, display.y / 3), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(fs * 34, 0), ImGuiCond_Appearing);
    floating_window(
        "Export", &open, st.view.theme, [&] { contents(st); }, true);
}

void ExportPanel::contents(const State& st) {
    const float fs = ImGui::GetFontSize();
    ImGui::BeginDisabled(busy());
    for (const ExportKind k :
         {ExportKind::Png, ExportKind::Svg, ExportKind::Gif, ExportKind::PngSequence})
        if (ImGui::RadioButton(kind_name(k), kind == k) && kind != k) {
            kind = k;
            path = default_path(k, st);
        }
    if (kind == ExportKind::Gif && !exporting::gif_supported())
        ImGui::TextDisabled("this build has no giflib: install libgif-dev and build again");
    ImGui::SetNextItemWidth(fs * 30); // the window fits its contents: no width relative to it
    ImGui::InputText(kind == ExportKind::PngSequence ? "Folder" : "File", &path);
    ImGui::SetNextItemWidth(fs * 6);
    ImGui::InputInt("##width", &width, 0);
    ImGui::SameLine();
    ImGui::TextUnformatted("×");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fs * 6);
    ImGui::InputInt("pixels##height", &height, 0);
    if (kind == ExportKind::Gif) {
        ImGui::SetNextItemWidth(fs * 10);
        ImGui::SliderFloat("seconds per step", &seconds_per_step, 0.2f, 5.0f, "%.1f");
    }
    const bool run = kind == ExportKind::Gif || kind == ExportKind::PngSequence;
    if (st.model)
        ImGui::TextDisabled(run ? "%zu steps as the window plays them, block %d, each with "
                                  "its caption"
                                : "step %zu, block %d, with its caption and the counters",
                            run ? st.model->steps().size()
                                : static_cast<std::size_t>(st.playback.step + 1),
                            st.block);
    if (ImGui::Button("Write"))
        write(st);
    ImGui::EndDisabled();
    if (busy()) {
        ImGui::SameLine();
        const float done = static_cast<float>(run_->next) / static_cast<float>(run_->frames.size());
        const std::string what =
            "step " + std::to_string(run_->next) + " of " + std::to_string(run_->frames.size());
        ImGui::ProgressBar(done, ImVec2(fs * 18, 0), what.c_str());
        ImGui::SameLine();
        if (ImGui::Button("Cancel"))
            cancel();
    }
    if (!error_.empty()) {
        const scene::Palette pal = scene::palette(st.view.theme);
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(pal.wrong.r, pal.wrong.g, pal.wrong.b, 1));
        ImGui::PushTextWrapPos(fs * 34);
        ImGui::TextUnformatted(error_.c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
    } else if (!message_.empty()) {
        ImGui::PushTextWrapPos(fs * 34);
        ImGui::TextUnformatted(message_.c_str());
        ImGui::PopTextWrapPos();
    }
}

} // namespace pplab::ui
