#include "panels.hpp"

#include "pplab/io.hpp"
#include "scene/view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>

namespace pplab::ui {

namespace {

constexpr float kMargin = 28.0f;     // pixels around a fitted scene
constexpr float kFollowMax = 56.0f;  // follow never zooms closer than this, pixels per cell
constexpr float kReadablePx = 22.0f; // a cell this wide shows its value comfortably
constexpr float kFitMax = 110.0f;    // nor does fit, for tiny inputs
constexpr float kCameraRate = 7.0f;  // 1/s: how fast the camera catches up with its target
constexpr const char* kLegendTab = "legend ▴";

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
           options.text_scale == o.options.text_scale && answers == o.answers;
}

CanvasPanel::CanvasPanel() = default;

void CanvasPanel::toolbar(State& st) {
    int mode = static_cast<int>(st.view.camera);
    ImGui::RadioButton("Follow the step", &mode, static_cast<int>(CameraMode::Follow));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the camera frames what the current step reads and writes");
    ImGui::SameLine();
    ImGui::RadioButton("Fit all", &mode, static_cast<int>(CameraMode::Fit));
    ImGui::SameLine();
    ImGui::RadioButton("Free", &mode, static_cast<int>(CameraMode::Free));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("wheel: zoom · drag: pan · double-click: fit");
    st.view.camera = static_cast<CameraMode>(mode);
    if (!st.model)
        return;
    const Frame& f = st.model->trace().frames.at(st.frame());
    const int grid = st.model->grid(f.pass);
    if (grid > 1) {
        ImGui::SameLine(0, ImGui::GetFontSize() * 2);
        ImGui::TextUnformatted("Block");
        ImGui::SameLine();
        if (ImGui::ArrowButton("##prev_block", ImGuiDir_Left))
            st.block = std::max(0, st.block - 1);
        ImGui::SameLine();
        ImGui::SetNextItemWidth(
            std::min(ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() * 2,
                     ImGui::GetFontSize() * 14));
        int b = std::min(st.block, grid - 1);
        if (ImGui::SliderInt("##block", &b, 0, grid - 1, ("%d of " + std::to_string(grid)).c_str()))
            st.block = b;
        ImGui::SameLine();
        if (ImGui::ArrowButton("##next_block", ImGuiDir_Right))
            st.block = std::min(grid - 1, st.block + 1);
    }
}

void CanvasPanel::draw(State& st, double dt) {
    toolbar(st);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const int w = std::max(16, static_cast<int>(avail.x));
    const int h = std::max(16, static_cast<int>(avail.y));
    if (!st.model) {
        ImGui::Dummy(avail);
        moving_ = false;
        return;
    }
    if (model_seen_ != st.model.get()) {
        // A new trace: the camera jumps to its new framing instead of flying there.
        model_seen_ = st.model.get();
        have_camera_ = have_camera_ && built_ && built_->width == w && built_->height == h &&
                       st.view.camera == CameraMode::Free;
    }
    const std::size_t frame = st.frame();
    scene::ViewOptions vo;
    vo.theme = st.view.theme;
    vo.past_arrows = st.view.past_arrows;
    vo.text_scale = st.view.presenter_scale;
    vo.pixels_per_unit = have_camera_ ? camera_.scale : 40.0f;
    Key key{st.model.get(), frame, st.playback.t, vo, w, h, answer_rows(st)};
    if (!built_ || !(*built_ == key)) {
        try {
            scene_ = scene::build(*st.model, frame, vo, st.playback.t);
            scene::mark_answers(scene_, key.answers, scene::palette(vo.theme));
        } catch (const std::exception& e) { // a bug, said on the canvas: the window carries on
            ImGui::TextWrapped("This step cannot be drawn: %s", e.what());
            moving_ = false;
            return;
        }
        built_ = std::move(key);
        drawn_.reset();
    }

    // Where the camera wants to be, and a smooth approach to it.
    scene::Camera target = camera_;
    const float fw = static_cast<float>(w), fh = static_cast<float>(h);
    const float margin = kMargin * st.view.presenter_scale;
    // The camera for the canvas right of `left` pixels and above `bottom`.
    const auto aim = [&](float left, float bottom) {
        scene::Camera c = camera_;
        if (st.view.camera == CameraMode::Fit || !have_camera_)
            c = scene::fit(scene_.bounds, fw - left, fh - bottom, margin,
                           kFitMax * st.view.presenter_scale);
        if (st.view.camera == CameraMode::Follow)
            c = scene::follow(scene_, fw - left, fh - bottom, margin,
                              kFollowMax * st.view.presenter_scale,
                              kReadablePx * st.view.presenter_scale);
        c.center.x -= left / 2 / c.scale;
        c.center.y += bottom / 2 / c.scale;
        return c;
    };
    target = aim(0, 0);
    // Where the legend would hide cells, the picture leaves it a column or a band, whichever
    // keeps the picture larger.
    if (const scene::Vec2 box = legend_size(fw, fh);
        box.x > 0 && st.view.camera != CameraMode::Free && cells_under(target, fw, fh, box) > 0) {
        const scene::Camera beside = aim(std::min(box.x, fw / 2), 0);
        const scene::Camera above = aim(0, std::min(box.y, fh / 2));
        target = beside.scale >= above.scale ? beside : above;
    }
    moving_ = false;
    if (!have_camera_) {
        camera_ = target;
        have_camera_ = true;
        moving_ = true; // one more frame: the labels follow the new zoom
    } else if (st.view.camera != CameraMode::Free && !same_camera(camera_, target)) {
        camera_ =
            scene::blend(camera_, target, 1.0f - std::exp(-kCameraRate * static_cast<float>(dt)));
        if (same_camera(camera_, target))
            camera_ = target;
        moving_ = true;
    }

    target_.resize(w, h);
    if (!drawn_ || !(*drawn_ == camera_)) {
        target_.bind();
        gl_.draw(scene_, camera_, w, h);
        render::RenderTarget::unbind();
        drawn_ = camera_;
    }
    // The scene was built for another zoom (its labels and level of detail): again next frame.
    if (vo.pixels_per_unit != camera_.scale)
        moving_ = true;
    ImGui::InvisibleButton("canvas", ImVec2(fw, fh),
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonMiddle);
    ImGui::GetWindowDrawList()->AddImage(
        reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(target_.texture())), origin,
        ImVec2(origin.x + fw, origin.y + fh), ImVec2(0, 1), ImVec2(1, 0));
    legend(st, origin.x, origin.y + fh, fw, fh);
    interact(st, origin.x, origin.y, fw, fh);
}

