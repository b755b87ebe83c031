#include "gif.hpp"

#include "pplab/files.hpp"
#include "pplab/request.hpp"

#include <gif_lib.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

namespace pplab::exporting {

namespace {

std::string gif_error(int code) {
    const char* what = GifErrorString(code);
    return what ? what : "giflib error " + std::to_string(code);
}

struct Region {
    int x = 0, y = 0, w = 0, h = 0;
};

std::size_t offset(int x, int y, int width) {
    return (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
            static_cast<std::size_t>(x)) *
           4;
}

// The rectangle in which two frames differ; w == 0 when they are the same.
Region changed(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b, int width,
               int height) {
    int x0 = width, y0 = height, x1 = -1, y1 = -1;
    for (int y = 0; y < height; ++y) {
        const std::size_t row = offset(0, y, width);
        const std::size_t bytes = static_cast<std::size_t>(width) * 4;
        if (std::memcmp(a.data() + row, b.data() + row, bytes) == 0)
            continue;
        y0 = std::min(y0, y);
        y1 = y;
        for (int x = 0; x < width; ++x)
            if (std::memcmp(a.data() + row + static_cast<std::size_t>(x) * 4,
                            b.data() + row + static_cast<std::size_t>(x) * 4, 4) != 0) {
                x0 = std::min(x0, x);
                x1 = std::max(x1, x);
            }
    }
    if (y1 < 0)
        return {};
    return {x0, y0, x1 - x0 + 1, y1 - y0 + 1};
}

// Colours are counted in bins of 5 bits per channel: a flat colour and the anti-aliased
// pixels right next to it in colour share a bin.
constexpr int kBins = 1 << 15;

int bin(const std::uint8_t* p) {
    return (p[0] >> 3) << 10 | (p[1] >> 3) << 5 | p[2] >> 3;
}

struct Indexed {
    std::vector<GifColorType> colours; // a power of two, 2 to 256
    std::vector<GifPixelType> pixels;  // row by row over the region
};

// The region's 256 most common colour bins, each as the mean of its pixels, and every pixel
// as the index of its bin or, for the rare bins left out, of the nearest colour kept.
Indexed quantise(const render::Image& img, const Region& r) {
    std::vector<std::uint32_t> count(kBins, 0);
    std::vector<std::array<std::uint64_t, 3>> sum(kBins, {0, 0, 0});
    for (int y = r.y; y < r.y + r.h; ++y)
        for (int x = r.x; x < r.x + r.w; ++x) {
            const std::uint8_t* p = img.rgba.data() + offset(x, y, img.width);
            const int b = bin(p);
            ++count[static_cast<std::size_t>(b)];
            for (int c = 0; c < 3; ++c)
                sum[static_cast<std::size_t>(b)][static_cast<std::size_t>(c)] += p[c];
        }
    std::vector<int> used;
    for (int b = 0; b < kBins; ++b)
        if (count[static_cast<std::size_t>(b)] > 0)
            used.push_back(b);
    std::stable_sort(used.begin(), used.end(), [&](int a, int b) {
        return count[static_cast<std::size_t>(a)] > count[static_cast<std::size_t>(b)];
    });
    const std::size_t kept = std::min<std::size_t>(used.size(), 256);
    const auto mean = [&](int b) {
        const auto& s = sum[static_cast<std::size_t>(b)];
        const std::uint64_t n = count[static_cast<std::size_t>(b)];
        return GifColorType{static_cast<GifByteType>((s[0] + n / 2) / n),
                            static_cast<GifByteType>((s[1] + n / 2) / n),
                            static_cast<GifByteType>((s[2] + n / 2) / n)};
    };
    Indexed q;
    std::vector<std::int16_t> index(kBins, -1);
    for (std::size_t i = 0; i < kept; ++i) {
        q.colours.push_back(mean(used[i]));
        index[static_cast<std::size_t>(used[i])] = static_cast<std::int16_t>(i);
    }
    for (std::size_t i = kept; i < used.size(); ++i) {
        const GifColorType c = mean(used[i]);
        int best = 0;
        long best_d = -1;
        for (std::size_t k = 0; k < kept; ++k) {
            const long dr = long{c.Red} - q.colours[k].Red, dg = long{c.Green} - q.colours[k].Green,
                       db = long{c.Blue} - q.colours[k].Blue;
            const long d = dr * dr + dg * dg + db * db;
            if (best_d < 0 || d < best_d)
                best_d = d, best = static_cast<int>(k);
        }
        index[static_cast<std::size_t>(used[i])] = static_cast<std::int16_t>(best);
    }
    std::size_t size = 2; // giflib's tables are powers of two
    while (size < q.colours.size())
        size *= 2;
    q.colours.resize(size, GifColorType{0, 0, 0});
    q.pixels.reserve(static_cast<std::size_t>(r.w) * static_cast<std::size_t>(r.h));
    for (int y = r.y; y < r.y + r.h; ++y)
        for (int x = r.x; x < r.x + r.w; ++x)
            q.pixels.push_back(static_cast<GifPixelType>(
                index[static_cast<std::size_t>(bin(img.rgba.data() + offset(x, y, img.width)))]));
    return q;
}

} // namespace

bool gif_supported() {
    return true;
}

GifWriter::GifWriter(std::string path, int width, int height)
    : own_(std::make_unique<Outputs>()), path_(std::move(path)), width_(width), height_(height) {
    start(*own_);
}

GifWriter::GifWriter(Outputs& outputs, std::string path, int width, int height)
    : path_(std::move(path)), width_(width), height_(height) {
    start(outputs);
}

void GifWriter::start(Outputs& outputs) {
    // A temporary of our own, opened by us rather than by giflib, which would make the file
    // private to its owner; giflib closes it.
    const int fd = outputs.add_stream(path_);
    int error = 0;
    gif_ = EGifOpenFileHandle(fd, &error);
    if (!gif_) {
        ::close(fd);
        throw InputError("cannot write '" + path_ + "': " + gif_error(error));
    }
    EGifSetGifVersion(gif_, true);
    if (EGifPutScreenDesc(gif_, width_, height_, 8, 0, nullptr) == GIF_ERROR)
        fail("the screen description");
    // The Netscape extension that every viewer honours: loop for ever.
    const GifByteType loop[3] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif_, 11, "NETSCAPE2.0") == GIF_ERROR ||
        EGifPutExtensionBlock(gif_, 3, loop) == GIF_ERROR ||
        EGifPutExtensionTrailer(gif_) == GIF_ERROR)
        fail("the loop extension");
}

