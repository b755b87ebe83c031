// A student's trace against the chapter kernel's, level by level, explained in the words the
// hand-trace checker uses.
#include "pplab/check.hpp"
#include "pplab/io.hpp"
#include "pplab/sim.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

namespace pplab::sim {

namespace {

bool same_bits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b);
}

// A value as a student reads it: "?" said in words where the kernel left it undefined.
std::string value_text(float v) {
    return v != v ? "? (undefined: never written, or written by threads that raced)"
                  : format_value(v);
}

} // namespace

Difference first_difference(const Trace& yours, const Trace& chapter) {
    Difference d;
    const LabelParts parts = label_parts(chapter);
    d.result_only = chapter.request.algorithm == Algorithm::ScanFast;
    const std::size_t frames =
        d.result_only ? 0 : std::min(yours.frames.size(), chapter.frames.size());
    d.frames = d.result_only ? 0 : static_cast<int>(chapter.frames.size());
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
                d.cell_name = cell_name(chapter, d.frame, d.cell);
                d.explanation = explain_write(Dataflow(chapter), d.frame, d.cell);
            }
            break;
        }
        d.frames_differing += differs ? 1 : 0;
    }
    d.result_differs = yours.result.size() != chapter.result.size();
    double magnitude = 0; // scan-fast: of the prefix, for the rounding of the tiles' order
    for (std::size_t i = 0; i < std::min(yours.result.size(), chapter.result.size()); ++i) {
        const float a = yours.result[i], b = chapter.result[i];
        if (d.result_only && i > 0 && i - 1 < chapter.request.input.size())
            magnitude += std::fabs(chapter.request.input[i - 1]);
        if (d.result_only && a == a && b == b && !same_bits(a, b) &&
            std::fabs(static_cast<double>(a) - b) <= 1e-5 * std::max(1.0, magnitude)) {
            d.within_rounding = true;
            continue;
        }
        if (!same_bits(a, b)) {
            d.result_differs = true;
            d.result_index = static_cast<int>(i);
            d.result_expected = chapter.result[i];
            d.result_got = yours.result[i];
            break;
        }
    }
    d.same = d.frames_differing == 0 && !d.result_differs;
    return d;
}

std::string describe(const Difference& d) {
    if (d.same && d.result_only)
        return std::string("Same output as the chapter's kernel, ") +
               (d.within_rounding ? "within the rounding of the order the tiles ran in (a "
                                    "tile's carry adds its predecessors' sums in that order)"
                                  : "bit for bit") +
               ". The tiles' publishes and look-backs follow the order the tiles ran, which "
               "changes from run to run: they are not compared.";
    if (d.same)
        return "Same as the chapter's kernel: every level and the result, bit for bit.";
    std::string s;
    if (d.frame >= 0) {
        std::string how = d.explanation;
        if (!how.empty())
            how[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(how[0])));
        s = "Your kernel differs from the chapter's in " + std::to_string(d.frames_differing) +
            " of " + std::to_string(d.frames) + " levels. The first: " + d.label + ", " +
            d.cell_name + ": yours left " + value_text(d.got) + "; the chapter's kernel leaves " +
            value_text(d.expected) + "." + (how.empty() ? "" : " In the chapter's kernel, " + how);
    }
    if (d.result_differs) {
        s += d.result_only ? "The result differs"
             : s.empty()   ? "Every level is the chapter's, but the result differs"
                           : " The result differs too";
        s += d.result_index >= 0
                 ? ": out[" + std::to_string(d.result_index) + "] is " + value_text(d.result_got) +
                       " where the chapter's kernel leaves " + value_text(d.result_expected) + "."
                 : ": it has a different number of values.";
    }
    return s;
}

} // namespace pplab::sim
