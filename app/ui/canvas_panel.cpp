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

constexpr float kMargin = 18.0f;     // pixels around a fitted scene
constexpr float kFollowMax = 72.0f;  // the camera never zooms closer than this, pixels per cell
constexpr float kReadablePx = 28.0f; // a cell this wide shows its value at 11 px or more
constexpr float kCameraRate = 7.0f;  // 1/s: how fast the camera catches up with its target

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

namespace {

constexpr const char* kModes[] = {"Follow", "Fit all", "Free"};
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

float CanvasPanel::toolbar_width(const State& st) {
    const ImGuiStyle& style = ImGui::GetStyle();
    float w = 0;
    for (const char* m : kModes)
        w += ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(m).x +
             style.ItemSpacing.x;
    if (block_count(st) > 1)
        w += ImGui::GetFontSize() * 2 + ImGui::CalcTextSize("Block").x +
             ImGui::GetFrameHeight() * 2 + ImGui::GetFontSize() * 7 + style.ItemSpacing.x * 4;
    return w;
}

void CanvasPanel::toolbar(State& st) {
    for (int i = 0; i < 3; ++i) {
        if (i > 0)
            ImGui::SameLine();
        if (ImGui::RadioButton(kModes[i], st.view.camera == kModeValues[i]))
            st.view.camera = kModeValues[i];
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", kModeTips[i]);
    }
    const int grid = block_count(st);
    if (grid <= 1)
        return;
    ImGui::SameLine(0, ImGui::GetFontSize() * 2);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Block");
    ImGui::SameLine();
    if (ImGui::ArrowButton("##prev_block", ImGuiDir_Left))
        st.block = std::max(0, st.block - 1);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(
        std::clamp(ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() * 2,
                   ImGui::GetFontSize() * 7, ImGui::GetFontSize() * 14));
    int b = std::min(st.block, grid - 1);
    if (ImGui::SliderInt("##block", &b, 0, grid - 1, ("%d of " + std::to_string(grid)).c_str()))
        st.block = b;
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next_block", ImGuiDir_Right))
        st.block = std::min(grid - 1, st.block + 1);
}

void CanvasPanel::draw(State& st, double dt) {
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const int w = std::max(16, static_cast<int>(avail.x));
    const int h = std::max(16, static_cast<int>(avail.y));
    notice_.clear();
    legend_box_ = {};
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
    const float fw = static_cast<float>(w), fh = static_cast<float>(h);
    const float ps = st.view.presenter_scale;
    const float margin = kMargin * ps;
    // The camera for the canvas below `top` pixels, above `bottom` and left of `right`.
    const auto aim = [&](float top, float bottom, float right = 0) {
        scene::Camera c = camera_;
        const float cw = fw - right, ch = fh - top - bottom;
        if (st.view.camera == CameraMode::Fit || !have_camera_)
            c = scene::fit_labelled(scene_, scene_.bounds, cw, ch, margin, kFollowMax * ps);
        if (st.view.camera == CameraMode::Follow)
            c = scene::follow(scene_, cw, ch, margin, kFollowMax * ps, kReadablePx * ps);
        c.center.y += (bottom - top) / 2 / c.scale;
        c.center.x += right / 2 / c.scale;
        return c;
    };
    notice_ = notice(st, aim(0, 0), fw, fh);
    const float notice_h = notice_.empty() ? 0.0f : ImGui::GetTextLineHeightWithSpacing() * 1.2f;
    scene::Camera target = aim(notice_h, 0);
    // The legend where it hides nothing, or docked in a band under the picture.
    legend_box_ = {};
    legend_docked_ = false;
    if (const scene::Vec2 box = legend_size(fw); box.x > 0) {
        const scene::Rect corner =
            scene::free_corner(scene_, target, fw, fh, box, ImGui::GetFontSize() * 0.5f);
        if (!corner.empty() && corner.y >= notice_h) {
            legend_box_ = corner;
        } else if (const scene::Vec2 column = legend_size(0.35f * fw);
                   fw > 1.3f * fh && column.y <= fh - notice_h) { // wide: a column beside
            legend_docked_ = true;
            legend_box_ = {fw - column.x, notice_h, column.x, fh - notice_h};
            target = aim(notice_h, 0, column.x);
        } else {
            legend_docked_ = true;
            legend_box_ = {0, fh - box.y, fw, box.y};
            target = aim(notice_h, box.y);
        }
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
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(target_.texture())),
                 origin, ImVec2(origin.x + fw, origin.y + fh), ImVec2(0, 1), ImVec2(1, 0));
    const scene::Palette pal = scene::palette(st.view.theme);
    if (!notice_.empty()) {
        dl->AddRectFilled(origin, ImVec2(origin.x + fw, origin.y + notice_h),
                          ImGui::GetColorU32(ImVec4(pal.panel.r, pal.panel.g, pal.panel.b, 1)));
        dl->AddText(ImVec2(origin.x + ImGui::GetFontSize() * 0.5f,
                           origin.y + (notice_h - ImGui::GetTextLineHeight()) / 2),
                    ImGui::GetColorU32(ImVec4(pal.muted.r, pal.muted.g, pal.muted.b, 1)),
                    notice_.c_str());
    }
    legend(st, origin.x, origin.y);
    interact(st, origin.x, origin.y, fw, fh);
}

