// The classroom driven headless, as a teacher and a class use it: practice mode's check,
// reveal and summary, a hand-trace file compared on the canvas, every exercise and pitfall
// scenario with what it shows, the determinism runs, and sessions saved and opened.
#include "fixtures.hpp"
#include "headless.hpp"

#include "pplab/io.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

namespace pplab::ui {
namespace {

class Classroom : public ::testing::Test {
protected:
    void frame() { ASSERT_GT(window.frame(), 0) << "ImGui drew nothing"; }
    void settle() { window.settle(); }
    void show(const Settings& s) {
        st.settings = s;
        settle();
        ASSERT_TRUE(st.error.empty()) << st.error;
    }
    void keep(const std::string& name) {
        if (const char* dir = std::getenv("PPLAB_SCREENSHOT_DIR")) {
            std::filesystem::create_directories(dir);
            window.save((std::filesystem::path(dir) / (name + ".png")).string());
        }
    }
    // The canvas's cell showing (frame, cell), as last drawn.
    const scene::Cell* canvas_cell(int frame, int cell) {
        for (const scene::Cell& c : window.app().canvas().scene().cells)
            if (c.ref && c.ref->frame == frame && c.ref->cell == cell)
                return &c;
        return nullptr;
    }
    int frame_of(Step s, int level, int block = 0, int warp = -1) {
        return st.model->dataflow().find(s, 0, level, block, warp);
    }
    void type(const std::vector<std::string>& values, std::size_t k = 0) {
        PracticeLevel& L = st.classroom.practice.level;
        ASSERT_LT(k, L.typed.size());
        ASSERT_EQ(L.typed[k].size(), values.size());
        L.typed[k] = values;
    }

