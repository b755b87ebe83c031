#pragma once
// What the Classroom's parts (practice, exercises, hand-trace, determinism) share.

#include <string>

namespace pplab::ui {

struct State;

std::string trim(const std::string& text);
int step_count(const State& st);
// Shows playback step `step` still, as a scenario or a jump wants it.
void show_step(State& st, int step);

} // namespace pplab::ui
