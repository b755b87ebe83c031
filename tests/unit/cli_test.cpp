// The `pplab` binary itself (label `cli`): exit codes 0 / 1 / 2, what it prints, and that bad
// input gets one line on stderr and exit code 2, never a crash or a half-written file.
#include "pplab/io.hpp"
#include "pplab/request.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// A scratch directory per test (ctest runs tests in parallel processes).
class Cli : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               ("pplab_cli_" + std::string(test->name()) + "_" + std::to_string(::getpid()));
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ignore;
        fs::remove_all(dir_, ignore);
    }

    // Runs `pplab ARGS` through the shell; ARGS is quoted by the caller where needed. The CPU
    // back end is asked for explicitly so no "no GPU" note joins stderr on any machine.
    Outcome pplab(const std::string& args) const {
        const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
        const std::string cmd =
            quoted(PPLAB_BINARY) + " " + args + " >" + quoted(out) + " 2>" + quoted(err);
        const int status = std::system(cmd.c_str());
        Outcome r;
        r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        r.out = slurp(out);
        r.err = slurp(err);
        return r;
    }

    fs::path write(const std::string& name, const std::string& text) const {
        const fs::path p = dir_ / name;
        std::ofstream(p, std::ios::binary) << text;
        return p;
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

    fs::path dir_;
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

// The production kernels are timed (`pplab bench`), not traced: asking for their trace, or
// for a check of a hand-trace of them, is bad input, and nothing is written.
TEST_F(Cli, ProductionKernelsAreNotTraced) {
    for (const std::string id : {"reduce-fast", "scan-fast", "hist-fast"}) {
        const fs::path file = dir_ / (id + ".txt");
        expect_bad_input("trace --backend cpu --algo " + id + " --n 1000", "not traced");
        expect_bad_input("trace --backend cpu --algo " + id + " --n 8 --format json --out " +
                             quoted(file),
                         id + " is a production kernel");
        EXPECT_FALSE(fs::exists(file));
        expect_bad_input("check --algo " + id + " --n 8 --answer " +
                             quoted(write("answer.txt", "1 2 3\n")),
                         "not traced");
    }
}

TEST_F(Cli, ProductionKernelsRunBlocksOf256AndAtMost256Bins) {
    expect_bad_input("trace --backend cpu --algo reduce-fast --n 64 --block 128", "256");
    expect_bad_input("trace --backend cpu --algo hist-fast --n 64 --bins 300", "at most 256 bins");
}

TEST_F(Cli, UnknownNamesExitTwo) {
    expect_bad_input("trace --backend cpu --algo reduce-magic --n 8", "reduce-magic");
    expect_bad_input("trace --backend quantum --algo reduce-tree --n 8", "quantum");
    expect_bad_input("trace --backend cpu --n 8", "--algo");
    expect_bad_input("frobnicate", "frobnicate");
}

TEST_F(Cli, HelpAndVersionExitZero) {
    EXPECT_EQ(pplab("--version").exit_code, 0);
    const Outcome help = pplab("trace --help");
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_NE(help.out.find("--algo"), std::string::npos);
}

} // namespace
} // namespace pplab
