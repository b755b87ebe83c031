#include "imgui_colors.hpp"
#include "panels.hpp"
#include "style.hpp"

#include "pplab/dataflow.hpp"
#include "pplab/io.hpp"
#include "scene/view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <exception>

namespace pplab::ui {

namespace {

constexpr float kCameraRate = 7.0f; // 1/s: how fast the camera catches up with its target

bool same_camera(const scene::Camera& a, const scene::Camera& b) {
    return std::fabs(a.scale - b.scale) <= 0.002f * b.scale &&
           std::fabs(a.center.x - b.center.x) * b.scale < 0.3f &&
           std::fabs(a.center.y - b.center.y) * b.scale < 0.3f;
}

} // namespace

bool CanvasPanel::Key::operator==(const Key& o) const {
    return model == o.model && frame == o.frame && anim == o.anim && width == o.width &&
           height == o.height && options.theme == o.options.theme &&
           options.pixels_per_unit == o.options.pixels_per_unit &&
           options.past_arrows == o.options.past_arrows &&
           options.text_scale == o.options.text_scale &&
           options.row_stretch == o.options.row_stretch && options.room_px == o.options.room_px &&
           answers == o.answers && hazards == o.hazards;
}

CanvasPanel::CanvasPanel() = default;

namespace {

constexpr CameraMode kModeValues[] = {CameraMode::Follow, CameraMode::Fit, CameraMode::Free};
constexpr const char* kModeTips[] = {
    "the camera frames what the current step reads and writes",
    "the whole picture (values too small to read show on hover)",
    "wheel: zoom · drag: pan · double-click: fit",
};

int block_count(const State& st) {
    return st.model ? st.model->grid(st.model->trace().frames.at(st.frame()).pass) : 1;
}

} // namespace

float CanvasPanel::toolbar_width(const State& st, float scale) {
    return ui::toolbar_width(metrics(scale > 0 ? scale : st.view.presenter_scale),
                             imgui_text_width(), block_count(st) > 1);
}

void CanvasPanel::toolbar(State& st) {
    for (int i = 0; i < 3; ++i) {
        if (i > 0)
            ImGui::SameLine();
        if (ImGui::RadioButton(kCameraModeNames[i], st.view.camera == kModeValues[i]))
            st.view.camera = kModeValues[i];
        if (ImGui::IsItemHovered())
            ui::tooltip("%s", kModeTips[i]);
    }
    const int grid = block_count(st);
    if (grid <= 1 || !st.model)
        return;
    const BlockSelector shown = block_selector(*st.model, st.playback.step, st.block);
    const auto choose = [&st](int block) {
        st.playback.go_to(step_for_block(*st.model, st.playback.step, block), st.steps());
        st.block = block;
    };
    ImGui::SameLine(0, ImGui::GetFontSize() * 2);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(shown.noun);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##prev_block", ImGuiDir_Left))
        choose(std::max(0, shown.shown - 1));
    ImGui::SameLine();
    const float least = block_slider_min_width(metrics(st.view.presenter_scale));
    ImGui::SetNextItemWidth(std::clamp(
        ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() * 2, least, least * 2));
    int b = shown.shown;
    const GrabColours grab = hide_slider_grab(); // "2 in 0–7" never under the grab
    // blockIdx.x counts from 0: "0 of 64" read as one of a count from 1, as the steps count.
    const std::string format = "%d in 0–" + std::to_string(grid - 1);
    if (ImGui::SliderInt("##block", &b, 0, grid - 1, format.c_str()))
        choose(b);
    slider_foot(static_cast<float>(b + 1) / static_cast<float>(grid), grab);
    ImGui::PopStyleColor(2);
    if (ImGui::IsItemHovered() &&
        st.model->steps().at(static_cast<std::size_t>(st.playback.step)).block >= 0)
        ui::tooltip("this step is about %s %d: choosing another %s goes to its own", shown.named, b,
                    shown.named);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next_block", ImGuiDir_Right))
        choose(std::min(grid - 1, shown.shown + 1));
}

namespace {

render::Framing framing(CameraMode m) {
    return m == CameraMode::Fit    ? render::Framing::Fit
           : m == CameraMode::Free ? render::Framing::Free
                                   : render::Framing::Follow;
}

} // namespace

// Following or fitting: the zoom (and row stretch and room) the scene is built at, settled
// by render::lay_out_canvas when what it depends on changes (not while the camera flies).
void CanvasPanel::settle(const State& st, std::size_t frame, const render::CanvasRequest& request,
                         const scene::ViewOptions& vo, const std::vector<scene::AnswerRow>& answers,
                         const std::vector<scene::HazardMark>& hazards) {
    Settled key{st.model.get(), frame, request, vo, answers, hazards};
    if (settled_for_ == key)
        return;
    const scene::Palette pal = scene::palette(vo.theme);
    // From the zoom the step before settled at: most steps settle in a round or two
    // (a scene of 65536 elements takes a tenth of a second to build and as much to
    // frame).
    scene::ViewOptions start = vo;
    if (settled_for_) {
        start.pixels_per_unit = settled_.pixels_per_unit;
        start.row_stretch = settled_.row_stretch;
    }
    try {
        render::Canvas c = render::lay_out_canvas(gl_.font(), *st.model, frame, request, start,
                                                  1.0f, [&](scene::Scene& s) {
                                                      scene::mark_answers(s, answers, pal);
                                                      scene::mark_hazards(s, hazards, pal);
                                                  });
        settled_ = c.built_with;
        settled_frame_ = std::move(c.frame);
    } catch (const std::exception&) {
        settled_ = start; // the build below fails the same way and says why
        settled_frame_.reset();
    }
    settled_for_ = std::move(key);
}

void CanvasPanel::draw(State& st, double dt, scene::Vec2 canvas_at_100) {
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const int w = std::max(16, static_cast<int>(avail.x));
    const int h = std::max(16, static_cast<int>(avail.y));
    if (!st.model) {
        ImGui::Dummy(avail);
        moving_ = false;
        framed_ = {};
        draw_error_banner(st, origin.x, origin.y, avail.x);
        return;
    }
    if (model_seen_ != st.model.get()) {
        // A new trace: the camera jumps to its new framing instead of flying there.
        model_seen_ = st.model.get();
        have_camera_ = have_camera_ && built_ && built_->width == w && built_->height == h &&
                       st.view.camera == CameraMode::Free;
    }
    const std::size_t frame = st.frame();
    const float fw = static_cast<float>(w), fh = static_cast<float>(h);
    render::CanvasRequest request;
    request.width = fw;
    request.height = fh;
    request.scale = st.view.presenter_scale;
    request.theme = st.view.theme;
    request.framing = have_camera_ ? framing(st.view.camera) : render::Framing::Follow;
    if (request.framing == render::Framing::Free)
        request.camera = camera_;
    request.interactive = true;
    if (request.framing != render::Framing::Free)
        request.canvas_at_100 = canvas_at_100;
    scene::ViewOptions vo;
    vo.theme = st.view.theme;
    vo.past_arrows = st.view.past_arrows;
    vo.text_scale = st.view.presenter_scale;
    vo.digit_em = gl_.font().width("0");
    std::vector<scene::AnswerRow> answers = answer_rows(st);
    std::vector<scene::HazardMark> hazards = hazard_marks(st);
    if (request.framing == render::Framing::Free) {
        // The user's zoom: the labels and the level of detail follow it.
        vo.pixels_per_unit = camera_.scale;
        vo.row_stretch = framed_.stretch;
        const RoomFor room_for{st.model.get(), frame, w, h, st.view.presenter_scale};
        if (!(room_for_ == room_for)) {
            room_for_ = room_for;
            room_ = render::room_for_rows(fh, st.view.presenter_scale);
        } else if (built_ && framed_.width == fw && framed_.height == fh) {
            room_ = std::min(room_, render::rows_room(framed_, st.view.presenter_scale));
        }
        vo.room_px = room_;
    } else {
        // Following or fitting: the zoom the scene is built at settled once, as every picture
        // settles it (render::lay_out_canvas), and kept while nothing it depends on changes.
        // Built at the zoom the camera was flying to, a scene could frame at another, and that
        // one back at the first: the picture never came to rest.
        settle(st, frame, request, vo, answers, hazards);
        vo.pixels_per_unit = settled_.pixels_per_unit;
        vo.row_stretch = settled_.row_stretch;
        vo.room_px = settled_.room_px;
    }
    Key key{st.model.get(), frame, st.playback.t, vo, w, h, std::move(answers), std::move(hazards)};
    const bool rebuilt = !built_ || !(*built_ == key);
    if (rebuilt) {
        try {
            scene_ = scene::build(*st.model, frame, vo, st.playback.t);
            scene::mark_answers(scene_, key.answers, scene::palette(vo.theme));
            scene::mark_hazards(scene_, key.hazards, scene::palette(vo.theme));
            render::measure_labels(scene_, gl_.font());
        } catch (const std::exception& e) { // a bug, said on the canvas: the window carries on
            ImGui::TextWrapped("This step cannot be drawn: %s", e.what());
            moving_ = false;
            return;
        }
        built_ = std::move(key);
        drawn_.reset();
    }

    // Where the camera wants to be, the notice and the legend (render::frame_canvas, as every
    // picture is framed), and a smooth approach to it.
    if (rebuilt || !(framed_for_ == request)) {
        if (request.framing != render::Framing::Free && settled_frame_) {
            // The step's framing at rest, settled with the scene: while the values fly the
            // camera goes where the step comes to rest, its legend and notice already up,
            // and only the moving scene's texts are laid out again (framing a scene of 65536
            // elements every frame of a transition took 40-100 ms a frame).
            framed_ = *settled_frame_;
            if (st.playback.t < 1.0f)
                framed_.text = render::scene_text(gl_.font(), scene_, framed_.camera, fw, fh,
                                                  framed_.picture, framed_.names);
        } else {
            framed_ = render::frame_canvas(gl_.font(), scene_, *st.model, frame, request);
        }
        framed_for_ = request;
        drawn_.reset();
    }
    moving_ = false;
    if (!have_camera_) {
        camera_ = framed_.camera;
        have_camera_ = true;
        moving_ = true; // one more frame: the labels follow the new zoom
    } else if (st.view.camera != CameraMode::Free && !same_camera(camera_, framed_.camera)) {
        camera_ = scene::blend(camera_, framed_.camera,
                               1.0f - std::exp(-kCameraRate * static_cast<float>(dt)));
        if (same_camera(camera_, framed_.camera))
            camera_ = framed_.camera;
        moving_ = true;
    }

    target_.resize(w, h);
    if (!drawn_ || !(*drawn_ == camera_)) {
        target_.bind();
        gl_.draw(scene_, camera_, w, h, framed_.picture, framed_.names);
        gl_.draw_overlay(framed_.overlay_cells, framed_.overlay_labels, w, h);
        render::RenderTarget::unbind();
        drawn_ = camera_;
    }
    // The scene was built for another zoom (its labels and level of detail): again next frame.
    if (request.framing == render::Framing::Free && vo.pixels_per_unit != camera_.scale)
        moving_ = true;
    ImGui::InvisibleButton("canvas", ImVec2(fw, fh),
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonMiddle);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(target_.texture())),
                 origin, ImVec2(origin.x + fw, origin.y + fh), ImVec2(0, 1), ImVec2(1, 0));
    interact(st, origin.x, origin.y, fw, fh);
    draw_error_banner(st, origin.x, origin.y, fw);
}

