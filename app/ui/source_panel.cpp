// The kernel source beside the canvas: the listing as this launch ran it, the current step's
// lines lit, pplab's code told apart from the chapter's, a pitfall's or an option's changes
// drawn as a diff against the chapter's code, and notes where the chapter's text and the run
// part (its comment on where the block total ends).
#include "imgui_colors.hpp"
#include "panels.hpp"

#include <algorithm>
#include <string>

namespace pplab::ui {

namespace {

// The gutter mark of a row: what the row is against the chapter's code.
const char* gutter(SourceRow::Kind k) {
    switch (k) {
    case SourceRow::Kind::Chapter:
        return " ";
    case SourceRow::Kind::Pplab:
        return "·";
    case SourceRow::Kind::Changed:
        return "+";
    case SourceRow::Kind::Removed:
        return "−";
    case SourceRow::Kind::Note:
        return " ";
    }
    return " ";
}

bool is_comment(const std::string& text) {
    const std::size_t first = text.find_first_not_of(' ');
    return first != std::string::npos && text.compare(first, 2, "//") == 0;
}

} // namespace

std::vector<SourceRow> source_rows(const Listing& l, const Trace& t) {
    std::vector<SourceRow> rows;
    std::size_t removed = 0;
    const auto flush_removed = [&](std::size_t before) {
        for (; removed < l.removed.size() && l.removed[removed].before <= before; ++removed)
            rows.push_back({SourceRow::Kind::Removed, l.removed[removed].text, -1});
    };
    for (std::size_t i = 0; i < l.lines.size(); ++i) {
        flush_removed(i);
        const SourceRow::Kind kind = l.origin[i] == LineOrigin::Chapter ? SourceRow::Kind::Chapter
                                     : l.origin[i] == LineOrigin::Pplab ? SourceRow::Kind::Pplab
                                                                        : SourceRow::Kind::Changed;
        rows.push_back({kind, l.lines[i], static_cast<int>(i)});
        if (!l.note[i].empty())
            if (std::string note = listing_note(l.note[i], t); !note.empty())
                rows.push_back({SourceRow::Kind::Note, std::move(note), static_cast<int>(i)});
    }
    flush_removed(l.lines.size());
    return rows;
}

void SourcePanel::rebuild(const scene::Model& m) {
    listing_ = listing(m.request());
    rows_ = source_rows(listing_, m.trace());
    diff_ = !listing_.removed.empty() ||
            std::any_of(listing_.origin.begin(), listing_.origin.end(),
                        [](LineOrigin o) { return o == LineOrigin::Changed; });
    listing_for_ = &m;
    scrolled_for_step_ = -1;
}

void SourcePanel::draw_header(const State& st) const {
    const scene::Palette pal = scene::palette(st.view.theme);
    const AlgorithmInfo& a = info(st.model->request().algorithm);
    ImGui::TextDisabled("%s.cu", std::string(a.id).c_str());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(to_imgui(pal.muted), "%s", listing_.about.c_str());
    if (diff_)
        ImGui::TextColored(to_imgui(pal.muted),
                           "+ pplab's change to the chapter's code for this launch; − a line of "
                           "the chapter's this launch does not run; · pplab's own code");
    ImGui::PopTextWrapPos();
    ImGui::Separator();
}

void SourcePanel::draw(const State& st) {
    if (!st.model)
        return;
    if (listing_for_ != st.model.get())
        rebuild(*st.model);
    const Step now = st.model->steps().at(static_cast<std::size_t>(st.playback.step)).step;
    const scene::Palette pal = scene::palette(st.view.theme);
    draw_header(st);
    ImGui::BeginChild("source", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(st.fonts.mono);
    const float line_h = ImGui::GetTextLineHeightWithSpacing();
    int first_hit = -1;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float right = ImGui::GetWindowWidth() + ImGui::GetScrollX();
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        const SourceRow& row = rows_[r];
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const bool hot = row.kind != SourceRow::Kind::Note && row.line >= 0 &&
                         listing_.runs(static_cast<std::size_t>(row.line), now);
        if (hot) {
            if (first_hit < 0)
                first_hit = static_cast<int>(r);
            dl->AddRectFilled(ImVec2(p.x - 4, p.y - 1), ImVec2(p.x + right, p.y + line_h - 1),
                              to_u32(pal.highlight, 0.3f));
            dl->AddRectFilled(ImVec2(p.x - 4, p.y - 1), ImVec2(p.x - 1, p.y + line_h - 1),
                              to_u32(pal.highlight));
        } else if (row.kind == SourceRow::Kind::Changed) {
            dl->AddRectFilled(ImVec2(p.x - 4, p.y - 1), ImVec2(p.x + right, p.y + line_h - 1),
                              to_u32(pal.right, 0.15f));
        } else if (row.kind == SourceRow::Kind::Removed) {
            dl->AddRectFilled(ImVec2(p.x - 4, p.y - 1), ImVec2(p.x + right, p.y + line_h - 1),
                              to_u32(pal.wrong, 0.12f));
        }
        if (row.kind == SourceRow::Kind::Note) {
            ImGui::TextColored(to_imgui(pal.muted, 0.8f), "   ");
            ImGui::SameLine();
            // Wrap at the visible edge, not at the longest line's (the child scrolls sideways).
            ImGui::PushTextWrapPos(ImGui::GetScrollX() + ImGui::GetWindowContentRegionMax().x);
            ImGui::TextColored(to_imgui(pal.hazard), "▲ %s", row.text.c_str());
            ImGui::PopTextWrapPos();
            continue;
        }
        const scene::Rgba mark = row.kind == SourceRow::Kind::Changed   ? pal.right
                                 : row.kind == SourceRow::Kind::Removed ? pal.wrong
                                                                        : pal.muted;
        if (row.line >= 0)
            ImGui::TextColored(to_imgui(pal.muted, 0.8f), "%2d", row.line + 1);
        else
            ImGui::TextColored(to_imgui(pal.muted, 0.8f), "  ");
        ImGui::SameLine();
        ImGui::TextColored(to_imgui(mark), "%s", gutter(row.kind));
        ImGui::SameLine();
        const ImVec2 text_at = ImGui::GetCursorScreenPos();
        const scene::Rgba colour = row.kind == SourceRow::Kind::Removed ? pal.wrong
                                   : is_comment(row.text)               ? pal.muted
                                   : row.kind == SourceRow::Kind::Pplab
                                       ? scene::mix(pal.text, pal.muted, 0.35f)
                                       : pal.text;
        ImGui::TextColored(to_imgui(colour), "%s", row.text.c_str());
        if (row.kind == SourceRow::Kind::Removed) {
            // Struck through: the chapter's line, not run by this launch.
            const float width = ImGui::CalcTextSize(row.text.c_str()).x;
            const float first =
                ImGui::CalcTextSize(row.text.substr(0, row.text.find_first_not_of(' ')).c_str()).x;
            const float y = text_at.y + line_h * 0.45f;
            dl->AddLine(ImVec2(text_at.x + first, y), ImVec2(text_at.x + width, y),
                        to_u32(pal.wrong), std::max(1.5f, line_h * 0.08f));
        }
    }
    // Bring the step's lines into view once per step, not while the user scrolls.
    if (first_hit >= 0 &&
        (scrolled_for_step_ != st.playback.step || scrolled_for_model_ != st.model.get())) {
        ImGui::SetScrollY(std::max(0.0f, static_cast<float>(first_hit) * line_h -
                                             ImGui::GetWindowHeight() * 0.3f));
        scrolled_for_step_ = st.playback.step;
        scrolled_for_model_ = st.model.get();
    }
    ImGui::PopFont();
    ImGui::EndChild();
}

} // namespace pplab::ui
