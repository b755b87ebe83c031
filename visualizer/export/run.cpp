#include "run.hpp"

#include "pplab/files.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace pplab::exporting {

namespace fs = std::filesystem;

namespace {

// "frames/" names the folder "frames": its partial twin is "frames.part", not "frames/.part".
std::string without_trailing_slash(std::string dir) {
    while (dir.size() > 1 && dir.back() == '/')
        dir.pop_back();
    return dir;
}

} // namespace

std::vector<std::size_t> run_frames(const scene::Model& m, int block) {
    std::vector<std::size_t> frames;
    for (std::size_t step = 0; step < m.steps().size(); ++step)
        frames.push_back(m.frame_at(static_cast<int>(step), block));
    return frames;
}

std::string PngSequence::file_name(std::size_t i) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%04zu.png", i);
    return name;
}

PngSequence::PngSequence(std::string dir)
    : dir_(without_trailing_slash(std::move(dir))), part_(part_path(dir_)) {
    const fs::path target(dir_);
    std::error_code ec;
    if (fs::exists(target, ec) && !(fs::is_directory(target, ec) && fs::is_empty(target, ec)))
        throw std::runtime_error("'" + dir_ + "' already exists: name a new folder for the frames");
    const fs::path parent = fs::absolute(target, ec).parent_path();
    if (!fs::is_directory(parent, ec))
        throw std::runtime_error("cannot write '" + dir_ + "': no directory '" + parent.string() +
                                 "'");
    fs::remove_all(part_, ec); // what an interrupted export of the same folder left
    if (!fs::create_directory(part_, ec) || ec)
        throw std::runtime_error("cannot create '" + part_ + "'");
}

PngSequence::~PngSequence() {
    if (done_)
        return;
    std::error_code ec;
    fs::remove_all(part_, ec);
}

void PngSequence::add(const render::Image& image) {
    render::write_png(image,
                      (fs::path(part_) / file_name(static_cast<std::size_t>(frames_))).string());
    ++frames_;
}

void PngSequence::finish() {
    std::error_code ec;
    if (fs::is_directory(dir_, ec))
        fs::remove(dir_, ec); // empty, as the constructor checked
    move_into_place(part_, dir_);
    done_ = true;
}

} // namespace pplab::exporting
