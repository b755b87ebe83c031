#include "gl_renderer.hpp"

#include "pplab_render_resources.hpp"
#include "run_cache.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
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

// The source under this GL's version line (WebGL2 speaks GLSL ES 3.00: the same shaders at
// full precision), with `defines` after it: one file, several programs.
std::string for_this_gl(std::string_view source, std::string_view defines) {
    const std::size_t line = source.find('\n') + 1;
#if defined(__EMSCRIPTEN__)
    const std::string version = "#version 300 es\nprecision highp float;\n";
#else
    const std::string version(source.substr(0, line));
#endif
    return version + std::string(defines) + std::string(source.substr(line));
}

GLuint compile(GLenum kind, std::string_view glsl, std::string_view name,
               std::string_view defines) {
    const std::string source = for_this_gl(glsl, defines);
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

GLuint link_program(std::string_view stem, std::string_view defines) {
    const std::string vs = std::string(stem) + ".vert", fs = std::string(stem) + ".frag";
    const GLuint v = compile(GL_VERTEX_SHADER, resource_text(vs), vs, defines);
    const GLuint f = compile(GL_FRAGMENT_SHADER, resource_text(fs), fs, defines);
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

// One pipeline of quads: a program, a vertex buffer and the shared index buffer. Each quad's
// floats are written out for its four corners and drawn by one glDrawElements: llvmpipe runs
// its whole vertex pipeline once per instance of an instanced draw (about 2 us each), so
// thousands of cells, glyphs and arrows cost far less as one plain draw (bench/NOTES.md).
struct Pipeline {
    GLuint program = 0, vao = 0, vertices = 0, indices = 0;
    std::size_t indexed_quads = 0; // how many quads the index buffer holds
    GLint center = -1, scale = -1, viewport = -1;
    int floats = 0; // per quad, the corner not counted

    // `layout`: the width (in floats) of attributes 1, 2, ... of one quad; attribute 0 is the
    // corner, (0,0) .. (1,1). `defines`: lines put after the shaders' version line.
    void init(std::string_view stem, std::initializer_list<int> layout,
              std::string_view defines = {}) {
        program = link_program(stem, defines);
        center = glGetUniformLocation(program, "u_center");
        scale = glGetUniformLocation(program, "u_scale");
        viewport = glGetUniformLocation(program, "u_viewport");
        glGenVertexArrays(1, &vao);
        glGenBuffers(1, &vertices);
        glGenBuffers(1, &indices);
        glBindVertexArray(vao);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices);
        glBindBuffer(GL_ARRAY_BUFFER, vertices);
        floats = 0;
        for (const int n : layout)
            floats += n;
        const auto stride = static_cast<GLsizei>((2 + floats) * sizeof(float));
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, nullptr);
        GLuint index = 1;
        std::size_t offset = 2;
        for (const int n : layout) {
            glEnableVertexAttribArray(index);
            glVertexAttribPointer(index, n, GL_FLOAT, GL_FALSE, stride,
                                  reinterpret_cast<const void*>(offset * sizeof(float)));
            offset += static_cast<std::size_t>(n);
            ++index;
        }
        glBindVertexArray(0);
    }

    // `data`: `floats` per quad; `corners` is scratch room for the vertices.
    void draw(const std::vector<float>& data, std::vector<float>& corners, const scene::Camera& c,
              int w, int h) {
        if (data.empty())
            return;
        const std::size_t quads = data.size() / static_cast<std::size_t>(floats);
        const auto per_quad = static_cast<std::ptrdiff_t>(floats);
        corners.resize(quads * 4 * static_cast<std::size_t>(2 + floats));
        float* out = corners.data();
        for (std::size_t q = 0; q < quads; ++q) {
            const float* in = data.data() + static_cast<std::ptrdiff_t>(q) * per_quad;
            for (const auto& [x, y] :
                 {std::pair{0.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}, {1.0f, 1.0f}}) {
                *out++ = x;
                *out++ = y;
                out = std::copy(in, in + per_quad, out);
            }
        }
        glUseProgram(program);
        glUniform2f(center, c.center.x, c.center.y);
        glUniform1f(scale, c.scale);
        glUniform2f(viewport, static_cast<float>(w), static_cast<float>(h));
        glBindVertexArray(vao);
        index_quads(quads);
        glBindBuffer(GL_ARRAY_BUFFER, vertices);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(corners.size() * sizeof(float)),
                     corners.data(), GL_STREAM_DRAW);
        glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(quads * 6), GL_UNSIGNED_INT, nullptr);
        glBindVertexArray(0);
    }

    // Two triangles per quad, (0 1 2) and (2 1 3) of its corners, as a strip would draw them.
    void index_quads(std::size_t quads) {
        if (quads <= indexed_quads)
            return;
        indexed_quads = std::max(quads, 2 * indexed_quads);
        std::vector<GLuint> list;
        list.reserve(indexed_quads * 6);
        for (GLuint q = 0; q < indexed_quads; ++q)
            for (const GLuint corner : {0u, 1u, 2u, 2u, 1u, 3u})
                list.push_back(4 * q + corner);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(list.size() * sizeof(GLuint)),
                     list.data(), GL_STATIC_DRAW);
    }

    void release() {
        glDeleteBuffers(1, &vertices);
        glDeleteBuffers(1, &indices);
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

// Texts up to this size go through the cache of drawn texts; larger ones (few, zoomed in) are
// drawn glyph by glyph.
constexpr float kMaxCachedPx = 48.0f;
constexpr int kRunCacheSide = 1024;
// A copied text: its place in pixels, its texels in the cache, its colour.
constexpr int kCopyFloats = 12;

struct GlRenderer::Programs {
    GLuint atlas = 0;
    // Dashed arrows (barriers) are few: their dash pattern is a program of its own, not a
    // branch that every solid arrow's fragments would pay for on llvmpipe. Likewise cells
    // with a value (the texture read) and without.
    Pipeline rects, valued_rects, segments, dashed_segments, glyphs, runs;
    GLint atlas_sampler = -1, runs_sampler = -1, rects_sampler = -1;
    GLuint run_texture = 0, run_framebuffer = 0;
    RunCache cache{kRunCacheSide, kRunCacheSide};
    bool texture_in_step = false; // cleared since the cache was last emptied
    std::vector<float> corners;   // the vertices of the last draw, kept for their room
};

GlRenderer::GlRenderer() : font_(ui_font()), gl_(std::make_unique<Programs>()) {
    gl_->rects.init("quad", {4, 4, 4, 2});
    gl_->valued_rects.init("quad", {4, 4, 4, 2, 4, 4, 4}, "#define VALUE\n");
    gl_->segments.init("line", {4, 4, 2});
    gl_->dashed_segments.init("line", {4, 4, 2}, "#define DASHED\n");
    gl_->glyphs.init("glyph", {4, 4, 4},
                     "#define DISTANCE_PER_TEXEL (128.0 / " + std::to_string(kDistancePadding) +
                         ".0 / 255.0)\n");
    gl_->runs.init("run", {4, 4, 4});
    gl_->atlas_sampler = glGetUniformLocation(gl_->glyphs.program, "u_atlas");
    gl_->runs_sampler = glGetUniformLocation(gl_->runs.program, "u_runs");
    gl_->rects_sampler = glGetUniformLocation(gl_->valued_rects.program, "u_runs");
    glGenTextures(1, &gl_->run_texture);
    glBindTexture(GL_TEXTURE_2D, gl_->run_texture);
    // RGBA8, though only red is read: llvmpipe gathers 32-bit texels for it, bytes for R8.
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kRunCacheSide, kRunCacheSide, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &gl_->run_framebuffer);
    GLint previous = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous);
    glBindFramebuffer(GL_FRAMEBUFFER, gl_->run_framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, gl_->run_texture,
                           0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        throw std::runtime_error("the texture of drawn texts cannot be drawn into");
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous));
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
    gl_->valued_rects.release();
    gl_->segments.release();
    gl_->dashed_segments.release();
    gl_->glyphs.release();
    gl_->runs.release();
    glDeleteFramebuffers(1, &gl_->run_framebuffer);
    glDeleteTextures(1, &gl_->run_texture);
    glDeleteTextures(1, &gl_->atlas);
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
    set_camera(pixel_camera(static_cast<float>(width), static_cast<float>(height)), width, height);
}

