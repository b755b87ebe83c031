// The `pplab` binary itself (label `cli`): exit codes 0 / 1 / 2, what it prints, and that bad
// input gets one line on stderr and exit code 2, never a crash or a half-written file.
#include "pplab/io.hpp"
#include "pplab/request.hpp"
#include "scratch.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace pplab {
namespace {

namespace fs = std::filesystem;

struct Outcome {
    int exit_code = -1;
    std::string out, err;
};

// A path as one shell word (the scratch paths hold no quote).
std::string quoted(const fs::path& p) {
    return "'" + p.string() + "'";
}

// A scratch directory per test, and the binary run in it.
class Cli : public test::ScratchDir {
protected:
    // Runs `pplab ARGS` through the shell; ARGS is quoted by the caller where needed. The CPU
    // back end is asked for explicitly so no "no GPU" note joins stderr on any machine.
    // `shell` runs first in the same shell (a limit on file sizes); standard output goes to
    // `out` (a file here, or /dev/full).
    Outcome pplab(const std::string& args, const std::string& shell = "",
                  const std::string& out = "") const {
        const fs::path stdout_file = dir_ / "stdout", err = dir_ / "stderr";
        const std::string cmd = shell + quoted(PPLAB_BINARY) + " " + args + " >" +
                                (out.empty() ? quoted(stdout_file) : out) + " 2>" + quoted(err);
        const int status = std::system(cmd.c_str());
        Outcome r;
        r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        r.out = out.empty() ? slurp(stdout_file) : "";
        r.err = slurp(err);
        std::error_code ignore;
        fs::remove(stdout_file, ignore);
        fs::remove(err, ignore);
        return r;
    }

