// What only a web page does, around the same window (app/ui's App): reading its address
// (link.hpp), fitting the canvas to the browser's window, drawing only when something
// changed, telling assistive technology and tests what is on screen (the page's status
// line), files chosen in the browser and written as downloads, and view=picture: one frame
// drawn exactly as `pplab render` draws it.
#pragma once

#include "app.hpp"
#include "link.hpp"

#include "render/gl_renderer.hpp"
#include "render/target.hpp"

#include <memory>
#include <string>
#include <vector>

struct GLFWwindow;

namespace pplab::web {

class Page {
public:
    // Reads the address and makes the window (or the picture). Needs the GL and ImGui
    // contexts, and comes before ImGui's GLFW backend, which then calls the page's input
    // callbacks after its own.
    Page(GLFWwindow* win, ui::Platform platform);
    ~Page();
    Page(const Page&) = delete;
    Page& operator=(const Page&) = delete;

    // Whether this display frame should draw: something moves, input came, the size changed.
    bool wants_frame();
    void frame_drawn();  // after the window's frame: the status line
    void draw_picture(); // view=picture, instead of the window's frame
    bool picture() const { return link_.picture; }
    ui::App& app() { return *app_; }

    // ImGui's copy and paste through the browser's clipboard; after ImGui's GLFW backend,
    // which sets its own.
    void use_browser_clipboard();
    std::string clipboard; // the text Ctrl+V pastes

    static void window_hints(); // before glfwCreateWindow
    static int width();         // the canvas's size to start with: the browser's window
    static int height();
    // Says on the page (not only in the console) why it cannot go on.
    // `link`: the address asks for something that cannot be drawn (said as the link's fault).
    static void fail(const std::string& why, bool link = false);

private:
    void fit_to_browser();
    void follow_link(); // once the address's trace is on screen: its frame, its messages
    void show_status(const std::string& state, const std::string& text);
    void offer_download(const std::string& path);

    GLFWwindow* win_;
    Link link_;
    std::unique_ptr<ui::App> app_; // the window (not made for view=picture)
    bool link_followed_ = false;
    bool drawn_once_ = false;
    bool scale_checked_ = false; // the link's scale held to the window's width
    std::string status_;
    std::vector<std::string> downloaded_; // files handed to the browser, to remove
    // view=picture
    struct Picture {
        render::GlRenderer renderer;
        render::RenderTarget target;
    };
    std::unique_ptr<Picture> picture_;
};

} // namespace pplab::web
