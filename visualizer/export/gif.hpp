// An animated GIF of a run (giflib), written one picture at a time so that the window can
// show progress and memory stays flat however long the run.
//
// - Colours: each frame gets its own table of the 256 most common colours, kept as they are
//   (the pictures are flat colours; only anti-aliased edges move to their nearest neighbour).
// - Size: each frame after the first stores only the rectangle that changed (a step changes
//   a few cells), over the one before, which stays.
#pragma once

#include "render/target.hpp"

#include "pplab/files.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct GifFileType;

namespace pplab::exporting {

// Whether this build has giflib (a PPLAB_GUI=AUTO build may lack it).
bool gif_supported();

class GifWriter {
public:
    // Opens a temporary beside `path` (pplab/files.hpp); throws std::runtime_error naming
    // `path`. finish() moves the GIF into place.
    GifWriter(std::string path, int width, int height);
    // The same, as one of a command's outputs: finish() completes the GIF and leaves moving
    // it into place to outputs.commit(), with the others.
    GifWriter(Outputs& outputs, std::string path, int width, int height);
    ~GifWriter(); // when finish() was not reached: the partial file is removed
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    // `image` must be width x height; it stays on screen `delay_cs` hundredths of a second.
    void add(const render::Image& image, int delay_cs);
    // Closes the file and renames it into place. Throws std::runtime_error.
    void finish();
    int frames() const { return frames_; }

private:
    void start(Outputs& outputs);
    void fail(const std::string& what);

    std::unique_ptr<Outputs> own_; // when the GIF is an output of its own
    std::string path_;
    GifFileType* gif_ = nullptr;
    int width_ = 0, height_ = 0;
    int frames_ = 0;
    std::vector<std::uint8_t> previous_; // RGBA of the last frame added
};

} // namespace pplab::exporting
