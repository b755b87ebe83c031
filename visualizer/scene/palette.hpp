// Colours of every view, chosen to stay distinguishable with the common colour-vision
// deficiencies: the accents are Okabe & Ito's palette with three of Paul Tol's, and a
// student's right and wrong chosen apart from them, held apart for normal vision and simulated
// protanopia, deuteranopia and tritanopia by a test; value/bin maps are viridis.
#pragma once

#include "scene.hpp"

#include <string_view>

namespace pplab::scene {

enum class Theme : std::uint8_t { Light, Dark };

struct Palette {
    Rgba background;
    Rgba panel; // group boxes
    Rgba panel_border;
    Rgba text;  // labels
    Rgba muted; // secondary labels, idle things
    Rgba cell;  // a settled value
    Rgba cell_border;
    Rgba cell_text;
    Rgba future;     // outline of a step not reached yet
    Rgba active;     // thread that worked in an earlier step of the row's chain
    Rgba highlight;  // written by the step being shown
    Rgba read;       // read by the step being shown (its outline)
    Rgba idle_warp;  // a warp with no active lane
    Rgba keeps_own;  // shuffle lane whose source lane is outside the warp
    Rgba arrow;      // the current step's data flow
    Rgba arrow_own;  // a thread's own value flowing straight down
    Rgba arrow_past; // data flow of earlier steps
    Rgba carry;      // Blelloch: the carry
    Rgba left_sum;   // Blelloch: the left subtree's sum
    // scan-fast: what a tile has published (nothing: a plain cell). Apart in hue and in
    // lightness, so they read in grey too.
    Rgba aggregate; // its own sum
    Rgba inclusive; // its inclusive prefix
    Rgba barrier;   // __syncthreads()
    Rgba selection; // the selected block in an overview strip
    // The pitfalls: what goes wrong is drawn in one accent, an undefined value in another.
    Rgba race;        // Exercise 2: several threads' writes raced for the cell
    Rgba hazard;      // a read that is not ordered after the write (missing barrier)
    Rgba never_added; // a non-power-of-two tree: the value never reaches s[0]
    Rgba undefined;   // a value the code leaves undefined: shown "?"
    // A student's values, checked against the trace.
    Rgba right;
    Rgba wrong;
};

Palette palette(Theme theme);
std::string_view theme_id(Theme theme);

// viridis(t), t in [0, 1]: perceptually uniform, readable in grey and by colour-blind viewers.
Rgba viridis(float t);

// The value scale, t in [0, 1] from low to high: what a row coloured by value, bin, thread or
// order wears, and the legend's ramp. viridis from its teal to its yellow: its purple and
// blue half came within a glance of the accents that share a view with it (the shuffle's
// indigo, the working threads' blue, the contention row).
Rgba value_scale(float t);

// Black or white, whichever reads better on `fill`.
Rgba text_on(const Rgba& fill);

} // namespace pplab::scene