// The tracer's refusal over the top of the canvas, where the class is looking: in the controls
// column alone it fell below the window's edge at 1280x720, while the canvas went on showing
// the last trace that worked under the settings that did not.
void CanvasPanel::draw_error_banner(const State& st, float x, float y, float w) {
    banner_ = {};
    banner_text_.clear();
    if (st.error.empty())
        return;
    const scene::Palette pal = scene::palette(st.view.theme);
    banner_text_ = st.error + (st.model ? "\nstill showing the last trace that worked" : "");
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize(), pad = std::round(0.5f * size);
    const float wrap = std::max(w - 2 * pad, size);
    const ImVec2 text = font->CalcTextSizeA(size, FLT_MAX, wrap, banner_text_.c_str());
    banner_ = {x, y, w, text.y + 2 * pad};
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 a(x, y), b(x + w, y + banner_.h);
    dl->AddRectFilled(a, b, to_u32(pal.background));
    dl->AddRectFilled(a, b, to_u32(pal.wrong, 0.12f));
    dl->AddRect(a, b, to_u32(pal.wrong), 0.0f, 0, std::max(1.0f, size / 12));
    dl->AddText(font, size, ImVec2(a.x + pad, a.y + pad), to_u32(pal.text), banner_text_.c_str(),
                nullptr, wrap);
}

