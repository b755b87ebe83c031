// The scene's colours as Dear ImGui takes them.
#pragma once

#include "scene/palette.hpp"

#include <imgui.h>

namespace pplab::ui {

inline ImVec4 to_imgui(const scene::Rgba& c, float alpha = 1.0f) {
    return ImVec4(c.r, c.g, c.b, c.a * alpha);
}

inline ImU32 to_u32(const scene::Rgba& c, float alpha = 1.0f) {
    return ImGui::GetColorU32(to_imgui(c, alpha));
}

} // namespace pplab::ui
