#include "headless.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace pplab::test {

HeadlessWindow::HeadlessWindow(int width, int height) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.KeyMap[ImGuiKey_Space] = kSpace;
    io.KeyMap[ImGuiKey_RightArrow] = kRight;
    io.KeyMap[ImGuiKey_LeftArrow] = kLeft;
    io.KeyMap[ImGuiKey_Home] = kHome;
    io.KeyMap[ImGuiKey_End] = kEnd;
    io.KeyMap[ImGuiKey_Escape] = kEscape;
    if (!ImGui_ImplOpenGL3_Init("#version 330 core"))
        throw std::runtime_error("ImGui's OpenGL 3 backend did not start");
    app_ = std::make_unique<ui::App>(ui::Platform{{}, {kEqual, kMinus, -1, -1, kF, kP}});
    target_.resize(width, height);
}

HeadlessWindow::~HeadlessWindow() {
    app_.reset();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
}

int HeadlessWindow::frame(std::initializer_list<int> keys, bool ctrl) {
    if (app_->fonts_dirty()) {
        app_->load_fonts();
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 60.0f;
    now_ += io.DeltaTime;
    for (bool& k : io.KeysDown)
        k = false;
    for (const int k : keys)
        io.KeysDown[k] = true;
    io.KeyCtrl = ctrl;
    io.MousePos = pointer_;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    app_->frame(now_);
    ImGui::Render();
    target_.bind();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    render::RenderTarget::unbind();
    return ImGui::GetDrawData()->TotalVtxCount;
}

void HeadlessWindow::settle() {
    const auto start = std::chrono::steady_clock::now();
    do {
        frame();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    } while ((app_->tracer().busy() || !state().model) &&
             std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
    frame();
    frame();
}

void HeadlessWindow::still(int limit) {
    // A frame first: whatever changed since the last one (a step, a camera target) shows
    // only once a frame has looked at it.
    frame();
    for (int i = 0; i < limit && app_->animating(); ++i)
        frame();
}

void HeadlessWindow::save(const std::string& path) const {
    render::write_png(target_.read(), path);
}

} // namespace pplab::test
