// The Timing panel: what it picks out of the H200's committed report (pure: stage order,
// bars, the block-size series), and the panel driven headless: the built-in figures at start,
// every family drawn, files opened, and no measuring without a GPU. The window's exports
// (PNG, SVG, GIF, PNG sequence) written through the Export panel.
#include "headless.hpp"
#include "timing_view.hpp"

#include "pplab/timing.hpp"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <stb_image.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace pplab::ui {
namespace {

namespace fs = std::filesystem;

// The committed H200 report, as pplab bench wrote it.
TimingReport h200() {
    std::stringstream s;
    s << std::ifstream(std::string(PPLAB_SOURCE_DIR) + "/bench/results/h200-bench.json").rdbuf();
    return timing_from_json(s.str());
}

constexpr long long k28 = 1LL << 28;

std::vector<std::string> stages_of(const Bars& b) {
    std::vector<std::string> out;
    for (const StageBar& s : b.stages)
        out.push_back(s.stage);
    return out;
}

TEST(TimingView, StagesInTheChaptersOrder) {
    const TimingReport r = h200();
    const Bars reduce = stage_bars(r, Family::Reduce, k28, "", 256);
    EXPECT_EQ(stages_of(reduce),
              (std::vector<std::string>{"reduce-naive", "reduce-tree", "reduce-coarsened",
                                        "reduce-full", "reduce-fast"}));
    const Bars hist = stage_bars(r, Family::Histogram, k28, "uniform", 256);
    EXPECT_EQ(stages_of(hist),
              (std::vector<std::string>{"hist-global", "hist-privatised", "hist-privatised-no-skip",
                                        "hist-per-warp", "hist-fast"}));
    const Bars scan = stage_bars(r, Family::Scan, k28, "", 256);
    EXPECT_EQ(stages_of(scan),
              (std::vector<std::string>{"scan-multiblock", "scan-hillis-steele", "scan-fast"}));
    EXPECT_TRUE(production_stage("reduce-fast"));
    EXPECT_FALSE(production_stage("reduce-tree"));
    EXPECT_EQ(stage_title("reduce-tree"), "reduceTree  §8.3");
    EXPECT_EQ(stage_title("hist-privatised-no-skip"), "histogramPrivatised, no empty-bin skip");
}

TEST(TimingView, BarsAtABlockSizeWithCubAndTheRoof) {
    const TimingReport r = h200();
    const Bars b = stage_bars(r, Family::Reduce, k28, "", 256);
    ASSERT_NE(b.cub, nullptr);
    EXPECT_EQ(b.cub->stage, "cub");
    EXPECT_EQ(b.cub->size, k28);
    EXPECT_DOUBLE_EQ(b.roof_gbps, r.copy_gbps);
    // The naive kernel (one thread) was timed at 2^20 only: no bar, and the note says so.
    EXPECT_EQ(b.stages[0].row, nullptr);
    EXPECT_EQ(b.stages[0].note, "timed at 2^20 only");
    for (std::size_t i = 1; i < b.stages.size(); ++i) {
        const TimingRow* row = b.stages[i].row;
        ASSERT_NE(row, nullptr) << b.stages[i].stage;
        EXPECT_EQ(row->size, k28);
        EXPECT_GT(row->gbps, 0);
        if (b.stages[i].stage != "reduce-fast") {
            EXPECT_EQ(row->block, 256) << b.stages[i].stage;
        }
    }
    // 0: each stage at its fastest block size.
    const Bars best = stage_bars(r, Family::Reduce, k28, "", 0);
    for (std::size_t i = 1; i < best.stages.size(); ++i)
        for (const TimingRow& row : r.rows)
            if (row.stage == best.stages[i].stage && row.size == k28) {
                EXPECT_LE(row.gbps, best.stages[i].row->gbps);
            }
    // Histograms: by distribution, and the skip's two versions side by side (Exercise 4).
    const Bars one = stage_bars(r, Family::Histogram, k28, "one-value", 256);
    ASSERT_NE(one.cub, nullptr);
    EXPECT_EQ(one.cub->distribution, "one-value");
    EXPECT_EQ(one.stages[0].row, nullptr) << "global atomics on one value stop at 2^27";
    EXPECT_EQ(one.stages[0].note, "timed up to 2^27");
    ASSERT_NE(one.stages[1].row, nullptr);
    ASSERT_NE(one.stages[2].row, nullptr);
    EXPECT_EQ(one.stages[2].row->stage, "hist-privatised-no-skip");
}

TEST(TimingView, GbpsAgainstBlockSize) {
    const TimingReport r = h200();
    EXPECT_EQ(timed_blocks(r, Family::Reduce), (std::vector<int>{64, 128, 256, 512, 1024}));
    EXPECT_EQ(timed_sizes(r, Family::Scan).front(), 1LL << 20);
    EXPECT_EQ(timed_sizes(r, Family::Scan).back(), k28);
    EXPECT_EQ(default_size(r, Family::Reduce), k28) << "reduce-naive: 2^20 only";
    EXPECT_EQ(default_size(r, Family::Histogram), k28 / 2)
        << "global atomics on one value and 90% one value stop at 2^27";
    EXPECT_EQ(timed_distributions(r, Family::Histogram),
              (std::vector<std::string>{"uniform", "one-value", "90%-one-value", "image"}));
    EXPECT_EQ(timed_distributions(r, Family::Reduce), std::vector<std::string>{""});
    const std::vector<BlockSeries> s = block_series(r, Family::Reduce, k28, "");
    ASSERT_EQ(s.size(), 3u) << "tree, coarsened, full: the stages timed at every block size";
    EXPECT_EQ(s[0].stage, "reduce-tree");
    for (const BlockSeries& series : s) {
        ASSERT_EQ(series.points.size(), 5u);
        for (std::size_t i = 1; i < series.points.size(); ++i)
            EXPECT_LT(series.points[i - 1]->block, series.points[i]->block);
    }
    EXPECT_EQ(size_text(k28), "2^28");
    EXPECT_EQ(size_text(1000), "1000");
    EXPECT_EQ(bytes_text(1 << 30), "1 GiB");
    EXPECT_EQ(bytes_text(64.0 * (1 << 20)), "64 MiB");
}

class Window : public ::testing::Test {
protected:
    void keep(const std::string& name) {
        if (const char* dir = std::getenv("PPLAB_SCREENSHOT_DIR")) {
            fs::create_directories(dir);
            window.save((fs::path(dir) / (name + ".png")).string());
        }
    }
    test::HeadlessWindow window;
    App* app = &window.app();
};

TEST_F(Window, TimingPanelShowsTheBuiltInH200FiguresForEveryFamily) {
    window.settle();
    State& st = app->state();
    TimingPanel& t = app->timing();
    ASSERT_TRUE(st.classroom.timing)
        << "the H200's figures are there from the start: " << t.error();
    EXPECT_EQ(st.classroom.timing->device, "NVIDIA H200");
    EXPECT_EQ(st.classroom.timing->rows.size(), h200().rows.size());
    EXPECT_NE(t.source().find("bench/results/h200-bench.json"), std::string::npos);
    t.open = true;
    for (const Algorithm a :
         {Algorithm::ReduceFull, Algorithm::ScanMultiblock, Algorithm::HistPrivatised}) {
        st.settings = switch_algorithm(st.settings, a);
        window.settle();
        EXPECT_GT(window.frame(), 0);
        EXPECT_EQ(t.size, a == Algorithm::HistPrivatised ? k28 / 2 : k28)
            << info(a).id << ": the size the most stages share";
        EXPECT_EQ(t.block, 256) << "the chapter's TILE where the kernel's own was not timed";
        keep(std::string("timing-") + std::string(info(a).id));
    }
    st.settings.block = 512;
    window.frame();
    EXPECT_EQ(t.block, 512) << "the kernel's block size, where it was timed";
    t.log_scale = true;
    t.distribution = "one-value";
    EXPECT_GT(window.frame(), 0);
    keep("timing-hist-log");
    // On the projector: dark, presenter scale 150 %.
    st.view.theme = scene::Theme::Dark;
    st.view.presenter_scale = 1.5f;
    st.settings = switch_algorithm(st.settings, Algorithm::ReduceTree);
    window.settle();
    EXPECT_GT(window.frame(), 0);
    keep("timing-dark-presenter");
    t.open = false;
    window.frame();
}

TEST_F(Window, TimingPanelOpensFilesAndSaysWhyItCannotMeasure) {
    window.settle();
    State& st = app->state();
    TimingPanel& t = app->timing();
    t.open = true;
    t.open_file(st, "/no/such/file.json");
    EXPECT_NE(t.error().find("/no/such/file.json"), std::string::npos) << t.error();
    EXPECT_TRUE(st.classroom.timing) << "the figures before stay";
    const fs::path saved =
        fs::temp_directory_path() / ("pplab_timing_" + std::to_string(::getpid()) + ".json");
    TimingReport mine = h200();
    mine.device = "A laptop's GPU";
    std::ofstream(saved) << timing_to_json(mine);
    t.open_file(st, saved.string());
    fs::remove(saved);
    EXPECT_TRUE(t.error().empty()) << t.error();
    EXPECT_EQ(st.classroom.timing->device, "A laptop's GPU");
    EXPECT_EQ(t.source(), saved.string());
    window.frame();
    t.open_builtin(st);
    EXPECT_EQ(st.classroom.timing->device, "NVIDIA H200");
    // A report the classroom's Session tab opens is the one the panel shows, named so.
    st.classroom.timing = mine;
    st.classroom.timing_path = "session/figures.json";
    window.frame();
    EXPECT_EQ(t.source(), "session/figures.json");
    t.open_builtin(st);

    std::string why;
    if (timing_available(why))
        GTEST_SKIP() << "this machine has a GPU: measuring is the GPU tests' business";
    EXPECT_FALSE(t.gpu());
    t.measure(st);
    for (int i = 0; i < 200 && t.busy(); ++i)
        window.frame();
    window.frame();
    EXPECT_FALSE(t.error().empty()) << "no GPU: the panel says why";
    EXPECT_EQ(st.classroom.timing->device, "NVIDIA H200") << "and keeps the figures it had";
}

TEST_F(Window, MeasureOnThisGpuRunsInTheBackground) {
    std::string why;
    if (!timing_available(why))
        GTEST_SKIP() << why;
    window.settle();
    State& st = app->state();
    TimingPanel& t = app->timing();
    ASSERT_TRUE(t.gpu());
    st.settings = switch_algorithm(st.settings, Algorithm::ReduceFull);
    window.settle();
    t.open = true;
    window.frame();
    t.measure(st);
    int frames_while_busy = 0;
    for (int i = 0; i < 100000 && t.busy(); ++i) {
        EXPECT_GT(window.frame(), 0);
        ++frames_while_busy;
    }
    window.frame();
    ASSERT_TRUE(t.error().empty()) << t.error();
    EXPECT_GT(frames_while_busy, 1) << "the window kept drawing while the GPU was timed";
    ASSERT_TRUE(st.classroom.timing);
    EXPECT_NE(st.classroom.timing->device, "") << "the device that measured";
    EXPECT_NE(t.source().find("measured"), std::string::npos);
    const Bars b = stage_bars(*st.classroom.timing, Family::Reduce, 1LL << 28, "", 256);
    ASSERT_NE(b.cub, nullptr);
    EXPECT_GT(b.roof_gbps, 0);
    for (const StageBar& bar : b.stages)
        if (bar.stage != "reduce-naive") {
            EXPECT_NE(bar.row, nullptr) << bar.stage;
        }
    EXPECT_EQ(block_series(*st.classroom.timing, Family::Reduce, 1LL << 28, "").size(), 3u);
    window.frame();
    keep("timing-measured");
}

// ---- the window's exports ----------------------------------------------------------------

class Exports : public Window {
protected:
    void SetUp() override {
        dir = fs::temp_directory_path() / ("pplab_exports_" + std::to_string(::getpid()));
        fs::create_directories(dir);
        window.settle();
    }
    void TearDown() override {
        std::error_code ignore;
        fs::remove_all(dir, ignore);
    }
    ExportPanel& ex() { return app->exporter(); }
    void finish() {
        for (int i = 0; i < 2000 && ex().busy(); ++i)
            window.frame();
        EXPECT_FALSE(ex().busy());
    }
    fs::path dir;
};

TEST_F(Exports, PngAndSvgOfTheFrameOnScreen) {
    State& st = app->state();
    ex().open_for(ExportKind::Png, st);
    EXPECT_TRUE(ex().open);
    // An absolute path: the folder it lands in is never a guess.
    EXPECT_EQ(ex().path, (fs::current_path() / "reduce-tree-step01.png").string());
    ex().width = 640;
    ex().height = 400;
    ex().path = (dir / "frame.png").string();
    ex().write(st);
    EXPECT_TRUE(ex().error().empty()) << ex().error();
    int w = 0, h = 0, c = 0;
    unsigned char* px = stbi_load(ex().path.c_str(), &w, &h, &c, 4);
    ASSERT_NE(px, nullptr);
    stbi_image_free(px);
    EXPECT_EQ(w, 640);
    EXPECT_EQ(h, 400);

    ex().open_for(ExportKind::Svg, st);
    ex().path = (dir / "frame.svg").string();
    ex().write(st);
    EXPECT_TRUE(ex().error().empty()) << ex().error();
    std::stringstream svg;
    svg << std::ifstream(ex().path).rdbuf();
    EXPECT_EQ(svg.str().rfind("<?xml", 0), 0u);
    EXPECT_NE(svg.str().find("</svg>"), std::string::npos);
    EXPECT_GT(window.frame(), 0);
    window.frame(); // a window that fits its contents shows from its second frame
    EXPECT_NE(ex().message().find("frame.svg"), std::string::npos) << ex().message();
    keep("export-window");

    ex().path = (dir / "missing" / "frame.svg").string();
    ex().write(st);
    EXPECT_NE(ex().error().find("missing"), std::string::npos) << ex().error();
    EXPECT_FALSE(fs::exists(dir / "missing"));
}

TEST_F(Exports, RunsAreWrittenAFewPicturesPerFrame) {
    State& st = app->state();
    const std::size_t steps = st.model->steps().size();
    ex().open_for(ExportKind::PngSequence, st);
    ex().width = 320;
    ex().height = 200;
    ex().path = (dir / "frames").string();
    ex().write(st);
    finish();
    EXPECT_TRUE(ex().error().empty()) << ex().error();
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir / "frames"))
        ++files;
    EXPECT_EQ(files, steps);

    ex().open_for(ExportKind::Gif, st);
    ex().path = (dir / "run.gif").string();
    ex().write(st);
    finish();
    if (!exporting::gif_supported()) {
        EXPECT_FALSE(ex().error().empty());
        return;
    }
    EXPECT_TRUE(ex().error().empty()) << ex().error();
    std::ifstream gif(ex().path, std::ios::binary);
    char magic[6] = {};
    gif.read(magic, 6);
    EXPECT_EQ(std::string(magic, 6), "GIF89a");

    // Cancelled half-way: nothing at all.
    ex().width = 1600;
    ex().height = 1000;
    ex().path = (dir / "cancelled.gif").string();
    ex().write(st);
    ex().cancel();
    EXPECT_FALSE(ex().busy());
    EXPECT_FALSE(fs::exists(dir / "cancelled.gif"));
    for (const auto& e : fs::directory_iterator(dir))
        EXPECT_EQ(e.path().filename().string().find(".part"), std::string::npos)
            << "a temporary left behind: " << e.path();
}

