// Entry point: the command line, or — with no subcommand — the window. Setup and the loop
// only; everything the window shows is app/ui's.
#include "cli.hpp"

#include "ui/app.hpp"

#include <glad/gl.h>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

constexpr const char* kNoDisplay =
    "use the command line (pplab list | trace | check | render; see pplab --help), or run the "
    "window under a virtual display: xvfb-run -s '-screen 0 1600x1000x24' pplab";

std::string glfw_error() {
    const char* what = nullptr;
    glfwGetError(&what);
    return what ? what : "unknown error";
}

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
    GLFWwindow* win = glfwCreateWindow(1600, 1000, "Parallel Patterns Lab", nullptr, nullptr);
    if (!win) {
        std::fprintf(stderr, "pplab: cannot open an OpenGL 3.3 window (%s): %s\n",
                     glfw_error().c_str(), kNoDisplay);
        glfwTerminate();
        return pplab::cli::kExitBadInput;
    }
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
    ImGui_ImplGlfw_InitForOpenGL(win, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    int rc = 0;
    try {
        pplab::ui::App app({[] { glfwPostEmptyEvent(); },
                            {GLFW_KEY_EQUAL, GLFW_KEY_MINUS, GLFW_KEY_KP_ADD, GLFW_KEY_KP_SUBTRACT,
                             GLFW_KEY_F, GLFW_KEY_P}});
        // A session or a hand-trace dropped on the window opens in the classroom.
        glfwSetWindowUserPointer(win, &app);
        glfwSetDropCallback(win, [](GLFWwindow* w, int count, const char** paths) {
            if (count > 0)
                static_cast<pplab::ui::App*>(glfwGetWindowUserPointer(w))->open_file(paths[0]);
        });
        // Draw only when something changes: sleep until input (or the tracer) wakes the
        // loop, a few frames after each event so ImGui's hover state settles, and at the
        // display's rate only while something animates.
        int settle = 3;
        while (!glfwWindowShouldClose(win)) {
            if (app.animating())
                glfwWaitEventsTimeout(1.0 / 120.0);
            else if (settle > 0)
                glfwPollEvents();
            else
                glfwWaitEvents(), settle = 3;
            --settle;
            if (app.fonts_dirty()) {
                app.load_fonts();
                ImGui_ImplOpenGL3_DestroyFontsTexture();
                ImGui_ImplOpenGL3_CreateFontsTexture();
            }
            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            ImGui::NewFrame();
            app.frame(glfwGetTime());
            ImGui::Render();
            int w = 0, h = 0;
            glfwGetFramebufferSize(win, &w, &h);
            glViewport(0, 0, w, h);
            glClearColor(0, 0, 0, 1);
            glClear(GL_COLOR_BUFFER_BIT);
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            glfwSwapBuffers(win);
        }
    } catch (const std::exception& e) { // a shader or driver failure: said, not a crash
        std::fprintf(stderr, "pplab: %s\n", e.what());
        rc = 2;
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(win);
    glfwTerminate();
    return rc;
}

} // namespace

int main(int argc, char** argv) {
    return pplab::cli::run(argc, argv, window);
}
