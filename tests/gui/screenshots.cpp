// Not a test: draws the window headless for every view, at a step that shows what the view is
// for, and writes the PNGs the README shows: pplab_screenshots docs/screenshots
#include "headless.hpp"

#include "pplab/request.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>

#include <unistd.h>

namespace {

using namespace pplab;

struct Shot {
    std::string name;
    std::function<void(ui::Settings&)> setup;
    Step step;
    int level;
    int pass = 0;
    float anim = 1.0f; // < 1: caught mid-transition, values on their way
    int block = 0;
};

ui::Settings with(Algorithm a, int n, int block, Generator g = Generator::RandomInt) {
    ui::Settings s = ui::switch_algorithm(ui::Settings{}, a);
    s.n = n;
    s.block = block;
    s.generator = g;
    return s;
}

// The classroom, as a teacher presents it: the controls hidden, the classroom column open.
struct ClassroomShot {
    std::string name;
    std::function<void(ui::State&)> setup; // sets the scenario going
    std::function<void(ui::State&)> then;  // once it is traced (may be empty)
    ui::ClassroomTab tab;
};

bool classroom_shots(test::HeadlessWindow& window, const std::filesystem::path& dir) {
    const std::vector<ClassroomShot> shots = {
        {"practice", [](ui::State& st) { ui::exercise3_practice(st); },
         [](ui::State& st) {
             st.classroom.practice.level.typed = {{"1", "0", "3", "4"}};
             ui::practice_check(st);
         },
         ui::ClassroomTab::Practice},
        {"exercise2-race",
         [](ui::State& st) { ui::exercise2_race(st); },
         {},
         ui::ClassroomTab::Exercises},
        {"pitfall-non-power-of-two",
         [](ui::State& st) { ui::pitfall_toggle(st, Pitfall::NonPowerOfTwo, true); },
         {},
         ui::ClassroomTab::Pitfalls},
        {"pitfall-partial-warp",
         [](ui::State& st) { ui::pitfall_toggle(st, Pitfall::PartialWarp, true); },
         {},
         ui::ClassroomTab::Pitfalls},
        {"pitfall-no-final-sync",
         [](ui::State& st) { ui::pitfall_toggle(st, Pitfall::NoFinalSync, true); },
         {},
         ui::ClassroomTab::Pitfalls},
        {"determinism",
         [](ui::State& st) {
             st.settings = with(Algorithm::ReduceAtomic, 1000, 64);
             st.settings.backend = "cpu";
         },
         [](ui::State& st) {
             // A few blocks' totals have arrived, in the order the blocks finished.
             st.playback.go_to(st.model->find({0, Step::AtomicAdd, 0, -1}) + 5, st.steps());
             ui::determinism_start(st);
         },
         ui::ClassroomTab::Determinism},
    };
    ui::State& st = window.state();
    st.view.show_controls = false;
    for (const ClassroomShot& shot : shots) {
        shot.setup(st);
        ui::open_classroom(st, shot.tab);
        window.settle();
        if (!st.error.empty() || !st.model) {
            std::fprintf(stderr, "%s: %s\n", shot.name.c_str(), st.error.c_str());
            return false;
        }
        if (shot.then)
            shot.then(st);
        for (int i = 0; i < 3000 && st.classroom.runs.busy(); ++i) {
            window.frame();
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        st.playback.t = 1.0f;
        window.still();
        const auto path = dir / ("window-" + shot.name + ".png");
        window.save(path.string());
        std::printf("wrote %s\n", path.string().c_str());
        st.classroom.practice.on = false;
        st.settings.pitfall = Pitfall::None;
    }
    st.view.show_controls = true;
    return true;
}

// The Timing panel over the stage: the histogram's story, global atomics to the production
// kernel, on a log scale so that global atomics' few GB/s stay visible (the H200's figures).
void timing_shot(test::HeadlessWindow& window, const std::filesystem::path& dir) {
    ui::State& st = window.state();
    st.settings = with(Algorithm::HistPrivatised, 300, 256, Generator::Skewed);
    window.settle();
    ui::TimingPanel& t = window.app().timing();
    t.open = true;
    window.frame();
    t.log_scale = true;
    window.still();
    const auto path = dir / "window-timing.png";
    window.save(path.string());
    std::printf("wrote %s\n", path.string().c_str());
    t.open = false;
    t.log_scale = false;
}

// The projector: presenter scale 200 % on the two common projector sizes, in present mode (the
// caption, the canvas and the transport) and with the controls, at the sizes a class meets
// (n 7 and 65536, blocks of 32 and 1024), half-way through the run.
struct ProjectorShot {
    std::string name;
    int width, height;
    bool present;
    ui::Settings settings;
};

bool projector_shots(const std::filesystem::path& dir) {
    const std::vector<ProjectorShot> shots = {
        {"projector-1280x720-present-n7-block32", 1280, 720, true,
         with(Algorithm::ReduceTree, 7, 32)},
        {"projector-1920x1080-present-n65536-block1024", 1920, 1080, true,
         with(Algorithm::ReduceTree, 65536, 1024)},
        {"projector-1280x720-n65536-block1024", 1280, 720, false,
         with(Algorithm::ScanMultiblock, 65536, 1024)},
        {"projector-1920x1080-n7-block32", 1920, 1080, false,
         with(Algorithm::HistPrivatised, 7, 32, Generator::Skewed)},
    };
    for (const ProjectorShot& shot : shots) {
        test::HeadlessWindow window(shot.width, shot.height);
        ui::State& st = window.state();
        st.note_dismissed = true;
        st.view.presenter_scale = 2.0f;
        st.view.present = shot.present;
        st.settings = shot.settings;
        window.settle();
        if (!st.error.empty() || !st.model) {
            std::fprintf(stderr, "%s: %s\n", shot.name.c_str(), st.error.c_str());
            return false;
        }
        st.playback.go_to(st.steps() / 2, st.steps());
        st.playback.t = 1.0f;
        window.still();
        const auto path = dir / ("window-" + shot.name + ".png");
        window.save(path.string());
        std::printf("wrote %s\n", path.string().c_str());
    }
    return true;
}

bool window_shots(const std::filesystem::path& dir, const std::vector<Shot>& shots);

// Frames until the student's run or check is over.
void wait_for_your_kernel(test::HeadlessWindow& window) {
    for (int i = 0; i < 6000 && window.state().your.busy(); ++i) {
        window.frame();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    window.frame();
}

// The Your kernel tab, as a student has it: Exercise 2 written by hand (every lane writes
// s[warpId]), the race marked on the canvas and listed beside the editor; and a puzzle checked.
bool your_kernel_shots(test::HeadlessWindow& window, const std::filesystem::path& dir) {
    ui::State& st = window.state();
    st.view.show_controls = false;
    st.settings = with(Algorithm::ReduceFull, 256, 64);
    st.settings.grid = 1;
    window.settle();
    st.your.select_tab = true;
    window.frame();
    window.frame();
    std::string& text = st.your.source;
    const std::string lane0 = "if (lane == 0) s[warpId] = sum;";
    const auto at = text.find(lane0);
    if (at == std::string::npos) {
        std::fprintf(stderr, "your-kernel-race: the listing has no '%s'\n", lane0.c_str());
        return false;
    }
    text.replace(at, lane0.size(), "s[warpId] = sum;  /* every lane */");
    st.your.edited = true;
    ui::your_kernel_run(st);
    wait_for_your_kernel(window);
    if (!st.your.last || !st.your.last->model || st.your.last->result.hazards.empty()) {
        std::fprintf(stderr, "your-kernel-race: no race found\n");
        return false;
    }
    ui::your_kernel_show_hazard(st, st.your.last->result.hazards.front());
    st.playback.t = 1.0f;
    window.still();
    window.save((dir / "window-your-kernel-race.png").string());
    std::printf("wrote %s\n", (dir / "window-your-kernel-race.png").string().c_str());

    ui::your_kernel_pick(st, "downsweep");
    window.settle();
    ui::your_kernel_check(st);
    wait_for_your_kernel(window);
    ui::your_kernel_run(st);
    wait_for_your_kernel(window);
    window.still();
    window.save((dir / "window-your-kernel-puzzle.png").string());
    std::printf("wrote %s\n", (dir / "window-your-kernel-puzzle.png").string().c_str());
    ui::your_kernel_pick(st, "");
    st.classroom.show = true;
    ui::open_classroom(st, ui::ClassroomTab::Practice); // the chapter's kernel again
    window.frame();
    window.frame();
    st.view.show_controls = true;
    return true;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: pplab_screenshots DIR\n");
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    // A new student's window: no drafts of the Your kernel tab from the user's own sessions
    // (a saved reduce-full draft without `if (lane == 0)` stopped the race picture).
    const std::filesystem::path drafts = std::filesystem::temp_directory_path() /
                                         ("pplab-screenshots-" + std::to_string(::getpid()));
    ::setenv("XDG_DATA_HOME", drafts.c_str(), 1);
    struct Cleanup {
        std::filesystem::path path;
        ~Cleanup() {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    } cleanup{drafts};
    const std::vector<Shot> shots = {
        {"reduce-naive", [](auto& s) { s = with(Algorithm::ReduceNaive, 24, 0, Generator::Seq); },
         Step::SerialAdd, 11},
        {"reduce-naive-65536", [](auto& s) { s = with(Algorithm::ReduceNaive, 65536, 0); },
         Step::SerialAdd, 40000},
        {"reduce-tree", [](auto& s) { s = with(Algorithm::ReduceTree, 32, 8); }, Step::TreeLevel,
         2},
        {"reduce-tree-moving", [](auto& s) { s = with(Algorithm::ReduceTree, 32, 8); },
         Step::TreeLevel, 1, 0, 0.55f},
        {"reduce-coarsened",
         [](auto& s) {
             s = with(Algorithm::ReduceCoarsened, 40, 8, Generator::Seq);
             s.grid = 2;
         },
         Step::Accumulate, 2},
        {"reduce-shuffle", [](auto& s) { s = with(Algorithm::ReduceShuffle, 64, 32); },
         Step::Shuffle, 1},
        {"reduce-full", [](auto& s) { s = with(Algorithm::ReduceFull, 300, 64); }, Step::WarpTotals,
         0},
        {"reduce-atomic", [](auto& s) { s = with(Algorithm::ReduceAtomic, 1000, 64); },
         Step::AtomicAdd, 3},
        {"scan-blelloch", [](auto& s) { s = with(Algorithm::ScanBlelloch, 8, 0, Generator::Seq); },
         Step::Downsweep, 2},
        {"scan-blelloch-1234",
         [](auto& s) {
             s = with(Algorithm::ScanBlelloch, 4, 4);
             s.input = ui::InputMode::List;
             s.list = "1, 2, 3, 4";
         },
         Step::Downsweep, 1},
        {"scan-multiblock",
         [](auto& s) { s = with(Algorithm::ScanMultiblock, 10, 4, Generator::Seq); },
         Step::AddCarries, 0, 2},
        {"scan-hillis-steele",
         [](auto& s) { s = with(Algorithm::ScanHillisSteele, 8, 0, Generator::Seq); },
         Step::HillisSteele, 2},
        {"hist-global",
         [](auto& s) { s = with(Algorithm::HistGlobal, 300, 64, Generator::Skewed); },
         Step::HistAccumulate, 2},
        {"hist-privatised",
         [](auto& s) { s = with(Algorithm::HistPrivatised, 300, 64, Generator::Skewed); },
         Step::HistAccumulate, 2},
        {"hist-privatised-fold",
         [](auto& s) { s = with(Algorithm::HistPrivatised, 300, 64, Generator::Skewed); },
         Step::HistFold, 0, 0, 0.6f, 1},
        {"hist-per-warp",
         [](auto& s) { s = with(Algorithm::HistPerWarp, 300, 64, Generator::Skewed); },
         Step::HistAccumulate, 2},
        {"hist-65536",
         [](auto& s) {
             s = with(Algorithm::HistPrivatised, 65536, 256, Generator::UniformBytes);
             s.bins = 64;
         },
         Step::HistAccumulate, 2},
    };
    if (!window_shots(dir, shots))
        return 1;
    // One window at a time (ImGui's context is global): the projector's sizes after.
    return projector_shots(dir) ? 0 : 1;
}

namespace {

bool window_shots(const std::filesystem::path& dir, const std::vector<Shot>& shots) {
    test::HeadlessWindow window;
    window.settle();
    window.state().note_dismissed = true; // said once; the README's pictures need it no more
    for (const Shot& shot : shots) {
        ui::State& st = window.state();
        shot.setup(st.settings);
        st.block = shot.block;
        window.settle();
        if (!st.error.empty() || !st.model) {
            std::fprintf(stderr, "%s: %s\n", shot.name.c_str(), st.error.c_str());
            return false;
        }
        // The shot's step, the shown block's own where each block has one; else the first of
        // that level (an atomicAdd is the arriving block's: arrival 3, not block 0's, was not
        // found, and the picture showed step 1 under a caption about the arrivals).
        int step = -1, any_block = -1;
        for (std::size_t i = 0; i < st.model->steps().size() && step < 0; ++i) {
            const scene::StepGroup& g = st.model->steps()[i];
            if (g.pass != shot.pass || g.step != shot.step || g.level != shot.level)
                continue;
            if (g.block < 0 || g.block == shot.block)
                step = static_cast<int>(i);
            else if (any_block < 0)
                any_block = static_cast<int>(i);
        }
        step = step >= 0 ? step : std::max(any_block, 0);
        st.playback.go_to(step, st.steps());
        st.playback.t = 1.0f;
        window.still();
        if (shot.anim < 1.0f) {
            st.playback.t = shot.anim;
            window.frame(); // the camera is settled: only the values move
            st.playback.t = shot.anim;
            window.frame();
        }
        const auto path = dir / ("window-" + shot.name + ".png");
        window.save(path.string());
        std::printf("wrote %s\n", path.string().c_str());
    }
    if (!classroom_shots(window, dir) || !your_kernel_shots(window, dir))
        return false;
    timing_shot(window, dir);
    // The projector settings: dark, presenter scale 150 %.
    ui::State& st = window.state();
    st.settings = with(Algorithm::ScanBlelloch, 8, 0, Generator::Seq);
    st.view.theme = scene::Theme::Dark;
    st.view.presenter_scale = 1.5f;
    window.settle();
    st.playback.go_to(st.model->find({0, Step::Downsweep, 1, -1}), st.steps());
    st.playback.t = 1.0f;
    window.still();
    window.save((dir / "window-dark-presenter.png").string());
    std::printf("wrote %s\n", (dir / "window-dark-presenter.png").string().c_str());
    return true;
}

} // namespace