scene::Vec2 CanvasPanel::legend_size(float cw, float ch, bool unfolded) const {
    if (scene_.legend.empty())
        return {0, 0};
    const float pad = ImGui::GetFontSize() * 0.5f, swatch = ImGui::GetFontSize() * 1.2f;
    float w = 0;
    for (const scene::LegendItem& item : scene_.legend)
        w = std::max(w, ImGui::CalcTextSize(item.text.c_str()).x);
    const scene::Vec2 full{
        pad * 5 + swatch + w,
        ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(scene_.legend.size()) + pad * 3};
    // On a small canvas (presenter scale, both side panels) the legend folds into a tab
    // that opens under the pointer, rather than covering the picture.
    if (unfolded || (full.x <= 0.6f * cw && full.y <= 0.4f * ch))
        return full;
    return {ImGui::CalcTextSize(kLegendTab).x + pad * 4, ImGui::GetTextLineHeight() + pad * 3};
}

int CanvasPanel::cells_under(const scene::Camera& cam, float cw, float ch, scene::Vec2 box) const {
    // The legend's place: the bottom left corner.
    int n = 0;
    for (const scene::Cell& c : scene_.cells) {
        if (!c.ref)
            continue;
        const scene::Vec2 p = cam.to_screen({c.rect.x, c.rect.y}, cw, ch);
        const scene::Vec2 q = cam.to_screen({c.rect.right(), c.rect.bottom()}, cw, ch);
        n += p.x < box.x && q.x > 0 && q.y > ch - box.y && p.y < ch;
    }
    return n;
}

void CanvasPanel::legend(const State& st, float x0, float bottom, float cw, float ch) const {
    if (scene_.legend.empty())
        return;
    // Bottom left of the canvas, in screen space: readable at any zoom.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const scene::Palette pal = scene::palette(st.view.theme);
    const float pad = ImGui::GetFontSize() * 0.5f, swatch = ImGui::GetFontSize() * 1.2f;
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const auto u32 = [](const scene::Rgba& c, float alpha) {
        return ImGui::GetColorU32(ImVec4(c.r, c.g, c.b, c.a * alpha));
    };
    const scene::Vec2 full = legend_size(cw, ch, true);
    if (const scene::Vec2 tab = legend_size(cw, ch); !(tab == full)) {
        const ImVec2 a(x0 + pad, bottom - tab.y), b(x0 + tab.x - pad, bottom - pad);
        dl->AddRectFilled(a, b, u32(pal.background, 0.88f), pad);
        dl->AddRect(a, b, u32(pal.panel_border, 1.0f), pad);
        dl->AddText(ImVec2(a.x + pad, a.y + pad), u32(pal.muted, 1.0f), kLegendTab);
        if (!ImGui::IsMouseHoveringRect(a, b, false))
            return;
    }
    const scene::Vec2 box = full;
    const ImVec2 a(x0 + pad, bottom - box.y), b(x0 + box.x - pad, bottom - pad);
    dl->AddRectFilled(a, b, u32(pal.background, 0.88f), pad);
    dl->AddRect(a, b, u32(pal.panel_border, 1.0f), pad);
    float y = a.y + pad;
    for (const scene::LegendItem& item : scene_.legend) {
        const float mid = y + line * 0.45f;
        dl->AddRectFilled(ImVec2(a.x + pad, mid - 4), ImVec2(a.x + pad + swatch, mid + 4),
                          u32(item.color, 1.0f), 2);
        dl->AddText(ImVec2(a.x + pad * 2 + swatch, y), u32(pal.text, 1.0f), item.text.c_str());
        y += line;
    }
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
        const int B = st.model->block_size(f.pass), G = st.model->grid(f.pass);
        st.block = (cell->ref->cell / std::max(B, 1)) % std::max(G, 1);
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
        const int B = m.block_size(f.pass);
        ImGui::Text("element %d", ref.cell);
        if (f.pass == 0 && static_cast<std::size_t>(ref.cell) < m.request().input.size())
            ImGui::Text(
                "in[%d] = %s", ref.cell,
                format_value(m.request().input[static_cast<std::size_t>(ref.cell)]).c_str());
        ImGui::TextDisabled("block %d (thread %d) reads it; click to show that block",
                            (ref.cell / B) % m.grid(f.pass), ref.cell % B);
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
        ImGui::Text("written by %s %d: %s", f.buffer == Buffer::Lanes ? "lane" : "thread", w.thread,
                    w.expression.c_str());
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
