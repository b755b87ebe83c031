// `pplab run` as a student runs it: exit 0 when the kernel matches the chapter's, 1 when it
// differs (the first difference explained) or hazards were found, 2 when it does not compile,
// faults or the file is missing.
#include "helpers.hpp"

#include "pplab/files.hpp"
#include "pplab/puzzles.hpp"
#include "pplab/sim.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>

namespace pplab {
namespace {

struct Ran {
    int code;
    std::string output; // stdout and stderr
};

// `errors`: where standard error goes (with standard output, or " 2>/dev/null": what a program
// reading the answer gets).
Ran pplab(const std::string& args, const char* errors = " 2>&1") {
    const std::string cmd = std::string(PPLAB_BINARY) + " " + args + errors;
    FILE* pipe = ::popen(cmd.c_str(), "r");
    Ran r{-1, ""};
    char buf[4096];
    while (const std::size_t k = std::fread(buf, 1, sizeof buf, pipe))
        r.output.append(buf, k);
    const int status = ::pclose(pipe);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

Ran pplab_run(const std::string& args) {
    return pplab("run " + args);
}

class RunCli : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("pplab-run-cli-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
        const Request r = simtest::request(Algorithm::ReduceTree, {1.0f}, 64);
        listing_ = simtest::listing_text(r);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::string write(const std::string& name, const std::string& text) {
        const std::string path = (dir_ / name).string();
        write_atomically(path, text);
        return path;
    }
    std::filesystem::path dir_;
    std::string listing_;
};

constexpr const char* kTree = " --algo reduce-tree --n 300 --block 64 --backend cpu";

TEST_F(RunCli, TheListingAsShownMatchesTheChapter) {
    const Ran r = pplab_run("--kernel " + write("tree.cu", listing_) + kTree + " --check");
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("Same as the chapter's kernel"), std::string::npos) << r.output;
}

// The listing shown for blocks of 64 says `#define TILE 64`; run at blocks of 128, thread 64
// writes past s[TILE]: the fault, and a note naming both numbers.
// The file a student starts from on the command line: the listing as the window's editor
// holds it (TILE the launch's), written to a new file only, and it runs as the chapter's.
TEST_F(RunCli, TheListingCommandWritesTheStartingFile) {
    const Ran printed = pplab("listing --algo reduce-tree --n 1 --block 64");
    EXPECT_EQ(printed.code, 0) << printed.output;
    EXPECT_EQ(printed.output, listing_);
    const std::string path = (dir_ / "mine.cu").string();
    const Ran wrote = pplab("listing --algo reduce-tree --n 300 --block 64 --out " + path);
    EXPECT_EQ(wrote.code, 0) << wrote.output;
    EXPECT_EQ(read_text_file(path), listing_);
    const Ran again = pplab("listing --algo reduce-tree --block 64 --out " + path);
    EXPECT_EQ(again.code, 2);
    EXPECT_NE(again.output.find("already exists"), std::string::npos) << again.output;
    EXPECT_EQ(pplab_run("--kernel " + path + kTree + " --check").code, 0);
    EXPECT_EQ(pplab("listing --algo nope").code, 2);
}

TEST_F(RunCli, AConstantThatIsNotTheLaunchsIsSaid) {
    const Ran r = pplab_run("--kernel " + write("tree.cu", listing_) +
                            " --algo reduce-tree --n 300 --block 128 --backend cpu --check");
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("out-of-bounds: write to s[64] by thread 64"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("defines TILE as 64, but this launch has blocks of 128 threads"),
              std::string::npos)
        << r.output;
}

TEST_F(RunCli, AWrongKernelIsExplainedAtItsFirstDifference) {
    std::string wrong = listing_;
    const auto at = wrong.find("s[threadIdx.x] += s[threadIdx.x + stride]");
    ASSERT_NE(at, std::string::npos);
    wrong.replace(at, 41, "s[threadIdx.x] = s[threadIdx.x + stride]");
    const Ran r = pplab_run("--kernel " + write("wrong.cu", wrong) + kTree + " --check");
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find("The first: block 0 tree-level 0, s[0]: yours left "),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("In the chapter's kernel, thread 0 wrote it: s[0] = s[0] + s[32]"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("you wrote"), std::string::npos)
        << "a hand-trace's words: " << r.output;
}

// --format json is the trace as `pplab trace` writes it, with the hazards (each with its line,
// threads and element) and what the kernel did, counted as it ran.
TEST_F(RunCli, JsonCarriesTheHazardsBesideTheTrace) {
    std::string racy = listing_;
    racy.replace(racy.find("__syncthreads();"), 16, "");
    const std::string path = write("racy.cu", racy);
    const Ran r = pplab_run("--kernel " + path + kTree + " --format json");
    EXPECT_EQ(r.code, 1) << r.output;
    const std::string json = r.output.substr(r.output.find('{'));
    const auto at = [&](const std::string& key) { return json.find("\"" + key + "\": "); };
    EXPECT_NE(at("frames"), std::string::npos) << json;
    ASSERT_NE(at("hazards"), std::string::npos) << json;
    EXPECT_NE(json.find("\"kind\":\"race\"", at("hazards")), std::string::npos) << json;
    EXPECT_NE(json.find("\"threads\":[", at("hazards")), std::string::npos) << json;
    EXPECT_NE(at("counted"), std::string::npos) << json;
    EXPECT_NE(json.find("\"barriers\":0", at("counted")), std::string::npos)
        << "the barrier is gone: " << json;
    EXPECT_NE(r.output.find(path + ":"), std::string::npos) << "hazards name the file";
}

TEST_F(RunCli, CompileErrorsNameTheStudentsLine) {
    std::string broken = listing_;
    broken.replace(broken.find("s[threadIdx.x] += "), 18, "s[threadIdx.x] += undeclared + ");
    const std::string path = write("broken.cu", broken);
    const Ran r = pplab_run("--kernel " + path + kTree);
    EXPECT_EQ(r.code, 2) << r.output;
    int line = 0, number = 0;
    for (std::size_t p = 0, q; (q = broken.find('\n', p)) != std::string::npos; p = q + 1) {
        ++number;
        if (broken.substr(p, q - p).find("undeclared") != std::string::npos)
            line = number;
    }
    EXPECT_NE(r.output.find(path + ":" + std::to_string(line) + ":"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("undeclared"), std::string::npos) << r.output;
}

TEST_F(RunCli, HazardsAndFaultsAndMissingFiles) {
    std::string racy = listing_;
    racy.replace(racy.find("__syncthreads();"), 16, "");
    EXPECT_EQ(pplab_run("--kernel " + write("racy.cu", racy) + kTree).code, 1);
    std::string oob = listing_;
    oob.replace(oob.find("(i < n) ? in[i] : 0.0f"), 22, "in[i]");
    const Ran fault = pplab_run("--kernel " + write("oob.cu", oob) + kTree);
    EXPECT_EQ(fault.code, 2) << fault.output;
    EXPECT_NE(fault.output.find("out-of-bounds"), std::string::npos) << fault.output;
    EXPECT_EQ(pplab_run("--kernel " + (dir_ / "missing.cu").string() + kTree).code, 2);
}

// The line of `text` holding `what` (1-based; 0 if none).
int line_of(const std::string& text, const std::string& what) {
    int number = 0;
    for (std::size_t p = 0, q; (q = text.find('\n', p)) != std::string::npos; p = q + 1) {
        ++number;
        if (text.substr(p, q - p).find(what) != std::string::npos)
            return number;
    }
    return 0;
}

// A kernel that stops (a fault) or does not compile still answers on standard output in the
// --format asked for: JSON of the successful run's shape, its "status" saying why and the fatal
// hazard or the compiler's errors by line; markdown a short section. Exit 2, as for text.
TEST_F(RunCli, AKernelThatStopsAnswersInTheFormatAsked) {
    std::string oob = listing_;
    oob.replace(oob.find("(i < n) ? in[i] : 0.0f"), 22, "in[i]");
    const std::string fault = write("oob.cu", oob);
    std::string broken = listing_;
    broken.replace(broken.find("s[threadIdx.x] += "), 18, "s[threadIdx.x] += undeclared + ");
    const std::string wrong = write("broken.cu", broken);

    const Ran faulted = pplab("run --kernel " + fault + kTree + " --format json", " 2>/dev/null");
    EXPECT_EQ(faulted.code, 2);
    ASSERT_TRUE(nlohmann::json::accept(faulted.output)) << faulted.output;
    const auto f = nlohmann::json::parse(faulted.output);
    EXPECT_EQ(f["format"], "pplab-trace") << faulted.output;
    EXPECT_EQ(f["status"], "faulted") << faulted.output;
    ASSERT_EQ(f["hazards"].size(), 1u) << faulted.output;
    EXPECT_EQ(f["hazards"][0]["kind"], "out-of-bounds") << faulted.output;
    EXPECT_EQ(f["hazards"][0]["fatal"], true) << faulted.output;
    EXPECT_EQ(f["hazards"][0]["line"], line_of(oob, "in[i]")) << faulted.output;

    const Ran compile = pplab("run --kernel " + wrong + kTree + " --format json", " 2>/dev/null");
    EXPECT_EQ(compile.code, 2);
    ASSERT_TRUE(nlohmann::json::accept(compile.output)) << compile.output;
    const auto c = nlohmann::json::parse(compile.output);
    EXPECT_EQ(c["status"], "compile-failed") << compile.output;
    ASSERT_FALSE(c["errors"].empty()) << compile.output;
    EXPECT_EQ(c["errors"][0]["line"], line_of(broken, "undeclared")) << compile.output;
    EXPECT_NE(c["errors"][0]["message"].get<std::string>().find("undeclared"), std::string::npos)
        << compile.output;

    const Ran md = pplab("run --kernel " + fault + kTree + " --format markdown", " 2>/dev/null");
    EXPECT_EQ(md.code, 2);
    EXPECT_EQ(md.output.rfind("## Your kernel stopped\n\n- line " +
                                  std::to_string(line_of(oob, "in[i]")) + ": out-of-bounds: ",
                              0),
              0u)
        << md.output;
    const Ran mdc = pplab("run --kernel " + wrong + kTree + " --format markdown", " 2>/dev/null");
    EXPECT_EQ(mdc.code, 2);
    EXPECT_EQ(mdc.output.rfind("## Your kernel does not compile\n\n- line " +
                                   std::to_string(line_of(broken, "undeclared")) + ", column ",
                               0),
              0u)
        << mdc.output;
    // The words for a person stay on standard error.
    const Ran both = pplab_run("--kernel " + fault + kTree + " --format json");
    EXPECT_NE(
        both.output.find(fault + ":" + std::to_string(line_of(oob, "in[i]")) + ": out-of-bounds: "),
        std::string::npos)
        << both.output;
}

// Without a GPU, --backend cuda says why before anything runs and exits 2, its --out file not
// written (it was, with the simulator's answer, before the refusal); --backend auto answers
// with the simulator alone, and says that --time-n could not time it. --time-n or --runs with
// --backend cpu are refused: never dropped in silence. (With a GPU: gpu_run_test.cpp.)
TEST_F(RunCli, BackendCudaWithoutAGpuSaysWhy) {
    if (sim::gpu_missing().empty())
        GTEST_SKIP() << "a GPU is here: the device's own tests run instead";
    const std::string tree = write("tree.cu", listing_);
    const std::string launch = " --algo reduce-tree --n 300 --block 64 --check";
    const std::string out = (dir_ / "answer.txt").string();
    const Ran cuda = pplab_run("--kernel " + tree + launch + " --backend cuda --out " + out);
    EXPECT_EQ(cuda.code, 2) << cuda.output;
    EXPECT_EQ(cuda.output.rfind("pplab: --backend cuda: no", 0), 0u) << cuda.output;
    EXPECT_FALSE(std::filesystem::exists(out));
    const Ran automatic = pplab_run("--kernel " + tree + launch + " --backend auto");
    EXPECT_EQ(automatic.code, 0) << automatic.output;
    EXPECT_EQ(automatic.output.find("GPU"), std::string::npos) << automatic.output;
    const Ran untimed = pplab_run("--kernel " + tree + launch + " --time-n 4096");
    EXPECT_EQ(untimed.code, 0) << untimed.output;
    EXPECT_NE(untimed.output.find("note: not timed on the GPU: no"), std::string::npos)
        << untimed.output;
    for (const std::string timing : {" --time-n 4096", " --runs 5"}) {
        const Ran cpu = pplab_run("--kernel " + tree + launch + " --backend cpu" + timing);
        EXPECT_EQ(cpu.code, 2) << cpu.output;
        EXPECT_NE(cpu.output.find("time your kernel on the GPU: they do nothing with --backend "
                                  "cpu"),
                  std::string::npos)
            << cpu.output;
    }
}

// scan-fast's listing runs on the simulator; on the GPU its look-back needs descriptors the
// driver does not set up: --backend cuda says so before anything runs, on any machine.
TEST_F(RunCli, ScanFastRunsOnTheSimulatorOnly) {
    const Ran listed = pplab("listing --algo scan-fast --n 2048 --block 256");
    ASSERT_EQ(listed.code, 0) << listed.output;
    const std::string kernel = write("sf.cu", listed.output);
    const std::string launch = " --algo scan-fast --n 2048 --block 256";
    const Ran cpu = pplab_run("--kernel " + kernel + launch + " --backend cpu --check");
    EXPECT_EQ(cpu.code, 0) << cpu.output;
    const Ran cuda = pplab_run("--kernel " + kernel + launch + " --backend cuda --check");
    EXPECT_EQ(cuda.code, 2) << cuda.output;
    EXPECT_EQ(cuda.output.rfind("pplab: --backend cuda: scan-fast's listing runs on the "
                                "simulator only",
                                0),
              0u)
        << cuda.output;
}

// --check answers in the --format asked for: JSON with the first difference's level and cell,
// Markdown under a heading (the sentence alone, whatever was asked, before).
TEST_F(RunCli, TheCheckComesInTheFormatAsked) {
    const std::string same = write("tree.cu", listing_);
    std::string wrong = listing_;
    wrong.replace(wrong.find("s[threadIdx.x] += s[threadIdx.x + stride]"), 41,
                  "s[threadIdx.x] = s[threadIdx.x + stride]");
    const std::string differs = write("wrong.cu", wrong);
    const std::string check = kTree + std::string(" --check --format ");
    const std::string json_out = (dir_ / "same.json").string();
    const Ran ok = pplab_run("--kernel " + same + check + "json --out " + json_out);
    EXPECT_EQ(ok.code, 0) << ok.output;
    const auto j = nlohmann::json::parse(read_text_file(json_out));
    EXPECT_EQ(j.at("same"), true);
    EXPECT_EQ(j.at("levels_differing"), 0);
    EXPECT_FALSE(j.contains("first_difference"));
    const std::string wrong_out = (dir_ / "wrong.json").string();
    const Ran bad = pplab_run("--kernel " + differs + check + "json --out " + wrong_out);
    EXPECT_EQ(bad.code, 1) << bad.output;
    const auto k = nlohmann::json::parse(read_text_file(wrong_out));
    EXPECT_EQ(k.at("same"), false);
    EXPECT_EQ(k.at("first_difference").at("level"), "block 0 tree-level 0");
    EXPECT_EQ(k.at("first_difference").at("cell"), "s[0]");
    const Ran md = pplab_run("--kernel " + differs + check + "markdown");
    EXPECT_EQ(md.code, 1) << md.output;
    EXPECT_NE(md.output.find("## Your kernel and the chapter's\n\n"), std::string::npos)
        << md.output;
}

// A kernel the simulator stops (a division by zero) is not run on the GPU with --backend cuda,
// and the run says why, after what stopped it; exit 2 either way.
TEST_F(RunCli, BackendCudaSaysTheSimulatorStoppedTheKernelFirst) {
#if defined(PPLAB_TEST_ASAN)
    GTEST_SKIP() << "an UndefinedBehaviorSanitizer build reports the division itself";
#endif
    std::string text = listing_;
    const std::string total = "if (threadIdx.x == 0) out[blockIdx.x] = s[0];";
    const auto at = text.find(total);
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at, total.size(),
                 "const int share = n / (int)threadIdx.x;\n    " +
                     total.substr(0, total.size() - 1) + " + share;");
    const std::string kernel = write("divides.cu", text);
    const std::string launch = " --algo reduce-tree --n 300 --block 64";
    const Ran cpu = pplab_run("--kernel " + kernel + launch + " --backend cpu");
    EXPECT_EQ(cpu.code, 2) << cpu.output;
    EXPECT_EQ(cpu.output.find("GPU:"), std::string::npos) << cpu.output;
    const Ran cuda = pplab_run("--kernel " + kernel + launch + " --backend cuda");
    EXPECT_EQ(cuda.code, 2) << cuda.output;
    if (!sim::gpu_missing().empty()) { // no GPU here: that is said first, nothing run
        EXPECT_EQ(cuda.output.rfind("pplab: --backend cuda: no", 0), 0u) << cuda.output;
        return;
    }
    const auto why = cuda.output.find("divided an integer by zero");
    const auto not_run = cuda.output.find("not run on the GPU: the simulator runs a kernel first");
    ASSERT_NE(why, std::string::npos) << cuda.output;
    ASSERT_NE(not_run, std::string::npos) << cuda.output;
    EXPECT_LT(why, not_run) << cuda.output;
}

// `pplab puzzle` as a student uses it: the list, the statement and a skeleton written to a new
// file (never over an existing one), and a check's exit code: 0 solved, 1 not yet (with what
// failed), 2 it does not compile or names no puzzle.
TEST_F(RunCli, PuzzlesFromTheCommandLine) {
    const Ran list = pplab("puzzle list");
    EXPECT_EQ(list.code, 0) << list.output;
    for (const sim::Puzzle& p : sim::puzzles())
        EXPECT_NE(list.output.find(std::string(p.id)), std::string::npos) << p.id;
    const std::string mine = (dir_ / "mine.cu").string();
    const Ran show = pplab("puzzle show tree-loop --out " + mine);
    EXPECT_EQ(show.code, 0) << show.output;
    EXPECT_NE(show.output.find("threads 0..TILE/2-1"), std::string::npos) << show.output;
    EXPECT_EQ(show.output.find("Hint:"), std::string::npos) << "the hint only when asked";
    // The idea first, without the answer; the lines that do it when asked for.
    const sim::Puzzle& tree = sim::find_puzzle("tree-loop");
    const Ran hint = pplab("puzzle show tree-loop --hint");
    EXPECT_EQ(hint.code, 0) << hint.output;
    EXPECT_NE(hint.output.find("Hint: " + std::string(tree.hint)), std::string::npos)
        << hint.output;
    EXPECT_EQ(hint.output.find(std::string(tree.answer)), std::string::npos) << hint.output;
    EXPECT_NE(hint.output.find("--answer gives the lines that do it"), std::string::npos)
        << hint.output;
    const Ran answer = pplab("puzzle show tree-loop --answer");
    EXPECT_EQ(answer.code, 0) << answer.output;
    EXPECT_NE(answer.output.find("The lines that do it: " + std::string(tree.answer)),
              std::string::npos)
        << answer.output;
    EXPECT_EQ(read_text_file(mine), sim::find_puzzle("tree-loop").skeleton());
    write_atomically(mine, "my work");
    EXPECT_EQ(pplab("puzzle show tree-loop --out " + mine).code, 2);
    EXPECT_EQ(read_text_file(mine), "my work") << "a student's file is never replaced";

    const std::string skeleton = sim::find_puzzle("tree-loop").skeleton();
    const Ran solved = pplab("puzzle check tree-loop " +
                             write("tree.cu", simtest::puzzle_solution(skeleton, "tree-loop")));
    EXPECT_EQ(solved.code, 0) << solved.output;
    EXPECT_NE(solved.output.find("4 of 4 tests pass"), std::string::npos) << solved.output;
    const Ran wrong =
        pplab("puzzle check tree-loop " +
              write("wrong.cu", simtest::puzzle_solution(skeleton, "tree-loop-wrong")));
    EXPECT_EQ(wrong.code, 1) << wrong.output;
    EXPECT_NE(wrong.output.find("FAIL  1000 floats in blocks of 256"), std::string::npos)
        << wrong.output;
    EXPECT_NE(wrong.output.find("The first: "), std::string::npos) << wrong.output;
    EXPECT_EQ(
        pplab("puzzle check tree-loop " + write("bad.cu", "__global__ void reduceTree(")).code, 2);
    EXPECT_EQ(pplab("puzzle check no-such-puzzle " + mine).code, 2);
}

} // namespace
} // namespace pplab