void CanvasPanel::interact(State& st, float x0, float y0, float w, float h) {
    ImGuiIO& io = ImGui::GetIO();
    if (!ImGui::IsItemHovered() && !ImGui::IsItemActive())
        return;
    const scene::Vec2 mouse{io.MousePos.x - x0, io.MousePos.y - y0};
    if (io.MouseWheel != 0 && ImGui::IsItemHovered()) {
        camera_ = scene::zoom_at(camera_, mouse, std::pow(1.15f, io.MouseWheel), w, h);
        st.view.camera = CameraMode::Free;
        moving_ = true;
    }
    if (ImGui::IsItemActive() && (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.0f) ||
                                  ImGui::IsMouseDragging(ImGuiMouseButton_Middle, 2.0f))) {
        camera_.center.x -= io.MouseDelta.x / camera_.scale;
        camera_.center.y -= io.MouseDelta.y / camera_.scale;
        st.view.camera = CameraMode::Free;
        moving_ = true;
    }
    if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
        st.view.camera = CameraMode::Fit;
        moving_ = true;
    }
    const scene::Cell* cell = scene::hit_test(scene_, camera_.to_world(mouse, w, h));
    if (!cell || !ImGui::IsItemHovered())
        return;
    // A click on an input element selects the block that reads it.
    const bool click =
        ImGui::IsItemDeactivated() &&
        io.MouseDragMaxDistanceSqr[0] < io.MouseDragThreshold * io.MouseDragThreshold;
    if (click && cell->ref->frame == CellRef::kInput && st.model) {
        const Frame& f = st.model->trace().frames.at(st.frame());
        if (const int block = st.model->reader_of_input(f.pass, cell->ref->cell).block; block >= 0)
            st.block = block;
    }
    tooltip(st, *cell);
}

