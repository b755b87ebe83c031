#include "gl_renderer.hpp"

#include "pplab_render_resources.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pplab::render {

namespace {

std::string_view resource_text(std::string_view name) {
    const auto* r = resources::find(name);
    if (!r)
        throw std::runtime_error("missing embedded resource " + std::string(name));
    return r->text();
}

#if defined(__EMSCRIPTEN__)
// WebGL2 speaks GLSL ES 3.00: the same shaders under its version line, at full precision.
std::string for_this_gl(std::string_view source) {
    const std::size_t line = source.find('\n');
    return "#version 300 es\nprecision highp float;\n" + std::string(source.substr(line + 1));
}
#else
std::string_view for_this_gl(std::string_view source) {
    return source;
}
#endif

GLuint compile(GLenum kind, std::string_view glsl, std::string_view name) {
    const auto source = for_this_gl(glsl);
    const GLuint s = glCreateShader(kind);
    const char* text = source.data();
    const auto length = static_cast<GLint>(source.size());
    glShaderSource(s, 1, &text, &length);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        std::array<char, 2048> log{};
        glGetShaderInfoLog(s, static_cast<GLsizei>(log.size()), nullptr, log.data());
        glDeleteShader(s);
        throw std::runtime_error("shader " + std::string(name) +
                                 " does not compile: " + log.data());
    }
    return s;
}

GLuint link_program(std::string_view stem) {
    const std::string vs = std::string(stem) + ".vert", fs = std::string(stem) + ".frag";
    const GLuint v = compile(GL_VERTEX_SHADER, resource_text(vs), vs);
    const GLuint f = compile(GL_FRAGMENT_SHADER, resource_text(fs), fs);
    const GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        std::array<char, 2048> log{};
        glGetProgramInfoLog(p, static_cast<GLsizei>(log.size()), nullptr, log.data());
        glDeleteProgram(p);
        throw std::runtime_error("shader program " + std::string(stem) +
                                 " does not link: " + log.data());
    }
    return p;
}

// One instanced pipeline: a program, a unit quad and a buffer of per-instance floats.
struct Pipeline {
    GLuint program = 0, vao = 0, instances = 0;
    GLint center = -1, scale = -1, viewport = -1;
    int floats = 0; // per instance

    // `layout`: the width (in floats) of attributes 1, 2, ... of one instance.
    void init(std::string_view stem, GLuint quad, std::initializer_list<int> layout) {
        program = link_program(stem);
        center = glGetUniformLocation(program, "u_center");
        scale = glGetUniformLocation(program, "u_scale");
        viewport = glGetUniformLocation(program, "u_viewport");
        glGenVertexArrays(1, &vao);
        glGenBuffers(1, &instances);
        glBindVertexArray(vao);
        glBindBuffer(GL_ARRAY_BUFFER, quad);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
        glBindBuffer(GL_ARRAY_BUFFER, instances);
        floats = 0;
        for (const int n : layout)
            floats += n;
        GLuint index = 1;
        std::size_t offset = 0;
        for (const int n : layout) {
            glEnableVertexAttribArray(index);
            glVertexAttribPointer(index, n, GL_FLOAT, GL_FALSE,
                                  static_cast<GLsizei>(floats * sizeof(float)),
                                  reinterpret_cast<const void*>(offset * sizeof(float)));
            glVertexAttribDivisor(index, 1);
            offset += static_cast<std::size_t>(n);
            ++index;
        }
        glBindVertexArray(0);
    }

    void draw(const std::vector<float>& data, const scene::Camera& c, int w, int h) const {
        if (data.empty())
            return;
        glUseProgram(program);
        glUniform2f(center, c.center.x, c.center.y);
        glUniform1f(scale, c.scale);
        glUniform2f(viewport, static_cast<float>(w), static_cast<float>(h));
        glBindVertexArray(vao);
        glBindBuffer(GL_ARRAY_BUFFER, instances);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.size() * sizeof(float)),
                     data.data(), GL_STREAM_DRAW);
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4,
                              static_cast<GLsizei>(data.size() / static_cast<std::size_t>(floats)));
        glBindVertexArray(0);
    }

    void release() {
        glDeleteBuffers(1, &instances);
        glDeleteVertexArrays(1, &vao);
        glDeleteProgram(program);
    }
};