namespace {

// The whole pixels inside `r` (GL counts rows from the bottom): a pixel the edge crosses is
// outside, else the border of a cell ending a fraction before the edge showed as a faint line
// (a histogram's bin 28 beside bin 29 at 200%).
void scissor(const scene::Rect& r, float height) {
    constexpr float kNear = 0.01f; // an edge this close to a pixel's boundary is on it
    const float x0 = std::ceil(r.x - kNear), x1 = std::floor(r.right() + kNear);
    const float y0 = std::ceil(height - r.bottom() - kNear), y1 = std::floor(height - r.y + kNear);
    glScissor(static_cast<GLint>(x0), static_cast<GLint>(y0),
              static_cast<GLsizei>(std::max(x1 - x0, 0.0f)),
              static_cast<GLsizei>(std::max(y1 - y0, 0.0f)));
}

} // namespace

void GlRenderer::draw(const scene::Scene& s, const scene::Camera& c, int width, int height,
                      const scene::Rect& clip, const scene::Rect& names) {
    set_camera(c, width, height);
    glClearColor(s.background.r, s.background.g, s.background.b, s.background.a);
    glClear(GL_COLOR_BUFFER_BIT);
    const float w = static_cast<float>(width_), h = static_cast<float>(height_);
    if (!clip.empty()) {
        glEnable(GL_SCISSOR_TEST);
        scissor(clip, h);
    }
    drawn_ = scene_text(font_, s, c, w, h, clip, names);
    const PlacedTexts placed = place_texts(drawn_);
    quads(s.panels);
    // No arrow starts at the picture's edge with nothing at its source, nor a value moves
    // from there.
    const scene::Rect sources = clip.empty() ? scene::Rect{0, 0, w, h} : clip;
    lines(s.arrows, sources);
    // Values are drawn by their cells' fragments: no second layer of quads over the cells.
    const std::vector<bool> with_cells = quads(s.cells, drawn_, &placed);
    if (!clip.empty()) // the text stays where the layout put it: the names' column included
        scissor(names.empty() ? clip : scene::unite(clip, names), h);
    text(drawn_, s.background, &placed, with_cells);
    set_camera(c, width, height);
    if (!clip.empty())
        scissor(clip, h);
    movers_.clear();
    for (const scene::Cell& m : s.movers)
        if (scene::source_drawn(m.source, c, w, h, sources))
            movers_.push_back(m);
    quads(movers_);
    std::vector<TextRun> moving = lay_out_text(
        font_, {c, w, h, scene::kMinTextPx * s.text_scale, clip, {}}, movers_, {}, TextKind::Mover);
    text(moving, s.background);
    drawn_.insert(drawn_.end(), std::make_move_iterator(moving.begin()),
                  std::make_move_iterator(moving.end()));
    glDisable(GL_SCISSOR_TEST);
}