std::string CanvasPanel::notice(const State& st, const scene::Camera& cam, float cw,
                                float ch) const {
    // Which of the step's rows are on screen, when not all of them are.
    const scene::Model& m = *st.model;
    const scene::StepGroup& g = m.steps().at(static_cast<std::size_t>(st.playback.step));
    const std::size_t shown = st.frame();
    const Frame& cur = m.trace().frames.at(shown);
    int first = -1, last = -1, total = 0, values = 0, drawn = 0;
    const bool by_warp = cur.warp >= 0;
    // scan-fast draws one cell per tile, from every tile's publish record.
    const bool by_tile = m.request().algorithm == Algorithm::ScanFast;
    for (const scene::Cell& c : scene_.cells) {
        if (!c.ref || c.ref->frame < 0)
            continue;
        const Frame& f = m.trace().frames.at(static_cast<std::size_t>(c.ref->frame));
        if (by_tile ? f.step != Step::TilePublish || c.role != scene::CellRole::Value
                    : c.ref->frame < g.first || c.ref->frame > g.last || f.block != cur.block)
            continue;
        const int index = by_tile ? f.block : by_warp ? f.warp : c.ref->cell;
        total = std::max(total, index + 1);
        const scene::Vec2 a = cam.to_screen({c.rect.x, c.rect.y}, cw, ch);
        const scene::Vec2 b = cam.to_screen({c.rect.right(), c.rect.bottom()}, cw, ch);
        if (b.x <= 0 || a.x >= cw || b.y <= 0 || a.y >= ch)
            continue;
        first = first < 0 ? index : std::min(first, index);
        last = std::max(last, index);
        ++values;
        drawn += (b.x - a.x) >= kReadablePx * st.view.presenter_scale * 0.8f;
    }
    const bool follow = st.view.camera != CameraMode::Fit;
    if (first >= 0 && (first > 0 || last + 1 < total))
        return "showing " +
               std::string(by_tile   ? "tiles "
                           : by_warp ? "warps "
                                     : "threads ") +
               std::to_string(first) + "–" + std::to_string(last) + " of " + std::to_string(total) +
               (follow ? " · drag, or Fit all for the whole" : " · drag to see the rest");
    if (values > 0 && drawn < values)
        return "values too small to read here: hover a cell, or zoom in (wheel)";
    return {};
}

scene::Vec2 CanvasPanel::legend_size(float cw) const {
    if (scene_.legend.empty())
        return {0, 0};
    const float pad = ImGui::GetFontSize() * 0.5f, swatch = ImGui::GetFontSize() * 1.2f;
    float w = 0;
    for (const scene::LegendItem& item : scene_.legend)
        w = std::max(w, ImGui::CalcTextSize(item.text.c_str()).x);
    w = std::min(w + pad * 3 + swatch, cw - 2 * pad);
    float h = pad * 2;
    for (const scene::LegendItem& item : scene_.legend)
        h += ImGui::CalcTextSize(item.text.c_str(), nullptr, false, w - pad * 3 - swatch).y +
             ImGui::GetStyle().ItemSpacing.y * 0.5f;
    return {w, h};
}

void CanvasPanel::legend(const State& st, float x0, float y0) const {
    if (scene_.legend.empty() || legend_box_.empty())
        return;
    // In screen space: readable at any zoom.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const scene::Palette pal = scene::palette(st.view.theme);
    const float pad = ImGui::GetFontSize() * 0.5f, swatch = ImGui::GetFontSize() * 1.2f;
    const auto u32 = [](const scene::Rgba& c, float alpha) {
        return ImGui::GetColorU32(ImVec4(c.r, c.g, c.b, c.a * alpha));
    };
    const ImVec2 a(x0 + legend_box_.x, y0 + legend_box_.y);
    const ImVec2 b(a.x + legend_box_.w, a.y + legend_box_.h);
    if (legend_docked_) {
        dl->AddRectFilled(a, b, u32(pal.panel, 1.0f));
    } else {
        dl->AddRectFilled(a, b, u32(pal.background, 0.92f), pad);
        dl->AddRect(a, b, u32(pal.panel_border, 1.0f), pad);
    }
    const float wrap = legend_size(legend_box_.w + 2 * pad).x - pad * 3 - swatch;
    float y = a.y + pad;
    for (const scene::LegendItem& item : scene_.legend) {
        const float mid = y + ImGui::GetTextLineHeight() * 0.55f;
        dl->AddRectFilled(ImVec2(a.x + pad, mid - 4), ImVec2(a.x + pad + swatch, mid + 4),
                          u32(item.color, 1.0f), 2);
        dl->AddText(nullptr, 0.0f, ImVec2(a.x + pad * 2 + swatch, y), u32(pal.text, 1.0f),
                    item.text.c_str(), nullptr, wrap);
        y += ImGui::CalcTextSize(item.text.c_str(), nullptr, false, wrap).y +
             ImGui::GetStyle().ItemSpacing.y * 0.5f;
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