void CanvasPanel::tooltip(const State& st, const scene::Cell& cell) const {
    if (!st.model || !cell.ref)
        return;
    const scene::Model& m = *st.model;
    const CellRef ref = *cell.ref;
    ImGui::BeginTooltip();
    if (ref.frame == CellRef::kInput) {
        const Frame& f = m.trace().frames.at(st.frame());
        ImGui::Text("element %d", ref.cell);
        if (f.pass == 0 && static_cast<std::size_t>(ref.cell) < m.request().input.size())
            ImGui::Text(
                "in[%d] = %s", ref.cell,
                format_value(m.request().input[static_cast<std::size_t>(ref.cell)]).c_str());
        ImGui::TextDisabled("%s", scene::input_reader_text(m, f.pass, ref.cell).c_str());
        ImGui::EndTooltip();
        return;
    }
    const Frame& f = m.trace().frames.at(static_cast<std::size_t>(ref.frame));
    ImGui::TextUnformatted(frame_label(f, label_parts(m.trace())).c_str());
    ImGui::Separator();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    if (cell.role == scene::CellRole::Future) {
        // A level not reached yet keeps its values to itself: practice mode hides it.
        ImGui::TextDisabled("not reached yet");
        answer_tooltip(st, cell);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
        return;
    }
    const float v = f.values.at(static_cast<std::size_t>(ref.cell));
    ImGui::Text("%s[%d] = %s", std::string(buffer_id(f.buffer)).c_str(), ref.cell,
                format_value(v).c_str());
    const CellWrite& w =
        m.writes(static_cast<std::size_t>(ref.frame)).at(static_cast<std::size_t>(ref.cell));
    if (w.thread >= 0) {
        ImGui::Text("written by %s: %s", writer_name(f, w.thread).c_str(), w.expression.c_str());
        if (w.keeps_own)
            ImGui::TextDisabled("its source lane is outside the warp: it adds its own value");
        if (w.atomics > 0)
            ImGui::Text("%d atomicAdd%s landed here in this step", w.atomics,
                        w.atomics == 1 ? "" : "s");
    } else if (cell.marks.not_taking_part) {
        ImGui::TextDisabled("%s", w.expression.c_str());
    } else {
        ImGui::TextDisabled("no thread wrote it in this step");
    }
    const scene::Palette pal = scene::palette(st.view.theme);
    const auto accent = [](const scene::Rgba& c) { return ImVec4(c.r, c.g, c.b, 1); };
    if (!w.hazard.empty())
        ImGui::TextColored(accent(pal.hazard), "hazard: %s", w.hazard.c_str());
    if (cell.marks.never_added)
        ImGui::TextColored(accent(pal.never_added),
                           "never added: the halving loop of a block that is not a power of "
                           "two does not reach this slot, so its value is missing from s[0]");
    answer_tooltip(st, cell);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

void CanvasPanel::answer_tooltip(const State& st, const scene::Cell& cell) const {
    if (!cell.marks.right && !cell.marks.wrong)
        return;
    const scene::Palette pal = scene::palette(st.view.theme);
    if (cell.marks.right) {
        ImGui::TextColored(ImVec4(pal.right.r, pal.right.g, pal.right.b, 1), "your value: right");
        return;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(pal.wrong.r, pal.wrong.g, pal.wrong.b, 1));
    ImGui::TextUnformatted(explain_answer(st, *cell.ref).c_str());
    ImGui::PopStyleColor();
}

} // namespace pplab::ui
