// What the panels share: the settings being edited, the trace on screen, where playback
// stands and how the canvas is viewed. Panels read and edit it; App owns it.
#pragma once

#include "classroom.hpp"
#include "file_field.hpp"
#include "playback.hpp"
#include "settings.hpp"
#include "your_kernel.hpp"

#include "scene/model.hpp"
#include "scene/palette.hpp"

#include <memory>
#include <string>

struct ImFont;

namespace pplab::ui {

struct Fonts {
    ImFont* regular = nullptr;
    ImFont* large = nullptr;      // captions: read from the back of the room
    ImFont* small = nullptr;      // a caption too long for two lines of the large type
    ImFont* mono = nullptr;       // the kernel's source
    ImFont* mono_large = nullptr; // a float's bits, read from the back of the room
};

enum class CameraMode { Fit, Follow, Free };

struct ViewSettings {
    scene::Theme theme = scene::Theme::Light;
    float presenter_scale = 1.0f; // Ctrl+ / Ctrl-: every font and the canvas's labels
    bool show_controls = true;
    bool show_source = true;
    bool past_arrows = true;
    CameraMode camera = CameraMode::Follow;
    bool present = false; // P: the caption, the canvas and the transport only
    // A column that is wanted but folded (no room beside the canvas) opens over the stage.
    bool controls_drawer = false;
    bool source_drawer = false;
};

struct State {
    Settings settings;                         // as the controls show them
    std::shared_ptr<const scene::Model> model; // the trace on screen (the last good one)
    // The chapter's kernel's trace for the settings (the tracer's latest): on screen unless
    // the Your kernel tab shows the student's.
    std::shared_ptr<const scene::Model> chapter;
    std::string error; // why the latest settings did not trace
    std::string note;  // the back end's fallback note
    bool note_dismissed = false;
    // Where a new trace opened playback, when the settings changed: said beside the transport
    // until the next step.
    std::string step_note;
    int step_note_at = -1; // the step it is about
    Playback playback;
    int block = 0; // the block the canvas shows
    ViewSettings view;
    Fonts fonts;
    Classroom classroom; // practice, hand-traces, exercises, pitfalls, session files
    YourKernel your;     // the student's kernel: the editor, its runs, the puzzles
    FileChooser files;   // the platform's file dialog, if it has one (the page)
    // The model and settings were set together (a saved trace opened): the settings are
    // taken as traced, not traced again until edited.
    bool adopt_settings = false;

    // The frame the canvas shows: the selected block's frame of the current step.
    std::size_t frame() const;
    int steps() const;
};

// "tree-level 2", "clear-root": a step as the transport names it.
std::string step_name(const scene::Model& m, int step);

// The toolbar's block selector. A step about one block (a block's turn in the fold or the
// atomic sum, a scan-fast tile's publish or look-back) shows that block whichever is selected:
// the selector shows it too, and scan-fast's are tiles (its blocks take tiles in ticket order,
// and the caption speaks of tiles). Else it shows the selected block.
struct BlockSelector {
    const char* noun = "Block";  // the toolbar's label
    const char* named = "block"; // in a sentence
    int shown = 0;               // 0-based
    int count = 1;
};
BlockSelector block_selector(const scene::Model& m, int step, int selected);
// The step to show when `block` is chosen in the selector: where the step is about one block,
// the same event of the chosen block (tile 0, which has no look-back, its publish); else the
// step itself (the selection changes which block's frames it shows).
int step_for_block(const scene::Model& m, int step, int block);

// Puts a trace on the canvas: playback stays at the same step where the new trace has it (and
// says so), the block shown stays within its grid.
void show_model(State& st, std::shared_ptr<const scene::Model> m);

// Where playback opens in the trace of changed settings: the same step when it exists in the
// new trace (same kernel, pass, step, level and block), else step 1; `note` says which.
int where_after_retrace(const scene::Model* before, int step, const scene::Model& after,
                        std::string& note);

} // namespace pplab::ui
