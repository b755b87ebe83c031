#include "page.hpp"

#include "zip.hpp"

#include "pplab/backend.hpp"
#include "pplab/files.hpp"
#include "render/picture.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <vector>

namespace pplab::web {

namespace {

// ---- [SECTION] The browser's side: the page's address, size and status line -------------
// The elements are the shell's (web/shell.html): #status, #failure.

EM_JS(int, query_length, (), { return lengthBytesUTF8(location.search); });
EM_JS(void, query_copy, (char* out, int size), { stringToUTF8(location.search, out, size); });
EM_JS(int, browser_width, (), { return Math.max(320, window.innerWidth | 0); });
EM_JS(int, browser_height, (), { return Math.max(240, window.innerHeight | 0); });
EM_JS(void, set_status, (const char* state, const char* text), {
    const status = document.getElementById('status');
    status.dataset.state = UTF8ToString(state);
    status.textContent = UTF8ToString(text);
});
// Where the window put its canvas, in the page's pixels: a test compares what is drawn there
// with the canvas of `pplab render`'s picture of the same step.
EM_JS(void, set_canvas_rect, (int x, int y, int w, int h),
      { document.getElementById('status').dataset.canvas = x + ',' + y + ',' + w + ',' + h; });
EM_JS(void, mark_first_frame, (), {
    const ms = performance.now();
    document.getElementById('status').dataset.firstFrameMs = ms.toFixed(0);
    document.body.classList.add('running');
});
// The browser's file dialog for a panel's file field; the chosen file goes into the page's
// memory under /uploads and its path back to the field (pplab_file_chosen).
EM_JS(void, open_file_dialog, (const char* field_id), {
    const field = UTF8ToString(field_id);
    const input = document.createElement('input');
    input.type = 'file';
    input.onchange = async function() {
        const file = input.files[0];
        if (!file)
            return;
        const bytes = new Uint8Array(await file.arrayBuffer());
        FS.mkdirTree('/uploads');
        const path = '/uploads/' + file.name.split('/').join('_');
        FS.writeFile(path, bytes);
        Module.ccall('pplab_file_chosen', null, [ 'string', 'string' ], [ field, path ]);
    };
    input.click();
});
// What the window wrote, handed to the browser as a download named `name`.
EM_JS(void, download, (const char* name, const char* bytes, int size), {
    const blob = new Blob([HEAPU8.slice(bytes, bytes + size)]);
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = UTF8ToString(name);
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(
        function() { URL.revokeObjectURL(link.href); }, 60000);
});
// Text ImGui copies goes to the system clipboard too (where the browser allows it).
EM_JS(void, copy_to_browser, (const char* text), {
    if (navigator.clipboard)
        navigator.clipboard.writeText(UTF8ToString(text)).catch(function(){});
});
EM_JS(void, show_failure, (const char* text, int link), {
    const why = UTF8ToString(text);
    const box = document.getElementById('failure');
    box.textContent = (link ? 'This link cannot be drawn: ' : 'pplab cannot run here: ') + why;
    box.hidden = false;
    document.getElementById('loading').hidden = true;
    document.getElementById('status').dataset.state = 'failed';
    document.getElementById('status').textContent = why;
});

std::string page_query() {
    std::vector<char> text(static_cast<std::size_t>(query_length()) + 1);
    query_copy(text.data(), static_cast<int>(text.size()));
    return text.data();
}

// Frames drawn after an input event, so that ImGui's hover and active states settle.
constexpr int kSettleFrames = 3;
Page* g_page = nullptr; // the document's one page, for GLFW's plain-function callbacks
int g_input_frames = kSettleFrames;

void on_input() {
    g_input_frames = kSettleFrames;
}

// The trace frame the address's step and block show, with `pplab render`'s messages for a
// step or a block the trace does not have.
std::size_t step_frame(const scene::Model& model, const Link& link) {
    return model.frame_asked(link.step, link.shown_block);
}

} // namespace

// Ctrl+V in the page: the browser hands over the system clipboard's text (the shell's paste
// listener) before ImGui asks for it in the next frame.
extern "C" EMSCRIPTEN_KEEPALIVE void pplab_paste(const char* text) {
    if (g_page)
        g_page->clipboard = text;
}

// A file chosen in the browser's dialog is in the page's memory: to the field that asked.
extern "C" EMSCRIPTEN_KEEPALIVE void pplab_file_chosen(const char* field, const char* path) {
    if (!g_page || g_page->picture())
        return;
    g_page->app().state().files.chosen = std::pair{std::string(field), std::string(path)};
    on_input();
}

Page::Page(GLFWwindow* win, ui::Platform platform)
    : win_(win), link_(read_link(page_query(), ui::Settings{})) {
    g_page = this;
    glfwSetCursorPosCallback(win, [](GLFWwindow*, double, double) { on_input(); });
    glfwSetMouseButtonCallback(win, [](GLFWwindow*, int, int, int) { on_input(); });
    glfwSetScrollCallback(win, [](GLFWwindow*, double, double) { on_input(); });
    glfwSetKeyCallback(win, [](GLFWwindow*, int, int, int, int) { on_input(); });
    glfwSetCharCallback(win, [](GLFWwindow*, unsigned int) { on_input(); });
    if (link_.picture) {
        glfwSetWindowSize(win, link_.width, link_.height);
        picture_ = std::make_unique<Picture>();
        return;
    }
    platform.wake = on_input; // something finished: draw (the loop runs on the browser's frames)
    // The link's settings are the first trace: the window's defaults traced first stayed on the
    // canvas under a link whose own request failed, as if it were the link's.
    app_ = std::make_unique<ui::App>(std::move(platform), link_.settings);
    // A session or a hand-trace dropped on the canvas opens in the classroom, as on the
    // desktop; the browser hands the file over (into the page's memory) after the drop.
    glfwSetDropCallback(win, [](GLFWwindow*, int count, const char** paths) {
        if (count > 0 && g_page)
            g_page->app().open_file(paths[0]);
        on_input();
    });
    ui::State& st = app_->state();
    st.files.dialog = [](const std::string& field) { open_file_dialog(field.c_str()); };
    on_file_written([this](const std::string& path) { offer_download(path); });
    st.settings = link_.settings;
    st.view.theme = link_.theme;
    if (link_.scale_percent > 0)
        st.view.presenter_scale = static_cast<float>(link_.scale_percent) / 100.0f;
    if (link_.fit)
        st.view.camera = ui::CameraMode::Fit;
    if (link_.tab == Tab::Classroom) {
        ui::open_classroom(st, st.classroom.tab);
    } else if (link_.tab == Tab::YourKernel) {
        st.view.show_source = true; // the column the tab is in, opened where it is folded
        st.view.source_drawer = true;
        st.your.select_tab = true;
    }
}

Page::~Page() {
    on_file_written(nullptr);
    g_page = nullptr;
}

void Page::offer_download(const std::string& path) {
    namespace fs = std::filesystem;
    std::string name = fs::path(path).filename().string(), bytes;
    if (fs::is_directory(path)) {
        bytes = zip_folder(path); // a PNG sequence: one download
        name += ".zip";
    } else {
        bytes = read_text_file(path);
    }
    download(name.c_str(), bytes.data(), static_cast<int>(bytes.size()));
    downloaded_.push_back(path);
}

void Page::use_browser_clipboard() {
    // emscripten's GLFW has no clipboard: a hand-trace pasted into the window would vanish.
    ImGuiIO& io = ImGui::GetIO();
    io.GetClipboardTextFn = [](void*) { return g_page ? g_page->clipboard.c_str() : ""; };
    io.SetClipboardTextFn = [](void*, const char* text) {
        if (g_page)
            g_page->clipboard = text;
        copy_to_browser(text);
    };
}

void Page::window_hints() {
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_ALPHA_BITS, 0); // an opaque canvas: the page behind never shows through
}

