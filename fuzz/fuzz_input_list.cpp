// Input lists (--input, --input-file, the window's list) and the quoting of what they hold:
// a list that reads is numbers a float holds, written back by format_value it reads the same
// bits again; a quote of any bytes is one printable line.
#include "harness.hpp"

#include "pplab/bits.hpp"
#include "pplab/io.hpp"
#include "pplab/numbers.hpp"
#include "pplab/quote.hpp"
#include "pplab/request.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace pplab;

namespace {

void check_quote(std::string_view bytes) {
    const std::string q = quote(bytes);
    for (const char c : q)
        fuzz::require(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f,
                      "a quote holds no control character");
    // At most kQuoteChars characters, each at most 6 bytes once escaped ("\u202e"), the
    // quotes and the note of what was cut.
    fuzz::require(q.size() <= 6 * kQuoteChars + 64, "a quote is bounded");
}

void check_list(std::string_view bytes, bool allow_unknown) {
    const auto read = fuzz::accepted([&] { return parse_list(bytes, allow_unknown); });
    if (!read)
        return;
    const std::vector<float>& values = *read;
    fuzz::require(!values.empty(), "a list that reads has a value");
    std::string again;
    for (const float v : values) {
        fuzz::require(std::isfinite(v) || (allow_unknown && std::isnan(v)),
                      "a list holds finite numbers (and ? where allowed)");
        again += (again.empty() ? "" : ",") + format_value(v);
    }
    const std::vector<float> back = parse_list(again, allow_unknown);
    fuzz::require(back.size() == values.size(), "a list written back has as many values");
    for (std::size_t i = 0; i < back.size(); ++i)
        fuzz::require(bits_of(back[i]) == bits_of(values[i]) ||
                          (std::isnan(back[i]) && std::isnan(values[i])),
                      "a list written back reads the same bits");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes = fuzz::text(data, size);
    check_quote(bytes);
    check_list(bytes, false);
    check_list(bytes, true);
    const FloatText number = float_from_text(bytes);
    fuzz::require(!number.problem.empty() || std::isfinite(number.value),
                  "a number that reads is finite");
    return 0;
}
