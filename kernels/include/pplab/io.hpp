// Writing traces for people (text, Markdown) and programs (JSON), and reading JSON back.
#pragma once

#include "pplab/trace.hpp"

#include <string>
#include <string_view>

namespace pplab {

// One line per frame, "label: v0 v1 ...", after '#' header lines: the format students copy
// for hand-traces and `pplab check` reads.
std::string to_text(const Trace& t);

// {"algorithm", "backend", "device", "config", "input", "frames", "result", "stats"}.
std::string to_json(const Trace& t);

// A table per step group, with the chapter's captions: for notes and slides.
std::string to_markdown(const Trace& t);

// Reads what to_json wrote; the result is the same recording. Throws InputError.
Trace trace_from_json(std::string_view json);

// Shortest text that reads back to the same float ("0.1", "3", "-0"; "?" for NaN).
std::string format_value(float v);

// What std::to_chars(float) writes, for a finite float: the fewest significant digits that
// read back to it (the nearest such when there are several), in fixed or scientific style,
// whichever is shorter (fixed on a tie). format_value uses std::to_chars where the library
// has it and this where it does not (the page's libc++ 13).
std::string shortest_float_text(float v);

} // namespace pplab
