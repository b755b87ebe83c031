#include "classroom.hpp"
#include "classroom_common.hpp"
#include "pplab/files.hpp"

#include "state.hpp"

#include "pplab/backend.hpp"
#include "pplab/io.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <sstream>

namespace pplab::ui {

namespace {

// "?" for a value the code leaves undefined, as the checker reads it back.
std::string value_text(float v) {
    return std::isnan(v) ? std::string("?") : format_value(v);
}

// The level of playback step `step`, without moving the playback.
void set_level(State& st, int step) {
    Practice& p = st.classroom.practice;
    p.level = PracticeLevel{};
    p.model = st.model.get();
    p.block = st.block;
    if (!st.model || step < 1 || step >= step_count(st))
        return; // the step shown is the last: there is no next level to type
    const scene::Model& m = *st.model;
    const Trace& t = m.trace();
    const scene::StepGroup& g = m.steps().at(static_cast<std::size_t>(step));
    PracticeLevel& level = p.level;
    level.step = step;
    for (int f = g.first; f <= g.last; ++f)
        if (t.frames[static_cast<std::size_t>(f)].block == st.block)
            level.frames.push_back(f);
    if (level.frames.empty())
        level.frames.push_back(static_cast<int>(m.frame_at(step, st.block)));
    const LabelParts parts = label_parts(t);
    for (const int f : level.frames) {
        const Frame& fr = t.frames[static_cast<std::size_t>(f)];
        level.labels.push_back(frame_label(fr, parts));
        level.typed.emplace_back(fr.values.size());
        level.verdicts.emplace_back(fr.values.size(), scene::Verdict::Typed);
        level.why.emplace_back(fr.values.size());
    }
    if (level.cells() > kPracticeMaxCells) {
        level.error = "this level has " + std::to_string(level.cells()) +
                      " values, too many to type: practise with a smaller input (at most " +
                      std::to_string(kPracticeMaxCells) + " values a level)";
        level.typed.clear();
        level.verdicts.clear();
        level.why.clear();
    }
}

void finish_level(Practice& p, bool revealed) {
    PracticeLevel& level = p.level;
    if (level.right || level.revealed)
        return; // already counted
    PracticeRecord r;
    for (const std::string& l : level.labels)
        r.label += (r.label.empty() ? "" : ", ") + l;
    r.first_time = !revealed && level.attempts == 1;
    r.revealed = revealed;
    p.done.push_back(std::move(r));
}

} // namespace

std::size_t PracticeLevel::cells() const {
    std::size_t n = 0;
    for (const auto& row : verdicts)
        n += row.size();
    return n;
}

int Practice::first_time() const {
    return static_cast<int>(std::count_if(done.begin(), done.end(),
                                          [](const PracticeRecord& r) { return r.first_time; }));
}

// ---- Practice --------------------------------------------------------------------------

void practice_start(State& st) {
    Practice& p = st.classroom.practice;
    p.on = true;
    const int steps = step_count(st);
    const int next = st.playback.step + 1 < steps ? st.playback.step + 1 : 1;
    practice_level(st, next);
}

void practice_level(State& st, int step) {
    set_level(st, step);
    if (st.classroom.practice.level.step >= 0)
        show_step(st, step - 1);
}

void practice_follow(State& st) {
    Practice& p = st.classroom.practice;
    if (!p.on || !st.model)
        return;
    const PracticeLevel& level = p.level;
    const int shown = st.playback.step;
    const bool expected =
        level.step < 0
            ? shown + 1 >= step_count(st)
            : shown == level.step - 1 || ((level.right || level.revealed) && shown == level.step);
    if (p.model == st.model.get() && p.block == st.block && expected)
        return;
    set_level(st, shown + 1);
}

void practice_check(State& st) {
    Practice& p = st.classroom.practice;
    PracticeLevel& level = p.level;
    if (level.step < 0 || !st.model || level.typed.empty())
        return;
    level.error.clear();
    std::vector<AnswerLine> lines;
    int empty = 0;
    for (std::size_t k = 0; k < level.frames.size(); ++k) {
        AnswerLine a;
        a.line_number = static_cast<int>(k) + 1;
        a.label = level.labels[k];
        for (std::size_t c = 0; c < level.typed[k].size(); ++c) {
            const std::string text = trim(level.typed[k][c]);
            if (text.empty()) {
                ++empty;
                a.values.push_back(0.0f);
                continue;
            }
            std::vector<float> v;
            try {
                v = parse_list(text, true);
            } catch (const InputError&) {
                level.error = level.labels[k] + ", cell " + std::to_string(c) + ": '" + text +
                              "' is not a number (write ? for a value the code leaves undefined)";
                return;
            }
            if (v.size() != 1) {
                level.error = level.labels[k] + ", cell " + std::to_string(c) + ": '" + text +
                              "' is more than one value; type one value a cell";
                return;
            }
            a.values.push_back(v[0]);
        }
        lines.push_back(std::move(a));
    }
    if (empty > 0) {
        level.error = std::to_string(empty) + (empty == 1 ? " cell is" : " cells are") +
                      " empty: type every value (? for one the code leaves undefined)";
        return;
    }
    const Trace& t = st.model->trace();
    CheckResult result;
    try {
        result = check_answer(t, lines);
    } catch (const InputError& e) {
        level.error = e.what();
        return;
    }
    ++level.attempts;
    for (std::size_t k = 0; k < level.frames.size(); ++k) {
        std::fill(level.verdicts[k].begin(), level.verdicts[k].end(), scene::Verdict::Right);
        std::fill(level.why[k].begin(), level.why[k].end(), std::string());
        for (const int c : result.levels.at(k).wrong_cells) {
            const auto cc = static_cast<std::size_t>(c);
            level.verdicts[k][cc] = scene::Verdict::Wrong;
            level.why[k][cc] = explain_cell(t, level.frames[k], c, lines[k].values[cc]);
        }
    }
    if (result.all_right()) {
        finish_level(p, false);
        level.right = true;
        st.playback.go_to(level.step, step_count(st)); // the level appears, animated
        st.playback.playing = false;
    }
}

void practice_reveal(State& st) {
    Practice& p = st.classroom.practice;
    if (p.level.step < 0 || p.level.typed.empty())
        return;
    finish_level(p, true);
    p.level.revealed = true;
    p.level.error.clear();
    st.playback.go_to(p.level.step, step_count(st));
    st.playback.playing = false;
}

void practice_next(State& st) {
    const PracticeLevel& level = st.classroom.practice.level;
    if (level.step >= 0)
        practice_level(st, level.step + 1); // past the last: "the last step is on screen"
}

void practice_copy_above(State& st) {
    PracticeLevel& level = st.classroom.practice.level;
    if (!st.model || level.typed.empty())
        return;
    const scene::Model& m = *st.model;
    for (std::size_t k = 0; k < level.frames.size(); ++k) {
        const int pred = m.dataflow().predecessor(static_cast<std::size_t>(level.frames[k]));
        if (pred < 0)
            continue; // the level starts afresh: nothing above it to keep
        const std::vector<float>& v = m.trace().frames[static_cast<std::size_t>(pred)].values;
        for (std::size_t c = 0; c < level.typed[k].size() && c < v.size(); ++c)
            level.typed[k][c] = value_text(v[c]);
    }
}

std::vector<scene::AnswerRow> answer_rows(const State& st) {
    std::vector<scene::AnswerRow> rows;
    if (!st.model)
        return rows;
    const Practice& p = st.classroom.practice;
    if (p.on && p.model == st.model.get() && p.level.step >= 0)
        for (std::size_t k = 0; k < p.level.typed.size(); ++k)
            rows.push_back({p.level.frames[k], p.level.typed[k], p.level.verdicts[k], true});
    const HandTrace& h = st.classroom.hand;
    if (h.result && h.model == st.model.get()) {
        std::vector<scene::AnswerRow> hand = scene::answer_rows(*h.result, h.answer);
        rows.insert(rows.end(), std::make_move_iterator(hand.begin()),
                    std::make_move_iterator(hand.end()));
    }
    return rows;
}

std::string explain_answer(const State& st, const CellRef& ref) {
    if (!st.model || ref.frame < 0)
        return {};
    const auto cell = static_cast<std::size_t>(ref.cell);
    const Practice& p = st.classroom.practice;
    if (p.on && p.model == st.model.get())
        for (std::size_t k = 0; k < p.level.frames.size() && k < p.level.why.size(); ++k)
            if (p.level.frames[k] == ref.frame && cell < p.level.why[k].size() &&
                !p.level.why[k][cell].empty())
                return p.level.why[k][cell];
    const HandTrace& h = st.classroom.hand;
    if (h.result && h.model == st.model.get())
        for (std::size_t i = 0; i < h.result->levels.size() && i < h.answer.size(); ++i)
            if (h.result->levels[i].frame == ref.frame && cell < h.answer[i].values.size() &&
                std::count(h.result->levels[i].wrong_cells.begin(),
                           h.result->levels[i].wrong_cells.end(), ref.cell) > 0)
                return explain_cell(st.model->trace(), ref.frame, ref.cell,
                                    h.answer[i].values[cell]);
    return {};
}

} // namespace pplab::ui
