// For the export tests: pictures drawn offscreen as `pplab render` draws them.
#pragma once

#include "scratch.hpp"

#include "render/gl_renderer.hpp"
#include "render/offscreen.hpp"
#include "render/picture.hpp"
#include "scene/model.hpp"

namespace pplab::test {

// A context per test: GL objects are declared after it, so they die before it does.
struct Gl {
    render::OffscreenContext context;
    render::GlRenderer renderer;
    render::RenderTarget target;
};

class Pictures : public Scratch {
protected:
    render::Image draw(const scene::Model& m, std::size_t frame, int w = 480, int h = 300) {
        render::PictureOptions po;
        po.width = w;
        po.height = h;
        return render::picture(gl.renderer, gl.target, m, frame, po).image;
    }
    Gl gl;
};

} // namespace pplab::test
