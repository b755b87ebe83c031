// Numbers written as text (an input list, a hand-trace, a saved trace) read as fp32, the type
// every kernel of the chapter adds. A number that fp32 cannot hold is refused with the reason,
// never silently changed: too large (it would be infinity), too small (it would be 0), or a
// whole number above 2^24 that lands on a different whole number.
#pragma once

#include <string>
#include <string_view>

namespace pplab {

// Whole numbers up to 2^24 are exact in fp32; above it, only some are.
inline constexpr double kFloatExactIntegers = 16777216.0;

struct FloatText {
    float value = 0;
    std::string problem; // empty when `value` is the number as written, else why not
};

// Reads one number ("3", "-0.25", "1e-3"; a leading '+' is allowed). The problem reads after
// the number: "is not a number", "is too large for a float (fp32 holds at most ...)".
FloatText float_from_text(std::string_view text);

} // namespace pplab
