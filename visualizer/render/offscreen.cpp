#include "offscreen.hpp"

#include <glad/gl.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstring>
#include <stdexcept>

namespace pplab::render {

// Released even when the constructor gives up half way.
struct OffscreenContext::Egl {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;

    ~Egl() {
        if (display == EGL_NO_DISPLAY)
            return;
        eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (context != EGL_NO_CONTEXT)
            eglDestroyContext(display, context);
        eglTerminate(display);
    }
};

namespace {

bool has_extension(const char* list, const char* name) {
    if (!list)
        return false;
    const std::size_t n = std::strlen(name);
    for (const char* p = std::strstr(list, name); p; p = std::strstr(p + n, name))
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

[[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("offscreen rendering needs Mesa's surfaceless EGL (libegl-mesa0, "
                             "libgl1-mesa-dri): " +
                             what);
}

GLADapiproc load(const char* name) {
    return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name));
}

} // namespace

OffscreenContext::OffscreenContext() : egl_(std::make_unique<Egl>()) {
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!has_extension(client, "EGL_MESA_platform_surfaceless") ||
        !has_extension(client, "EGL_EXT_platform_base"))
        fail("this EGL has no surfaceless platform");
    const auto get_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
        eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (!get_display)
        fail("eglGetPlatformDisplayEXT is missing");
    egl_->display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    EGLint major = 0, minor = 0;
    if (egl_->display == EGL_NO_DISPLAY || !eglInitialize(egl_->display, &major, &minor))
        fail("eglInitialize failed");
    if (!has_extension(eglQueryString(egl_->display, EGL_EXTENSIONS),
                       "EGL_KHR_surfaceless_context"))
        fail("EGL_KHR_surfaceless_context is missing");
    if (!eglBindAPI(EGL_OPENGL_API))
        fail("no desktop OpenGL in this EGL");
    // The surfaceless platform offers no window configurations: ask for pbuffer ones.
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE,
                                     EGL_PBUFFER_BIT,
                                     EGL_RENDERABLE_TYPE,
                                     EGL_OPENGL_BIT,
                                     EGL_RED_SIZE,
                                     8,
                                     EGL_GREEN_SIZE,
                                     8,
                                     EGL_BLUE_SIZE,
                                     8,
                                     EGL_ALPHA_SIZE,
                                     8,
                                     EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    if (!eglChooseConfig(egl_->display, config_attribs, &config, 1, &configs) || configs < 1)
        fail("no RGBA8 OpenGL configuration");
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                      3,
                                      EGL_CONTEXT_MINOR_VERSION,
                                      3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_NONE};
    egl_->context = eglCreateContext(egl_->display, config, EGL_NO_CONTEXT, context_attribs);
    if (egl_->context == EGL_NO_CONTEXT)
        fail("no OpenGL 3.3 core context");
    if (!eglMakeCurrent(egl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, egl_->context))
        fail("eglMakeCurrent failed");
    if (!gladLoadGL(load))
        fail("the OpenGL functions did not load");
}

OffscreenContext::~OffscreenContext() = default;

std::string OffscreenContext::renderer() const {
    const auto* s = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    return s ? s : "unknown";
}

} // namespace pplab::render
