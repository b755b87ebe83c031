// The "Your kernel" tab: where the text comes from (the chapter's listing or a puzzle), the
// puzzle's statement and verdicts, Run / Check / Cancel, what the run found (compile errors,
// hazards, faults, the first difference from the chapter's kernel, the counts), and the editor
// with line numbers, the current step's lines lit and the lines of errors and hazards marked.
#include "your_kernel_panel.hpp"

#include "classroom_panel.hpp"
#include "imgui_colors.hpp"
#include "style.hpp"

#include <imgui.h>
#include <imgui_internal.h> // the editor's cursor, to keep it in view
#include <imgui_stdlib.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cinttypes>
#include <set>

namespace pplab::ui {

namespace {

int number_of(const std::string& id) {
    const auto all = sim::puzzles();
    for (std::size_t k = 0; k < all.size(); ++k)
        if (all[k].id == id)
            return static_cast<int>(k) + 1;
    return 0;
}

std::string puzzle_label(const YourKernel& y, const sim::Puzzle& p) {
    std::string s = "Puzzle " + std::to_string(number_of(std::string(p.id))) + ": " +
                    std::string(p.title) + " (" + std::string(p.section) + ")";
    if (const auto it = y.verdicts.find(std::string(p.id)); it != y.verdicts.end())
        s += it->second.solved() ? "  ✓"
                                 : "  " + std::to_string(it->second.passed()) + " of " +
                                       std::to_string(it->second.tests.size());
    return s;
}

const char* status_text(sim::RunResult::Status s) {
    switch (s) {
    case sim::RunResult::Status::CompileFailed:
        return "It does not compile:";
    case sim::RunResult::Status::Faulted:
        return "It stopped with a fault:";
    case sim::RunResult::Status::TimedOut:
        return "It ran out of time:";
    case sim::RunResult::Status::OutOfMemory:
        return "It ran out of memory:";
    case sim::RunResult::Status::Crashed:
        return "It crashed:";
    case sim::RunResult::Status::Cancelled:
        return "Cancelled.";
    case sim::RunResult::Status::Ran:
        break;
    }
    return "";
}

// `text` as lines as wide as the space left, broken at spaces only: ImGui's own wrapping
// also breaks after a "." or a "-", inside "0.5f" or "TILE/2-1".
std::string wrapped(const std::string& text) {
    const auto width = [](std::string_view piece) {
        return ImGui::CalcTextSize(piece.data(), piece.data() + piece.size()).x;
    };
    std::string out;
    bool first = true;
    for (const std::string& line :
         wrap_at_spaces(text, std::max(ImGui::GetContentRegionAvail().x, 1.0f), width)) {
        out += first ? line : "\n" + line;
        first = false;
    }
    return out;
}

void words(const std::string& text, bool muted = false) {
    if (muted)
        ImGui::TextDisabled("%s", wrapped(text).c_str());
    else
        ImGui::TextUnformatted(wrapped(text).c_str());
}

// error_line's, wrapped as words() wraps.
void wrong(const State& st, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_imgui(scene::palette(st.view.theme).wrong));
    if (!text.empty())
        words(text);
    ImGui::PopStyleColor();
}

// A line the student can click to see in the editor (and, for a hazard, on the canvas).
bool line_button(const State& st, const std::string& text, int id, const scene::Rgba& colour) {
    ImGui::PushID(id);
    ImGui::PushStyleColor(ImGuiCol_Text, to_imgui(colour));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::TextUnformatted(wrapped(text).c_str());
    const ImVec2 size = ImGui::GetItemRectSize();
    ImGui::PopStyleColor();
    ImGui::SetCursorScreenPos(at);
    const bool clicked = ImGui::InvisibleButton("line", ImVec2(std::max(size.x, 1.0f), size.y));
    if (ImGui::IsItemHovered()) {
        ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
        tooltip("show it");
    }
    ImGui::PopID();
    (void)st;
    return clicked;
}

} // namespace

