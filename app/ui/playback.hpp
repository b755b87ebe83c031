// Where playback stands: one small struct, as a trace viewer keeps it.
#pragma once

namespace pplab::ui {

struct Playback {
    int step = 0;   // the playback step shown (a scene::StepGroup)
    float t = 1.0f; // progress of the transition into `step`: 0 before it, 1 settled
    bool playing = false;
    bool loop = false;
    float speed = 1.0f; // 1: a transition takes kTransition seconds
    double held = 0;    // seconds settled on `step` while playing

    static constexpr double kTransition = 1.1; // seconds, at speed 1
    static constexpr double kHold = 0.8;       // seconds settled before the next step

    // Moves to `s` (clamped to [0, steps)); animated forwards by one, a jump otherwise.
    void go_to(int s, int steps);
    void toggle(int steps);
    // Advances the clock; returns true when something moved.
    bool update(double dt, int steps);
    bool moving() const { return t < 1.0f || playing; }
};

} // namespace pplab::ui
