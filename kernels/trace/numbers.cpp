#include "pplab/numbers.hpp"

#include "pplab/io.hpp"
#include "pplab/quote.hpp"
#include "pplab/request.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace pplab {

namespace {

// Above 2^53 a double holds no more whole numbers exactly than the text's rounding allows:
// the whole-number check stops there (such numbers are written with an exponent anyway).
constexpr double kDoubleExactIntegers = 9007199254740992.0;

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// Whether the digits before any exponent include one that is not 0: the number is not zero.
bool has_nonzero_digit(std::string_view text) {
    for (const char c : text) {
        if (c == 'e' || c == 'E')
            return false;
        if (is_digit(c) && c != '0')
            return true;
    }
    return false;
}

// Overflow or underflow, for a number found out of fp32's range: strtod says
// which (infinity for too large; 0 or a tiny value for too small).
std::string out_of_range(std::string_view text) {
    const std::string copy(text);
    const double d = std::strtod(copy.c_str(), nullptr);
    if (std::fabs(d) > 1)
        return "is too large for a float (fp32 holds at most " +
               format_value(std::numeric_limits<float>::max()) + ")";
    return "is too small for a float: it would read as 0 (the smallest fp32 above 0 is " +
           format_value(std::numeric_limits<float>::denorm_min()) + ")";
}

enum class Read { Ok, OutOfRange, NotANumber };

// The text as a float or a double, correctly rounded: std::from_chars, or where the library
// lacks it for floating point (the page's libc++ 13) strtof/strtod on a copy, held to the same
// grammar (no sign but '-', no hexadecimal, nothing left over).
template <class Real>
Read read_real(std::string_view digits, Real& value) {
#if defined(__cpp_lib_to_chars)
    const char* last = digits.data() + digits.size();
    const auto [end, ec] = std::from_chars(digits.data(), last, value);
    if (end != last)
        return Read::NotANumber;
    return ec == std::errc()                      ? Read::Ok
           : ec == std::errc::result_out_of_range ? Read::OutOfRange
                                                  : Read::NotANumber;
#else
    if (digits.empty() || digits.front() == '+' ||
        digits.find_first_of("xX") != std::string_view::npos)
        return Read::NotANumber;
    const std::string copy(digits);
    char* end = nullptr;
    errno = 0;
    if constexpr (sizeof(Real) == sizeof(float))
        value = std::strtof(copy.c_str(), &end);
    else
        value = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size())
        return Read::NotANumber;
    // strtof says ERANGE for a subnormal too, which from_chars reads: only 0 and infinity are
    // out of range.
    return errno == ERANGE && (value == 0 || std::isinf(value)) ? Read::OutOfRange : Read::Ok;
#endif
}

} // namespace

FloatText float_from_text(std::string_view text) {
    FloatText r;
    std::string_view digits = text;
    if (!digits.empty() && digits.front() == '+') {
        digits.remove_prefix(1);
        if (!digits.empty() && digits.front() == '-') {
            r.problem = "is not a number";
            return r;
        }
    }
    const Read read = read_real(digits, r.value);
    if (read != Read::Ok) {
        r.problem = read == Read::OutOfRange ? out_of_range(digits) : "is not a number";
        r.value = 0;
        return r;
    }
    if (!std::isfinite(r.value)) {
        r.problem = "is not a finite number";
        return r;
    }
    if (r.value == 0 && has_nonzero_digit(digits)) {
        r.problem = out_of_range(digits);
        return r;
    }
    if (std::fabs(r.value) >= kFloatExactIntegers) {
        double exact = 0;
        read_real(digits, exact);
        if (std::fabs(exact) < kDoubleExactIntegers &&
            static_cast<double>(r.value) != std::trunc(exact))
            r.problem = "is a whole number fp32 cannot hold: above 2^24 = 16777216 not every "
                        "one is a float, and this one would read as " +
                        format_value(r.value);
    }
    return r;
}

std::vector<float> parse_list(std::string_view text, bool allow_unknown) {
    // An input list counts elements; a hand-trace line counts the cells of a level.
    const std::string noun = allow_unknown ? "cell " : "element ";
    const std::string whole = allow_unknown ? "the line" : "the list";
    const auto is_space = [](char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
    };
    std::vector<float> out;
    bool seen_comma = false;
    bool number_since_comma = false;
    std::size_t p = 0;
    while (true) {
        while (p < text.size() && is_space(text[p]))
            ++p;
        if (p == text.size())
            break;
        if (text[p] == ',') {
            if (!number_since_comma)
                throw InputError(noun + std::to_string(out.size()) + " is empty: " +
                                 (seen_comma ? "two commas with nothing between them"
                                             : whole + " starts with a comma"));
            seen_comma = true;
            number_since_comma = false;
            ++p;
            continue;
        }
        std::size_t e = p;
        while (e < text.size() && !is_space(text[e]) && text[e] != ',')
            ++e;
        const std::string_view token = text.substr(p, e - p);
        p = e;
        number_since_comma = true;
        if (allow_unknown && token == "?") {
            out.push_back(std::numeric_limits<float>::quiet_NaN());
            continue;
        }
        const FloatText number = float_from_text(token);
        if (!number.problem.empty())
            throw InputError(noun + std::to_string(out.size()) + " (" + quote(token) + ") " +
                             number.problem +
                             (number.problem != "is not a finite number" ? std::string()
                              : allow_unknown ? ": write ? for a value the code leaves undefined"
                                              : ": sums of NaN or infinity teach nothing"));
        out.push_back(number.value);
    }
    if (seen_comma && !number_since_comma)
        throw InputError(noun + std::to_string(out.size()) + " is empty: " + whole +
                         " ends with a comma");
    if (out.empty())
        throw InputError(allow_unknown
                             ? "the line has no values"
                             : "the input list is empty: give numbers separated by commas, "
                               "e.g. 1,2,3,4");
    return out;
}

} // namespace pplab