void YourKernelPanel::draw(State& st) {
    YourKernel& y = st.your;
    if (y.source.empty())
        your_kernel_fill(st);
    picker(st);
    actions(st);
    // The puzzle and what the run found, above the editor: as tall as they were last frame,
    // at most half of what is left (then they scroll), so the editor always keeps its half.
    const float left = ImGui::GetContentRegionAvail().y;
    const float tall = std::clamp(notes_height_, ImGui::GetFrameHeight(), left * 0.5f);
    ImGui::BeginChild("notes", ImVec2(0, tall), false);
    if (!y.puzzle.empty())
        puzzle(st);
    findings(st);
    notes_height_ = ImGui::GetCursorPosY() + ImGui::GetStyle().ItemSpacing.y;
    ImGui::EndChild();
    editor(st, ImGui::GetContentRegionAvail().y);
}

void YourKernelPanel::picker(State& st) {
    YourKernel& y = st.your;
    const std::string listing =
        "The chapter's listing: " + std::string(info(st.settings.algorithm).title) + " (" +
        std::string(info(st.settings.algorithm).section) + ")";
    const std::string current =
        y.puzzle.empty() ? listing : puzzle_label(y, sim::find_puzzle(y.puzzle));
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##start_from", current.c_str(), ImGuiComboFlags_HeightLargest)) {
        if (ImGui::Selectable(listing.c_str(), y.puzzle.empty()))
            your_kernel_pick(st, "");
        ImGui::Separator();
        for (const sim::Puzzle& p : sim::puzzles())
            if (ImGui::Selectable(puzzle_label(y, p).c_str(), y.puzzle == p.id))
                your_kernel_pick(st, std::string(p.id));
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        tooltip("start from the chapter's listing of the algorithm the controls show, "
                "or from a puzzle's skeleton");
}

void YourKernelPanel::puzzle(State& st) {
    YourKernel& y = st.your;
    const sim::Puzzle& p = sim::find_puzzle(y.puzzle);
    const scene::Palette pal = scene::palette(st.view.theme);
    if (ImGui::CollapsingHeader("The puzzle", ImGuiTreeNodeFlags_DefaultOpen)) {
        words(std::string(p.statement));
        // The idea first; the lines that do it only when asked for again.
        if (y.show_hint) {
            ImGui::PushStyleColor(ImGuiCol_Text, to_imgui(pal.read));
            words("Hint: " + std::string(p.hint));
            if (y.show_answer)
                words("The lines that do it: " + std::string(p.answer));
            ImGui::PopStyleColor();
            if (!y.show_answer && ImGui::SmallButton("Show the answer"))
                y.show_answer = true;
        } else if (ImGui::SmallButton("Show a hint")) {
            y.show_hint = true;
        }
    }
    const auto it = y.verdicts.find(y.puzzle);
    const std::string tests = it == y.verdicts.end()
                                  ? "Hidden tests (" + std::to_string(p.tests.size()) + ")"
                                  : "Hidden tests: " + std::to_string(it->second.passed()) +
                                        " of " + std::to_string(it->second.tests.size()) +
                                        " pass###hidden_tests";
    if (!ImGui::CollapsingHeader(tests.c_str(), ImGuiTreeNodeFlags_DefaultOpen))
        return;
    int failures = 0;
    for (std::size_t k = 0; k < p.tests.size(); ++k) {
        const sim::TestVerdict* v =
            it != y.verdicts.end() && k < it->second.tests.size() ? &it->second.tests[k] : nullptr;
        if (!v || !v->ran)
            ImGui::TextDisabled("·");
        else if (v->passed)
            ImGui::TextColored(to_imgui(pal.right), "✓");
        else
            ImGui::TextColored(to_imgui(pal.wrong), "✗");
        ImGui::SameLine();
        words(p.tests[k].what);
        if (v && v->ran && !v->passed) {
            // The first failure in full; the others by their first sentence (hover: all).
            const std::string shown =
                failures++ == 0 ? v->why : v->why.substr(0, v->why.find(". ") + 1);
            ImGui::Indent();
            if (line_button(st, shown, static_cast<int>(k), pal.wrong) && v->first_hazard_line)
                y.scroll_to_line = v->first_hazard_line;
            if (shown.size() < v->why.size() && ImGui::IsItemHovered())
                tooltip("%s", v->why.c_str());
            ImGui::Unindent();
        }
    }
    if (it != y.verdicts.end() && it->second.solved()) {
        ImGui::PushFont(st.fonts.large);
        ImGui::TextColored(to_imgui(pal.right), "✓ Solved");
        ImGui::PopFont();
    }
}

