#include "pplab/check.hpp"
#include "pplab/io.hpp"
#include "pplab/sim.hpp"

#include <cstring>

namespace pplab::sim {

namespace {
bool same_bits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b);
}
} // namespace

Difference first_difference(const Trace& yours, const Trace& chapter) {
    Difference d;
    const LabelParts parts = label_parts(chapter);
    const std::size_t frames = std::min(yours.frames.size(), chapter.frames.size());
    for (std::size_t f = 0; f < frames; ++f) {
        const auto& a = yours.frames[f].values;
        const auto& b = chapter.frames[f].values;
        bool differs = a.size() != b.size();
        for (std::size_t c = 0; c < std::min(a.size(), b.size()); ++c) {
            if (same_bits(a[c], b[c]))
                continue;
            differs = true;
            if (d.frame < 0) {
                d.frame = static_cast<int>(f);
                d.cell = static_cast<int>(c);
                d.expected = b[c];
                d.got = a[c];
                d.label = frame_label(chapter.frames[f], parts);
                d.explanation = explain_cell(chapter, d.frame, d.cell, d.got);
            }
            break;
        }
        d.frames_differing += differs ? 1 : 0;
    }
    d.result_differs = yours.result.size() != chapter.result.size();
    for (std::size_t i = 0; !d.result_differs && i < yours.result.size(); ++i)
        d.result_differs = !same_bits(yours.result[i], chapter.result[i]);
    d.same = d.frames_differing == 0 && !d.result_differs;
    return d;
}

std::string describe(const Difference& d) {
    if (d.same)
        return "Same as the chapter's kernel: every level and the result, bit for bit.";
    std::string s;
    if (d.frame >= 0) {
        s = std::to_string(d.frames_differing) + " level" + (d.frames_differing == 1 ? "" : "s") +
            " differ from the chapter's kernel. First difference: " + d.label + ", cell " +
            std::to_string(d.cell) + ": the chapter's kernel gives " + format_value(d.expected) +
            ", yours gives " + format_value(d.got) + ".";
        if (!d.explanation.empty())
            s += " In the chapter's kernel, " + d.explanation;
    }
    if (d.result_differs)
        s += std::string(s.empty() ? "" : " ") + "The result differs from the chapter's kernel's.";
    return s;
}

} // namespace pplab::sim
