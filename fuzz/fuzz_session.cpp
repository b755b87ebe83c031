// Saved sessions (a trace as JSON: the window's Session tab, `pplab trace --format json`): a
// file that reads is a trace the window can show, which writes back to JSON that reads as the
// same recording, and whose own levels check as right.
#include "harness.hpp"

#include "pplab/check.hpp"
#include "pplab/io.hpp"
#include "pplab/stats.hpp"

#include <cstdint>
#include <string>
#include <vector>

using namespace pplab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto read = fuzz::accepted([&] { return trace_from_json(fuzz::text(data, size)); });
    if (!read)
        return 0;
    const Trace& t = *read;
    const Trace again = trace_from_json(to_json(t));
    fuzz::require(again.same_recording(t), "a session written back reads the same");
    fuzz::require(again.backend == t.backend && again.device == t.device,
                  "a session keeps who recorded it");
    // What the window and `pplab trace` make of it.
    summarize(t);
    const std::string text = to_text(t);
    to_markdown(t);
    std::vector<AnswerLine> own;
    for (const Frame& f : t.frames)
        own.push_back({static_cast<int>(own.size()) + 1, "", f.values});
    if (!own.empty())
        fuzz::require(check_answer(t, own).all_right(), "a trace's own levels are right");
    return 0;
}