void push(std::vector<float>& v, const scene::Rgba& c) {
    v.insert(v.end(), {c.r, c.g, c.b, c.a});
}

bool overlaps(const scene::Rect& a, const scene::Rect& b) {
    return a.x <= b.right() && b.x <= a.right() && a.y <= b.bottom() && b.y <= a.bottom();
}

} // namespace

struct GlRenderer::Programs {
    GLuint quad = 0;
    GLuint atlas = 0;
    Pipeline rects, segments, glyphs;
    GLint atlas_sampler = -1;
};

GlRenderer::GlRenderer() : font_(ui_font()), gl_(std::make_unique<Programs>()) {
    const std::array<float, 8> corners = {0, 0, 1, 0, 0, 1, 1, 1};
    glGenBuffers(1, &gl_->quad);
    glBindBuffer(GL_ARRAY_BUFFER, gl_->quad);
    glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners.data(), GL_STATIC_DRAW);
    gl_->rects.init("quad", gl_->quad, {4, 4, 4, 2});
    gl_->segments.init("line", gl_->quad, {4, 4, 3});
    gl_->glyphs.init("glyph", gl_->quad, {4, 4, 4});
    gl_->atlas_sampler = glGetUniformLocation(gl_->glyphs.program, "u_atlas");
    glGenTextures(1, &gl_->atlas);
    glBindTexture(GL_TEXTURE_2D, gl_->atlas);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, font_.atlas_width(), font_.atlas_height(), 0, GL_RED,
                 GL_UNSIGNED_BYTE, font_.pixels().data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

GlRenderer::~GlRenderer() {
    gl_->rects.release();
    gl_->segments.release();
    gl_->glyphs.release();
    glDeleteTextures(1, &gl_->atlas);
    glDeleteBuffers(1, &gl_->quad);
}

void GlRenderer::set_camera(const scene::Camera& c, int width, int height) {
    camera_ = c;
    width_ = std::max(width, 1);
    height_ = std::max(height, 1);
    // What the viewport shows, in world units: anything outside is not sent to the GPU
    // (zoomed into 65536 cells, a few dozen are on screen).
    const scene::Vec2 a =
        c.to_world({0, 0}, static_cast<float>(width_), static_cast<float>(height_));
    const scene::Vec2 b = c.to_world({static_cast<float>(width_), static_cast<float>(height_)},
                                     static_cast<float>(width_), static_cast<float>(height_));
    visible_ = scene::inflate({a.x, a.y, b.x - a.x, b.y - a.y}, 2.0f / c.scale, 2.0f / c.scale);
    glViewport(0, 0, width_, height_);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
}

void GlRenderer::set_pixels(int width, int height) {
    scene::Camera pixels;
    pixels.center = {static_cast<float>(width) / 2, static_cast<float>(height) / 2};
    pixels.scale = 1.0f;
    set_camera(pixels, width, height);
}

void GlRenderer::draw(const scene::Scene& s, const scene::Camera& c, int width, int height) {
    set_camera(c, width, height);
    glClearColor(s.background.r, s.background.g, s.background.b, s.background.a);
    glClear(GL_COLOR_BUFFER_BIT);
    quads(s.panels);
    lines(s.arrows);
    quads(s.cells);
    const float w = static_cast<float>(width_), h = static_cast<float>(height_);
    drawn_ = scene_text(font_, s, c, w, h);
    text(drawn_, s.background);
    set_camera(c, width, height);
    quads(s.movers);
    std::vector<TextRun> moving = lay_out_text(font_, {c, w, h, scene::kMinTextPx * s.text_scale},
                                               s.movers, {}, TextKind::Mover);
    text(moving, s.background);
    drawn_.insert(drawn_.end(), std::make_move_iterator(moving.begin()),
                  std::make_move_iterator(moving.end()));
}