    test::HeadlessWindow window;
    State& st = window.state();
};

Settings list_of(Algorithm a, const std::string& list, int block = 0) {
    Settings s = switch_algorithm(Settings{}, a);
    s.input = InputMode::List;
    s.list = list;
    s.block = block;
    return s;
}

// Exercise 3 in practice mode: a wrong downsweep level explained, fixed, the next one right
// first time; the session's summary counts them.
TEST_F(Classroom, PracticeChecksExplainsAndSummarises) {
    settle();
    exercise3_practice(st);
    settle();
    ASSERT_TRUE(st.model);
    EXPECT_EQ(st.model->request().algorithm, Algorithm::ScanBlelloch);
    EXPECT_EQ(st.model->request().input, (std::vector<float>{1, 2, 3, 4}));
    Practice& p = st.classroom.practice;
    ASSERT_TRUE(p.on);
    const int down0 = frame_of(Step::Downsweep, 0), down1 = frame_of(Step::Downsweep, 1);
    ASSERT_EQ(p.level.frames, std::vector<int>{down0});
    EXPECT_EQ(p.level.labels.front(), "downsweep 0");
    EXPECT_EQ(st.playback.step, p.level.step - 1) << "the canvas shows the level before";
    EXPECT_EQ(st.model->steps()[static_cast<std::size_t>(st.playback.step)].step, Step::ClearRoot);
    frame();
    ASSERT_TRUE(canvas_cell(down0, 0));
    EXPECT_EQ(canvas_cell(down0, 0)->role, scene::CellRole::Future) << "the level is hidden";

    // An empty cell and a word are refused, not counted.
    type({"1", "0", "", "3"});
    practice_check(st);
    EXPECT_NE(p.level.error.find("1 cell is empty"), std::string::npos) << p.level.error;
    type({"1", "0", "three", "3"});
    practice_check(st);
    EXPECT_NE(p.level.error.find("'three' is not a number"), std::string::npos);
    EXPECT_EQ(p.level.attempts, 0);

    // The right answer is 1 0 3 3; the student writes 4 for s[3].
    type({"1", "0", "3", "4"});
    practice_check(st);
    EXPECT_TRUE(p.level.error.empty()) << p.level.error;
    EXPECT_FALSE(p.level.right);
    const std::vector<scene::Verdict> expect = {scene::Verdict::Right, scene::Verdict::Right,
                                                scene::Verdict::Right, scene::Verdict::Wrong};
    EXPECT_EQ(p.level.verdicts.front(), expect);
    const std::string& why = p.level.why.front()[3];
    EXPECT_NE(why.find("expected 3, you wrote 4"), std::string::npos) << why;
    EXPECT_NE(why.find("Thread 0"), std::string::npos) << "the thread that wrote it: " << why;
    EXPECT_NE(why.find("downsweep 0"), std::string::npos) << "the step: " << why;
    EXPECT_TRUE(p.level.why.front()[0].empty());
    EXPECT_EQ(st.playback.step, p.level.step - 1) << "a wrong level stays hidden";
    frame();
    const scene::Cell* wrong = canvas_cell(down0, 3);
    ASSERT_TRUE(wrong);
    EXPECT_TRUE(wrong->marks.wrong);
    EXPECT_EQ(wrong->text, "4") << "the canvas shows what the student wrote";
    EXPECT_TRUE(canvas_cell(down0, 1)->marks.right);
    keep("practice-wrong");

    // Fixed: right at the second check; the level appears.
    type({"1", "0", "3", "3"});
    practice_check(st);
    EXPECT_TRUE(p.level.right);
    EXPECT_EQ(p.level.attempts, 2);
    EXPECT_EQ(st.playback.step, p.level.step);
    ASSERT_EQ(p.done.size(), 1u);
    EXPECT_FALSE(p.done[0].first_time);

    // The next level, right first time.
    practice_next(st);
    ASSERT_EQ(p.level.frames, std::vector<int>{down1});
    EXPECT_EQ(st.playback.step, p.level.step - 1);
    practice_copy_above(st);
    EXPECT_EQ(p.level.typed.front(), (std::vector<std::string>{"1", "0", "3", "3"}));
    type({"0", "1", "3", "6"});
    practice_check(st);
    EXPECT_TRUE(p.level.right);
    ASSERT_EQ(p.done.size(), 2u);
    EXPECT_TRUE(p.done[1].first_time);
    EXPECT_EQ(p.first_time(), 1);
    for (int i = 0; i < 120 && st.playback.moving(); ++i)
        frame();
    keep("practice-right");
    st.view.presenter_scale = 1.5f; // the projector: the practice grid grows with the fonts
    window.still();
    keep("practice-presenter");
    st.view.presenter_scale = 1.0f;

    // Past the last level, and a level revealed rather than typed.
    practice_next(st);
    EXPECT_EQ(p.level.step, -1);
    practice_level(st, 1);
    EXPECT_EQ(p.level.labels.front(), "upsweep 0");
    practice_reveal(st);
    EXPECT_TRUE(p.level.revealed);
    EXPECT_EQ(st.playback.step, 1);
    ASSERT_EQ(p.done.size(), 3u);
    EXPECT_TRUE(p.done[2].revealed);
    EXPECT_EQ(p.first_time(), 1) << "a revealed level is not right first time";
    frame();
    frame();
}

// Practice works for every traced algorithm: each level typed right is right first time.
TEST_F(Classroom, PracticeWorksForEveryAlgorithm) {
    for (const auto& c : test::view_cases()) {
        Settings s = list_of(c.request.algorithm, "", c.request.block);
        for (const float v : c.request.input)
            s.list += std::to_string(static_cast<int>(v)) + " ";
        s.bins = c.request.bins;
        show(s);
        ASSERT_TRUE(st.model) << c.name;
        Practice& p = st.classroom.practice;
        p = Practice{};
        p.on = true;
        const int steps = st.steps();
        int typed = 0;
        for (int step = 1; step < steps && typed < 6; ++step) {
            practice_level(st, step);
            PracticeLevel& L = p.level;
            ASSERT_EQ(L.step, step) << c.name;
            if (L.typed.empty())
                continue; // too large to type: said in L.error
            for (std::size_t k = 0; k < L.frames.size(); ++k) {
                const auto& values =
                    st.model->trace().frames[static_cast<std::size_t>(L.frames[k])].values;
                for (std::size_t i = 0; i < values.size(); ++i)
                    L.typed[k][i] = std::isnan(values[i]) ? "?" : format_value(values[i]);
            }
            practice_check(st);
            EXPECT_TRUE(L.error.empty()) << c.name << " step " << step << ": " << L.error;
            EXPECT_TRUE(L.right) << c.name << " step " << step << " (" << L.labels.front() << ")";
            ++typed;
        }
        EXPECT_GT(typed, 0) << c.name;
        EXPECT_EQ(p.first_time(), typed) << c.name;
        frame(); // the practice tab and the canvas draw this algorithm's level
        p.on = false;
    }
}

// A hand-trace file with a mistake in downsweep 0: the levels' verdicts, the first mistake
// explained, the cells marked on the canvas, and a click away from the step.
TEST_F(Classroom, HandTraceFileComparedOnTheCanvas) {
    show(list_of(Algorithm::ScanBlelloch, "1, 2, 3, 4"));
    const auto path = std::filesystem::temp_directory_path() / "pplab-hand-trace.txt";
    {
        std::ofstream f(path);
        f << "# Exercise 3, by hand\n"
             "load: 1 2 3 4\nupsweep 0: 1 3 3 7\nupsweep 1: 1 3 3 10\nclear-root: 1 3 3 0\n"
             "downsweep 0: 1 0 3 4\ndownsweep 1: 0 1 3 6\n";
    }
    HandTrace& h = st.classroom.hand;
    h.path = path.string();
    hand_trace_read(h);
    ASSERT_TRUE(h.error.empty()) << h.error;
    hand_trace_check(st);
    ASSERT_TRUE(h.result) << h.error;
    ASSERT_EQ(h.result->levels.size(), 6u);
    ASSERT_EQ(h.result->first_wrong(), 4);
    const LevelVerdict& v = h.result->levels[4];
    EXPECT_EQ(v.label, "downsweep 0");
    EXPECT_EQ(v.wrong_cells, std::vector<int>{3});
    EXPECT_NE(v.explanation.find("expected 3, you wrote 4"), std::string::npos) << v.explanation;
    EXPECT_TRUE(h.result->levels[5].right);

    const int down0 = frame_of(Step::Downsweep, 0), up0 = frame_of(Step::Upsweep, 0);
    st.playback.go_to(0, st.steps());
    frame();
    // Not reached yet: the student's values in the outlines; reached: the trace's, bordered.
    ASSERT_TRUE(canvas_cell(down0, 3));
    EXPECT_TRUE(canvas_cell(down0, 3)->marks.wrong);
    EXPECT_EQ(canvas_cell(down0, 3)->text, "4");
    EXPECT_TRUE(canvas_cell(up0, 1)->marks.right);
    EXPECT_NE(explain_answer(st, CellRef{down0, 3}).find("you wrote 4"), std::string::npos);
    EXPECT_TRUE(explain_answer(st, CellRef{down0, 2}).empty());
    hand_trace_show_first_mistake(st);
    EXPECT_EQ(st.playback.step, st.model->step_of(static_cast<std::size_t>(down0)));
    open_classroom(st, ClassroomTab::HandTrace);
    window.still();
    EXPECT_EQ(canvas_cell(down0, 3)->text, "3") << "on screen: the trace's value";
    EXPECT_TRUE(canvas_cell(down0, 3)->marks.wrong);
    keep("hand-trace");

    // Exercise 3 as a student writes it, without labels and without the load: aligned, and
    // the tab says how.
    h.text = "1 3 3 7\n1 3 3 10\n1 3 3 0\n1 0 3 3\n0 1 3 6\n";
    hand_trace_check(st);
    ASSERT_TRUE(h.result) << h.error;
    EXPECT_TRUE(h.result->all_right());
    EXPECT_NE(h.result->alignment.find("compared with upsweep 0 to downsweep 1"), std::string::npos)
        << h.result->alignment;
    frame();
    // A line with mistakes that fits two levels equally is compared with the earlier, and the
    // tab says so; one that is right for several (a scan of zeros) asks for labels inline, as
    // `pplab check` does, rather than guessing.
    h.text = "0 0 0 0\n";
    hand_trace_check(st);
    ASSERT_TRUE(h.result) << h.error;
    EXPECT_NE(h.result->alignment.find("fits clear-root and downsweep 0 equally well"),
              std::string::npos)
        << h.result->alignment;
    EXPECT_NE(h.result->alignment.find("Write the level before each line"), std::string::npos);
    frame();
    show(list_of(Algorithm::ScanBlelloch, "0, 0, 0, 0"));
    hand_trace_check(st);
    EXPECT_FALSE(h.result);
    EXPECT_NE(h.error.find("equally well; write the level before each line"), std::string::npos)
        << h.error;
    frame();
    show(list_of(Algorithm::ScanBlelloch, "1, 2, 3, 4"));

    // Mistakes in the file itself are said inline.
    h.text = "upsweep 8: 1 2 3 4";
    hand_trace_check(st);
    EXPECT_FALSE(h.result);
    EXPECT_NE(h.error.find("no level is called 'upsweep 8'"), std::string::npos) << h.error;
    h.path = (std::filesystem::temp_directory_path() / "pplab-no-such-file.txt").string();
    hand_trace_read(h);
    EXPECT_NE(h.error.find("cannot read"), std::string::npos);
    std::filesystem::remove(path);
}

// Exercise 1's barrier counts and Exercise 4's fold atomics, as the Exercises tab shows them.
TEST_F(Classroom, ExerciseFigures) {
    settle();
    open_classroom(st, ClassroomTab::Exercises);
    for (int i = 0; i < 4; ++i) // the column's tab, then the classroom's, then drawn
        frame();
    EXPECT_EQ(st.classroom.tab, ClassroomTab::Exercises);
    const Exercises& e = st.classroom.exercises;
    ASSERT_EQ(e.barriers.size(), 6u); // TILE 32 ... 1024
    for (const BarrierCounts& b : e.barriers) {
        EXPECT_EQ(b.tree, std::bit_width(static_cast<unsigned>(b.tile)) - 1) << b.tile;
        EXPECT_EQ(b.full, 1) << b.tile;
    }
    EXPECT_EQ(e.barriers[4].tile, 512);
    EXPECT_EQ(e.barriers[4].tree, 9) << "Exercise 1: TILE = 512";
    ASSERT_EQ(e.fold.size(), 3u);
    EXPECT_EQ(e.fold[0].data, "uniform-bytes");
    EXPECT_EQ(e.fold[1].data, "sparse");
    EXPECT_EQ(e.fold[2].data, "seq");
    const long long every_bin = 256LL * (4096 / (256 * kElemsPerThread)); // bins x blocks
    for (const FoldAtomics& f : e.fold)
        EXPECT_EQ(f.without_skip, every_bin) << f.data << ": without the skip, every bin folds";
    EXPECT_LT(e.fold[1].with_skip, e.fold[1].without_skip / 4) << "sparse: the skip saves most";
    EXPECT_EQ(e.fold[2].with_skip, e.fold[2].without_skip) << "all bins full: nothing to skip";
    keep("exercises");
}

// Exercise 2: reduce-full with every lane writing s[warpId]: the race on the canvas, and on
// the CPU model a result that is undefined, not invented.
TEST_F(Classroom, Exercise2ShowsTheRace) {
    settle();
    exercise2_race(st);
    settle();
    ASSERT_EQ(st.model->request().algorithm, Algorithm::ReduceFull);
    ASSERT_EQ(st.model->request().options.pitfall, Pitfall::EveryLaneWrites);
    EXPECT_EQ(st.model->steps()[static_cast<std::size_t>(st.playback.step)].step, Step::WarpTotals);
    const std::vector<RaceSlot> slots = race_slots(st);
    ASSERT_EQ(slots.size(), 1u); // 32 threads: one warp, one slot
    const int shuffle5 = frame_of(Step::Shuffle, 5, 0, 0);
    for (const RaceSlot& r : slots) {
        EXPECT_EQ(r.candidates.size(), 32u);
        EXPECT_TRUE(std::isnan(r.slot)) << "the CPU model does not pick a winner";
        EXPECT_TRUE(r.winners.empty());
    }
    EXPECT_EQ(slots[0].candidates,
              st.model->trace().frames[static_cast<std::size_t>(shuffle5)].values);
    EXPECT_TRUE(std::isnan(st.model->trace().result.at(0)));
    open_classroom(st, ClassroomTab::Exercises);
    window.still();
    const int warp_totals = frame_of(Step::WarpTotals, 0);
    ASSERT_TRUE(canvas_cell(warp_totals, 0));
    EXPECT_TRUE(canvas_cell(warp_totals, 0)->marks.race);
    EXPECT_TRUE(canvas_cell(warp_totals, 0)->marks.undefined);
    keep("exercise2-race");

    // On a GPU the device keeps one lane's write: a trace recorded there (here: the same
    // recording with lane 5's sum in the slot) names the lane and shows the number.
    Trace gpu = st.model->trace();
    gpu.backend = "cuda";
    gpu.device = "NVIDIA H200";
    const float lane5 = gpu.frames[static_cast<std::size_t>(shuffle5)].values[5];
    gpu.frames[static_cast<std::size_t>(warp_totals)].values[0] = lane5;
    const auto path = std::filesystem::temp_directory_path() / "pplab-race-on-gpu.json";
    {
        std::ofstream f(path);
        f << to_json(gpu);
    }
    st.classroom.session_path = path.string();
    session_open(st);
    ASSERT_FALSE(st.classroom.session_error) << st.classroom.session_message;
    st.playback.go_to(st.model->step_of(static_cast<std::size_t>(warp_totals)), st.steps());
    const std::vector<RaceSlot> device = race_slots(st);
    ASSERT_EQ(device.size(), 1u);
    EXPECT_EQ(device[0].slot, lane5);
    EXPECT_NE(std::find(device[0].winners.begin(), device[0].winners.end(), 5),
              device[0].winners.end());
    window.still();
    EXPECT_TRUE(canvas_cell(warp_totals, 0)->marks.race);
    EXPECT_FALSE(canvas_cell(warp_totals, 0)->marks.undefined) << "the device's number";
    std::filesystem::remove(path);
}

// Each pitfall toggled on shows its consequence on the canvas, and toggled off is gone.
TEST_F(Classroom, PitfallTogglesShowTheirConsequence) {
    settle();
    open_classroom(st, ClassroomTab::Pitfalls);
    struct Expect {
        Pitfall pitfall;
        bool (*marked)(const scene::Cell&);
        const char* name;
    };
    const Expect cases[] = {
        {Pitfall::NonPowerOfTwo, [](const scene::Cell& c) { return c.marks.never_added; },
         "pitfall-non-power-of-two"},
        {Pitfall::PartialWarp, [](const scene::Cell& c) { return c.marks.undefined; },
         "pitfall-partial-warp"},
        {Pitfall::NoFinalSync, [](const scene::Cell& c) { return c.marks.hazard; },
         "pitfall-no-final-sync"},
    };
    for (const Expect& e : cases) {
        pitfall_toggle(st, e.pitfall, true);
        settle();
        ASSERT_TRUE(st.error.empty()) << st.error;
        ASSERT_EQ(st.model->request().options.pitfall, e.pitfall);
        EXPECT_EQ(st.model->request().algorithm, pitfall_algorithm(e.pitfall));
        window.still();
        const auto& cells = window.app().canvas().scene().cells;
        EXPECT_TRUE(std::any_of(cells.begin(), cells.end(), e.marked)) << e.name;
        keep(e.name);
        pitfall_toggle(st, e.pitfall, false);
        settle();
        EXPECT_EQ(st.model->request().options.pitfall, Pitfall::None);
        window.still();
        const auto& after = window.app().canvas().scene().cells;
        EXPECT_FALSE(std::any_of(after.begin(), after.end(), e.marked)) << e.name;
    }
    // The partial warp: lanes 20-31 do not take part, and the slider changes how many.
    pitfall_toggle(st, Pitfall::PartialWarp, true);
    settle();
    EXPECT_EQ(st.model->request().options.active_lanes, 20);
    const int sh1 = frame_of(Step::Shuffle, 1, 0, 0);
    window.still();
    EXPECT_TRUE(canvas_cell(sh1, 20)->marks.not_taking_part);
    EXPECT_FALSE(canvas_cell(sh1, 19)->marks.not_taking_part);
    st.settings.active_lanes = 8;
    settle();
    window.still();
    EXPECT_TRUE(canvas_cell(frame_of(Step::Shuffle, 1, 0, 0), 8)->marks.not_taking_part);
    // Global atomics for the whole histogram against privatisation: the contention row.
    global_atomics_toggle(st, false);
    settle();
    ASSERT_EQ(st.model->request().algorithm, Algorithm::HistGlobal);
    const long long global = summarize(st.model->trace()).total.global_atomics;
    EXPECT_EQ(global, 300) << "one global atomic per element";
    global_atomics_toggle(st, true);
    settle();
    ASSERT_EQ(st.model->request().algorithm, Algorithm::HistPrivatised);
    EXPECT_LT(summarize(st.model->trace()).total.global_atomics, global);
}

TEST(ClassroomTimings, PairsTheStagesOfAReport) {
    TimingReport r;
    const auto row = [](const char* stage, const char* data, long long size, int block, double ms) {
        TimingRow x;
        x.family = "histogram";
        x.stage = stage;
        x.distribution = data;
        x.size = size;
        x.block = block;
        x.ms = ms;
        return x;
    };
    r.rows = {row("hist-privatised", "uniform", 1 << 20, 256, 1.0),
              row("hist-privatised-no-skip", "uniform", 1 << 20, 256, 1.5),
              row("hist-privatised", "uniform", 1 << 28, 64, 7.0),
              row("hist-privatised-no-skip", "uniform", 1 << 28, 64, 8.0),
              row("hist-privatised", "uniform", 1 << 28, 256, 5.0),
              row("hist-privatised-no-skip", "uniform", 1 << 28, 256, 6.0),
              row("hist-privatised", "image", 1 << 20, 256, 2.0)};
    const std::vector<TimingPair> p = timing_pairs(r, "hist-privatised", "hist-privatised-no-skip");
    ASSERT_EQ(p.size(), 1u) << "the image has no partner row";
    EXPECT_EQ(p[0].size, 1 << 28);
    EXPECT_EQ(p[0].a_ms, 5.0) << "the largest size, at TILE = 256";
    EXPECT_EQ(p[0].b_ms, 6.0);
}

// The H200's saved report opened in the window: Exercise 4 and the global-atomics pitfall
// find their pairs of kernels in it.
TEST_F(Classroom, ATimingReportSetsTheKernelsSideBySide) {
    settle();
    st.classroom.timing_path = std::string(PPLAB_SOURCE_DIR) + "/bench/results/h200-bench.json";
    timing_read(st.classroom);
    ASSERT_TRUE(st.classroom.timing_error.empty()) << st.classroom.timing_error;
    ASSERT_NE(timing_report(st), nullptr);
    const auto skip =
        timing_pairs(*timing_report(st), "hist-privatised", "hist-privatised-no-skip");
    const auto global = timing_pairs(*timing_report(st), "hist-privatised", "hist-global");
    ASSERT_FALSE(skip.empty());
    ASSERT_FALSE(global.empty());
    for (const TimingPair& p : global)
        EXPECT_LT(p.a_ms, p.b_ms) << p.distribution << ": privatised beats global atomics";
    open_classroom(st, ClassroomTab::Exercises);
    for (int i = 0; i < 4; ++i)
        frame();
    open_classroom(st, ClassroomTab::Pitfalls);
    for (int i = 0; i < 4; ++i)
        frame();
    st.classroom.timing_path = "no-such-report.json";
    timing_read(st.classroom);
    EXPECT_NE(st.classroom.timing_error.find("cannot read"), std::string::npos);
}

// §8.6: reduce-atomic's sums differ from run to run, reduce-full's are identical bit for bit.
TEST_F(Classroom, DeterminismRunsShowTheBits) {
    settle();
    st.settings.backend = "cpu";
    open_classroom(st, ClassroomTab::Determinism);
    DeterminismRuns& d = st.classroom.runs;
    d.times = 8;
    determinism_start(st);
    EXPECT_TRUE(d.busy());
    const auto start = std::chrono::steady_clock::now();
    while (d.busy() && std::chrono::steady_clock::now() - start < std::chrono::seconds(60)) {
        frame();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_TRUE(d.outcome) << d.error;
    EXPECT_EQ(d.outcome->backend, "cpu");
    EXPECT_EQ(d.outcome->atomic.sums.size(), 8u);
    EXPECT_GT(d.outcome->atomic.distinct, 1) << "the arrival order changes the float sum";
    EXPECT_EQ(d.outcome->full.distinct, 1) << "the tree's order is fixed";
    frame();
    keep("determinism");
    EXPECT_EQ(differing_bits(1.0f, 1.0f).find('^'), std::string::npos);
    EXPECT_EQ(differing_bits(-1.0f, 1.0f), "^" + std::string(float_bits(1.0f).size() - 1, ' '));
}

// A session saved, the settings changed, the session opened again: the same recording, with
// its back end and device, shown without tracing again; a bad file keeps the trace on screen.
TEST_F(Classroom, SessionsSaveAndOpen) {
    Settings s = list_of(Algorithm::ReduceFull, "", 64);
    s.input = InputMode::Generator;
    s.n = 200;
    s.generator = Generator::RandomFloat;
    show(s);
    const Trace saved = st.model->trace();
    const auto dir = std::filesystem::temp_directory_path();
    st.classroom.session_path = (dir / "pplab-session.json").string();
    session_save(st);
    ASSERT_FALSE(st.classroom.session_error) << st.classroom.session_message;

    show(list_of(Algorithm::ScanBlelloch, "5, 6, 7"));
    session_open(st);
    ASSERT_FALSE(st.classroom.session_error) << st.classroom.session_message;
    const auto opened = st.model;
    EXPECT_TRUE(opened->trace().same_recording(saved));
    EXPECT_EQ(opened->trace().backend, saved.backend);
    EXPECT_EQ(opened->trace().device, saved.device);
    EXPECT_EQ(st.settings.request(), saved.request) << "the controls show its request";
    for (int i = 0; i < 20; ++i)
        frame();
    EXPECT_EQ(st.model, opened) << "not traced again";
    EXPECT_FALSE(window.app().tracer().busy());

    // A trace recorded on a GPU opens on a machine without one, as the GPU recorded it.
    Trace gpu = saved;
    gpu.backend = "cuda";
    gpu.device = "NVIDIA H200";
    {
        std::ofstream f(dir / "pplab-gpu-session.json");
        f << to_json(gpu);
    }
    st.classroom.session_path = (dir / "pplab-gpu-session.json").string();
    session_open(st);
    ASSERT_FALSE(st.classroom.session_error) << st.classroom.session_message;
    EXPECT_EQ(st.model->trace().device, "NVIDIA H200");
    EXPECT_NE(st.classroom.session_message.find("NVIDIA H200"), std::string::npos);
    open_classroom(st, ClassroomTab::Session);
    for (int i = 0; i < 10; ++i)
        frame();
    EXPECT_EQ(st.model->trace().backend, "cuda") << "still the file's recording";
    keep("session");

    // A file that is not a trace: said inline, the trace on screen stays.
    const auto good = st.model;
    {
        std::ofstream f(dir / "pplab-bad-session.json");
        f << "{\"algorithm\": \"reduce-full\", \"frames\": [";
    }
    st.classroom.session_path = (dir / "pplab-bad-session.json").string();
    session_open(st);
    EXPECT_TRUE(st.classroom.session_error);
    EXPECT_NE(st.classroom.session_message.find("the trace on screen stays"), std::string::npos)
        << st.classroom.session_message;
    EXPECT_EQ(st.model, good);
    frame();
    for (const char* f : {"pplab-session.json", "pplab-gpu-session.json", "pplab-bad-session.json"})
        std::filesystem::remove(dir / f);
}

// Files dropped on the window: a session opens, a hand-trace is checked.
TEST_F(Classroom, DroppedFilesOpenInTheClassroom) {
    show(list_of(Algorithm::ScanBlelloch, "1, 2, 3, 4"));
    const auto dir = std::filesystem::temp_directory_path();
    const auto answer = dir / "pplab-dropped-answer.txt";
    {
        std::ofstream f(answer);
        f << "downsweep 1: 0 1 3 6\n";
    }
    window.app().open_file(answer.string());
    ASSERT_TRUE(st.classroom.hand.result) << st.classroom.hand.error;
    EXPECT_TRUE(st.classroom.hand.result->all_right());
    EXPECT_EQ(st.classroom.tab, ClassroomTab::HandTrace);
    st.classroom.session_path = (dir / "pplab-dropped.json").string();
    session_save(st);
    show(list_of(Algorithm::ReduceTree, "1, 2, 3, 4", 4));
    window.app().open_file((dir / "pplab-dropped.json").string());
    EXPECT_FALSE(st.classroom.session_error) << st.classroom.session_message;
    EXPECT_EQ(st.model->request().algorithm, Algorithm::ScanBlelloch);
    frame();
    std::filesystem::remove(answer);
    std::filesystem::remove(dir / "pplab-dropped.json");
}

// The controls show an opened trace's request: settings_for asks for it again, bit for bit.
TEST(ClassroomSettings, SettingsForAskForTheSameRequest) {
    for (const auto& c : test::view_cases()) {
        const Request r = normalize(c.request);
        EXPECT_EQ(settings_for(r).request(), r) << c.name;
    }
    Request pitfall = test::request(Algorithm::ReduceTree, test::seq(12), 6);
    pitfall.options.pitfall = Pitfall::NonPowerOfTwo;
    pitfall = normalize(pitfall);
    EXPECT_EQ(settings_for(pitfall).request(), pitfall);
    Request floats =
        test::request(Algorithm::ReduceFull, generate(Generator::RandomFloat, 100, 3, 0), 64);
    floats = normalize(floats);
    EXPECT_EQ(settings_for(floats).request(), floats) << "floats typed out bit for bit";
}

} // namespace
} // namespace pplab::ui
