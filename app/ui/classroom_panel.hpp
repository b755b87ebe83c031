// The classroom column: practice mode, hand-trace checking, the chapter's exercises and
// pitfalls, the determinism runs and session files, a tab each. It draws State::classroom and
// acts through classroom.hpp; it keeps nothing of its own between frames.
#pragma once

#include "state.hpp"

#include <string_view>
#include <vector>

namespace pplab::ui {

struct ClassroomPanel {
    void draw(State& st);
};

// The sub-tabs' names, in their order.
std::vector<std::string_view> classroom_tab_names();

// The tabs, one file each (practice_panel.cpp, exercises_panel.cpp, classroom_panel.cpp).
void draw_practice(State& st);
void draw_hand_trace(State& st);
void draw_exercises(State& st);
void draw_pitfalls(State& st);
void draw_determinism(State& st);
void draw_session(State& st);

// Shared by the tabs: a heading in the large font, a wrapped paragraph, an inline error.
void heading(const State& st, const char* text);
void paragraph(const std::string& text, bool muted = false);
void error_line(const State& st, const std::string& text);

} // namespace pplab::ui
