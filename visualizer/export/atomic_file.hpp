// Every export is written next to its destination as "<path>.part" and renamed into place
// once complete, so a failure (a full disk, a bad path, a cancelled run) never leaves a
// half-written file where a student expects a picture.
#pragma once

#include <string>
#include <string_view>

namespace pplab::exporting {

std::string part_path(const std::string& path);

// Throws std::runtime_error naming the path; nothing is left behind on failure.
void write_atomically(const std::string& path, std::string_view bytes);

// Renames `part` to `path`, or removes `part` and throws std::runtime_error naming `path`.
void move_into_place(const std::string& part, const std::string& path);

} // namespace pplab::exporting
