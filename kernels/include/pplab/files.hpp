// Reading and writing the files a user names.
//
// Reading: regular files only (a folder, a device such as /dev/zero, a pipe are refused with
// a message that says what the path is), at most a documented size, a UTF-8 byte order mark
// at the start skipped.
//
// Writing: everything (a trace, a picture, a run's frames) goes to a temporary beside its
// destination under a name no other file has, every write and the close checked, and is
// renamed into place once complete: a failure (a full disk, a bad path, a cancelled run)
// never leaves a half-written file where a student expects one. Only regular files are
// replaced (a device, a pipe or a folder of that name is refused), and the outputs of one
// command are moved into place together or not at all.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pplab {

// Input lists, hand-traces, timing files and `bench --image` pictures: far more than any of
// them needs (an input of 2^20 elements is about 16 MiB of text).
inline constexpr std::size_t kMaxTextFileBytes = std::size_t{64} << 20;
// A saved session: a trace of the largest size pplab records (2^24 values) as JSON.
inline constexpr std::size_t kMaxTraceFileBytes = std::size_t{512} << 20;

// The whole file, as it is (a picture). Throws InputError naming the path.
std::string read_file(const std::string& path, std::size_t max_bytes);

// The whole file, without a leading byte order mark. Throws InputError naming the path.
std::string read_text_file(const std::string& path, std::size_t max_bytes = kMaxTextFileBytes);

// Checks, before any work, that a file (a folder of frames) could be written at `path`:
// InputError saying why not (no such folder, a device, a folder that holds files, ...).
void check_output_file(const std::string& path);
void check_output_folder(const std::string& path);

// The outputs of one command, staged and then moved into place together. Each add_* writes
// (or prepares) a temporary beside its destination; commit() renames them all, and if one
// rename fails, undoes the ones before it. Whatever is not committed is removed by the
// destructor. Every error is an InputError naming the destination.
class Outputs {
public:
    Outputs() = default;
    ~Outputs();
    Outputs(const Outputs&) = delete;
    Outputs& operator=(const Outputs&) = delete;

    // `bytes` for the file `path`, written to its temporary now.
    void add_file(const std::string& path, std::string_view bytes);
    // An open temporary for `path` that a library writes through: the descriptor is the
    // caller's to close (checking the close) before commit().
    int add_stream(const std::string& path);
    // A new folder `path` (absent, or an empty folder): returns the temporary folder to fill.
    std::string add_folder(const std::string& path);

    void commit();

private:
    struct Staged {
        std::string temporary;   // written, not yet in place
        std::string destination; // where it goes (a link's target, for a link)
        std::string shown;       // the path as the user wrote it, for messages
        std::string backup;      // what the destination held, while commit() runs
        bool folder = false;
        bool existed = false; // the destination was there before commit()
    };
    std::string stage(const std::string& path, bool folder, int* fd);
    void undo(std::size_t committed) noexcept;
    std::vector<Staged> staged_;
};

// One file, staged and committed at once.
void write_atomically(const std::string& path, std::string_view bytes);

// A new file (a listing or a puzzle to edit): InputError if any file has the name, even one
// made while this one is written.
void write_new_file(const std::string& path, std::string_view bytes);

// Renames `part` (a file another program wrote, such as a compiler) to `path`, or removes
// `part` and throws InputError naming `path`.
void move_into_place(const std::string& part, const std::string& path);

// Told of every file or folder once it is complete in its place (a file written into a staged
// folder is not: the folder is, once committed). The page listens, to hand what the window
// wrote into its memory to the browser as a download; natively no one does.
void on_file_written(std::function<void(const std::string& path)> listener);

} // namespace pplab
