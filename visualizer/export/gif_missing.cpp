// Linked instead of gif.cpp when giflib was not found (PPLAB_GUI=AUTO): the GIF export says
// what is missing instead of the build failing.
#include "gif.hpp"

#include <stdexcept>

namespace pplab::exporting {

bool gif_supported() {
    return false;
}

GifWriter::GifWriter(std::string path, int, int)
    : own_(std::make_unique<Outputs>()), path_(std::move(path)) {
    start(*own_);
}

GifWriter::GifWriter(Outputs& outputs, std::string path, int, int) : path_(std::move(path)) {
    start(outputs);
}

void GifWriter::start(Outputs&) {
    throw std::runtime_error("cannot write '" + path_ +
                             "': this build has no GIF support (install Debian's libgif-dev, "
                             "scripts/install-deps.sh, and configure again)");
}

GifWriter::~GifWriter() = default;

void GifWriter::add(const render::Image&, int) {}

void GifWriter::finish() {}

void GifWriter::fail(const std::string&) {}

} // namespace pplab::exporting
