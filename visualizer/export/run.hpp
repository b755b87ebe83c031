// A whole run, as the window plays it, for the animated exports: one picture per playback
// step (the selected block's frame of the step), a PNG sequence written as a whole or not
// at all, and how long each step stays on screen in a GIF.
#pragma once

#include "render/target.hpp"
#include "scene/model.hpp"

#include "pplab/files.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace pplab::exporting {

// Hundredths of a second a step stays on screen in a GIF, and the last one before the loop
// starts again (time to read the result).
inline constexpr int kStepDelayCs = 120;
inline constexpr int kLastStepDelayCs = 300;

// The trace frames of a run, one per playback step, showing `block` where the step has it.
std::vector<std::size_t> run_frames(const scene::Model& m, int block);

// The pictures of a run as DIR/step_0001.png, step_0002.png, ...: numbered as the window's
// transport numbers steps, by the window and `pplab render --all-steps` alike. Written into a
// temporary folder beside DIR and renamed to DIR when complete, so DIR holds a whole run or
// does not exist (pplab/files.hpp).
class PngSequence {
public:
    // Throws std::runtime_error when DIR exists and is not an empty folder (the message says
    // what it holds), or its parent folder does not exist.
    explicit PngSequence(std::string dir);
    // The same, as one of a command's outputs: finish() leaves moving the folder into place
    // to outputs.commit(), with the others.
    PngSequence(Outputs& outputs, std::string dir);
    ~PngSequence(); // when the run was not moved into place: the partial folder is removed
    PngSequence(const PngSequence&) = delete;
    PngSequence& operator=(const PngSequence&) = delete;

    void add(const render::Image& image); // throws std::runtime_error
    void finish();                        // throws std::runtime_error
    int frames() const { return frames_; }

    static std::string file_name(std::size_t i); // the i-th picture, from 0: 7 -> step_0008.png

private:
    std::unique_ptr<Outputs> own_; // when the run is an output of its own
    std::string folder_;           // the temporary folder being filled
    int frames_ = 0;
};

} // namespace pplab::exporting
