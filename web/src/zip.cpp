#include "zip.hpp"

#include "pplab/files.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace pplab::web {

namespace {

namespace fs = std::filesystem;

std::uint32_t crc32(const std::string& bytes) {
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    std::uint32_t c = 0xFFFFFFFFu;
    for (const char b : bytes)
        c = table[(c ^ static_cast<unsigned char>(b)) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

// Little-endian fields, as the format has them.
void put(std::string& out, std::uint32_t v, int bytes) {
    for (int i = 0; i < bytes; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

} // namespace

std::string zip_folder(const std::string& dir) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.is_regular_file())
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    const std::string folder = fs::path(dir).filename().string() + "/";
    std::string out, directory;
    for (const fs::path& file : files) {
        const std::string name = folder + file.filename().string();
        const std::string bytes = read_text_file(file.string());
        const std::uint32_t crc = crc32(bytes), size = static_cast<std::uint32_t>(bytes.size());
        const auto offset = static_cast<std::uint32_t>(out.size());
        // Local header: signature, version 2.0, no flags, stored, no date, crc, sizes, name.
        put(out, 0x04034b50, 4), put(out, 20, 2), put(out, 0, 2), put(out, 0, 2);
        put(out, 0, 2), put(out, 0x21, 2), put(out, crc, 4), put(out, size, 4), put(out, size, 4);
        put(out, static_cast<std::uint32_t>(name.size()), 2), put(out, 0, 2);
        out += name + bytes;
        // Its central directory entry.
        put(directory, 0x02014b50, 4), put(directory, 20, 2), put(directory, 20, 2);
        put(directory, 0, 2), put(directory, 0, 2), put(directory, 0, 2), put(directory, 0x21, 2);
        put(directory, crc, 4), put(directory, size, 4), put(directory, size, 4);
        put(directory, static_cast<std::uint32_t>(name.size()), 2);
        put(directory, 0, 2), put(directory, 0, 2), put(directory, 0, 2), put(directory, 0, 2);
        put(directory, 0, 4), put(directory, offset, 4);
        directory += name;
    }
    const auto start = static_cast<std::uint32_t>(out.size());
    out += directory;
    const auto count = static_cast<std::uint32_t>(files.size());
    put(out, 0x06054b50, 4), put(out, 0, 2), put(out, 0, 2), put(out, count, 2);
    put(out, count, 2), put(out, static_cast<std::uint32_t>(directory.size()), 4);
    put(out, start, 4), put(out, 0, 2);
    return out;
}

} // namespace pplab::web