int Page::width() {
    return browser_width();
}

int Page::height() {
    return browser_height();
}

void Page::fail(const std::string& why, bool link) {
    std::fprintf(stderr, "pplab: %s\n", why.c_str());
    show_failure(why.c_str(), link ? 1 : 0);
}

void Page::fit_to_browser() {
    if (link_.picture)
        return; // the picture keeps the size it was asked for
    int w = 0, h = 0;
    glfwGetWindowSize(win_, &w, &h);
    if (w != browser_width() || h != browser_height()) {
        glfwSetWindowSize(win_, browser_width(), browser_height());
        on_input();
    }
}

bool Page::wants_frame() {
    // What was handed to the browser leaves the page's memory (a frame later: the window's
    // message has read its size), so the same name can be written again.
    for (const std::string& path : downloaded_) {
        std::error_code ignore;
        std::filesystem::remove_all(path, ignore);
    }
    downloaded_.clear();
    fit_to_browser();
    if (link_.picture)
        return !drawn_once_;
    follow_link();
    if (app_->animating() || !link_followed_ || !drawn_once_)
        return true;
    if (g_input_frames > 0) {
        --g_input_frames;
        return true;
    }
    return false; // nothing changed: the browser keeps the last picture
}

void Page::follow_link() {
    if (link_followed_)
        return;
    ui::State& st = app_->state();
    // A scale the browser's width does not hold (scale=300 in 1280x720 left the canvas no room
    // and cut the menu) is held to the largest it does, as Ctrl + is, and said; known once a
    // frame has sized the window.
    if (drawn_once_ && !scale_checked_) {
        scale_checked_ = true;
        const float largest = app_->largest_scale_here();
        if (st.view.presenter_scale > largest + 0.001f) {
            st.view.presenter_scale = largest;
            link_.errors.push_back("the address's scale=" + std::to_string(link_.scale_percent) +
                                   " is more than this window's width holds: " +
                                   std::to_string(static_cast<int>(std::lround(largest * 100.0f))) +
                                   "% here");
        }
    }
    // The address's own trace is on screen (or its request failed, and says why): the window
    // asks for it in its first frame.
    if (!drawn_once_ || app_->tracer().busy() || (!st.model && st.error.empty()))
        return;
    link_followed_ = true;
    std::vector<std::string> errors = link_.errors;
    if (st.model && st.error.empty()) {
        try {
            const std::size_t frame = step_frame(*st.model, link_);
            st.block = link_.shown_block;
            st.playback.go_to(st.model->step_of(frame), st.steps());
            st.playback.playing = false;
        } catch (const InputError& e) {
            errors.push_back(e.what());
        }
    }
    for (const std::string& e : errors)
        st.error += (st.error.empty() ? "" : "\n") + e;
}

