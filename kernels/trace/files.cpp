#include "pplab/files.hpp"

#include "pplab/request.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace pplab {

namespace fs = std::filesystem;

namespace {

std::function<void(const std::string&)>& written_listener() {
    static std::function<void(const std::string&)> listener;
    return listener;
}

} // namespace

void on_file_written(std::function<void(const std::string& path)> listener) {
    written_listener() = std::move(listener);
}

std::string read_text_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw InputError("cannot read '" + path + "'");
    std::ostringstream s;
    s << f.rdbuf();
    if (f.bad())
        throw InputError("cannot read '" + path + "'");
    return s.str();
}

std::string part_path(const std::string& path) {
    return path + ".part";
}

void write_atomically(const std::string& path, std::string_view bytes) {
    const std::string part = part_path(path);
    {
        std::ofstream f(part, std::ios::binary | std::ios::trunc);
        if (!f)
            throw InputError("cannot write '" + path + "'");
        f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        f.flush();
        if (!f) {
            std::error_code ignore;
            fs::remove(part, ignore);
            throw InputError("cannot write '" + path + "' (disk full?)");
        }
    }
    move_into_place(part, path);
}

void move_into_place(const std::string& part, const std::string& path) {
    std::error_code ec;
    fs::rename(part, path, ec);
    if (ec) {
        std::error_code ignore;
        fs::remove_all(part, ignore);
        throw InputError("cannot write '" + path + "': " + ec.message());
    }
    if (written_listener())
        written_listener()(path);
}

} // namespace pplab
