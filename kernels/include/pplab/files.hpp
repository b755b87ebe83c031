// Reading and writing the files a user names. Everything written (a trace, a picture, a run's
// frames) goes next to its destination as "<path>.part" and is renamed into place once
// complete, so a failure (a full disk, a bad path, a cancelled run) never leaves a half-written
// file where a student expects one.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace pplab {

// The whole file. Throws InputError naming the path.
std::string read_text_file(const std::string& path);

std::string part_path(const std::string& path);

// Throws InputError naming the path; nothing is left behind on failure.
void write_atomically(const std::string& path, std::string_view bytes);

// Renames `part` to `path`, or removes `part` and throws InputError naming `path`.
void move_into_place(const std::string& part, const std::string& path);

// Told of every file or folder once it is complete in its place. The page listens, to hand
// what the window wrote into its memory to the browser as a download; natively no one does.
void on_file_written(std::function<void(const std::string& path)> listener);

} // namespace pplab
