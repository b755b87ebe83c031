// Where the canvas is drawn: a framebuffer with one RGBA texture (the window shows it with
// ImGui::Image; offscreen rendering reads it back), and PNG files for slides and tests.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace pplab::render {

struct Image {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba; // top row first

    std::array<std::uint8_t, 4> at(int x, int y) const;
};

class RenderTarget {
public:
    RenderTarget(); // needs a current GL context
    ~RenderTarget();
    RenderTarget(const RenderTarget&) = delete;
    RenderTarget& operator=(const RenderTarget&) = delete;

    void resize(int width, int height); // no-op when the size is unchanged
    void bind() const;                  // draw into it
    static void unbind();               // back to the default framebuffer
    unsigned texture() const { return texture_; }
    int width() const { return width_; }
    int height() const { return height_; }
    Image read() const;

private:
    unsigned fbo_ = 0, texture_ = 0;
    int width_ = 0, height_ = 0;
};

// The picture as the bytes of a PNG file.
std::string png_bytes(const Image& image);

// Writes a PNG through a temporary file and a rename: a failure never leaves a partial file.
// Throws std::runtime_error naming the path.
void write_png(const Image& image, const std::string& path);

} // namespace pplab::render
