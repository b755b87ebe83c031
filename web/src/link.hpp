// What the page's address asks for, so that a course page can link straight to a step:
//   index.html?algo=scan-blelloch&input=1,2,3,4&step=6
// The parameters are the command line's options without the dashes (algo, input, n, gen,
// seed, block, grid, bins, inclusive, no-skip-empty, order-seed, pitfall, active-lanes; step,
// shown-block, theme, camera, scale, size, width, height as `pplab render` takes them),
// view=picture (the step alone, drawn as `pplab render` draws it, from its defaults: the
// chapter's block, 256 bins), and tab=source|classroom|
// your-kernel (the tab the window's right column opens on).
#pragma once

#include "settings.hpp"

#include "scene/palette.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pplab::web {

// The right column's tabs.
enum class Tab { Source, Classroom, YourKernel };

struct Link {
    ui::Settings settings;
    int step = 0;         // 1 to the number of steps, as the transport counts; 0: the first
    int shown_block = 0;  // the block the canvas shows, from 0
    bool picture = false; // view=picture
    int width = 1280, height = 800; // the picture's size, as `pplab render`'s defaults
    scene::Theme theme = scene::Theme::Light;
    bool fit = false; // camera=fit
    Tab tab = Tab::Source;
    int scale_percent = 0;           // the presenter scale; 0: the window's 100%, or in a picture
                                     // text that grows with the picture
    std::vector<std::string> errors; // what could not be read, one message each
};

// Reads a query string ("?a=1&b=2", with or without the "?"), starting from `defaults`.
// Never throws: a parameter it cannot read is named in `errors` and left at its default.
Link read_link(std::string_view query, const ui::Settings& defaults);

} // namespace pplab::web
