// Text we did not write (a path, a token of an input list, a label of a hand-trace, a device
// name from a saved file) shown back to the user safely: a message never carries a terminal
// escape sequence, a NUL byte, a line break or a megabyte of junk from a file.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pplab {

// Longest untrusted text a message quotes, in characters; longer text is cut with "...".
inline constexpr std::size_t kQuoteChars = 60;
// A path the user typed is shown whole unless it is absurdly long.
inline constexpr std::size_t kQuotePathChars = 240;

// `text` in single quotes, at most `max_chars` characters of it, with control characters,
// invalid UTF-8, a byte order mark and bidirectional overrides written as escapes
// (\n, \t, \0, \x1b, \u202e). Printable UTF-8 (a path with "ü" in it) is kept as it is.
std::string quote(std::string_view text, std::size_t max_chars = kQuoteChars);

// The same escapes without quotes or a length bound: for a whole message at the edge (one
// line on stderr, whatever it holds) and for names from files printed in tables.
std::string printable(std::string_view text);

// `text` without the UTF-8 byte order mark that some editors put at the start of a file.
std::string_view without_bom(std::string_view text);

} // namespace pplab
