#include "pplab/check.hpp"

#include "pplab/dataflow.hpp"
#include "pplab/io.hpp"
#include "pplab/quote.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>

namespace pplab {

namespace {

std::string normalise_label(std::string_view s) {
    std::string o;
    bool space = false;
    for (const char c : s) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = !o.empty();
            continue;
        }
        if (space)
            o += ' ';
        space = false;
        o += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return o;
}

std::string line_ref(int line) {
    return "line " + std::to_string(line);
}

// How the kernel names cell `cell` of a frame.
std::string cell_name(const Trace& t, const Frame& f, int cell) {
    const int block_dim = t.request.block;
    switch (f.buffer) {
    case Buffer::Shared:
        return "s[" + std::to_string(cell) + "]";
    case Buffer::Lanes:
        return "lane " + std::to_string(cell);
    case Buffer::Registers:
        return f.step == Step::SerialAdd ? "thread 0's sum"
                                         : "thread " + std::to_string(cell) + "'s sum";
    case Buffer::PrivateHist:
        return (f.warp >= 0 ? "warp " + std::to_string(f.warp) + "'s " : std::string()) +
               "s_hist[" + std::to_string(cell) + "]";
    case Buffer::Global:
        if (f.step == Step::HistFold || f.step == Step::HistAccumulate)
            return "g_hist[" + std::to_string(cell) + "]";
        if (f.step == Step::AddCarries)
            return "out[" + std::to_string(static_cast<long long>(f.block) * block_dim + cell) +
                   "]";
        if (f.step == Step::AtomicAdd)
            return cell == 0 ? "the block total added" : "the sum after the atomicAdd";
        return "out[" + std::to_string(f.block) + "]";
    }
    return "cell " + std::to_string(cell);
}

std::string label_of(const Trace& t, int frame) {
    return frame < 0 ? std::string("the input")
                     : frame_label(t.frames[static_cast<std::size_t>(frame)], label_parts(t));
}

// kInput is the input of the launch that wrote the cell: a later launch (reduce-full's second
// pass, a deeper level of the multi-block scan) reads the block totals of the launch before.
float value_of(const Trace& t, int pass, const CellRef& ref) {
    if (ref.frame != CellRef::kInput)
        return t.frames.at(static_cast<std::size_t>(ref.frame))
            .values.at(static_cast<std::size_t>(ref.cell));
    if (pass == 0)
        return t.request.input.at(static_cast<std::size_t>(ref.cell));
    for (const Frame& f : t.frames)
        if (f.pass == pass - 1 && f.step == Step::BlockTotal && f.block == ref.cell)
            return f.values.at(0);
    throw std::logic_error("no block total " + std::to_string(ref.cell) + " before pass " +
                           std::to_string(pass));
}

} // namespace

std::vector<AnswerLine> parse_answer(std::string_view text) {
    std::vector<AnswerLine> out;
    int number = 0;
    std::size_t p = 0;
    while (p <= text.size()) {
        const std::size_t e = std::min(text.find('\n', p), text.size());
        std::string_view line = text.substr(p, e - p);
        p = e + 1;
        ++number;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos || line[first] == '#')
            continue;
        AnswerLine a;
        a.line_number = number;
        if (const auto colon = line.find(':'); colon != std::string_view::npos) {
            a.label = normalise_label(line.substr(0, colon));
            if (a.label.empty())
                throw InputError(line_ref(number) + ": nothing before the ':'; write a label such "
                                                    "as 'upsweep 0:' or leave the ':' out");
            line = line.substr(colon + 1);
        }
        try {
            a.values = parse_list(line, true);
        } catch (const InputError& err) {
            throw InputError(line_ref(number) + ": " + err.what());
        }
        out.push_back(std::move(a));
        if (e == text.size())
            break;
    }
    if (out.empty())
        throw InputError(
            "the answer has no levels: write one level per line, e.g. 'upsweep 0: 1 3 3 7'");
    return out;
}

bool CheckResult::all_right() const {
    return first_wrong() < 0;
}

