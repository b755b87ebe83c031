// The "Your kernel" tab beside the kernel source and the classroom (see your_kernel.hpp for
// its state). Immediate mode: it remembers only the editor's own view between frames.
#pragma once

#include "state.hpp"

namespace pplab::ui {

class YourKernelPanel {
public:
    void draw(State& st);

private:
    void picker(State& st);
    void puzzle(State& st);
    void actions(State& st);
    void findings(State& st);
    void counts(const State& st, const KernelRun& run);
    void on_the_gpu(State& st);
    void timing_size(State& st);
    void timing_table(const State& st, const sim::DeviceCheck& d);
    void editor(State& st, float height);

    int generation_ = 0;         // a new text filled in: the editor widget starts afresh
    std::string origin_seen_;    // the text's origin the widget was made for
    int scrolled_for_step_ = -1; // the lit lines were brought into view for this step
    const void* scrolled_for_model_ = nullptr;
    int cursor_seen_ = -1;   // the cursor's position last frame (kept in view when it moves)
    float notes_height_ = 0; // what the puzzle and the findings took last frame, pixels
};

} // namespace pplab::ui
