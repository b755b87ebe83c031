#include "pplab/files.hpp"

#include "pplab/quote.hpp"
#include "pplab/request.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <random>
#include <system_error>
#include <vector>

namespace pplab {

namespace fs = std::filesystem;

namespace {

std::function<void(const std::string&)>& written_listener() {
    static std::function<void(const std::string&)> listener;
    return listener;
}

// Whether `path` is in a folder temporary_name named: "<name>.<8 hex digits>.part".
bool inside_temporary(const std::string& path) {
    const std::string folder = fs::path(path).parent_path().filename().string();
    constexpr std::size_t kSuffix = 14, kHex = 8; // ".<8 hex digits>.part"
    if (folder.size() <= kSuffix || !folder.ends_with(".part") ||
        folder[folder.size() - kSuffix] != '.')
        return false;
    const auto hex = folder.end() - static_cast<std::ptrdiff_t>(kSuffix - 1);
    return std::all_of(hex, hex + kHex,
                       [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

// The page hands what was written to the browser as a download (pplab/files.hpp). A file
// written into a staged folder (a run's frame) is not in its place yet: the folder is told of
// once it is.
void tell_written(const std::string& path) {
    if (written_listener() && !inside_temporary(path))
        written_listener()(path);
}

std::string error_text(int error) {
    return std::generic_category().message(error);
}

std::string what_it_is(mode_t mode) {
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a pipe (FIFO)";
    if (S_ISSOCK(mode))
        return "a socket";
    return "a special file";
}

std::string size_text(std::uint64_t bytes) {
    char buf[32];
    if (bytes >= (std::uint64_t{1} << 20))
        std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / (1 << 20));
    else
        std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
    return buf;
}

// Closes on every path out of a function.
class Descriptor {
public:
    explicit Descriptor(int fd) : fd_(fd) {}
    ~Descriptor() {
        if (fd_ >= 0)
            ::close(fd_);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return fd_; }
    // Closes now, reporting what the close says (a network file system reports late errors).
    int close() {
        const int result = ::close(fd_);
        fd_ = -1;
        return result;
    }

private:
    int fd_;
};

std::string quoted_path(const std::string& path) {
    return quote(path, kQuotePathChars);
}

std::string cannot_write(const std::string& path, const std::string& why) {
    return "cannot write " + quoted_path(path) + ": " + why;
}

// A name beside `destination` that no file has yet: "<name>.<8 hex digits>.part". The name is
// cut so that the temporary's stays within the 255 bytes a file name may have.
std::string temporary_name(const std::string& destination) {
    static constexpr std::size_t kKeep = 200;
    const fs::path path(destination);
    std::string name = path.filename().string().substr(0, kKeep);
    std::random_device entropy;
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, ".%08x", static_cast<unsigned>(entropy()));
    return (path.parent_path() / (name + suffix + ".part")).string();
}

// The names in a folder that is not empty, for a message: "'frame_0000.png', 'notes.txt', ...".
std::string some_entries(const std::string& folder, std::size_t& count) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec))
        names.push_back(entry.path().filename().string());
    count = names.size();
    std::sort(names.begin(), names.end());
    std::string shown;
    for (std::size_t i = 0; i < names.size() && i < 3; ++i)
        shown += (i ? ", " : "") + quote(names[i], 40);
    return names.size() > 3 ? shown + ", ..." : shown;
}

// Where a write to `path` lands: `path` itself, or the file a link names. Refuses what is not
// ours to replace.
std::string destination_of(const std::string& path, bool folder) {
    if (path.empty())
        throw InputError("no file name was given");
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno != ENOENT)
            throw InputError(cannot_write(path, error_text(errno)));
        const fs::path parent = fs::path(path).parent_path();
        struct stat folder_st {};
        if (::stat(parent.empty() ? "." : parent.c_str(), &folder_st) != 0 ||
            !S_ISDIR(folder_st.st_mode))
            throw InputError(
                cannot_write(path, "there is no folder " + quoted_path(parent.string())));
        return path;
    }
    if (S_ISLNK(st.st_mode)) {
        // The link stays; the file it names is replaced (as an editor saving through it does).
        std::error_code ec;
        const fs::path target = fs::canonical(path, ec);
        if (ec)
            throw InputError(cannot_write(
                path, "it is a link to " + quoted_path(fs::read_symlink(path, ec).string()) +
                          ", which does not exist"));
        return destination_of(target.string(), folder);
    }
    if (folder) {
        if (!S_ISDIR(st.st_mode))
            throw InputError(cannot_write(path, "it is " + what_it_is(st.st_mode) +
                                                    (S_ISREG(st.st_mode) ? " file" : "") +
                                                    ", not a folder"));
        std::size_t count = 0;
        const std::string names = some_entries(path, count);
        if (count > 0)
            throw InputError(quoted_path(path) + " already holds " + std::to_string(count) +
                             (count == 1 ? " file (" : " files (") + names +
                             "): name a new folder, or empty this one");
        return path;
    }
    if (!S_ISREG(st.st_mode))
        throw InputError(cannot_write(path, "it is " + what_it_is(st.st_mode) +
                                                ", and pplab replaces only regular files"));
    return path;
}