void GlRenderer::draw_overlay(std::span<const scene::Cell> cells,
                              std::span<const scene::Label> labels, int width, int height) {
    set_pixels(width, height);
    quads(cells);
    const std::vector<TextRun> runs = lay_out_text(
        font_, pixel_area(static_cast<float>(width_), static_cast<float>(height_)), cells, labels);
    text(runs, {});
}

std::vector<bool> GlRenderer::quads(std::span<const scene::Cell> cells,
                                    std::span<const TextRun> runs, const PlacedTexts* placed) {
    std::vector<bool> with_cells(runs.size(), false);
    std::vector<int> value_of(placed ? cells.size() : 0, -1); // a cell's run
    for (std::size_t i = 0; i < runs.size() && placed; ++i) {
        const TextRun& r = runs[i];
        if (r.kind == TextKind::Cell && !r.chip && r.cell >= 0 &&
            static_cast<std::size_t>(r.cell) < cells.size() && placed->copy[i] >= 0)
            value_of[static_cast<std::size_t>(r.cell)] = static_cast<int>(i);
    }
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, gl_->run_texture);
    glUseProgram(gl_->valued_rects.program);
    glUniform1i(gl_->rects_sampler, 0);
    // quad.frag writes premultiplied colour: the same blend as the others' straight alpha.
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    // In the scene's order, one draw per run of cells with a value or without.
    scratch_.clear();
    scratch_.reserve(cells.size() * (14 + kCopyFloats));
    bool valued = false;
    const auto flush = [&] {
        (valued ? gl_->valued_rects : gl_->rects)
            .draw(scratch_, gl_->corners, camera_, width_, height_);
        scratch_.clear();
    };
    for (std::size_t index = 0; index < cells.size(); ++index) {
        const scene::Cell& c = cells[index];
        if ((c.fill.a <= 0 && (c.border_width <= 0 || c.border.a <= 0)) ||
            !overlaps(c.rect, visible_))
            continue;
        const int run = value_of.empty() ? -1 : value_of[index];
        if ((run >= 0) != valued) {
            flush();
            valued = run >= 0;
        }
        scratch_.insert(scratch_.end(), {c.rect.x, c.rect.y, c.rect.w, c.rect.h});
        push(scratch_, c.fill);
        push(scratch_, c.border);
        scratch_.insert(scratch_.end(), {c.border_width, c.radius});
        if (valued) {
            const auto copy =
                placed->copies.begin() + placed->copy[static_cast<std::size_t>(run)] * kCopyFloats;
            scratch_.insert(scratch_.end(), copy, copy + kCopyFloats);
            with_cells[static_cast<std::size_t>(run)] = true;
        }
    }
    flush();
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    return with_cells;
}

