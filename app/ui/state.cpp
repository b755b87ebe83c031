#include "state.hpp"

#include <algorithm>
#include <string>

namespace pplab::ui {

std::size_t State::frame() const {
    return model ? model->frame_at(playback.step, block) : 0;
}

int State::steps() const {
    return model ? static_cast<int>(model->steps().size()) : 0;
}

std::string step_name(const scene::Model& m, int step) {
    const scene::StepGroup& g = m.steps().at(static_cast<std::size_t>(step));
    std::string name(step_id(g.step));
    if (step_has_levels(g.step))
        name += " " + std::to_string(g.level);
    if (g.pass > 0)
        name += ", pass " + std::to_string(g.pass);
    return name;
}

BlockSelector block_selector(const scene::Model& m, int step, int selected) {
    const scene::StepGroup& g = m.steps().at(static_cast<std::size_t>(step));
    BlockSelector b;
    b.count = std::max(m.grid(g.pass), 1);
    if (m.request().algorithm == Algorithm::ScanFast) {
        b.noun = "Tile";
        b.named = "tile";
    }
    b.shown = std::clamp(g.block >= 0 ? g.block : selected, 0, b.count - 1);
    return b;
}

int step_for_block(const scene::Model& m, int step, int block) {
    const std::vector<scene::StepGroup>& steps = m.steps();
    const scene::StepGroup& now = steps.at(static_cast<std::size_t>(step));
    if (now.block < 0)
        return step;
    int any_event = -1;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const scene::StepGroup& g = steps[i];
        if (g.pass != now.pass || g.block != block)
            continue;
        if (g.step == now.step && g.level == now.level)
            return static_cast<int>(i);
        if (any_event < 0)
            any_event = static_cast<int>(i);
    }
    return any_event >= 0 ? any_event : step;
}

void show_model(State& st, std::shared_ptr<const scene::Model> m) {
    const std::shared_ptr<const scene::Model> before = st.model;
    st.model = std::move(m);
    if (!st.model || before == st.model)
        return;
    st.playback.step = where_after_retrace(before.get(), st.playback.step, *st.model, st.step_note);
    st.step_note_at = st.playback.step;
    st.playback.t = 1.0f;
    st.block = std::clamp(st.block, 0, std::max(st.model->grid(0) - 1, 0));
}

int where_after_retrace(const scene::Model* before, int step, const scene::Model& after,
                        std::string& note) {
    note.clear();
    if (!before || step <= 0 || step >= static_cast<int>(before->steps().size()) ||
        before->request().algorithm != after.request().algorithm)
        return 0; // another kernel: its own story, from the start
    const scene::StepKey k = before->key(step);
    for (std::size_t i = 0; i < after.steps().size(); ++i) {
        const scene::StepGroup& g = after.steps()[i];
        if (g.pass == k.pass && g.step == k.step && g.level == k.level && g.block == k.block) {
            note = "kept at " + step_name(after, static_cast<int>(i)) + ", as before the change";
            return static_cast<int>(i);
        }
    }
    note = "back to step 1: " + step_name(*before, step) + " is not in the new trace";
    return 0;
}

} // namespace pplab::ui