int CheckResult::first_wrong() const {
    for (std::size_t i = 0; i < levels.size(); ++i)
        if (!levels[i].right)
            return static_cast<int>(i);
    return -1;
}

int CheckResult::levels_answered() const {
    std::set<int> frames;
    for (const LevelVerdict& v : levels)
        frames.insert(v.frame);
    return static_cast<int>(frames.size());
}

int CheckResult::levels_wrong() const {
    std::set<int> frames;
    for (const LevelVerdict& v : levels)
        if (!v.right)
            frames.insert(v.frame);
    return static_cast<int>(frames.size());
}

std::string CheckResult::summary() const {
    const int answered = levels_answered(), wrong = levels_wrong();
    if (wrong == 0)
        return answered == 1 ? "The 1 level is right."
                             : "All " + std::to_string(answered) + " levels are right.";
    return std::to_string(wrong) + " of " + std::to_string(answered) +
           (answered == 1 ? " level is" : " levels are") + " wrong.";
}

namespace {

// "?" answers an undefined value; otherwise by value (a hand-trace may write 0 for -0).
bool same_cell(float answer, float value) {
    return std::isnan(answer) == std::isnan(value) && (std::isnan(value) || answer == value);
}

// How well `lines` answer the frames from `start` on: lines exactly right before the first
// miss, then right cells in all. Nothing when a line's length differs from its frame's.
struct Fit {
    int leading = 0;
    long long cells = 0;
    bool operator==(const Fit&) const = default;
    auto operator<=>(const Fit&) const = default;
};

std::optional<Fit> fit_at(const Trace& t, std::span<const AnswerLine> lines, int start) {
    Fit fit;
    bool exact_so_far = true;
    for (std::size_t k = 0; k < lines.size(); ++k) {
        const Frame& f = t.frames[static_cast<std::size_t>(start) + k];
        if (lines[k].values.size() != f.values.size())
            return std::nullopt;
        long long right = 0;
        for (std::size_t c = 0; c < f.values.size(); ++c)
            right += same_cell(lines[k].values[c], f.values[c]);
        exact_so_far = exact_so_far && right == static_cast<long long>(f.values.size());
        fit.leading += exact_so_far;
        fit.cells += right;
    }
    return fit;
}

// The frame the first of the leading unlabelled lines answers, and what to tell the student.
int align_unlabelled(const Trace& t, const std::vector<std::string>& labels,
                     const std::vector<AnswerLine>& answer, int end_frame, std::string& alignment) {
    std::size_t count = 0;
    while (count < answer.size() && answer[count].label.empty())
        ++count;
    const std::span<const AnswerLine> lines(answer.data(), count);
    const int last_start = end_frame - static_cast<int>(count);
    std::optional<Fit> best;
    std::vector<int> best_starts;
    for (int start = 0; start <= last_start; ++start) {
        const std::optional<Fit> fit = fit_at(t, lines, start);
        if (!fit)
            continue;
        if (!best || *fit > *best) {
            best = fit;
            best_starts = {start};
        } else if (*fit == *best) {
            best_starts.push_back(start);
        }
    }
    const std::string lines_text = count == 1 ? "line" : std::to_string(count) + " lines";
    if (best_starts.empty()) {
        std::vector<std::size_t> sizes;
        for (const Frame& f : t.frames)
            if (std::find(sizes.begin(), sizes.end(), f.values.size()) == sizes.end())
                sizes.push_back(f.values.size());
        std::string held;
        for (std::size_t i = 0; i < sizes.size() && i < 4; ++i)
            held += (i ? " or " : "") + std::to_string(sizes[i]);
        throw InputError(line_ref(answer.front().line_number) + " has " +
                         std::to_string(answer.front().values.size()) + " values: your first " +
                         lines_text +
                         " without labels match no run of this trace's levels, "
                         "which hold " +
                         held + " values each");
    }
    const auto span_of = [&](int start) {
        const std::string& first = labels[static_cast<std::size_t>(start)];
        return count == 1 ? first
                          : first + " to " + labels[static_cast<std::size_t>(start) + count - 1];
    };
    // Right for several levels alike (every level of a scan of zeros): which it answers is the
    // student's to say. A line with mistakes that fits several equally (or none at all) is
    // compared with the earliest, and its wrong cells named: refused, it said nothing of them.
    const bool exact = best->leading == static_cast<int>(count);
    if (best_starts.size() > 1 && exact)
        throw InputError(line_ref(answer.front().line_number) + ": your first " + lines_text +
                         " without labels fit " + span_of(best_starts[0]) + " and " +
                         span_of(best_starts[1]) +
                         " equally well; write the level before each "
                         "line, e.g. '" +
                         labels[static_cast<std::size_t>(best_starts[0])] +
                         ": ...', so the check compares the right ones");
    const int start = best_starts.front();
    const std::string yours =
        "Your " + (count == 1 ? std::string("line") : std::to_string(count) + " lines") +
        " without labels ";
    if (best_starts.size() > 1) {
        alignment =
            yours +
            (best->cells == 0 ? std::string(count == 1 ? "matches" : "match") + " no level: "
                              : (count == 1 ? "fits " : "fit ") + span_of(start) + " and " +
                                    span_of(best_starts[1]) + " equally well: ") +
            (count == 1 ? "it was" : "they were") + " compared with " + span_of(start) +
            ", the earliest. Write the level before each line (e.g. '" +
            labels[static_cast<std::size_t>(best_starts[1])] +
            ": ...') to compare it with another.";
        return start;
    }
    const bool everything = start == 0 && static_cast<int>(count) == end_frame;
    alignment = "Your " + (count == 1 ? std::string("line") : std::to_string(count) + " lines") +
                " without labels " + (count == 1 ? "was" : "were") + " compared with " +
                span_of(start) +
                (everything  ? ", every level of the trace."
                 : start > 0 ? " (the levels before " + labels[static_cast<std::size_t>(start)] +
                                   " left out), where they fit best."
                             : ", where they fit best.");
    return start;
}

} // namespace

