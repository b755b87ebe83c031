// Entry point: the command line, or — with no subcommand — the window. Setup and the loop
// only; everything the window shows is app/ui's. In the browser (emscripten) there is no
// command line: the page is the window, and the browser calls the loop once per display
// frame (web/src/page.hpp does what only a page does: its address, files, its size).
#include "ui/app.hpp"

#if defined(__EMSCRIPTEN__)
#include "page.hpp"

#include <emscripten/emscripten.h>
#else
#include "cli.hpp"

#include <glad/gl.h>
#endif

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

pplab::ui::Platform platform() {
    return {[] { glfwPostEmptyEvent(); },
            {GLFW_KEY_EQUAL, GLFW_KEY_MINUS, GLFW_KEY_KP_ADD, GLFW_KEY_KP_SUBTRACT, GLFW_KEY_F,
             GLFW_KEY_P}};
}

#if !defined(__EMSCRIPTEN__)
// The loop's state the window's callbacks reach (through GLFW's user pointer).
struct WindowLoop {
    // Frames drawn after the last input: ImGui needs a few to settle (hover, a dropdown's
    // list, a tab bar seen for the first time); counted from every input, not from the loop's
    // wait, so a press and release handled in one batch still get theirs.
    static constexpr int kSettleFrames = 4;
    pplab::ui::App* app = nullptr;
    int settle = kSettleFrames;
};

WindowLoop& loop_of(GLFWwindow* w) {
    return *static_cast<WindowLoop*>(glfwGetWindowUserPointer(w));
}

// Installed before ImGui's backend, which calls them after its own.
void count_input(GLFWwindow* win, WindowLoop& loop) {
    glfwSetWindowUserPointer(win, &loop);
    glfwSetMouseButtonCallback(
        win, [](GLFWwindow* w, int, int, int) { loop_of(w).settle = WindowLoop::kSettleFrames; });
    glfwSetCursorPosCallback(
        win, [](GLFWwindow* w, double, double) { loop_of(w).settle = WindowLoop::kSettleFrames; });
    glfwSetScrollCallback(
        win, [](GLFWwindow* w, double, double) { loop_of(w).settle = WindowLoop::kSettleFrames; });
    glfwSetKeyCallback(win, [](GLFWwindow* w, int, int, int, int) {
        loop_of(w).settle = WindowLoop::kSettleFrames;
    });
    glfwSetCharCallback(
        win, [](GLFWwindow* w, unsigned int) { loop_of(w).settle = WindowLoop::kSettleFrames; });
    // A session or a hand-trace dropped on the window opens in the classroom (the page does the
    // same, and draws the frame that shows it: page.cpp).
    glfwSetDropCallback(win, [](GLFWwindow* w, int count, const char** paths) {
        WindowLoop& l = loop_of(w);
        l.settle = WindowLoop::kSettleFrames;
        if (count > 0 && l.app)
            l.app->open_file(paths[0]);
    });
}
#endif

// One frame: the fonts when the scale changed, every panel, and the picture on the screen.
void draw_frame(GLFWwindow* win, pplab::ui::App& app, double now) {
    if (app.fonts_dirty()) {
        app.load_fonts();
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    app.frame(now);
    ImGui::Render();
    int w = 0, h = 0;
    glfwGetFramebufferSize(win, &w, &h);
    glViewport(0, 0, w, h);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glfwSwapBuffers(win);
}

#if defined(__EMSCRIPTEN__)

// Everything the page keeps for as long as it is open (main returns before the first frame).
struct Running {
    GLFWwindow* win = nullptr;
    pplab::web::Page* page = nullptr;
};

void browser_frame(void* arg) {
    const Running& r = *static_cast<const Running*>(arg);
    try {
        if (!r.page->wants_frame())
            return;
        if (r.page->picture()) {
            r.page->draw_picture();
            return;
        }
        draw_frame(r.win, r.page->app(), glfwGetTime());
        r.page->frame_drawn();
    } catch (const std::exception& e) { // a shader or driver failure: said on the page
        emscripten_cancel_main_loop();
        pplab::web::Page::fail(e.what());
    }
}

int run_page() {
    if (!glfwInit()) {
        pplab::web::Page::fail("the page could not start emscripten's GLFW");
        return 1;
    }
    pplab::web::Page::window_hints();
    GLFWwindow* win = glfwCreateWindow(pplab::web::Page::width(), pplab::web::Page::height(),
                                       "Parallel Patterns Lab", nullptr, nullptr);
    if (!win) {
        pplab::web::Page::fail("this browser gave the page no WebGL2 context: pplab draws "
                               "with WebGL2 (any browser from 2021 on has it; check that "
                               "hardware acceleration or WebGL is not switched off)");
        return 1;
    }
    glfwMakeContextCurrent(win);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    try {
        // The page's own input callbacks first: ImGui's backend calls them after its own.
        auto* page = new pplab::web::Page(win, platform()); // lives as long as the page
        ImGui_ImplGlfw_InitForOpenGL(win, true);
        ImGui_ImplOpenGL3_Init("#version 300 es");
        page->use_browser_clipboard();
        static Running running{win, page};
        emscripten_set_main_loop_arg(browser_frame, &running, 0, false);
    } catch (const std::exception& e) {
        pplab::web::Page::fail(e.what());
        return 1;
    }
    return 0;
}

#else

std::string glfw_error() {
    const char* what = nullptr;
    glfwGetError(&what);
    return what ? what : "unknown error";
}

// The window opens on the primary monitor at a size its work area holds, frame and all (a
// 1280x720 projector shows the caption and the transport), and never shrinks below the
// smallest window the layout serves.
void fit_to_monitor(GLFWwindow* win) {
    pplab::ui::ScreenRect work = pplab::ui::kUsualWindow;
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor())
        glfwGetMonitorWorkarea(monitor, &work.x, &work.y, &work.w, &work.h);
    if (work.w <= 0 || work.h <= 0) // no monitor, or it did not say: the usual size
        work = pplab::ui::kUsualWindow;
    pplab::ui::FrameExtents frame;
    glfwGetWindowFrameSize(win, &frame.left, &frame.top, &frame.right, &frame.bottom);
    const pplab::ui::WindowPlacement place = pplab::ui::place_window(work, frame);
    const pplab::ui::ScreenRect& at = place.contents;
    glfwSetWindowSizeLimits(win, std::min(pplab::ui::kSmallestWindow.w, at.w),
                            std::min(pplab::ui::kSmallestWindow.h, at.h), GLFW_DONT_CARE,
                            GLFW_DONT_CARE);
    glfwSetWindowSize(win, at.w, at.h);
    glfwSetWindowPos(win, at.x, at.y);
    glfwShowWindow(win);
    if (place.fills_work_area)
        glfwMaximizeWindow(win); // the window manager knows the work area's exact shape
}

