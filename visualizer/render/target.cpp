#include "target.hpp"
#include "pplab/files.hpp"
#include "pplab/request.hpp"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace pplab::render {

std::array<std::uint8_t, 4> Image::at(int x, int y) const {
    const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                           static_cast<std::size_t>(x)) *
                          4;
    return {rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]};
}

RenderTarget::RenderTarget() {
    glGenFramebuffers(1, &fbo_);
    glGenTextures(1, &texture_);
}

RenderTarget::~RenderTarget() {
    glDeleteTextures(1, &texture_);
    glDeleteFramebuffers(1, &fbo_);
}

void RenderTarget::resize(int width, int height) {
    width = std::max(width, 1);
    height = std::max(height, 1);
    if (width == width_ && height == height_)
        return;
    width_ = width;
    height_ = height;
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width_, height_, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        throw std::runtime_error("the OpenGL driver cannot render into a " +
                                 std::to_string(width_) + "×" + std::to_string(height_) +
                                 " texture");
}

void RenderTarget::bind() const {
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glViewport(0, 0, width_, height_);
}

void RenderTarget::unbind() {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

Image RenderTarget::read() const {
    Image img;
    img.width = width_;
    img.height = height_;
    img.rgba.resize(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_) * 4);
    std::vector<std::uint8_t> flipped(img.rgba.size());
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, flipped.data());
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    // OpenGL's first row is the bottom one.
    const std::size_t row = static_cast<std::size_t>(width_) * 4;
    for (int y = 0; y < height_; ++y)
        std::copy_n(
            flipped.begin() +
                static_cast<std::ptrdiff_t>(static_cast<std::size_t>(height_ - 1 - y) * row),
            row, img.rgba.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * row));
    return img;
}

std::string png_bytes(const Image& image) {
    std::string bytes;
    const auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                                   static_cast<std::size_t>(size));
    };
    if (!stbi_write_png_to_func(append, &bytes, image.width, image.height, 4, image.rgba.data(),
                                image.width * 4))
        throw std::runtime_error("the PNG encoder refused a " + std::to_string(image.width) + "×" +
                                 std::to_string(image.height) + " picture");
    return bytes;
}

void write_png(const Image& image, const std::string& path) {
    // Encoded in memory and written through pplab/files.hpp: every write and the close are
    // checked, which stb's own file writer does not do.
    write_atomically(path, png_bytes(image));
}

} // namespace pplab::render
