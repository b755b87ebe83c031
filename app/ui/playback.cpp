#include "playback.hpp"

#include <algorithm>

namespace pplab::ui {

void Playback::go_to(int s, int steps) {
    const int target = std::clamp(s, 0, std::max(steps - 1, 0));
    // Only a step forward is animated: values travel along the arrows of the step they
    // belong to. Going back, or jumping, shows the settled state at once.
    t = target == step + 1 ? 0.0f : 1.0f;
    step = target;
    held = 0;
}

void Playback::toggle(int steps) {
    if (!playing && step >= steps - 1)
        go_to(0, steps); // play from the start again
    playing = !playing;
    held = 0;
}

bool Playback::update(double dt, int steps) {
    bool moved = false;
    if (t < 1.0f) {
        t = std::min(1.0f, t + static_cast<float>(dt * speed / kTransition));
        moved = true;
    } else if (playing) {
        held += dt * speed;
        if (held >= kHold) {
            if (step + 1 < steps) {
                go_to(step + 1, steps);
                moved = true;
            } else if (loop) {
                go_to(0, steps);
                moved = true;
            } else {
                playing = false;
                moved = true;
            }
        }
    }
    return moved;
}

} // namespace pplab::ui