constexpr const char* kNoDisplay =
    "use the command line (pplab list | trace | check | render; see pplab --help), or run the "
    "window under a virtual display: xvfb-run -s '-screen 0 1600x1000x24' pplab";

int window() {
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) {
        std::fprintf(stderr, "pplab: no display to open a window on: %s\n", kNoDisplay);
        return pplab::cli::kExitBadInput;
    }
    if (!glfwInit()) {
        std::fprintf(stderr, "pplab: cannot open a window (%s): %s\n", glfw_error().c_str(),
                     kNoDisplay);
        return pplab::cli::kExitBadInput;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    // Hidden until it is sized: the window manager's frame is known only once the window exists.
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    GLFWwindow* win = glfwCreateWindow(pplab::ui::kUsualWindow.w, pplab::ui::kUsualWindow.h,
                                       "Parallel Patterns Lab", nullptr, nullptr);
    if (!win) {
        std::fprintf(stderr, "pplab: cannot open an OpenGL 3.3 window (%s): %s\n",
                     glfw_error().c_str(), kNoDisplay);
        glfwTerminate();
        return pplab::cli::kExitBadInput;
    }
    fit_to_monitor(win);
    glfwMakeContextCurrent(win);
    glfwSwapInterval(1);
    if (!gladLoadGL(glfwGetProcAddress)) {
        std::fprintf(stderr, "pplab: the OpenGL 3.3 functions did not load\n");
        glfwDestroyWindow(win);
        glfwTerminate();
        return pplab::cli::kExitBadInput;
    }
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    WindowLoop loop;
    count_input(win, loop);
    ImGui_ImplGlfw_InitForOpenGL(win, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    int rc = 0;
    try {
        pplab::ui::App app(platform());
        loop.app = &app;
        // Draw only when something changes: sleep until input (or the tracer) wakes the
        // loop, a few frames after each wake-up and each input in them so ImGui settles, and
        // at the display's rate only while something animates.
        while (!glfwWindowShouldClose(win)) {
            if (glfwGetWindowAttrib(win, GLFW_ICONIFIED)) { // nothing to draw into
                glfwWaitEvents();
                continue;
            }
            if (app.animating())
                glfwWaitEventsTimeout(1.0 / 120.0);
            else if (loop.settle > 0)
                glfwPollEvents();
            else
                glfwWaitEvents(), loop.settle = WindowLoop::kSettleFrames;
            loop.settle = std::max(loop.settle - 1, 0);
            draw_frame(win, app, glfwGetTime());
        }
    } catch (const std::exception& e) { // a shader or driver failure: said, not a crash
        std::fprintf(stderr, "pplab: %s\n", e.what());
        rc = 2;
    }
    loop.app = nullptr;
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(win);
    glfwTerminate();
    return rc;
}

#endif

} // namespace

int main(int argc, char** argv) {
#if defined(__EMSCRIPTEN__)
    (void)argc, (void)argv; // the page's options come from its address (web/src/link.hpp)
    return run_page();
#else
    return pplab::cli::run(argc, argv, window);
#endif
}
