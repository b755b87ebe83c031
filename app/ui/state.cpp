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
