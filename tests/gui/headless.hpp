// The window's frame loop without a window: an offscreen EGL context, ImGui's OpenGL3
// backend, and the App, driven frame by frame with chosen keys. For the UI tests and for
// the README's screenshots.
#pragma once

#include <imgui.h>

#include <cfloat>

#include "app.hpp"

#include "render/offscreen.hpp"
#include "render/target.hpp"

#include <initializer_list>
#include <memory>
#include <string>

namespace pplab::test {

// Key codes of this headless "platform" (GLFW's, as the window uses them).
inline constexpr int kSpace = 32, kRight = 262, kLeft = 263, kHome = 268, kEnd = 269;
inline constexpr int kEqual = 61, kMinus = 45, kF = 70, kP = 80, kEscape = 256;

class HeadlessWindow {
public:
    HeadlessWindow(int width = 1600, int height = 1000); // throws when EGL is missing
    ~HeadlessWindow();
    HeadlessWindow(const HeadlessWindow&) = delete;
    HeadlessWindow& operator=(const HeadlessWindow&) = delete;

    // One frame of main.cpp's loop with `keys` held down; returns the vertices ImGui drew.
    int frame(std::initializer_list<int> keys = {}, bool ctrl = false);
    // Where the pointer rests in the next frames (window pixels); off the window at first.
    void point(float x, float y) { pointer_ = {x, y}; }
    // Frames until the tracer has delivered (or 20 s passed), then two more.
    void settle();
    // Frames until nothing moves (a transition, the camera), at most `limit`.
    void still(int limit = 200);
    void save(const std::string& path) const; // the last frame, as PNG

    ui::App& app() { return *app_; }
    ui::State& state() { return app_->state(); }

private:
    render::OffscreenContext context_; // first: everything below needs it
    render::RenderTarget target_;
    std::unique_ptr<ui::App> app_;
    double now_ = 0;
    ImVec2 pointer_{-FLT_MAX, -FLT_MAX};
};

} // namespace pplab::test
