// Reading and writing the files a user names (pplab/files.hpp): regular files only, a size
// cap, unique temporaries, only regular files replaced, outputs moved into place together.
#include "helpers.hpp"

#include "pplab/files.hpp"
#include "scratch.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace pplab {
namespace {

namespace fs = std::filesystem;
using test::input_error;
using test::mentions;

class Files : public test::ScratchDir {
protected:
    std::string wrote(const std::string& name, const std::string& text) const {
        return write(name, text).string();
    }
};

// ---- Reading ---------------------------------------------------------------------------

TEST_F(Files, ReadsARegularFileWithoutItsByteOrderMark) {
    EXPECT_EQ(read_text_file(wrote("a.txt", "1,2,3\n")), "1,2,3\n");
    EXPECT_EQ(read_text_file(wrote("bom.txt", "\xEF\xBB\xBF"
                                              "1,2")),
              "1,2");
    EXPECT_EQ(read_text_file(wrote("empty.txt", "")), "");
}

TEST_F(Files, RefusesWhatIsNotAFile) {
    EXPECT_TRUE(mentions(input_error([&] { read_text_file(dir_.string()); }), "it is a folder"));
    EXPECT_TRUE(
        mentions(input_error([&] { read_text_file("/dev/zero"); }), "it is a character device"));
    // A pipe with no writer: refused at once, never waited on.
    if (make_fifo("fifo")) {
        EXPECT_TRUE(mentions(input_error([&] { read_text_file(path("fifo")); }), "pipe"));
    }
    EXPECT_TRUE(mentions(input_error([&] { read_text_file(path("missing")); }),
                         "cannot read '" + path("missing") + "': No such file or directory"));
}

TEST_F(Files, RefusesAFileLargerThanTheCap) {
    const std::string big = path("big.txt");
    fs::resize_file(write("big.txt", ""), kMaxTextFileBytes + 1); // sparse: no disk used
    const std::string why = input_error([&] { read_text_file(big); });
    EXPECT_TRUE(mentions(why, "more than the 64 MiB pplab reads from one file")) << why;
    EXPECT_TRUE(mentions(input_error([&] { read_text_file(wrote("s.txt", "12345"), 4); }),
                         "it holds 5 bytes"));
    EXPECT_EQ(read_text_file(wrote("t.txt", "1234"), 4), "1234");
}

// ---- Writing ---------------------------------------------------------------------------

TEST_F(Files, WritesAndReplacesRegularFilesKeepingTheirPermissions) {
    write_atomically(path("out.txt"), "first");
    EXPECT_EQ(slurp(path("out.txt")), "first");
    fs::permissions(path("out.txt"), fs::perms::owner_read | fs::perms::owner_write |
                                         fs::perms::group_read | fs::perms::others_read);
    write_atomically(path("out.txt"), "second");
    EXPECT_EQ(slurp(path("out.txt")), "second");
    EXPECT_EQ(fs::status(path("out.txt")).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                  fs::perms::others_read);
    EXPECT_EQ(listing(), std::vector<std::string>{"out.txt"}) << "no temporary left";
}

TEST_F(Files, NeverTouchesAPartFileThatIsNotOurs) {
    write("out.txt.part", "someone else's");
    write_atomically(path("out.txt"), "ours");
    EXPECT_EQ(slurp(path("out.txt.part")), "someone else's");
    EXPECT_EQ(slurp(path("out.txt")), "ours");
    EXPECT_EQ(listing(), (std::vector<std::string>{"out.txt", "out.txt.part"}));
}

TEST_F(Files, RefusesToReplaceWhatIsNotARegularFile) {
    // A device node of our own stands for /dev/null (made where we may: as root).
    if (make_device("null")) {
        EXPECT_TRUE(mentions(input_error([&] { write_atomically(path("null"), "x"); }),
                             "it is a character device, and pplab replaces only regular files"));
        EXPECT_TRUE(fs::is_character_file(path("null")));
        fs::remove(path("null"));
    }
    fs::create_directory(path("folder"));
    EXPECT_TRUE(mentions(input_error([&] { write_atomically(path("folder"), "x"); }), "a folder"));
    EXPECT_TRUE(mentions(input_error([&] { write_atomically(path("no/such.txt"), "x"); }),
                         "there is no folder"));
    if (!make_fifo("fifo"))
        GTEST_SKIP() << "this platform makes no FIFOs";
    EXPECT_TRUE(mentions(input_error([&] { write_atomically(path("fifo"), "x"); }), "pipe"));
    EXPECT_TRUE(mentions(input_error([&] { check_output_file(path("fifo")); }), "pipe"));
    EXPECT_TRUE(fs::is_fifo(path("fifo")));
    EXPECT_EQ(listing(), (std::vector<std::string>{"fifo", "folder"}));
}

TEST_F(Files, WritesThroughALinkAndKeepsTheLink) {
    write("target.txt", "old");
    fs::create_symlink("target.txt", path("link.txt"));
    write_atomically(path("link.txt"), "new");
    EXPECT_TRUE(fs::is_symlink(path("link.txt")));
    EXPECT_EQ(slurp(path("target.txt")), "new");
    fs::create_symlink("nowhere.txt", path("dangling.txt"));
    EXPECT_TRUE(mentions(input_error([&] { write_atomically(path("dangling.txt"), "x"); }),
                         "which does not exist"));
    if (!make_fifo("fifo"))
        GTEST_SKIP() << "this platform makes no FIFOs";
    fs::create_symlink("fifo", path("to_fifo.txt"));
    EXPECT_TRUE(mentions(input_error([&] { write_atomically(path("to_fifo.txt"), "x"); }), "pipe"));
    EXPECT_TRUE(fs::is_fifo(path("fifo")));
}

// A starting file (a listing, a puzzle's skeleton) goes only where no file is: never over the
// student's work (the name is claimed before the text is written), and the message quotes the
// path as every other does.
TEST_F(Files, ANewFileNeverReplacesOne) {
    write_new_file(path("mine.cu"), "listing");
    EXPECT_EQ(slurp(path("mine.cu")), "listing");
    const std::string why = input_error([&] { write_new_file(path("mine.cu"), "again"); });
    EXPECT_TRUE(mentions(why, "'" + path("mine.cu") + "' already exists")) << why;
    EXPECT_EQ(slurp(path("mine.cu")), "listing");
    fs::create_symlink("mine.cu", path("link.cu"));
    EXPECT_TRUE(
        mentions(input_error([&] { write_new_file(path("link.cu"), "x"); }), "already exists"));
    EXPECT_EQ(slurp(path("mine.cu")), "listing");
    EXPECT_TRUE(mentions(input_error([&] { write_new_file(path("no/such.cu"), "x"); }),
                         "there is no folder"));
    EXPECT_EQ(listing(), (std::vector<std::string>{"link.cu", "mine.cu"})) << "no temporary left";
}

TEST_F(Files, OutputsAreMovedIntoPlaceTogetherOrNotAtAll) {
    write("a.txt", "old a");
    {
        Outputs out;
        out.add_file(path("a.txt"), "new a");
        out.add_file(path("b.txt"), "new b");
        EXPECT_EQ(slurp(path("a.txt")), "old a") << "nothing moves before commit()";
        // b.txt turns into a folder that holds a file before the commit: its rename fails,
        // and a.txt must get its old content back.
        fs::create_directories(path("b.txt/inside"));
        EXPECT_THROW(out.commit(), InputError);
    }
    EXPECT_EQ(slurp(path("a.txt")), "old a");
    EXPECT_EQ(listing(), (std::vector<std::string>{"a.txt", "b.txt"})) << "no temporaries";
    {
        Outputs abandoned; // a failure before commit(): the temporaries go, nothing else moves
        abandoned.add_file(path("a.txt"), "never");
        abandoned.add_folder(path("frames"));
    }
    EXPECT_EQ(slurp(path("a.txt")), "old a");
    EXPECT_EQ(listing(), (std::vector<std::string>{"a.txt", "b.txt"}));
    Outputs out;
    out.add_file(path("a.txt"), "new a");
    const std::string frames = out.add_folder(path("frames/"));
    write_atomically((fs::path(frames) / "frame_0000.png").string(), "png");
    out.commit();
    EXPECT_EQ(slurp(path("a.txt")), "new a");
    EXPECT_EQ(slurp(path("frames/frame_0000.png")), "png");
}

// The page hands each file written to the browser as a download: a run's frames go as their
// folder, once, when it is in its place (each frame on its own was a download, and removed
// from the folder before it was zipped).
TEST_F(Files, TellsOfAFolderOfFramesOnceItIsInPlaceNotOfEachFrame) {
    std::vector<std::string> told;
    on_file_written([&](const std::string& p) { told.push_back(p); });
    struct Quiet {
        ~Quiet() { on_file_written(nullptr); }
    } quiet;
    Outputs out;
    out.add_file(path("a.txt"), "a");
    const fs::path frames = out.add_folder(path("frames"));
    write_atomically((frames / "frame_0000.png").string(), "png");
    write_atomically((frames / "frame_0001.png").string(), "png");
    EXPECT_EQ(told, std::vector<std::string>{}) << "nothing is in its place before commit()";
    out.commit();
    EXPECT_EQ(told, (std::vector<std::string>{path("a.txt"), path("frames")}));
    // A student's own folder named like one is no temporary.
    fs::create_directory(path("notes.part"));
    write_atomically(path("notes.part/b.txt"), "b");
    EXPECT_EQ(told.back(), path("notes.part/b.txt"));
}

TEST_F(Files, AFolderOfFramesIsNewOrEmpty) {
    fs::create_directory(path("empty"));
    {
        Outputs out;
        write_atomically((fs::path(out.add_folder(path("empty"))) / "f.png").string(), "png");
        out.commit();
    }
    EXPECT_TRUE(fs::exists(path("empty/f.png")));
    fs::create_directory(path("full"));
    write("full/frame_0000.png", "stale");
    write("full/notes.txt", "mine");
    const std::string why = input_error([&] { check_output_folder(path("full")); });
    EXPECT_TRUE(mentions(why, "already holds 2 files ('frame_0000.png', 'notes.txt')")) << why;
    EXPECT_TRUE(mentions(why, "name a new folder")) << why;
    EXPECT_TRUE(
        mentions(input_error([&] { check_output_folder(wrote("file", "")); }), "not a folder"));
}

} // namespace
} // namespace pplab