void Page::frame_drawn() {
    if (!drawn_once_)
        mark_first_frame();
    drawn_once_ = true;
    const ui::State& st = app_->state();
    const scene::Rect& c = app_->layout().canvas;
    set_canvas_rect(static_cast<int>(std::lround(c.x)), static_cast<int>(std::lround(c.y)),
                    static_cast<int>(std::lround(c.w)), static_cast<int>(std::lround(c.h)));
    std::string text, state = "ready";
    if (!link_followed_ || (!st.model && st.error.empty())) {
        state = "tracing";
        text = "tracing…";
    } else {
        if (st.model)
            text = std::string(info(st.model->request().algorithm).id) + ", step " +
                   std::to_string(st.playback.step + 1) + " of " + std::to_string(st.steps()) +
                   " (frame " + std::to_string(st.frame()) + "): " + st.model->caption(st.frame());
        // The hand-trace's verdict, as the Hand-trace tab says it (what a test, or a screen
        // reader, reads of the page).
        if (const ui::HandTrace& h = st.classroom.hand; h.result && h.model == st.model.get()) {
            text += "\nHand-trace: " + h.result->summary();
            if (const int first = h.result->first_wrong(); first >= 0) {
                const LevelVerdict& v = h.result->levels[static_cast<std::size_t>(first)];
                text += " The first mistake, line " + std::to_string(v.line_number) + ": " +
                        v.explanation;
            }
        }
        if (st.your.tab_open) // what the tab says instead of an editor
            text += std::string("\n") + ui::kDesktopOnly + ". " + ui::kDesktopOnlyWhy;
        if (!st.error.empty()) {
            state = "error";
            text = st.error + (text.empty() ? "" : "\n" + text);
        }
    }
    show_status(state, text);
}

void Page::show_status(const std::string& state, const std::string& text) {
    if (state + text == status_)
        return;
    status_ = state + text;
    set_status(state.c_str(), text.c_str());
}

void Page::draw_picture() {
    drawn_once_ = true;
    try {
        const scene::Model model(make_cpu_backend()->trace(link_.settings.request()));
        const std::size_t frame = step_frame(model, link_);
        if (!link_.errors.empty())
            throw InputError(link_.errors.front());
        render::PictureOptions o;
        o.width = link_.width;
        o.height = link_.height;
        o.theme = link_.theme;
        o.follow = !link_.fit;
        o.scale = static_cast<float>(link_.scale_percent) / 100.0f;
        render::picture(picture_->renderer, picture_->target, model, frame, o);
        // The picture's framebuffer onto the canvas, pixel for pixel.
        picture_->target.bind();
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
        glBlitFramebuffer(0, 0, o.width, o.height, 0, 0, o.width, o.height, GL_COLOR_BUFFER_BIT,
                          GL_NEAREST);
        render::RenderTarget::unbind();
        mark_first_frame();
        show_status("ready", std::string(info(model.request().algorithm).id) + ", step " +
                                 std::to_string(model.step_of(frame) + 1) + " of " +
                                 std::to_string(model.steps().size()) + " (frame " +
                                 std::to_string(frame) + "): " + model.caption(frame));
    } catch (const InputError& e) {
        fail(e.what(), true); // the link's mistake, not the browser's
    }
}

} // namespace pplab::web