// Writes all of `bytes`, or says why not.
void write_all(int fd, std::string_view bytes, const std::string& path) {
    while (!bytes.empty()) {
        const ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
        if (wrote < 0) {
            if (errno == EINTR)
                continue;
            throw InputError(cannot_write(path, error_text(errno)));
        }
        bytes.remove_prefix(static_cast<std::size_t>(wrote));
    }
}

std::string without_trailing_slashes(std::string path) {
    while (path.size() > 1 && path.back() == '/')
        path.pop_back();
    return path;
}

} // namespace

std::string read_file(const std::string& path, std::size_t max_bytes) {
    // Not blocking: a pipe with no writer would otherwise hang here before it is refused.
    Descriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (file.get() < 0)
        throw InputError("cannot read " + quoted_path(path) + ": " + error_text(errno));
    struct stat st {};
    if (::fstat(file.get(), &st) != 0)
        throw InputError("cannot read " + quoted_path(path) + ": " + error_text(errno));
    if (!S_ISREG(st.st_mode))
        throw InputError("cannot read " + quoted_path(path) + ": it is " + what_it_is(st.st_mode) +
                         ", not a file");
    const auto size = static_cast<std::uint64_t>(st.st_size);
    const auto too_large = [&](std::uint64_t bytes) {
        return InputError("cannot read " + quoted_path(path) + ": it holds " + size_text(bytes) +
                          ", more than the " + size_text(max_bytes) + " pplab reads from one file");
    };
    if (size > max_bytes)
        throw too_large(size);
    std::string text;
    text.reserve(static_cast<std::size_t>(size));
    char buffer[1 << 16];
    while (true) {
        const ssize_t got = ::read(file.get(), buffer, sizeof buffer);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            throw InputError("cannot read " + quoted_path(path) + ": " + error_text(errno));
        }
        if (got == 0)
            break;
        if (text.size() + static_cast<std::size_t>(got) > max_bytes) // it grew while read
            throw too_large(text.size() + static_cast<std::size_t>(got));
        text.append(buffer, static_cast<std::size_t>(got));
    }
    return text;
}

std::string read_text_file(const std::string& path, std::size_t max_bytes) {
    std::string text = read_file(path, max_bytes);
    text.erase(0, text.size() - without_bom(text).size());
    return text;
}

void check_output_file(const std::string& path) {
    destination_of(path, false);
}

void check_output_folder(const std::string& path) {
    destination_of(without_trailing_slashes(path), true);
}

Outputs::~Outputs() {
    for (const Staged& s : staged_) {
        std::error_code ignore;
        if (!s.temporary.empty())
            fs::remove_all(s.temporary, ignore);
        if (!s.backup.empty())
            fs::remove(s.backup, ignore);
    }
}

std::string Outputs::stage(const std::string& path, bool folder, int* fd) {
    Staged s;
    s.shown = folder ? without_trailing_slashes(path) : path;
    s.destination = destination_of(s.shown, folder);
    s.folder = folder;
    struct stat existing {};
    const bool replaces = ::stat(s.destination.c_str(), &existing) == 0;
    for (int attempt = 0; attempt < 16 && s.temporary.empty(); ++attempt) {
        const std::string name = temporary_name(s.destination);
        if (folder ? ::mkdir(name.c_str(), 0777) == 0
                   : (*fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) >=
                         0) {
            s.temporary = name;
        } else if (errno != EEXIST) {
            throw InputError(cannot_write(s.shown, error_text(errno)));
        }
    }
    if (s.temporary.empty())
        throw InputError(cannot_write(s.shown, "no free name for a temporary beside it"));
    // A replaced file keeps its permissions (a shared notes file stays readable by the class).
    if (!folder && replaces)
        ::fchmod(*fd, existing.st_mode & 07777);
    staged_.push_back(s);
    return s.temporary;
}

