#include "window_fonts.hpp"

#include "style.hpp"

#include "render/gl_renderer.hpp"

#include <cfloat>
#include <cmath>

namespace pplab::test {

namespace {

constexpr float kScales[] = {0.75f, 1.0f, 1.25f, 1.5f, 1.75f, 2.0f, 2.25f, 2.5f, 2.75f, 3.0f};

} // namespace

WindowFonts::WindowFonts() : context_(ImGui::CreateContext()) {
    ImGui::SetCurrentContext(context_);
    ImGui::GetIO().IniFilename = nullptr;
    for (const float scale : kScales) { // as App::load_fonts
        const ui::Metrics m = ui::metrics(scale);
        for (const float px : {m.font, m.large, std::round(m.font * 0.85f)})
            fonts_.push_back(ui::add_font(render::ui_font(), px));
    }
    ImGui::GetIO().Fonts->Build();
    unsigned char* pixels = nullptr; // what a renderer back end asks for before a frame
    int width = 0, height = 0;
    ImGui::GetIO().Fonts->GetTexDataAsAlpha8(&pixels, &width, &height);
}

WindowFonts::~WindowFonts() {
    ImGui::DestroyContext(context_);
}

const ImFont* WindowFonts::nearest(float px) const {
    const ImFont* best = fonts_.front();
    for (const ImFont* f : fonts_)
        if (std::fabs(f->FontSize - px) < std::fabs(best->FontSize - px))
            best = f;
    return best;
}

ImFont* WindowFonts::regular(float scale) const {
    const float px = ui::metrics(scale).font;
    for (ImFont* f : fonts_)
        if (f->FontSize == px)
            return f;
    return fonts_.front();
}

float WindowFonts::width(std::string_view text, float px) const {
    return ui::text_width(*nearest(px), text, px);
}

int WindowFonts::lines(std::string_view text, float px, float wrap_width) const {
    return static_cast<int>(ui::caption_wrapped(*nearest(px), px, wrap_width, text).size());
}

ui::TextWidth WindowFonts::measure() const {
    return [this](std::string_view text, float px) { return width(text, px); };
}

const WindowFonts& window_fonts() {
    static const WindowFonts fonts;
    return fonts;
}

} // namespace pplab::test