CheckResult check_answer(const Trace& t, const std::vector<AnswerLine>& answer) {
    if (t.request.algorithm == Algorithm::ScanFast)
        throw InputError("scan-fast has no hand-trace: which predecessors a tile finds published, "
                         "and so the order its carry is added in, is the schedule's choice, not "
                         "the algorithm's. Step through it with `pplab trace --algo scan-fast` "
                         "(each step's caption tells the chain), and hand-trace the carries of "
                         "scan-multiblock, which the look-back computes in one pass");
    const Dataflow flow(t);
    const LabelParts parts = label_parts(t);
    std::vector<std::string> labels;
    for (const Frame& f : t.frames)
        labels.push_back(normalise_label(frame_label(f, parts)));
    const auto frame_of = [&](const AnswerLine& a) {
        const auto it = std::find(labels.begin(), labels.end(), a.label);
        if (it == labels.end()) {
            std::string known;
            for (std::size_t i = 0; i < labels.size() && i < 8; ++i)
                known += (i ? ", " : "") + labels[i];
            if (labels.size() > 8)
                known += ", ...";
            throw InputError(line_ref(a.line_number) + ": no level is called " + quote(a.label) +
                             "; this trace's levels are " + known);
        }
        return static_cast<int>(it - labels.begin());
    };
    CheckResult result;
    int next = 0;
    if (!answer.empty() && answer.front().label.empty()) {
        // The run of unlabelled lines ends before the first labelled one's level.
        const auto labelled = std::find_if(answer.begin(), answer.end(),
                                           [](const AnswerLine& a) { return !a.label.empty(); });
        const int end_frame =
            labelled == answer.end() ? static_cast<int>(t.frames.size()) : frame_of(*labelled);
        next = align_unlabelled(t, labels, answer, end_frame, result.alignment);
    }
    for (const AnswerLine& a : answer) {
        const int frame = a.label.empty() ? next : frame_of(a);
        if (frame >= static_cast<int>(t.frames.size()))
            throw InputError(line_ref(a.line_number) + ": the trace has only " +
                             std::to_string(t.frames.size()) + " levels");
        const Frame& f = t.frames[static_cast<std::size_t>(frame)];
        if (a.values.size() != f.values.size())
            throw InputError(line_ref(a.line_number) + " (" +
                             labels[static_cast<std::size_t>(frame)] + ") has " +
                             std::to_string(a.values.size()) + " values; that level has " +
                             std::to_string(f.values.size()));
        LevelVerdict v;
        v.line_number = a.line_number;
        v.frame = frame;
        v.label = labels[static_cast<std::size_t>(frame)];
        for (std::size_t c = 0; c < f.values.size(); ++c)
            if (!same_cell(a.values[c], f.values[c]))
                v.wrong_cells.push_back(static_cast<int>(c));
        v.right = v.wrong_cells.empty();
        if (!v.right)
            v.explanation = explain_cell(flow, frame, v.wrong_cells.front(),
                                         a.values[static_cast<std::size_t>(v.wrong_cells.front())]);
        result.levels.push_back(std::move(v));
        next = frame + 1;
    }
    return result;
}

