// A window that floats over the app (Timing, Export), its fields coloured as on the side
// panels so they stand out from the window's white.
#pragma once

#include "scene/palette.hpp"

#include <functional>

namespace pplab::ui {

void floating_window(const char* title, bool* open, scene::Theme theme,
                     const std::function<void()>& contents);

} // namespace pplab::ui
