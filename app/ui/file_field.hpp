// Files named in the panels: typed as a path, or, where the platform has a file dialog (the
// page: the browser's, the file copied into the page's memory), chosen with a button.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>

namespace pplab::ui {

struct FileChooser {
    // The platform's dialog, asked with the field's id; empty where paths are typed (the
    // desktop, where a file can also be dropped on the window).
    std::function<void(const std::string& field)> dialog;
    // A file the dialog delivered, for the field that asked: taken in that field's next frame.
    std::optional<std::pair<std::string, std::string>> chosen; // field id, path
};

// The path box (its width as set before, like any ImGui item) and, where there is a dialog,
// a "Choose a file…" button beside it. True in the frame a file was chosen, so the caller
// can open it at once; `entered`, when given, says whether Enter was pressed in the box.
bool file_field(FileChooser& files, const char* id, const char* hint, std::string& path,
                bool* entered = nullptr);

} // namespace pplab::ui