void GlRenderer::lines(std::span<const scene::Arrow> arrows, const scene::Rect& sources) {
    // In the scene's order (where a barrier's dashes cross an arrow, the later one is on top),
    // one draw per run of arrows of one kind: solid, or dashed.
    scratch_.clear();
    scratch_.reserve(arrows.size() * 10);
    bool dashed = false;
    const auto flush = [&] {
        (dashed ? gl_->dashed_segments : gl_->segments)
            .draw(scratch_, gl_->corners, camera_, width_, height_);
        scratch_.clear();
    };
    for (const scene::Arrow& a : arrows) {
        const scene::Rect box{
            std::min(a.from.x, a.to.x) - a.head, std::min(a.from.y, a.to.y) - a.head,
            std::abs(a.to.x - a.from.x) + 2 * a.head, std::abs(a.to.y - a.from.y) + 2 * a.head};
        if (!overlaps(box, visible_) || !scene::source_drawn(a, camera_, static_cast<float>(width_),
                                                             static_cast<float>(height_), sources))
            continue;
        if (a.dashed != dashed) {
            flush();
            dashed = a.dashed;
        }
        scratch_.insert(scratch_.end(), {a.from.x, a.from.y, a.to.x, a.to.y});
        push(scratch_, a.color);
        scratch_.insert(scratch_.end(), {a.width, a.head});
    }
    flush();
}

GlRenderer::PlacedTexts GlRenderer::place_texts(std::span<const TextRun> runs) {
    // Texts the cache holds (or takes now) are copied from it; the rest glyph by glyph.
    PlacedTexts out;
    std::vector<float> fresh_glyphs;
    for (int attempt = 0; attempt < 2; ++attempt) {
        out = {};
        fresh_glyphs.clear();
        bool full = false;
        for (const TextRun& r : runs) {
            const std::size_t before = out.copies.size();
            if (!cache_run(r, out.copies, fresh_glyphs)) {
                full = full || r.px <= kMaxCachedPx;
                out.direct.push_back(&r);
            }
            out.copy.push_back(out.copies.size() > before ? static_cast<int>(before / kCopyFloats)
                                                          : -1);
        }
        if (!full || attempt == 1)
            break;
        // The texture is full: start it again with this frame's texts (they fit, or the
        // rest are drawn glyph by glyph on the second attempt).
        gl_->cache.clear();
        gl_->texture_in_step = false;
    }
    draw_into_cache(fresh_glyphs);
    return out;
}

void GlRenderer::text(std::span<const TextRun> runs, const scene::Rgba& chip,
                      const PlacedTexts* placed, const std::vector<bool>& with_cells) {
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
    const PlacedTexts own = placed ? PlacedTexts{} : place_texts(runs);
    if (!placed)
        placed = &own;
    std::vector<float> copies;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const int copy = placed->copy[i];
        if (copy >= 0 && (with_cells.empty() || !with_cells[i]))
            copies.insert(copies.end(), placed->copies.begin() + copy * kCopyFloats,
                          placed->copies.begin() + (copy + 1) * kCopyFloats);
    }
    if (!copies.empty()) {
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, gl_->run_texture);
        glUseProgram(gl_->runs.program);
        glUniform1i(gl_->runs_sampler, 0);
        gl_->runs.draw(copies, gl_->corners, camera_, width_, height_);
    }
    scratch_.clear();
    for (const TextRun* r : placed->direct)
        glyph_quads(*r, r->x, r->baseline, r->color, scratch_);
    if (scratch_.empty())
        return;
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, gl_->atlas);
    glUseProgram(gl_->glyphs.program);
    glUniform1i(gl_->atlas_sampler, 0);
    gl_->glyphs.draw(scratch_, gl_->corners, camera_, width_, height_);
    glBindTexture(GL_TEXTURE_2D, 0);
}