// The Export and Timing windows keep their title bars (name, close box) on screen under the
// menu bar at every presenter scale, in a projector's 1280x720 and in 1920x1080: centred on a
// third of the height, the Export window rose above the screen's top at 200% in 1280x720.
TEST(FloatingWindows, TitleBarsStayOnScreenAtEveryScale) {
    for (const auto& [w, h] : {std::pair{1280, 720}, std::pair{1920, 1080}})
        for (const float scale : {1.0f, 1.5f, 2.0f}) {
            test::HeadlessWindow window(w, h);
            App& app = window.app();
            app.state().view.presenter_scale = scale;
            window.settle();
            app.exporter().open_for(ExportKind::Png, app.state());
            app.timing().open = true;
            for (int i = 0; i < 4; ++i) // a window that fits its contents settles in two
                window.frame();
            const ImGuiWindow* bar = ImGui::FindWindowByName("##MainMenuBar");
            ASSERT_NE(bar, nullptr);
            for (const char* name : {"Export", "Timing"}) {
                const ImGuiWindow* f = ImGui::FindWindowByName(name);
                ASSERT_NE(f, nullptr) << name;
                const std::string where = std::string(name) + " in " + std::to_string(w) + "x" +
                                          std::to_string(h) + " at " +
                                          std::to_string(static_cast<int>(scale * 100)) + "%";
                EXPECT_GE(f->Pos.y, bar->Pos.y + bar->Size.y - 0.5f) << where << ": under the menu";
                EXPECT_GE(f->Pos.x, 0.0f) << where;
                EXPECT_LE(f->Pos.y + f->TitleBarHeight(), static_cast<float>(h)) << where;
            }
        }
}

