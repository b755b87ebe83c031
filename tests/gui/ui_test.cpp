// The window's panels driven headless: an ImGui frame loop over an offscreen EGL context,
// for every view, with the keys a teacher presses and input a student gets wrong.
#include "app.hpp"
#include "fixtures.hpp"

#include "render/offscreen.hpp"
#include "render/target.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace pplab::ui {
namespace {

// Key codes of this headless "platform" (GLFW's, as the window uses them).
constexpr int kSpace = 32, kRight = 262, kLeft = 263, kHome = 268, kEnd = 269, kEqual = 61,
              kMinus = 45;

class Headless : public ::testing::Test {
protected:
    void SetUp() override {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(1600, 1000);
        io.KeyMap[ImGuiKey_Space] = kSpace;
        io.KeyMap[ImGuiKey_RightArrow] = kRight;
        io.KeyMap[ImGuiKey_LeftArrow] = kLeft;
        io.KeyMap[ImGuiKey_Home] = kHome;
        io.KeyMap[ImGuiKey_End] = kEnd;
        ASSERT_TRUE(ImGui_ImplOpenGL3_Init("#version 330 core"));
        app = std::make_unique<App>(Platform{{}, {kEqual, kMinus, -1, -1}});
        target.resize(1600, 1000);
    }
    void TearDown() override {
        app.reset();
        ImGui_ImplOpenGL3_Shutdown();
        ImGui::DestroyContext();
    }

    // One frame of the loop main.cpp runs, `keys` held down during it.
    void frame(std::initializer_list<int> keys = {}, bool ctrl = false) {
        if (app->fonts_dirty()) {
            app->load_fonts();
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
        }
        ImGuiIO& io = ImGui::GetIO();
        io.DeltaTime = 1.0f / 60.0f;
        now += io.DeltaTime;
        for (bool& k : io.KeysDown)
            k = false;
        for (const int k : keys)
            io.KeysDown[k] = true;
        io.KeyCtrl = ctrl;
        ImGui_ImplOpenGL3_NewFrame();
        ImGui::NewFrame();
        app->frame(now);
        ImGui::Render();
        target.bind();
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        render::RenderTarget::unbind();
        ASSERT_GT(ImGui::GetDrawData()->TotalVtxCount, 0);
    }

    // Frames until the tracer has delivered what the settings ask for (or failed).
    void settle() {
        const auto start = std::chrono::steady_clock::now();
        do {
            frame();
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        } while ((app->tracer().busy() || !app->state().model) &&
                 std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
        frame();
        frame();
    }

    void keep(const std::string& name) {
        if (const char* dir = std::getenv("PPLAB_SCREENSHOT_DIR")) {
            std::filesystem::create_directories(dir);
            render::write_png(target.read(),
                              (std::filesystem::path(dir) / (name + ".png")).string());
        }
    }

    render::OffscreenContext context; // first: everything below needs it
    render::RenderTarget target;
    std::unique_ptr<App> app;
    double now = 0;
};

TEST_F(Headless, EveryViewDrawsAndSteps) {
    for (const auto& c : test::view_cases()) {
        State& st = app->state();
        st.settings = switch_algorithm(st.settings, c.request.algorithm);
        st.settings.input = InputMode::List;
        st.settings.list.clear();
        for (const float v : c.request.input)
            st.settings.list += std::to_string(static_cast<int>(v)) + " ";
        st.settings.block = c.request.block;
        st.settings.bins = c.request.bins;
        st.playback.speed = 4; // the transitions play out in fewer frames
        settle();
        ASSERT_TRUE(st.error.empty()) << c.name << ": " << st.error;
        ASSERT_TRUE(st.model) << c.name;
        ASSERT_EQ(st.model->request().algorithm, c.request.algorithm) << c.name;
        const int steps = st.steps();
        frame({kHome});
        EXPECT_EQ(st.playback.step, 0);
        frame({kRight});
        EXPECT_EQ(st.playback.step, std::min(1, steps - 1)) << c.name;
        for (int i = 0; i < 90 && st.playback.moving(); ++i)
            frame(); // the transition plays out
        EXPECT_FLOAT_EQ(st.playback.t, 1.0f);
        frame({kEnd});
        EXPECT_EQ(st.playback.step, steps - 1);
        frame({kLeft});
        EXPECT_EQ(st.playback.step, std::max(0, steps - 2));
        st.playback.go_to(steps / 2, steps);
        for (int i = 0; i < 90 && (st.playback.moving() || app->canvas().animating()); ++i)
            frame();
        keep("window-" + c.name);
    }
}

TEST_F(Headless, SpacePlaysAndPauses) {
    settle();
    State& st = app->state();
    frame({kSpace});
    EXPECT_TRUE(st.playback.playing);
    for (int i = 0; i < 240; ++i)
        frame();
    EXPECT_GT(st.playback.step, 0) << "playback moved on by itself";
    frame({kSpace});
    EXPECT_FALSE(st.playback.playing);
}

TEST_F(Headless, BadInputKeepsTheLastGoodTrace) {
    settle();
    State& st = app->state();
    const auto good = st.model;
    ASSERT_TRUE(good);
    st.settings.input = InputMode::List;
    st.settings.list = "1, 2, three";
    settle();
    EXPECT_FALSE(st.error.empty());
    EXPECT_EQ(st.model, good) << "the last good trace stays on screen";
    st.settings.list = "1, 2, 3";
    st.settings.block = 3; // the tree needs a power of two
    settle();
    EXPECT_NE(st.error.find("power of two"), std::string::npos) << st.error;
    st.settings.block = 4;
    settle();
    EXPECT_TRUE(st.error.empty());
    EXPECT_NE(st.model, good);
}

TEST_F(Headless, RetraceKeepsThePlaybackPosition) {
    settle();
    State& st = app->state();
    st.playback.go_to(2, st.steps()); // level 2 of the tree
    st.playback.t = 1;
    const scene::StepKey before = st.model->key(st.playback.step);
    st.settings.n = 64; // same block size: the same levels exist
    settle();
    const scene::StepKey after = st.model->key(st.playback.step);
    EXPECT_EQ(after.step, before.step);
    EXPECT_EQ(after.level, before.level);
}

TEST_F(Headless, PresenterScaleFollowsCtrlPlusAndMinus) {
    settle();
    State& st = app->state();
    frame({kEqual}, true);
    EXPECT_FLOAT_EQ(st.view.presenter_scale, 1.25f);
    frame(); // the fonts are rebuilt at the new size
    frame({kMinus}, true);
    frame();
    frame({kMinus}, true);
    EXPECT_FLOAT_EQ(st.view.presenter_scale, 0.75f);
    frame();
    st.view.theme = scene::Theme::Dark;
    frame();
    frame();
}

} // namespace
} // namespace pplab::ui