std::string explain_cell(const Trace& t, int frame, int cell, float given) {
    return explain_cell(Dataflow(t), frame, cell, given);
}

std::string explain_cell(const Dataflow& flow, int frame, int cell, float given) {
    const Trace& t = flow.trace();
    const Frame& f = t.frames.at(static_cast<std::size_t>(frame));
    const float expected = f.values.at(static_cast<std::size_t>(cell));
    const std::string s = label_of(t, frame) + ", " + cell_name(t, f, cell) + ": expected " +
                          format_value(expected) + ", you wrote " + format_value(given) + ". ";
    const CellWrite w =
        flow.writes(static_cast<std::size_t>(frame)).at(static_cast<std::size_t>(cell));
    const bool undefined = w.thread >= 0 && (w.undefined || w.race);
    return s + explain_write(flow, frame, cell) +
           (undefined ? " Write ? for a value the code leaves undefined." : "");
}

std::string cell_name(const Trace& t, int frame, int cell) {
    return cell_name(t, t.frames.at(static_cast<std::size_t>(frame)), cell);
}

std::string explain_write(const Dataflow& flow, int frame, int cell) {
    const Trace& t = flow.trace();
    const Frame& f = t.frames.at(static_cast<std::size_t>(frame));
    const CellWrite w =
        flow.writes(static_cast<std::size_t>(frame)).at(static_cast<std::size_t>(cell));
    const float expected = f.values.at(static_cast<std::size_t>(cell));
    const std::string name = cell_name(t, f, cell);
    const std::string here = label_of(t, frame);
    if (w.thread < 0) {
        if (!w.from.empty())
            return "No thread wrote " + name + " in " + here + ": it keeps its value from " +
                   label_of(t, w.from.front().frame) + ".";
        return "No thread wrote " + name + " in " + here + ".";
    }
    std::string s = writer_name(f, w.thread);
    s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    if (w.undefined || w.race)
        return s + ": " + w.expression + ".";
    s += " wrote it: " + w.expression;
    if (w.atomics > 1 || f.step == Step::HistAccumulate) {
        s += "; the bin went from ";
        const bool had_before = !w.from.empty() && w.from.front().frame >= 0;
        s += had_before ? format_value(value_of(t, f.pass, w.from.front())) : std::string("0");
        return s + " to " + format_value(expected) + ".";
    }
    if (w.from.size() == 2) {
        s += " = " + format_value(value_of(t, f.pass, w.from[0])) + " + " +
             format_value(value_of(t, f.pass, w.from[1]));
        s += " = " + format_value(expected);
    } else if (w.from.size() == 1) {
        s += " = " + format_value(value_of(t, f.pass, w.from[0]));
    }
    if (!w.from.empty() && w.from.front().frame >= 0)
        s += " (reading " + label_of(t, w.from.front().frame) + ")";
    return s + ".";
}

} // namespace pplab
