// An OpenGL 3.3 core context without a window or an X server: Mesa's surfaceless EGL
// platform. `pplab render` and the GUI tests draw through it (into a RenderTarget).
#pragma once

#include <memory>
#include <string>

namespace pplab::render {

class OffscreenContext {
public:
    // Creates the context, makes it current and loads the GL functions.
    // Throws std::runtime_error saying what is missing.
    OffscreenContext();
    ~OffscreenContext();
    OffscreenContext(const OffscreenContext&) = delete;
    OffscreenContext& operator=(const OffscreenContext&) = delete;

    std::string renderer() const; // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"

private:
    struct Egl;
    std::unique_ptr<Egl> egl_;
};

} // namespace pplab::render
