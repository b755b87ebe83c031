// A folder as one .zip file (the files stored as they are: PNGs are compressed already), so a
// PNG sequence written by the window arrives in the browser as one download.
#pragma once

#include <string>

namespace pplab::web {

// The regular files directly inside `dir`, by name, under the folder's own name. Throws
// std::runtime_error when a file cannot be read.
std::string zip_folder(const std::string& dir);

} // namespace pplab::web