    // Exit code 2 and exactly one line on stderr, naming the problem.
    void expect_bad_input(const std::string& args, const std::string& names) const {
        SCOPED_TRACE("pplab " + args);
        const Outcome r = pplab(args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
        EXPECT_EQ(r.err.rfind("pplab: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find(names), std::string::npos)
            << "the message should name '" << names << "': " << r.err;
        EXPECT_EQ(r.out, "");
    }
};

const char* const kBlelloch = "trace --backend cpu --algo scan-blelloch --input 1,2,3,4";

TEST_F(Cli, ListNamesEveryAlgorithm) {
    // The ids of the table, in the chapter's order, one line each; then the three
    // production kernels (timed, not traced).
    const char* const ids[] = {
        "reduce-naive",    "reduce-tree",   "reduce-coarsened", "reduce-shuffle",     "reduce-full",
        "reduce-atomic",   "scan-blelloch", "scan-multiblock",  "scan-hillis-steele", "hist-global",
        "hist-privatised", "hist-per-warp", "reduce-fast",      "scan-fast",          "hist-fast"};
    static_assert(std::size(ids) == 15);
    const Outcome r = pplab("list");
    EXPECT_EQ(r.exit_code, 0);
    std::vector<std::string> heads;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
        heads.push_back(line.substr(0, line.find(' ')));
    EXPECT_EQ(heads, std::vector<std::string>(std::begin(ids), std::end(ids)));
}

TEST_F(Cli, TraceTextIsTheGoldenExercise3) {
    const Outcome r = pplab(kBlelloch);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, slurp(fs::path(PPLAB_GOLDEN_DIR) / "exercise3_blelloch_1234.txt"));
    EXPECT_EQ(r.err, "");
}

TEST_F(Cli, TraceJsonParsesAndReadsBack) {
    const Outcome r = pplab(std::string(kBlelloch) + " --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.at("algorithm"), "scan-blelloch");
    EXPECT_EQ(j.at("result"), nlohmann::json({0, 1, 3, 6}));
    EXPECT_EQ(trace_from_json(r.out).result, (std::vector<float>{0, 1, 3, 6}));

    const Outcome big =
        pplab("trace --backend cpu --algo reduce-full --n 65536 --gen random-float --format json");
    ASSERT_EQ(big.exit_code, 0) << big.err;
    EXPECT_NO_THROW(trace_from_json(big.out));
}

TEST_F(Cli, TraceMarkdown) {
    const Outcome r = pplab(std::string(kBlelloch) + " --format markdown");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("| upsweep 1 |"), std::string::npos) << r.out;
    expect_bad_input(std::string(kBlelloch) + " --format yaml", "--format");
}

TEST_F(Cli, OutWritesTheFile) {
    const fs::path file = dir_ / "trace.json";
    const Outcome r = pplab(std::string(kBlelloch) + " --format json --out " + quoted(file));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "");
    ASSERT_TRUE(fs::exists(file));
    EXPECT_EQ(trace_from_json(slurp(file)).result, (std::vector<float>{0, 1, 3, 6}));
}

TEST_F(Cli, OutLeavesNoFileOnError) {
    const fs::path file = dir_ / "trace.txt";
    expect_bad_input("trace --backend cpu --algo reduce-tree --block 100 --n 8 --out " +
                         quoted(file),
                     "power of two");
    EXPECT_FALSE(fs::exists(file));
    EXPECT_FALSE(fs::exists(file.string() + ".part"));
    // An earlier file is not clobbered either.
    write("trace.txt", "earlier");
    expect_bad_input("trace --backend cpu --algo reduce-tree --input 1,x --out " + quoted(file),
                     "'x'");
    EXPECT_EQ(slurp(file), "earlier");
    // A directory that does not exist: a clear error, nothing written.
    expect_bad_input("trace --backend cpu --algo reduce-tree --n 8 --out " +
                         quoted(dir_ / "no" / "such.txt"),
                     "cannot write");
}

// ---- check -----------------------------------------------------------------------------

TEST_F(Cli, CheckRightAnswerExitsZero) {
    const fs::path a =
        write("answer.txt", "load: 1 2 3 4\nupsweep 0: 1 3 3 7\nupsweep 1: 1 3 3 10\n"
                            "clear-root: 1 3 3 0\ndownsweep 0: 1 0 3 3\ndownsweep 1: 0 1 3 6\n");
    const Outcome r = pplab("check --algo scan-blelloch --input 1,2,3,4 --answer " + quoted(a));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("All 6 levels are right"), std::string::npos) << r.out;
}

TEST_F(Cli, CheckWrongAnswerExitsOneAndExplainsTheFirstMistake) {
    const fs::path a = write("answer.txt", "1 2 3 4\n1 3 3 7\n1 3 3 9\n1 3 3 0\n");
    const Outcome r = pplab("check --algo scan-blelloch --input 1,2,3,4 --answer " + quoted(a));
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("WRONG  upsweep 1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("First mistake, line 3"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Thread 0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("you wrote 9"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("right  upsweep 0"), std::string::npos) << r.out;
}

TEST_F(Cli, CheckSaysHowUnlabelledLinesWereAligned) {
    const fs::path a = write("answer.txt", "1 3 3 7\n1 3 3 10\n");
    const Outcome r = pplab("check --algo scan-blelloch --input 1,2,3,4 --answer " + quoted(a));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("2 lines without labels were compared with upsweep 0 to upsweep 1"),
              std::string::npos)
        << r.out;
    const fs::path zeros = write("zeros.txt", "0 0 0 0\n");
    expect_bad_input("check --algo scan-blelloch --input 0,0,0,0 --answer " + quoted(zeros),
                     "equally well");
}

TEST_F(Cli, CheckMalformedAnswerExitsTwo) {
    const std::string check = "check --algo scan-blelloch --input 1,2,3,4 --answer ";
    expect_bad_input(check + quoted(write("a.txt", "1 2 three 4\n")), "line 1");
    expect_bad_input(check + quoted(write("b.txt", "1 2 3\n")), "3 values");
    expect_bad_input(check + quoted(write("c.txt", "upsweep 8: 1 2 3 4\n")), "upsweep 8");
    expect_bad_input(check + quoted(write("d.txt", "")), "no levels");
    expect_bad_input(check + quoted(dir_ / "missing.txt"), "cannot read");
}

// ---- Bad input -------------------------------------------------------------------------

TEST_F(Cli, BadInputListsExitTwo) {
    const std::string tree = "trace --backend cpu --algo reduce-tree ";
    expect_bad_input(tree + "--input ,", "empty");
    expect_bad_input(tree + "--input 1,a,3", "'a'");
    expect_bad_input(tree + "--input nan,1", "finite");
    expect_bad_input(tree + "--input 1,inf", "finite");
    expect_bad_input(tree + "--input 1,-inf", "finite");
    expect_bad_input(tree + "--input 3e38,3e38", "overflow");
    expect_bad_input(tree + "--input-file " + quoted(dir_ / "missing"), "cannot read");
    // Empty fields by position; numbers a float cannot hold, with the reason.
    expect_bad_input(tree + "--input 1,,3",
                     "element 1 is empty: two commas with nothing between them");
    expect_bad_input(tree + "--input ,1", "element 0 is empty: the list starts with a comma");
    expect_bad_input(tree + "--input 1,2,", "element 2 is empty: the list ends with a comma");
    expect_bad_input(tree + "--input 1,1e39", "element 1 ('1e39') is too large for a float");
    expect_bad_input(tree + "--input 1e-50,1", "element 0 ('1e-50') is too small for a float");
    expect_bad_input(tree + "--input 1,16777217",
                     "element 1 ('16777217') is a whole number fp32 cannot hold");
    expect_bad_input("check --algo scan-blelloch --input 1,2,3,4 --answer " +
                         quoted(write("a.txt", "upsweep 1: 1 3,,3 7\n")),
                     "line 1: cell 2 is empty");
}

TEST_F(Cli, BadSizesExitTwo) {
    const std::string tree = "trace --backend cpu --algo reduce-tree ";
    expect_bad_input(tree + "--n 0", "n must be at least 1");
    expect_bad_input(tree + "--n -3", "n must be at least 1");
    expect_bad_input(tree + "--n 2000000", "too large");
    expect_bad_input(tree, "give the input");
    expect_bad_input(tree + "--n 8 --gen gaussian", "gaussian");
}

TEST_F(Cli, BadBlockSizesExitTwo) {
    const std::string tree = "trace --backend cpu --algo reduce-tree --n 64 ";
    expect_bad_input(tree + "--block 0", "block");
    expect_bad_input(tree + "--block -32", "block");
    expect_bad_input(tree + "--block 2000", "1024");
    expect_bad_input(tree + "--block 100", "power of two");
    expect_bad_input("trace --backend cpu --algo reduce-full --n 64 --block 48", "multiple of 32");
    expect_bad_input("trace --backend cpu --algo scan-blelloch --n 64 --block 32",
                     "scan-multiblock");
}

TEST_F(Cli, BadGridExitsTwo) {
    expect_bad_input("trace --backend cpu --algo reduce-coarsened --n 64 --grid 0", "grid");
    expect_bad_input("trace --backend cpu --algo reduce-tree --n 64 --grid 5",
                     "does not take --grid");
}

TEST_F(Cli, BadBinsExitTwo) {
    expect_bad_input("trace --backend cpu --algo hist-global --n 64 --bins 0", "bins");
    expect_bad_input("trace --backend cpu --algo hist-privatised --input 1,2 --bins 0", "bins");
    expect_bad_input("trace --backend cpu --algo hist-privatised --n 64 --bins 20000",
                     "shared memory");
    expect_bad_input("trace --backend cpu --algo hist-global --bins 4 --input 1,4", "element 1");
    expect_bad_input("trace --backend cpu --algo hist-global --input 1,2.5", "element 1");
}

// reduce-fast and hist-fast are timed (`pplab bench`), not traced: asking for their trace, or
// for a check of a hand-trace of them, is bad input, and nothing is written.
TEST_F(Cli, ProductionKernelsAreNotTraced) {
    for (const std::string id : {"reduce-fast", "hist-fast"}) {
        const fs::path file = dir_ / (id + ".txt");
        expect_bad_input("trace --backend cpu --algo " + id + " --n 1000", "not traced");
        expect_bad_input("trace --backend cpu --algo " + id + " --n 8 --format json --out " +
                             quoted(file),
                         id + " is a production kernel");
        EXPECT_FALSE(fs::exists(file));
        expect_bad_input("check --algo " + id + " --n 8 --answer " +
                             quoted(write("answer.txt", "1 2 3\n")),
                         "not traced");
        // The refusal before any note (the back end is left to choose: on a machine without a
        // GPU its "no GPU" note came first), and no listing to start a kernel from.
        expect_bad_input("trace --algo " + id + " --n 100", "not traced");
        expect_bad_input("listing --algo " + id, "no listing to start from");
    }
}

// scanBlock scans one block: an n larger than the largest block is refused as n, in the
// chapter's words, not as a block size nobody asked for ("block size 8192 is out of range").
TEST_F(Cli, OneBlockScansRefuseALargerNAsN) {
    for (const std::string id : {"scan-blelloch", "scan-hillis-steele"}) {
        expect_bad_input("trace --backend cpu --algo " + id + " --n 5000",
                         "n (5000) must be at most the block size (1024)");
        const Outcome r = pplab("trace --backend cpu --algo " + id + " --n 5000");
        EXPECT_EQ(r.err.find("8192"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("5000 is out of range"), std::string::npos) << r.err;
    }
}

// scan-fast is traced at classroom sizes: tiles of block x 4, at most 64, on the CPU model a
// schedule chosen by --order-seed (said in the header); past 64 tiles, a grid given, a block
// that is not whole warps, or a hand-trace to check are refused in the chapter's words.
TEST_F(Cli, ScanFastIsTracedAtClassroomSizes) {
    const Outcome traced = pplab("trace --backend cpu --algo scan-fast --n 1000 --block 32 "
                                 "--order-seed 7");
    EXPECT_EQ(traced.exit_code, 0) << traced.err;
    EXPECT_NE(traced.out.find("n 1000, block 32, grid 8, exclusive, tiles of 128, order seed 7"),
              std::string::npos)
        << traced.out;
    EXPECT_NE(traced.out.find("block 7 look-back:"), std::string::npos) << traced.out;
    expect_bad_input("trace --backend cpu --algo scan-fast --n 8193 --block 32",
                     "at most 64 tiles");
    expect_bad_input("trace --backend cpu --algo scan-fast --n 1000 --block 48", "multiple of 32");
    expect_bad_input("trace --backend cpu --algo scan-fast --n 1000 --grid 3",
                     "does not take --grid");
    expect_bad_input("check --algo scan-fast --n 8 --answer " +
                         quoted(write("answer.txt", "1 2 3\n")),
                     "no hand-trace");
    expect_bad_input("trace --backend cpu --algo scan-blelloch --n 8 --order-seed 3",
                     "runs in one order only");
}

// A production kernel's launch rules (blocks of 256, at most 256 bins: production_test) come
// after the first thing to say about a trace of it: there is none.
TEST_F(Cli, ProductionKernelsAreRefusedBeforeTheirLaunchRules) {
    expect_bad_input("trace --backend cpu --algo reduce-fast --n 64 --block 128", "not traced");
    expect_bad_input("trace --backend cpu --algo hist-fast --n 64 --bins 300", "not traced");
}

// Arguments a command does not take are named in the order they were typed, with the command
// (CLI11 listed them last one first: "cpu --backend json --format").
TEST_F(Cli, ArgumentsACommandDoesNotTakeAreSaidInTheirOrder) {
    expect_bad_input("check --algo scan-blelloch --input 1,2,3,4 --answer " +
                         quoted(write("a.txt", "0 1 3 6\n")) + " --format json --backend cpu",
                     "`pplab check` does not take --format json --backend cpu (`pplab check "
                     "--help` lists what it takes)");
    expect_bad_input("trace --backend cpu --algo reduce-tree --n 8 extra words",
                     "`pplab trace` does not take extra words");
}

TEST_F(Cli, UnknownNamesExitTwo) {
    expect_bad_input("trace --backend cpu --algo reduce-magic --n 8", "reduce-magic");
    expect_bad_input("trace --backend quantum --algo reduce-tree --n 8", "quantum");
    expect_bad_input("trace --backend cpu --n 8", "--algo");
    expect_bad_input("frobnicate", "frobnicate");
}

// ---- Output files and standard output ------------------------------------------------------

// A limit on the size of any file the command writes (in 512-byte blocks, dash's unit), with
// the signal a write past it raises ignored: the write itself then fails with "File too large",
// as on a full disk.
const std::string kSmallDisk = "ulimit -f 8; trap '' XFSZ; ";

TEST_F(Cli, OutReplacesOnlyRegularFiles) {
    const std::string trace = "trace --backend cpu --algo reduce-tree --n 8 --out ";
    // A device node of our own stands for /dev/null (as root, pplab once made /dev/null a
    // regular file): a regression replaces this one.
    if (make_device("null")) {
        expect_bad_input(trace + quoted(dir_ / "null"), "it is a character device");
        EXPECT_TRUE(fs::is_character_file(dir_ / "null"));
        fs::remove(dir_ / "null");
    } else if (::geteuid() != 0) { // not root: /dev/null itself is safe from a regression
        expect_bad_input(trace + "/dev/null", "it is a character device");
        EXPECT_TRUE(fs::is_character_file("/dev/null"));
    }
    ASSERT_TRUE(make_fifo("fifo"));
    expect_bad_input(trace + quoted(dir_ / "fifo"), "a pipe (FIFO)");
    fs::create_directory(dir_ / "folder");
    expect_bad_input(trace + quoted(dir_ / "folder"), "it is a folder");
    // Someone else's .part file beside the destination is left alone.
    write("trace.txt.part", "not ours");
    const Outcome r = pplab(trace + quoted(dir_ / "trace.txt"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(slurp(dir_ / "trace.txt.part"), "not ours");
    EXPECT_EQ(listing(),
              (std::vector<std::string>{"fifo", "folder", "trace.txt", "trace.txt.part"}));
}

TEST_F(Cli, AFailedWriteExitsTwoAndLeavesNothing) {
    write("trace.json", "earlier");
    const Outcome r = pplab("trace --backend cpu --algo reduce-tree --n 4096 --format json --out " +
                                quoted(dir_ / "trace.json"),
                            kSmallDisk);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("cannot write '" + path("trace.json") + "': File too large"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(slurp(dir_ / "trace.json"), "earlier");
    EXPECT_EQ(listing(), std::vector<std::string>{"trace.json"}) << "no temporary left";
}

TEST_F(Cli, StandardOutputErrorsExitTwo) {
    const auto full = [&](const std::string& args) {
        SCOPED_TRACE("pplab " + args + " >/dev/full");
        const Outcome r = pplab(args, "", "/dev/full");
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_NE(r.err.find("cannot write to standard output"), std::string::npos) << r.err;
    };
    full("list");
    full("--help");
    full("trace --backend cpu --algo reduce-tree --n 64");
    const std::string right = quoted(write("right.txt", "upsweep 0: 1 3 3 7\n"));
    const std::string wrong = quoted(write("wrong.txt", "upsweep 0: 1 3 3 8\n"));
    full("check --algo scan-blelloch --input 1,2,3,4 --answer " + right); // not 0
    full("check --algo scan-blelloch --input 1,2,3,4 --answer " + wrong); // not 1
    full("bench --capture --backend cpu --runs 1 --json " + quoted(dir_ / "capture.json"));
    EXPECT_FALSE(fs::exists(dir_ / "capture.json")) << "the table and the file, or neither";
}

TEST_F(Cli, BenchCaptureWritesTheTableAndTheFile) {
    const Outcome r =
        pplab("bench --capture --backend cpu --runs 1 --json " + quoted(dir_ / "capture.json"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scan-blelloch"), std::string::npos) << r.out;
    const nlohmann::json j = nlohmann::json::parse(slurp(dir_ / "capture.json"));
    EXPECT_EQ(j.at("what"), "capture");
}

// ---- Input files and number lists ------------------------------------------------------------

TEST_F(Cli, InputFilesAreRegularFilesOfBoundedSize) {
    const std::string tree = "trace --backend cpu --algo reduce-tree --input-file ";
    expect_bad_input(tree + quoted(dir_), "it is a folder, not a file");
    expect_bad_input(tree + "/dev/zero", "it is a character device, not a file");
    ASSERT_TRUE(make_fifo("fifo"));
    expect_bad_input(tree + quoted(dir_ / "fifo"), "a pipe (FIFO), not a file");
    fs::resize_file(write("huge.txt", ""), std::uintmax_t{64} << 20 | 1);
    expect_bad_input(tree + quoted(dir_ / "huge.txt"), "more than the 64 MiB");
    // A byte order mark at the start of the file, as some editors save it, is accepted.
    const Outcome bom = pplab("trace --backend cpu --algo scan-blelloch --input-file " +
                              quoted(write("bom.txt", "\xEF\xBB\xBF"
                                                      "1,2,3,4\n")));
    EXPECT_EQ(bom.exit_code, 0) << bom.err;
    EXPECT_NE(bom.out.find("# result: 0 1 3 6"), std::string::npos) << bom.out;
    const std::string check = "check --algo scan-blelloch --input 1,2,3,4 --answer ";
    EXPECT_EQ(pplab(check + quoted(write("a.txt", "\xEF\xBB\xBF"
                                                  "upsweep 0: 1 3 3 7\n")))
                  .exit_code,
              0);
    expect_bad_input(check + quoted(dir_), "it is a folder");
}

// ---- Messages and options ----------------------------------------------------------------------

TEST_F(Cli, MessagesQuoteUntrustedTextSafely) {
    // A terminal escape in an argument, a line break in a file's token, a long token: one
    // line on stderr, escaped and bounded.
    const Outcome r = pplab("trace --backend cpu --algo \"$(printf 'reduce\\033[2Jx')\" --n 8");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("unknown algorithm 'reduce\\x1b[2Jx'"), std::string::npos) << r.err;
    expect_bad_input("trace --backend cpu --algo reduce-tree --input-file " +
                         quoted(write("nul.txt", std::string("1,2\0"
                                                             "3,4",
                                                             7))),
                     "element 1 ('2\\03') is not a number");
    const Outcome junk = pplab("trace --backend cpu --algo reduce-tree --input-file " +
                               quoted(write("junk.txt", "1," + std::string(5000, 'x'))));
    EXPECT_EQ(junk.exit_code, 2);
    EXPECT_LT(junk.err.size(), 200u) << junk.err;
    EXPECT_NE(junk.err.find("5000 bytes in all"), std::string::npos) << junk.err;
}

TEST_F(Cli, OptionsThatWouldBeIgnoredAreErrors) {
    const std::string cpu = "trace --backend cpu ";
    expect_bad_input(cpu + "--algo reduce-tree --n 8 --bins 16", "--bins is for the histograms");
    expect_bad_input(cpu + "--algo reduce-shuffle --n 32 --active-lanes 20",
                     "--active-lanes goes with --pitfall partial-warp");
    expect_bad_input(cpu + "--algo reduce-tree --n 8 --inclusive", "--inclusive is for the scans");
    expect_bad_input(cpu + "--algo hist-global --n 8 --no-skip-empty", "--no-skip-empty");
    expect_bad_input(cpu + "--algo reduce-tree --n 8 --order-seed 3", "--order-seed");
    expect_bad_input("trace --backend cuda --algo reduce-atomic --n 8 --order-seed 3",
                     "use --backend cpu");
    expect_bad_input(cpu + "--algo reduce-tree --input 1,2 --gen seq", "--gen and --seed");
    expect_bad_input(cpu + "--algo reduce-tree --input 1,2 --seed 4", "--gen and --seed");
    expect_bad_input(cpu + "--algo reduce-tree --n 8 --gen seq --seed 4", "leave --seed out");
    expect_bad_input("bench --show x.json --json y.json", "--json excludes --show");
    expect_bad_input("bench --show x.json --runs 3", "--show");
    expect_bad_input("bench --backend cpu", "--backend requires --capture");
    expect_bad_input("bench --capture --families scan", "--capture");
    expect_bad_input("bench --families reduce --image x.png", "--image makes a histogram input");
    // A listing runs nothing: the order of a run's blocks is not its to choose.
    expect_bad_input("listing --algo reduce-atomic --n 1000 --block 64 --order-seed 3",
                     "--order-seed chooses the order a run's blocks arrive in");
    // --order-seed with the automatic back end is honoured: the CPU model's order.
    const Outcome r = pplab("trace --algo reduce-atomic --n 600 --block 64 --order-seed 3");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("# backend: cpu"), std::string::npos);
    EXPECT_EQ(r.out, pplab("trace --backend cpu --algo reduce-atomic --n 600 --block 64 "
                           "--order-seed 3")
                         .out);
}

TEST_F(Cli, ValidationComesBeforeAnyNote) {
    // The automatic back end's "no GPU" note is never printed ahead of an error.
    expect_bad_input("trace --algo reduce-tree --n 8 --pitfall partial-warp",
                     "the pitfall partial-warp changes reduce-shuffle, not reduce-tree");
    expect_bad_input("trace --algo reduce-tree --n 8 --block 100", "power of two");
    expect_bad_input("trace --algo reduce-tree --n 8 --out no/such/x.txt", "there is no folder");
    EXPECT_FALSE(fs::exists(dir_ / "no"));
}

TEST_F(Cli, CheckCountsEachLevelOnce) {
    const std::string check = "check --algo scan-blelloch --input 1,2,3,4 --answer ";
    const Outcome twice =
        pplab(check + quoted(write("a.txt", "upsweep 0: 1 3 3 7\nupsweep 0: 1 3 3 7\n")));
    EXPECT_EQ(twice.exit_code, 0) << twice.err;
    EXPECT_NE(twice.out.find("The 1 level is right."), std::string::npos) << twice.out;
    const Outcome one = pplab(check + quoted(write("b.txt", "upsweep 1: 1 3 3 10\n")));
    EXPECT_NE(one.out.find("The 1 level is right."), std::string::npos) << one.out;
    const Outcome naive = pplab("check --algo reduce-naive --input 1,2 --answer " +
                                quoted(write("c.txt", "serial-add 1: 1\nserial-add 2: 4\n")));
    EXPECT_EQ(naive.exit_code, 1) << naive.err;
    EXPECT_NE(naive.out.find("(1 of 1 cell wrong)"), std::string::npos) << naive.out;
}

TEST_F(Cli, BenchShowRefusesNumbersOutOfRange) {
    nlohmann::json j = {{"format", "pplab-timing"},
                        {"version", 1},
                        {"device", "GPU"},
                        {"date", "today"},
                        {"sms", 1e10},
                        {"l2_mib", 60},
                        {"runs", 20},
                        {"warmups", 3},
                        {"copy_gbps", 4000},
                        {"notes", nlohmann::json::array()},
                        {"rows", nlohmann::json::array()}};
    expect_bad_input("bench --show " + quoted(write("t.json", j.dump())),
                     "the timing file's sms is 10000000000.0");
    j["sms"] = 132;
    j["device"] = "GPU\x1b[2J";
    const Outcome r = pplab("bench --show " + quoted(write("u.json", j.dump())));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("GPU\\x1b[2J, 132 SMs"), std::string::npos) << r.out;
}

TEST_F(Cli, HelpAndVersionExitZero) {
    EXPECT_EQ(pplab("--version").exit_code, 0);
    const Outcome help = pplab("trace --help");
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_NE(help.out.find("--algo"), std::string::npos);
}

} // namespace
} // namespace pplab