void Outputs::add_file(const std::string& path, std::string_view bytes) {
    int fd = -1;
    stage(path, false, &fd);
    Descriptor file(fd);
    write_all(file.get(), bytes, path);
    if (file.close() != 0)
        throw InputError(cannot_write(path, error_text(errno)));
}

int Outputs::add_stream(const std::string& path) {
    int fd = -1;
    stage(path, false, &fd);
    return fd;
}

std::string Outputs::add_folder(const std::string& path) {
    return stage(path, true, nullptr);
}

void Outputs::commit() {
    for (std::size_t i = 0; i < staged_.size(); ++i) {
        Staged& s = staged_[i];
        struct stat existing {};
        s.existed = ::stat(s.destination.c_str(), &existing) == 0;
        // What the destination holds is kept under a second name until every output is in
        // place, so that a failure part-way can put it back.
        if (!s.folder && s.existed) {
            for (int attempt = 0; attempt < 16 && s.backup.empty(); ++attempt) {
                const std::string name = temporary_name(s.destination);
                if (::link(s.destination.c_str(), name.c_str()) == 0) {
                    s.backup = name;
                } else if (errno != EEXIST) {
                    // A file system without hard links (the page's, some shared drives):
                    // a copy keeps the old content instead.
                    std::error_code copied;
                    if (fs::copy_file(s.destination, name, copied) && !copied)
                        s.backup = name;
                    else
                        break; // neither: this one cannot be put back
                }
            }
        }
        if (::rename(s.temporary.c_str(), s.destination.c_str()) != 0) {
            const int error = errno;
            undo(i);
            throw InputError(cannot_write(s.shown, error_text(error)));
        }
        s.temporary.clear();
    }
    for (Staged& s : staged_) {
        if (!s.backup.empty())
            ::unlink(s.backup.c_str());
        s.backup.clear();
    }
    const std::vector<Staged> written = std::move(staged_);
    staged_.clear();
    for (const Staged& s : written)
        tell_written(s.shown);
}

void Outputs::undo(std::size_t committed) noexcept {
    for (std::size_t i = committed; i-- > 0;) {
        Staged& s = staged_[i];
        std::error_code ignore;
        if (!s.backup.empty()) {
            if (::rename(s.backup.c_str(), s.destination.c_str()) == 0)
                s.backup.clear();
        } else if (s.folder) {
            fs::remove_all(s.destination, ignore);
            if (s.existed) // it was an empty folder
                fs::create_directory(s.destination, ignore);
        } else if (!s.existed) {
            fs::remove(s.destination, ignore);
        } // else: an earlier file that could not be kept aside; the new one stays whole
    }
}

void write_atomically(const std::string& path, std::string_view bytes) {
    Outputs out;
    out.add_file(path, bytes);
    out.commit();
}

void write_new_file(const std::string& path, std::string_view bytes) {
    const std::string destination = destination_of(path, false);
    // The name is claimed first (O_EXCL fails if any file has it, even one made a moment ago),
    // then the whole text is moved over the claim: another program's file is never replaced.
    Descriptor claim(::open(destination.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
    if (claim.get() < 0) {
        if (errno == EEXIST)
            throw InputError(quoted_path(path) + " already exists: pplab does not replace a file "
                                                 "that may hold your work; choose another name");
        throw InputError(cannot_write(path, error_text(errno)));
    }
    claim.close();
    try {
        write_atomically(path, bytes);
    } catch (...) {
        ::unlink(destination.c_str());
        throw;
    }
}

void move_into_place(const std::string& part, const std::string& path) {
    if (::rename(part.c_str(), path.c_str()) != 0) {
        const int error = errno;
        std::error_code ignore;
        fs::remove(part, ignore);
        throw InputError(cannot_write(path, error_text(error)));
    }
    tell_written(path);
}

void on_file_written(std::function<void(const std::string& path)> listener) {
    written_listener() = std::move(listener);
}

} // namespace pplab