void GlRenderer::draw_overlay(std::span<const scene::Cell> cells,
                              std::span<const scene::Label> labels, int width, int height) {
    set_pixels(width, height);
    quads(cells);
    const std::vector<TextRun> runs = lay_out_text(
        font_, {camera_, static_cast<float>(width_), static_cast<float>(height_), 0.0f}, cells,
        labels);
    text(runs, {});
}

void GlRenderer::quads(std::span<const scene::Cell> cells) {
    scratch_.clear();
    scratch_.reserve(cells.size() * 14);
    for (const scene::Cell& c : cells) {
        if ((c.fill.a <= 0 && (c.border_width <= 0 || c.border.a <= 0)) ||
            !overlaps(c.rect, visible_))
            continue;
        scratch_.insert(scratch_.end(), {c.rect.x, c.rect.y, c.rect.w, c.rect.h});
        push(scratch_, c.fill);
        push(scratch_, c.border);
        scratch_.insert(scratch_.end(), {c.border_width, c.radius});
    }
    gl_->rects.draw(scratch_, camera_, width_, height_);
}

void GlRenderer::lines(std::span<const scene::Arrow> arrows) {
    scratch_.clear();
    scratch_.reserve(arrows.size() * 11);
    for (const scene::Arrow& a : arrows) {
        const scene::Rect box{
            std::min(a.from.x, a.to.x) - a.head, std::min(a.from.y, a.to.y) - a.head,
            std::abs(a.to.x - a.from.x) + 2 * a.head, std::abs(a.to.y - a.from.y) + 2 * a.head};
        if (!overlaps(box, visible_))
            continue;
        scratch_.insert(scratch_.end(), {a.from.x, a.from.y, a.to.x, a.to.y});
        push(scratch_, a.color);
        scratch_.insert(scratch_.end(), {a.width, a.head, a.dashed ? 1.0f : 0.0f});
    }
    gl_->segments.draw(scratch_, camera_, width_, height_);
}

void GlRenderer::text(std::span<const TextRun> runs, const scene::Rgba& chip) {
    set_pixels(width_, height_);
    std::vector<scene::Cell> chips;
    for (const TextRun& r : runs)
        if (r.chip) {
            scene::Cell c;
            c.rect = scene::inflate(r.rect, 0.3f * r.px, 0.15f * r.px);
            c.fill = scene::with_alpha(chip, 0.9f);
            c.radius = 0.25f * r.px;
            chips.push_back(c);
        }
    quads(chips);
    scratch_.clear();
    for (const TextRun& r : runs) {
        float pen = r.x;
        char32_t prev = 0;
        for (std::size_t i = 0; i < r.text.size();) {
            const char32_t ch = next_code_point(r.text, i);
            if (prev)
                pen += font_.kerning(prev, ch) * r.px;
            prev = ch;
            const Glyph& g = font_.glyph(ch);
            if (g.x1 > g.x0)
                scratch_.insert(scratch_.end(),
                                {pen + g.x0 * r.px, r.baseline + g.y0 * r.px, (g.x1 - g.x0) * r.px,
                                 (g.y1 - g.y0) * r.px, g.u0, g.v0, g.u1, g.v1, r.color.r, r.color.g,
                                 r.color.b, r.color.a});
            pen += g.advance * r.px;
        }
    }
    if (scratch_.empty())
        return;
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, gl_->atlas);
    glUseProgram(gl_->glyphs.program);
    glUniform1i(gl_->atlas_sampler, 0);
    gl_->glyphs.draw(scratch_, camera_, width_, height_);
    glBindTexture(GL_TEXTURE_2D, 0);
}

std::span<const unsigned char> ui_font() {
    const auto* r = resources::find("DejaVuSans.ttf");
    if (!r)
        throw std::runtime_error("the UI font was not embedded");
    return r->bytes;
}

std::span<const unsigned char> code_font() {
    const auto* r = resources::find("DejaVuSansMono.ttf");
    return r ? r->bytes : ui_font();
}

} // namespace pplab::render