void GlRenderer::glyph_quads(const TextRun& r, float pen, float baseline, const scene::Rgba& tint,
                             std::vector<float>& out) const {
    char32_t prev = 0;
    for (std::size_t i = 0; i < r.text.size();) {
        const char32_t ch = next_code_point(r.text, i);
        if (prev)
            pen += font_.kerning(prev, ch) * r.px;
        prev = ch;
        const Glyph& g = font_.glyph(ch);
        if (g.x1 > g.x0)
            out.insert(out.end(), {pen + g.x0 * r.px, baseline + g.y0 * r.px, (g.x1 - g.x0) * r.px,
                                   (g.y1 - g.y0) * r.px, g.u0, g.v0, g.u1, g.v1, tint.r, tint.g,
                                   tint.b, tint.a});
        pen += g.advance * r.px;
    }
}

bool GlRenderer::cache_run(const TextRun& r, std::vector<float>& copies,
                           std::vector<float>& fresh_glyphs) {
    if (r.px > kMaxCachedPx)
        return false;
    // Whole pixels: a cached text is the same wherever it is copied to.
    const float pen = std::floor(r.x + 0.5f), baseline = std::floor(r.baseline + 0.5f);
    const CachedRun* found = gl_->cache.find(r.text, r.px);
    std::optional<CachedRun> placed;
    if (!found) {
        std::vector<float> glyphs;
        glyph_quads(r, 0, 0, {1, 1, 1, 1}, glyphs);
        if (glyphs.empty())
            return true; // nothing to draw: spaces
        float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
        for (std::size_t i = 0; i < glyphs.size(); i += 12) {
            const bool first = i == 0;
            x0 = first ? glyphs[i] : std::min(x0, glyphs[i]);
            y0 = first ? glyphs[i + 1] : std::min(y0, glyphs[i + 1]);
            x1 = first ? glyphs[i] + glyphs[i + 2] : std::max(x1, glyphs[i] + glyphs[i + 2]);
            y1 =
                first ? glyphs[i + 1] + glyphs[i + 3] : std::max(y1, glyphs[i + 1] + glyphs[i + 3]);
        }
        // Even offsets on even texels: the glyphs fall on the same 2x2 pixel quads wherever the
        // text is placed, so the shader's derivatives, and its pixels, are the same.
        const int left = 2 * static_cast<int>(std::floor(0.5f * x0)),
                  top = 2 * static_cast<int>(std::floor(0.5f * y0));
        placed = gl_->cache.place(r.text, r.px, static_cast<int>(std::ceil(x1)) - left,
                                  static_cast<int>(std::ceil(y1)) - top, left, top);
        if (!placed)
            return false;
        found = &*placed;
        for (std::size_t i = 0; i < glyphs.size(); i += 12) { // to its place in the texture
            glyphs[i] += static_cast<float>(placed->x - left);
            glyphs[i + 1] += static_cast<float>(placed->y - top);
        }
        fresh_glyphs.insert(fresh_glyphs.end(), glyphs.begin(), glyphs.end());
    }
    const CachedRun& c = *found;
    copies.insert(copies.end(),
                  {pen + static_cast<float>(c.left), baseline + static_cast<float>(c.top),
                   static_cast<float>(c.w), static_cast<float>(c.h), static_cast<float>(c.x),
                   static_cast<float>(c.y), static_cast<float>(c.w), static_cast<float>(c.h),
                   r.color.r, r.color.g, r.color.b, r.color.a});
    return true;
}

// The glyphs of texts new to the cache, drawn white into its texture (coverage in red),
// leaving the framebuffer, viewport and scissor as they were.
void GlRenderer::draw_into_cache(const std::vector<float>& glyphs) {
    if (glyphs.empty() && gl_->texture_in_step)
        return;
    GLint draw_fb = 0, read_fb = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fb);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fb);
    const GLboolean scissored = glIsEnabled(GL_SCISSOR_TEST);
    glDisable(GL_SCISSOR_TEST);
    glBindFramebuffer(GL_FRAMEBUFFER, gl_->run_framebuffer);
    glViewport(0, 0, kRunCacheSide, kRunCacheSide);
    if (!gl_->texture_in_step) {
        const std::array<GLfloat, 4> nothing{0, 0, 0, 0};
        glClearBufferfv(GL_COLOR, 0, nothing.data());
        gl_->texture_in_step = true;
    }
    if (!glyphs.empty()) {
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, gl_->atlas);
        glUseProgram(gl_->glyphs.program);
        glUniform1i(gl_->atlas_sampler, 0);
        constexpr auto side = static_cast<float>(kRunCacheSide);
        gl_->glyphs.draw(glyphs, gl_->corners, pixel_camera(side, side), kRunCacheSide,
                         kRunCacheSide);
    }
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_fb));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_fb));
    glViewport(0, 0, width_, height_);
    if (scissored)
        glEnable(GL_SCISSOR_TEST);
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