void YourKernelPanel::actions(State& st) {
    YourKernel& y = st.your;
    const bool running = y.job.valid();
    const bool checking = y.check.has_value();
    if (ImGui::Button(running ? "Run again" : "▶ Run"))
        your_kernel_run(st);
    if (ImGui::IsItemHovered())
        tooltip("compile and run your kernel with the controls' launch and input, in a "
                "separate process (Ctrl+Enter in the editor)");
    if (!y.puzzle.empty()) {
        ImGui::SameLine();
        if (ImGui::Button("Check on the hidden tests"))
            your_kernel_check(st);
    }
    if (running || checking) {
        ImGui::SameLine();
        if (ImGui::Button("Cancel"))
            your_kernel_cancel(st);
    }
    ImGui::SameLine();
    if (ImGui::Button(y.puzzle.empty() ? "Reset to the listing" : "Reset to the skeleton"))
        ImGui::OpenPopup("reset");
    if (ImGui::BeginPopup("reset")) {
        ImGui::TextUnformatted("Your text for this kernel will be replaced.");
        if (ImGui::Button("Replace it")) {
            your_kernel_reset(st);
            ++generation_;
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Keep it"))
            ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
    timing_size(st);
    if (checking) {
        const float done = static_cast<float>(y.check->done->load());
        ImGui::ProgressBar(done / static_cast<float>(std::max(y.check->total, 1)), ImVec2(-1, 0),
                           ("hidden test " + std::to_string(static_cast<int>(done) + 1) + " of " +
                            std::to_string(y.check->total))
                               .c_str());
    } else if (running) {
        ImGui::TextDisabled("compiling and running your kernel in its own process…");
    }
}

} // namespace pplab::ui

namespace pplab::ui {

namespace {

// What the canvas shows after a run that did not run to its end.
void canvas_note(const YourKernel& y, const KernelRun& run) {
    const sim::RunResult& r = run.result;
    if (r.ok() || r.status == sim::RunResult::Status::Cancelled)
        return;
    if (run.model)
        words("The canvas shows this run up to where it stopped, the fault marked.", true);
    else if (y.model)
        words("The canvas shows your last good run: this one gave no trace to draw.", true);
    else
        words("The canvas shows the chapter's kernel: none of your runs has given a trace "
              "to draw yet.",
              true);
}

} // namespace

void YourKernelPanel::findings(State& st) {
    YourKernel& y = st.your;
    const scene::Palette pal = scene::palette(st.view.theme);
    const auto* check = y.puzzle.empty() ? nullptr : [&]() -> const sim::PuzzleVerdict* {
        const auto it = y.verdicts.find(y.puzzle);
        return it == y.verdicts.end() ? nullptr : &it->second;
    }();
    if (check && !check->compiled) {
        wrong(st, "The hidden tests did not run: your kernel does not compile.");
        for (std::size_t k = 0; k < check->errors.size(); ++k) {
            const sim::CompileError& e = check->errors[k];
            if (line_button(st, "line " + std::to_string(e.line) + ": " + e.message,
                            1000 + static_cast<int>(k), pal.wrong))
                y.scroll_to_line = e.line;
        }
    }
    if (!y.last) {
        if (!check && y.puzzle.empty())
            words("Edit the kernel, then Run: pplab compiles it with the C++ compiler, runs "
                  "each CUDA thread as a fiber in a separate process and draws what it did "
                  "on the canvas, step by step, with the chapter's captions; where yours departs "
                  "from the chapter's kernel, the caption says so first.",
                  true);
        return;
    }
    const KernelRun& run = *y.last;
    const sim::RunResult& r = run.result;
    if (!run.error.empty()) {
        wrong(st, run.error);
    } else if (!r.ok()) {
        wrong(st, status_text(r.status));
        // A fault at a hazard is said once, in the hazards' list below (click: shown).
        const bool listed = std::any_of(r.hazards.begin(), r.hazards.end(),
                                        [](const sim::Hazard& h) { return h.fatal; });
        if (r.stopped_line > 0 || r.last_seen_line > 0) {
            if (line_button(st, r.message, 200, pal.wrong))
                y.scroll_to_line = r.stopped_line > 0 ? r.stopped_line : r.last_seen_line;
        } else if (r.status != sim::RunResult::Status::CompileFailed &&
                   r.status != sim::RunResult::Status::Cancelled && !listed) {
            wrong(st, r.message);
        }
        for (std::size_t k = 0; k < r.errors.size(); ++k)
            if (line_button(st,
                            "line " + std::to_string(r.errors[k].line) + ": " + r.errors[k].message,
                            static_cast<int>(k), pal.wrong))
                y.scroll_to_line = r.errors[k].line;
    } else if (run.same_as_chapter && r.hazards.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, to_imgui(pal.right));
        words("✓ " + run.difference);
        ImGui::PopStyleColor();
    } else {
        words(run.difference);
    }
    if (!r.hazards.empty()) {
        ImGui::TextColored(to_imgui(pal.race),
                           "%zu hazard%s (click one to see it):", r.hazards.size(),
                           r.hazards.size() == 1 ? "" : "s");
        for (std::size_t k = 0; k < r.hazards.size(); ++k) {
            const sim::Hazard& h = r.hazards[k];
            std::string text = "line " + std::to_string(h.line) + ": " + h.message;
            if (h.count > 1)
                text += " (" + std::to_string(h.count) + " times)";
            if (line_button(st, text, 100 + static_cast<int>(k),
                            h.kind == sim::HazardKind::Race ? pal.race : pal.hazard))
                your_kernel_show_hazard(st, h);
        }
    }
    for (const std::string& n : r.notes)
        words("note: " + n, true);
    canvas_note(y, run);
    if (run.model && run.chapter_counted)
        counts(st, run);
    on_the_gpu(st);
    if (!r.printed.empty() && ImGui::TreeNode("What your kernel printed")) {
        ImGui::PushFont(st.fonts.mono);
        ImGui::TextUnformatted(r.printed.c_str());
        ImGui::PopFont();
        ImGui::TreePop();
    }
}

// What the kernel did, counted as it ran, beside what the chapter's kernel does on the launch.
void YourKernelPanel::counts(const State& st, const KernelRun& run) {
    const scene::Palette pal = scene::palette(st.view.theme);
    if (!ImGui::TreeNode("Counted as it ran, beside the chapter's kernel"))
        return;
    if (ImGui::BeginTable("counted", 3, ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("yours");
        ImGui::TableNextColumn();
        ImGui::TextDisabled("the chapter's");
        for (const auto& [name, id, field] : counter_fields()) {
            if (field == &Counters::additions) // not observed as it runs
                continue;
            const std::int64_t mine = run.result.counted.*field;
            const std::int64_t theirs = (*run.chapter_counted).*field;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(name.data(), name.data() + name.size());
            ImGui::TableNextColumn();
            if (mine == theirs)
                ImGui::Text("%" PRId64, mine);
            else
                ImGui::TextColored(to_imgui(pal.wrong), "%" PRId64, mine);
            ImGui::TableNextColumn();
            ImGui::Text("%" PRId64, theirs);
        }
        ImGui::EndTable();
    }
    ImGui::TreePop();
}

} // namespace pplab::ui

namespace pplab::ui {

namespace {

int count_lines(const std::string& text) {
    return static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
}

float widest_line(const std::string& text) {
    float widest = 0;
    for (std::size_t p = 0; p <= text.size();) {
        const std::size_t e = std::min(text.find('\n', p), text.size());
        widest = std::max(widest, ImGui::CalcTextSize(text.data() + p, text.data() + e).x);
        p = e + 1;
    }
    return widest;
}

// Lines of the run's compile errors and hazards, marked in the gutter.
std::set<int> marked_lines(const YourKernel& y) {
    std::set<int> lines;
    if (y.last) {
        for (const sim::CompileError& e : y.last->result.errors)
            lines.insert(e.line);
        for (const sim::Hazard& h : y.last->result.hazards)
            lines.insert(h.line);
        if (y.last->result.stopped_line > 0)
            lines.insert(y.last->result.stopped_line);
    }
    if (const auto it = y.verdicts.find(y.puzzle); !y.puzzle.empty() && it != y.verdicts.end())
        for (const sim::CompileError& e : it->second.errors)
            lines.insert(e.line);
    return lines;
}

} // namespace

// A multi-line text box sized to its whole text inside a scrolling child, so the child's
// scroll says where each line is (ImGui 1.86's InputTextMultiline cannot wrap; its own
// horizontal scroll is off, the child follows the cursor both ways): the lit lines and marks are
// drawn behind the text, the line numbers beside it. Ctrl+Enter runs.
void YourKernelPanel::editor(State& st, float height) {
    YourKernel& y = st.your;
    const scene::Palette pal = scene::palette(st.view.theme);
    const bool fresh = y.origin != origin_seen_;
    if (fresh) {
        origin_seen_ = y.origin;
        ++generation_; // another text: a fresh widget, not ImGui's copy of the old one
    }
    ImGui::PushFont(st.fonts.mono);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float line_h = ImGui::GetFontSize();
    const int lines = count_lines(y.source);
    const float gutter = ImGui::CalcTextSize("000").x + style.ItemSpacing.x;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, to_imgui(pal.cell));
    ImGui::BeginChild("editor", ImVec2(0, std::max(height, line_h * 4)), true,
                      ImGuiWindowFlags_HorizontalScrollbar);
    if (fresh) // its lines start at the left edge, wherever the last text's cursor had taken it
        ImGui::SetScrollX(0);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    // The gutter stays at the child's left edge however far the text is scrolled across: its
    // left is the origin plus the horizontal scroll, and the text is clipped to its right.
    const float gutter_x = origin.x + ImGui::GetScrollX();
    const float text_y = origin.y + style.FramePadding.y;
    const float width = std::max(ImGui::GetContentRegionAvail().x - gutter,
                                 widest_line(y.source) + style.FramePadding.x * 2 + line_h);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float right = origin.x + gutter + width;
    const std::vector<int> lit = your_kernel_lit_lines(st);
    for (const int line : lit) {
        const float top = text_y + static_cast<float>(line - 1) * line_h;
        dl->AddRectFilled(ImVec2(gutter_x, top), ImVec2(right, top + line_h),
                          to_u32(pal.highlight, 0.3f));
        dl->AddRectFilled(ImVec2(gutter_x, top), ImVec2(gutter_x + 3, top + line_h),
                          to_u32(pal.highlight));
    }
    const std::set<int> marked = marked_lines(y);
    for (int line = 1; line <= lines; ++line) {
        const float top = text_y + static_cast<float>(line - 1) * line_h;
        const bool mark = marked.count(line) > 0;
        if (mark)
            dl->AddRectFilled(ImVec2(gutter_x, top), ImVec2(right, top + line_h),
                              to_u32(pal.wrong, 0.16f));
        const std::string number = std::to_string(line);
        dl->AddText(
            ImVec2(gutter_x + gutter - style.ItemSpacing.x - ImGui::CalcTextSize(number.c_str()).x,
                   top),
            mark ? to_u32(pal.wrong) : to_u32(pal.muted, 0.8f), number.c_str());
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x + gutter, origin.y));
    ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0, 0, 0, 0));
    ImGui::PushStyleColor(ImGuiCol_Text, to_imgui(pal.cell_text));
    const std::string id = "##source" + std::to_string(generation_);
    const float box_h = static_cast<float>(lines + 1) * line_h + style.FramePadding.y * 2;
    // The box's own child window takes this clip rectangle as its outer one (and a click on the
    // numbers does not reach the text).
    const ImVec2 clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
    ImGui::PushClipRect(ImVec2(gutter_x + gutter, ImGui::GetWindowDrawList()->GetClipRectMin().y),
                        clip_max, true);
    if (ImGui::InputTextMultiline(id.c_str(), &y.source, ImVec2(width, box_h),
                                  ImGuiInputTextFlags_AllowTabInput |
                                      ImGuiInputTextFlags_NoHorizontalScroll)) {
        y.edited = true;
        y.drafts[y.origin] = y.source;
    }
    ImGui::PopClipRect();
    ImGui::PopStyleColor(2);
    const ImGuiID box = ImGui::GetItemID();
    const bool active = ImGui::IsItemActive();
    if (ImGui::IsItemDeactivated() && ImGui::GetIO().KeyCtrl &&
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)))
        your_kernel_run(st);
    // Keep the cursor in view as it moves (the box itself never scrolls: it holds every line).
    if (const ImGuiInputTextState* state = active ? ImGui::GetInputTextState(box) : nullptr) {
        const int cursor = state->Stb.cursor;
        if (cursor != cursor_seen_) {
            cursor_seen_ = cursor;
            int line = 0, line_start = 0;
            for (int k = 0; k < cursor && k < state->CurLenW; ++k)
                if (state->TextW[k] == '\n') {
                    ++line;
                    line_start = k + 1;
                }
            const float top = style.FramePadding.y + static_cast<float>(line) * line_h;
            if (top < ImGui::GetScrollY())
                ImGui::SetScrollY(top);
            else if (top + line_h * 2 > ImGui::GetScrollY() + ImGui::GetWindowHeight())
                ImGui::SetScrollY(top + line_h * 2 - ImGui::GetWindowHeight());
            // Across too: the box is as wide as the longest line, the child scrolls to the cursor.
            std::string before(static_cast<std::size_t>(cursor - line_start) * 4 + 1, '\0');
            const int bytes =
                ImTextStrToUtf8(before.data(), static_cast<int>(before.size()),
                                state->TextW.Data + line_start, state->TextW.Data + cursor);
            const float x = gutter + style.FramePadding.x +
                            ImGui::CalcTextSize(before.data(), before.data() + bytes).x;
            const float seen = ImGui::GetWindowWidth() - style.ScrollbarSize;
            if (x - line_h * 2 < ImGui::GetScrollX() + gutter)
                ImGui::SetScrollX(std::max(0.0f, x - line_h * 2 - gutter));
            else if (x + line_h * 2 > ImGui::GetScrollX() + seen)
                ImGui::SetScrollX(x + line_h * 2 - seen);
        }
    }
    // A line asked for (an error, a hazard), or the step's lit lines, brought into view once.
    int want = y.scroll_to_line;
    y.scroll_to_line = 0;
    if (!want && !lit.empty() && !active &&
        (scrolled_for_step_ != st.playback.step || scrolled_for_model_ != st.model.get())) {
        scrolled_for_step_ = st.playback.step;
        scrolled_for_model_ = st.model.get();
        want = lit.front();
    }
    if (want > 0)
        ImGui::SetScrollY(std::max(0.0f, static_cast<float>(want - 1) * line_h -
                                             ImGui::GetWindowHeight() * 0.3f));
    ImGui::EndChild();
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

