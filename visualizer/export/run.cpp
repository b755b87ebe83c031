#include "run.hpp"

#include "pplab/files.hpp"

#include <cstdio>
#include <filesystem>

namespace pplab::exporting {

namespace fs = std::filesystem;

std::vector<std::size_t> run_frames(const scene::Model& m, int block) {
    std::vector<std::size_t> frames;
    for (std::size_t step = 0; step < m.steps().size(); ++step)
        frames.push_back(m.frame_at(static_cast<int>(step), block));
    return frames;
}

std::string PngSequence::file_name(std::size_t i) {
    char name[32];
    std::snprintf(name, sizeof name, "step_%04zu.png", i + 1);
    return name;
}

PngSequence::PngSequence(std::string dir)
    : own_(std::make_unique<Outputs>()), folder_(own_->add_folder(dir)) {}

PngSequence::PngSequence(Outputs& outputs, std::string dir) : folder_(outputs.add_folder(dir)) {}

PngSequence::~PngSequence() = default;

void PngSequence::add(const render::Image& image) {
    render::write_png(image,
                      (fs::path(folder_) / file_name(static_cast<std::size_t>(frames_))).string());
    ++frames_;
}

void PngSequence::finish() {
    if (own_)
        own_->commit();
}

} // namespace pplab::exporting
