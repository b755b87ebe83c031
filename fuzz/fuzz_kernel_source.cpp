// A student's kernel file (`pplab run --kernel`, the window's editor), as the simulator's
// pre-processor reads it before anything is compiled: any bytes give a rewritten source or a
// located error, never an exception; the rewrite keeps every line where it was.
#include "harness.hpp"

#include "pplab/sim.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

using namespace pplab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view source = fuzz::text(data, size);
    const sim::Preprocessed p = sim::preprocess(source);
    const auto lines = std::count(source.begin(), source.end(), '\n') + 1;
    if (!p.ok) {
        fuzz::require(p.error.line >= 0 && p.error.line <= lines, "an error names a line");
        fuzz::require(!p.error.message.empty(), "an error says what is wrong");
        return 0;
    }
    fuzz::require(!p.rewritten.text.empty(), "a rewrite has text");
    // The student's lines come back in order between the prelude and the registration.
    const std::string& t = p.rewritten.text;
    const std::size_t from = t.find("#line 1 \"kernel.cu\"\n");
    const std::size_t to = t.rfind("#line 1 \"pplab-kernel-registration\"");
    fuzz::require(from != std::string::npos && to != std::string::npos && from < to,
                  "the rewrite keeps the student's part marked");
    const auto body_lines = std::count(t.begin() + static_cast<std::ptrdiff_t>(from) + 20,
                                       t.begin() + static_cast<std::ptrdiff_t>(to), '\n');
    fuzz::require(body_lines == std::count(source.begin(), source.end(), '\n') ||
                      body_lines == lines,
                  "lines stay where they were");
    return 0;
}
