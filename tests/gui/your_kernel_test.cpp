// The "Your kernel" tab driven headless, as a student uses it: the listing as the launch runs it,
// Run (in the child process, the window drawing meanwhile) and the student's trace on the
// canvas with the step's lines lit; a race marked on the canvas and listed; a compile error
// with its line while the last good trace stays; an endless loop stopped or cancelled; the
// puzzles with their verdicts; leaving the tab shows the chapter's kernel again.
#include "headless.hpp"
#include "style.hpp"

#include "pplab/backend.hpp"
#include "pplab/dataflow.hpp"
#include "pplab/files.hpp"
#include "pplab/listing.hpp"
#include "pplab/lookback.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <thread>

namespace pplab::ui {
namespace {

class YourKernelTab : public ::testing::Test {
protected:
    void SetUp() override {
        // Each test a new student: drafts of its own (kernels still compile into one cache).
        drafts_ = std::filesystem::temp_directory_path() /
                  ("pplab-drafts-" + std::to_string(::getpid()) + "-" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
        ::setenv("XDG_DATA_HOME", drafts_.c_str(), 1);
        st.settings = switch_algorithm(st.settings, Algorithm::ReduceTree);
        st.settings.n = 40;
        st.settings.block = 8;
        window.settle();
        st.your.select_tab = true;
        frame();
        frame();
        ASSERT_FALSE(st.your.source.empty()) << "the tab fills its editor when it opens";
    }
    void TearDown() override { std::filesystem::remove_all(drafts_); }
    void frame() { ASSERT_GT(window.frame(), 0) << "ImGui drew nothing"; }
    // Frames until the run or the check is over (the window keeps drawing meanwhile).
    int wait() {
        int frames = 0;
        const auto start = std::chrono::steady_clock::now();
        while (st.your.busy() &&
               std::chrono::steady_clock::now() - start < std::chrono::seconds(60)) {
            frame();
            ++frames;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        frame();
        frame();
        return frames;
    }
    void keep(const std::string& name) {
        if (const char* dir = std::getenv("PPLAB_SCREENSHOT_DIR")) {
            std::filesystem::create_directories(dir);
            window.save((std::filesystem::path(dir) / (name + ".png")).string());
        }
    }
    void replace(const std::string& what, const std::string& with) {
        const auto at = st.your.source.find(what);
        ASSERT_NE(at, std::string::npos) << what;
        st.your.source.replace(at, what.size(), with);
        st.your.edited = true;
    }
    // An endless loop in registers, inside the tree's loop: only the time limit stops it. (A loop
    // around the barrier, `stride >= 0`, also meets the cap of 4096 snapshots, which a fast
    // machine reaches within the 1 s limit: the run then faults instead of timing out.)
    void spin_forever() {
        replace("if (threadIdx.x < stride)",
                "while (stride > 0) stride = stride % 7 + 1; // endless, in registers\n"
                "        if (threadIdx.x < stride)");
    }
    int line_of(const std::string& what) const {
        const std::string& s = st.your.source;
        return static_cast<int>(
                   std::count(s.begin(), s.begin() + static_cast<long>(s.find(what)), '\n')) +
               1;
    }
    bool canvas_marks_a_hazard() {
        for (const scene::Cell& c : window.app().canvas().scene().cells)
            if (c.marks.race || c.marks.hazard)
                return true;
        return false;
    }

    std::filesystem::path drafts_;
    test::HeadlessWindow window;
    State& st = window.state();
};

TEST_F(YourKernelTab, TheListingRunsAndItsTraceIsOnTheCanvasWithTheStepsLinesLit) {
    std::string listed;
    for (const std::string& line : listing(normalize(st.settings.request())).lines)
        listed += line + "\n";
    EXPECT_EQ(st.your.source, listed) << "the listing as this launch runs it (TILE 8)";
    EXPECT_NE(st.your.source.find("#define TILE 8"), std::string::npos);
    your_kernel_run(st);
    EXPECT_TRUE(st.your.busy());
    EXPECT_GT(wait(), 0) << "the window drew frames while the kernel ran";
    ASSERT_TRUE(st.your.last);
    ASSERT_TRUE(st.your.last->result.ok()) << st.your.last->result.message;
    ASSERT_TRUE(st.model);
    EXPECT_EQ(st.model, st.your.model) << "the student's trace is on the canvas";
    EXPECT_EQ(st.model->trace().backend, "sim");
    EXPECT_TRUE(st.your.last->same_as_chapter) << st.your.last->difference;
    const Trace chapter = make_cpu_backend()->trace(normalize(st.settings.request()));
    EXPECT_EQ(st.model->trace().frames, chapter.frames);
    EXPECT_EQ(st.model->trace().result, chapter.result);
    // A tree level lights the loop's lines; the load lights the load's line.
    st.playback.go_to(1, st.steps());
    frame();
    const std::vector<int> lit = your_kernel_lit_lines(st);
    ASSERT_FALSE(lit.empty());
    EXPECT_NE(
        std::find(lit.begin(), lit.end(), line_of("s[threadIdx.x] += s[threadIdx.x + stride]")),
        lit.end());
    st.playback.go_to(0, st.steps());
    frame();
    EXPECT_EQ(your_kernel_lit_lines(st), std::vector<int>{line_of("s[threadIdx.x] = (i < n)")});
    // The chapter's kernel again in the other tabs.
    st.classroom.show = true;
    open_classroom(st, ClassroomTab::Practice);
    frame();
    frame();
    EXPECT_FALSE(st.your.on_canvas);
    EXPECT_EQ(st.model, st.chapter);
    EXPECT_EQ(st.model->trace().backend, "cpu");
}

TEST_F(YourKernelTab, ARaceIsListedWithItsLineAndMarkedOnTheCanvas) {
    replace("__syncthreads();", "");
    your_kernel_run(st);
    wait();
    ASSERT_TRUE(st.your.last && st.your.last->model) << st.your.last->result.message;
    const auto& hazards = st.your.last->result.hazards;
    ASSERT_FALSE(hazards.empty());
    EXPECT_FALSE(st.your.last->same_as_chapter);
    // The pair racecheck reports: the load, and the tree's read of a cell not yet loaded (the
    // later access is the one that acts: thread 4's load after thread 0's read of s[4]).
    const std::set<int> lines = {hazards.front().line, hazards.front().other_line};
    EXPECT_EQ(lines, (std::set<int>{line_of("s[threadIdx.x] = (i < n)"),
                                    line_of("s[threadIdx.x] += s[threadIdx.x + stride]")}))
        << hazards.front().message;
    // Showing it jumps to its step and block: its cell is marked on the canvas.
    your_kernel_show_hazard(st, hazards.front());
    window.still();
    EXPECT_FALSE(hazard_marks(st).empty());
    EXPECT_TRUE(canvas_marks_a_hazard());
    keep("your-kernel-race");
}

TEST_F(YourKernelTab, ACompileErrorNamesItsLineAndTheLastGoodTraceStays) {
    your_kernel_run(st);
    wait();
    const auto good = st.your.model;
    ASSERT_TRUE(good);
    replace("s[threadIdx.x] += ", "s[threadIdx.x] += undeclared + ");
    your_kernel_run(st);
    wait();
    ASSERT_TRUE(st.your.last);
    EXPECT_EQ(st.your.last->result.status, sim::RunResult::Status::CompileFailed);
    ASSERT_FALSE(st.your.last->result.errors.empty());
    EXPECT_EQ(st.your.last->result.errors.front().line, line_of("undeclared"));
    EXPECT_EQ(st.your.model, good);
    EXPECT_EQ(st.model, good) << "the last good trace stays on the canvas";
}

TEST_F(YourKernelTab, AnEndlessLoopIsStoppedAndARunCanBeCancelled) {
    spin_forever();
    st.your.seconds = 1.0;
    your_kernel_run(st);
    wait();
    ASSERT_TRUE(st.your.last);
    EXPECT_EQ(st.your.last->result.status, sim::RunResult::Status::TimedOut)
        << st.your.last->result.message;
    EXPECT_NE(st.your.last->result.message.find("did not finish"), std::string::npos);
    st.your.seconds = 30.0;
    your_kernel_run(st);
    for (int i = 0; i < 20; ++i)
        frame(); // it compiles (cached) and starts looping
    const auto start = std::chrono::steady_clock::now();
    your_kernel_cancel(st);
    wait();
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5))
        << "Cancel kills the child at once";
    EXPECT_FALSE(st.your.busy());
}

// The rule for a run that fails: a hazard the simulator found and draws is on the canvas
// up to where it stopped; a run with no usable trace (here the time limit) puts the last good
// run back, and says which line the endless loop was on.
TEST_F(YourKernelTab, AFaultIsDrawnAndARunWithNoTraceLeavesTheLastGoodOne) {
    your_kernel_run(st);
    wait();
    const auto good = st.your.model;
    ASSERT_TRUE(good);
    const std::string listing = st.your.source;
    replace("in[i]", "in[i + 1]"); // thread 7 of the last block reads in[40]: past n = 40
    your_kernel_run(st);
    wait();
    ASSERT_TRUE(st.your.last);
    const sim::RunResult& fault = st.your.last->result;
    ASSERT_EQ(fault.status, sim::RunResult::Status::Faulted) << fault.message;
    EXPECT_EQ(fault.hazards.front().kind, sim::HazardKind::OutOfBounds);
    EXPECT_TRUE(drawable(fault));
    ASSERT_TRUE(st.your.last->model);
    EXPECT_EQ(st.model, st.your.last->model) << "the fault's run, drawn up to where it stopped";
    EXPECT_EQ(st.your.good->model, good) << "a faulted run is not a good one";
    your_kernel_show_hazard(st, fault.hazards.front());
    window.still();
    EXPECT_TRUE(canvas_marks_a_hazard()) << "the read past in[] marks the cell it was loading";

    st.your.source = listing;
    spin_forever();
    st.your.seconds = 1.0;
    your_kernel_run(st);
    wait();
    const sim::RunResult& endless = st.your.last->result;
    ASSERT_EQ(endless.status, sim::RunResult::Status::TimedOut) << endless.message;
    EXPECT_FALSE(drawable(endless));
    EXPECT_EQ(st.model, good) << "no trace to draw: the last good run is back on the canvas";
    EXPECT_GE(endless.stopped_line, line_of("for (int stride"));
    EXPECT_LE(endless.stopped_line, line_of("s[threadIdx.x] += s[threadIdx.x + stride]"));
}

// Puzzle statements and messages break at spaces only: "0." and "s[TILE/2-1]" stay whole.
// A fault in memory that is not the canvas's shared array (here memory from new, read past its
// one element) is drawn on the cell of the thread that made it, not on the cell its index
// would name in the shared array.
TEST_F(YourKernelTab, AFaultOutsideSharedMemoryIsDrawnOnItsThreadsCell) {
    replace("in[i]", "in[i] + (new float[1])[1]");
    your_kernel_run(st);
    wait();
    ASSERT_TRUE(st.your.last);
    const sim::RunResult& fault = st.your.last->result;
    ASSERT_EQ(fault.status, sim::RunResult::Status::Faulted) << fault.message;
    const sim::Hazard& h = fault.hazards.front();
    ASSERT_EQ(h.memory, "heap") << h.message;
    ASSERT_EQ(h.index, 1);
    ASSERT_EQ(h.threads, std::vector<int>{0});
    your_kernel_show_hazard(st, h);
    window.still();
    const std::vector<scene::HazardMark> marks = hazard_marks(st);
    ASSERT_EQ(marks.size(), 1u);
    EXPECT_EQ(marks.front().cell, 0) << "thread 0's cell, not s[1]";
}

// A float read before it has a value is listed at its declaration (where the value goes) and
// drawn on the cell of the first thread that read it, where the ? it left lands.
TEST_F(YourKernelTab, AFloatReadBeforeItHasAValueIsDrawnOnItsThreadsCell) {
    replace("__shared__ float s[TILE];", "__shared__ float s[TILE];\n    float zero;");
    replace("in[i]", "in[i] + zero");
    your_kernel_run(st);
    wait();
    ASSERT_TRUE(st.your.last);
    const sim::RunResult& res = st.your.last->result;
    ASSERT_TRUE(res.ok()) << res.message;
    ASSERT_FALSE(res.hazards.empty());
    const sim::Hazard& h = res.hazards.front();
    EXPECT_EQ(h.kind, sim::HazardKind::UninitialisedRead);
    ASSERT_EQ(h.memory, "register") << h.message;
    EXPECT_EQ(h.array, "zero");
    EXPECT_EQ(h.line, line_of("float zero;"));
    ASSERT_EQ(h.threads, std::vector<int>{0});
    your_kernel_show_hazard(st, h);
    window.still();
    const std::vector<scene::HazardMark> marks = hazard_marks(st);
    ASSERT_EQ(marks.size(), 1u);
    EXPECT_EQ(marks.front().cell, 0);
}

TEST(YourKernelText, WrapsAtSpacesOnlyNeverInsideAToken) {
    const auto chars = [](std::string_view s) { return static_cast<float>(s.size()); };
    EXPECT_EQ(wrap_at_spaces("i = 0. then s[TILE/2-1] grows", 10, chars),
              (std::vector<std::string>{"i = 0.", "then", "s[TILE/2-1]", "grows"}));
    EXPECT_EQ(wrap_at_spaces("a b\nc  d", 100, chars), (std::vector<std::string>{"a b", "c d"}));
    EXPECT_EQ(wrap_at_spaces("", 10, chars), (std::vector<std::string>{""}));
}

TEST_F(YourKernelTab, APuzzleIsCheckedOnItsHiddenTestsAndTheDraftIsKept) {
    your_kernel_pick(st, "tree-loop");
    frame();
    const sim::Puzzle& p = sim::find_puzzle("tree-loop");
    EXPECT_EQ(st.your.source, p.skeleton());
    EXPECT_EQ(st.settings.algorithm, Algorithm::ReduceTree);
    EXPECT_EQ(normalize(st.settings.request()).input, normalize(p.example).input)
        << "the controls show the puzzle's example launch";
    your_kernel_check(st);
    wait();
    ASSERT_TRUE(st.your.verdicts.count("tree-loop"));
    EXPECT_FALSE(st.your.verdicts["tree-loop"].solved());
    // The student's answer: the chapter's loop.
    replace("    // Your code here: the tree.",
            "    for (int stride = TILE / 2; stride > 0; stride >>= 1) {\n"
            "        __syncthreads();\n"
            "        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];\n"
            "    }\n    // the tree.");
    const std::string answer = st.your.source;
    your_kernel_check(st);
    wait();
    const sim::PuzzleVerdict& v = st.your.verdicts["tree-loop"];
    EXPECT_TRUE(v.solved()) << (v.tests.empty() ? v.message : v.tests.front().why);
    // Another origin and back: the answer is still there, on disk too.
    your_kernel_pick(st, "");
    frame();
    EXPECT_NE(st.your.source, answer);
    your_kernel_pick(st, "tree-loop");
    EXPECT_EQ(st.your.source, answer);
    drafts_save(st.your);
    EXPECT_EQ(read_text_file(drafts_folder() + "/puzzle-tree-loop.cu"), answer);
    your_kernel_reset(st);
    EXPECT_EQ(st.your.source, p.skeleton());
    EXPECT_FALSE(std::filesystem::exists(drafts_folder() + "/puzzle-tree-loop.cu"));
}

TEST_F(YourKernelTab, ChangedSettingsRunTheStudentsKernelAgain) {
    your_kernel_run(st);
    wait();
    ASSERT_TRUE(st.your.on_canvas);
    st.settings.block = 16;
    window.settle();
    wait();
    ASSERT_TRUE(st.model);
    EXPECT_EQ(st.model, st.your.model);
    EXPECT_EQ(st.model->request().block, 16);
    EXPECT_NE(st.your.source.find("#define TILE 16"), std::string::npos)
        << "an unedited listing follows the launch";
    EXPECT_TRUE(st.your.last->same_as_chapter) << st.your.last->difference;
}

// scan-fast at the classroom sizes the controls offer (block 32: tiles of 128): the listing runs
// as traced (not refused as the production launch), and the canvas draws its look-back from the
// student's own run, saying whose schedule it was; it never goes to the GPU.
TEST_F(YourKernelTab, ScanFastsLookBackIsDrawnFromTheStudentsRun) {
    st.settings = switch_algorithm(st.settings, Algorithm::ScanFast);
    st.settings.block = 32;
    st.settings.n = 1024;
    st.settings.backend = "cuda";
    window.settle();
    your_kernel_fill(st);
    EXPECT_NE(st.your.source.find("#define TILE 32"), std::string::npos);
    your_kernel_run(st);
    wait();
    ASSERT_TRUE(st.your.last);
    ASSERT_EQ(st.your.last->error, "");
    ASSERT_TRUE(st.your.last->result.ok()) << st.your.last->result.message;
    ASSERT_TRUE(st.model);
    EXPECT_EQ(st.model, st.your.model);
    EXPECT_TRUE(st.your.last->same_as_chapter) << st.your.last->difference;
    const Trace& t = st.model->trace();
    EXPECT_TRUE(check_lookback(t).empty()) << check_lookback(t).front();
    // The caption keeps to the step; its details (`pplab trace`) and the tiles' hover say whose
    // schedule it was.
    const std::size_t last = t.frames.size() - 1;
    const std::string details = Dataflow(t).caption_details(last);
    EXPECT_NE(details.find("the simulator's schedule, seed"), std::string::npos) << details;
    const int publish = static_cast<int>(st.model->frame_at(0, 0));
    ASSERT_EQ(t.frames.at(static_cast<std::size_t>(publish)).step, Step::TilePublish);
    const std::string& hover =
        st.model->writes(static_cast<std::size_t>(publish)).at(kTileInclusive).expression;
    EXPECT_NE(hover.find("of the simulator's schedule, seed"), std::string::npos) << hover;
    for (std::size_t f = 0; f < t.frames.size(); ++f) // another schedule is no departure
        EXPECT_EQ(st.model->caption(f).find("departs"), std::string::npos) << st.model->caption(f);
    EXPECT_NE(st.your.device_note.find("scan-fast's listing runs on the simulator only"),
              std::string::npos)
        << st.your.device_note;
    EXPECT_FALSE(st.your.device);
}

// Where there is no GPU, "Run on" says what the run was: auto quietly notes the simulator's run
// is the answer (and what a GPU would add), cuda says it was not run there and why, cpu says
// nothing. The GPU's own path (compared and timed) is tested on the device
// (tests/sim/gpu_run_test.cpp, DeviceCheck).
TEST_F(YourKernelTab, RunOnSaysWhatTheRunWasWithoutAGpu) {
    if (sim::gpu_missing().empty())
        GTEST_SKIP() << "this machine has a GPU and nvcc: the tab runs the file there";
    for (const std::string backend : {"auto", "cuda", "cpu"}) {
        st.settings.backend = backend;
        your_kernel_run(st);
        wait();
        ASSERT_TRUE(st.your.last && st.your.last->result.ok()) << backend;
        EXPECT_FALSE(st.your.device) << backend;
        const std::string& note = st.your.device_note;
        if (backend == "cpu") {
            EXPECT_EQ(note, "") << backend;
            continue;
        }
        EXPECT_NE(note.find(sim::gpu_missing()), std::string::npos) << backend << ": " << note;
        EXPECT_EQ(note.rfind(backend == "cuda" ? "Not run on the GPU: " : "Simulator only: ", 0),
                  0u)
            << backend << ": " << note;
    }
    // Where a GPU is seen, the file goes there once the trace is on the canvas, off the UI
    // thread: here the device's own check then says it cannot run (no device), in the tab.
    st.settings.backend = "auto";
    st.your.gpu_why = std::string();
    your_kernel_time(st, 20);
    your_kernel_run(st);
    wait();
    ASSERT_TRUE(st.your.device) << "the window drew until the GPU's part came back";
    EXPECT_EQ(st.your.device->run.status, sim::GpuRun::Status::Skipped);
    EXPECT_EQ(st.your.device->run.message, sim::gpu_missing());
    EXPECT_EQ(st.your.device_note, "");
    keep("your-kernel-gpu-part");
    st.your.gpu_why.reset();
    // A run that does not compile says nothing of the GPU: the compile error is the news.
    st.settings.backend = "cuda";
    replace("__syncthreads();", "__syncthread();");
    your_kernel_run(st);
    wait();
    EXPECT_EQ(st.your.device_note, "");
}

} // namespace
} // namespace pplab::ui