// The size the GPU times the kernel at, beside the buttons, where there is a GPU to time on.
void YourKernelPanel::timing_size(State& st) {
    YourKernel& y = st.your;
    if (st.settings.backend == "cpu" || !gpu_why(y, st.settings.algorithm).empty())
        return;
    const auto size_name = [](int log2) {
        return log2 == 0 ? std::string("not timed") : "n = 2^" + std::to_string(log2);
    };
    // A row of its own: beside the buttons its label ran past the column's edge.
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Time on the GPU at");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("not timed").x + ImGui::GetFrameHeight() * 2);
    if (ImGui::BeginCombo("##time", size_name(y.time_log2).c_str())) {
        if (ImGui::Selectable("not timed", y.time_log2 == 0))
            your_kernel_time(st, 0);
        for (const int log2 : kTimeLog2)
            if (ImGui::Selectable(size_name(log2).c_str(), y.time_log2 == log2))
                your_kernel_time(st, log2);
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        tooltip("after each run, time your kernel on the GPU at this size (CUDA events, the "
                "median of 20 runs) beside the chapter's kernel and CUB, as pplab bench does");
}

// The timed run beside the chapter's kernel and CUB, as the Timing panel measures them.
void YourKernelPanel::timing_table(const State& st, const sim::DeviceCheck& d) {
    const sim::GpuRun& t = d.timed;
    const std::string at =
        "n = 2^" + std::to_string(std::countr_zero(static_cast<unsigned long long>(d.timed_n)));
    if (t.status != sim::GpuRun::Status::Ran) {
        wrong(st, "Timing at " + at + ": " + t.message);
        return;
    }
    words("Timed on the GPU at " + at + ", block " + std::to_string(d.timed_block) +
              ": the median of " + std::to_string(d.runs) + " runs after " +
              std::to_string(d.warmups) + " warm-ups (CUDA events)" +
              (d.not_validated.empty() ? ", the output checked against a serial sum first." : "."),
          true);
    if (!d.not_validated.empty())
        wrong(st, "NOT VALIDATED (the timed output is wrong): " + d.not_validated);
    if (ImGui::BeginTable("timed", 3, ImGuiTableFlags_SizingStretchProp)) {
        for (const char* head : {"", "ms (median)", "GB/s"}) {
            ImGui::TableNextColumn();
            ImGui::TextDisabled("%s", head);
        }
        for (const sim::TimedRow& r : d.rows) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(r.what.c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%.4f", r.ms);
            ImGui::TableNextColumn();
            ImGui::Text("%.0f", r.bytes / (r.ms * 1e6));
        }
        ImGui::EndTable();
    }
    words(d.beside_note.empty() ? "copy roof (cudaMemcpy, read + write, the same run): " +
                                      std::to_string(static_cast<int>(d.copy_gbps)) + " GB/s"
                                : "(" + d.beside_note + ")",
          true);
}

// The latest run's file on the GPU: its output against the simulator's, and its timing.
void YourKernelPanel::on_the_gpu(State& st) {
    YourKernel& y = st.your;
    const scene::Palette pal = scene::palette(st.view.theme);
    if (!y.device_note.empty()) {
        words(y.device_note, y.last && y.last->settings.backend != "cuda");
        if (ImGui::IsItemHovered())
            tooltip("with nvcc and an NVIDIA GPU, Run also runs your file there, compares its "
                    "output with the simulator's and times it beside the chapter's kernel and CUB");
    }
    if (y.device_job.valid()) {
        ImGui::TextDisabled("compiling your file with nvcc and running it on the GPU…");
        return;
    }
    if (!y.device)
        return;
    const sim::DeviceCheck& d = *y.device;
    const sim::GpuRun& g = d.run;
    if (g.status == sim::GpuRun::Status::Skipped) {
        words("Not run on the GPU: " + g.message + ".", true);
        return;
    }
    if (g.status == sim::GpuRun::Status::CompileFailed) {
        wrong(st, "On the GPU: your kernel does not compile with nvcc.");
        for (std::size_t k = 0; k < g.errors.size(); ++k)
            if (line_button(st,
                            "line " + std::to_string(g.errors[k].line) +
                                " (nvcc): " + g.errors[k].message,
                            300 + static_cast<int>(k), pal.wrong))
                y.scroll_to_line = g.errors[k].line;
        return;
    }
    if (g.status != sim::GpuRun::Status::Ran) {
        wrong(st, "On the GPU: " + g.message);
        return;
    }
    if (d.difference.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, to_imgui(pal.right));
        words("✓ On the GPU (" + g.device +
              "): the same output as the simulator's run, bit for "
              "bit.");
        ImGui::PopStyleColor();
    } else {
        wrong(st, "On the GPU (" + g.device + "): " + d.difference + ".");
    }
    if (d.timed_n > 0)
        timing_table(st, d);
}

} // namespace pplab::ui
