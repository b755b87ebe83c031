#include "state.hpp"

namespace pplab::ui {

std::size_t State::frame() const {
    return model ? model->frame_at(playback.step, block) : 0;
}

int State::steps() const {
    return model ? static_cast<int>(model->steps().size()) : 0;
}

} // namespace pplab::ui