GifWriter::~GifWriter() {
    if (!gif_)
        return;
    int ignore = 0;
    EGifCloseFile(gif_, &ignore); // the temporary goes with its Outputs
}

void GifWriter::fail(const std::string& what) {
    const std::string why = gif_error(gif_->Error);
    int ignore = 0;
    EGifCloseFile(gif_, &ignore);
    gif_ = nullptr;
    throw InputError("cannot write '" + path_ + "' (" + what + "): " + why);
}

void GifWriter::add(const render::Image& image, int delay_cs) {
    if (!gif_)
        throw std::runtime_error("'" + path_ + "' is closed");
    if (image.width != width_ || image.height != height_)
        throw std::runtime_error("every frame of '" + path_ + "' must be " +
                                 std::to_string(width_) + "×" + std::to_string(height_));
    Region r{0, 0, width_, height_};
    if (frames_ > 0) {
        r = changed(previous_, image.rgba, width_, height_);
        if (r.w == 0)
            r = {0, 0, 1, 1}; // nothing changed: one pixel carries the delay
    }
    Indexed q = quantise(image, r);

    GraphicsControlBlock gcb{};
    gcb.DisposalMode = DISPOSE_DO_NOT; // later frames draw over this one
    gcb.UserInputFlag = false;
    gcb.DelayTime = std::clamp(delay_cs, 2, 65535);
    gcb.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    EGifGCBToExtension(&gcb, extension);
    if (EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, 4, extension) == GIF_ERROR)
        fail("frame " + std::to_string(frames_ + 1));
    ColorMapObject* map = GifMakeMapObject(static_cast<int>(q.colours.size()), q.colours.data());
    const bool described =
        map && EGifPutImageDesc(gif_, r.x, r.y, r.w, r.h, false, map) != GIF_ERROR;
    GifFreeMapObject(map); // giflib keeps its own copy
    if (!described)
        fail("frame " + std::to_string(frames_ + 1));
    for (int y = 0; y < r.h; ++y)
        if (EGifPutLine(
                gif_, q.pixels.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(r.w),
                r.w) == GIF_ERROR)
            fail("frame " + std::to_string(frames_ + 1));
    previous_ = image.rgba;
    ++frames_;
}

void GifWriter::finish() {
    if (!gif_)
        throw std::runtime_error("'" + path_ + "' is closed");
    if (frames_ == 0)
        fail("no frames");
    int error = 0;
    // The close flushes what giflib buffered: a full disk shows here.
    const int closed = EGifCloseFile(gif_, &error);
    gif_ = nullptr;
    if (closed == GIF_ERROR)
        throw InputError("cannot write '" + path_ + "': " + gif_error(error));
    if (own_)
        own_->commit();
}

} // namespace pplab::exporting
