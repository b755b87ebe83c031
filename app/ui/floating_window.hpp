// A window that floats over the app (Timing, Export), its fields coloured as on the side
// panels so they stand out from the window's white.
#pragma once

#include "scene/palette.hpp"

#include <functional>

namespace pplab::ui {

// `fit`: the window takes the height of its contents every frame (a message that appears
// below the buttons is never out of sight).
void floating_window(const char* title, bool* open, scene::Theme theme,
                     const std::function<void()>& contents, bool fit = false);

} // namespace pplab::ui