// The menu bar says the presenter scale at every scale the View menu offers, in a 1600x1000
// window (on a 1920x1080 screen) and in 1920x1080: at 200% it said nothing where
// "presenter scale 200% · P: present" did not fit and "presenter scale 200%" would have. In
// 1280x720 up to 150%: at 175% and 200% the menus and the present offer take the row and the
// View menu says the scale; no larger scale is allowed there (ui::largest_scale).
TEST(MenuBar, SaysThePresenterScale) {
    for (const auto& [w, h] : {std::pair{1280, 720}, std::pair{1600, 1000}, std::pair{1920, 1080}})
        for (const float scale : {0.75f, 1.0f, 1.25f, 1.5f, 1.75f, 2.0f}) {
            if (w == 1280 && scale > 1.5f)
                continue; // the menus and the present offer take the row
            test::HeadlessWindow window(w, h);
            App& app = window.app();
            app.state().view.presenter_scale = scale;
            window.frame();
            window.frame();
            const std::string percent = std::to_string(static_cast<int>(scale * 100)) + "%";
            const std::string& shown = app.scale_shown();
            EXPECT_NE(shown.find(percent), std::string::npos)
                << w << "x" << h << " at " << percent << ": '" << shown << "'";
        }
}

} // namespace
} // namespace pplab::ui
