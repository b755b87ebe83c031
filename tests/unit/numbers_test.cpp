// Numbers written as text, read as fp32: what a float cannot hold is refused with the reason
// and the position, never silently changed; untrusted text is quoted safely in messages.
#include "helpers.hpp"

#include "pplab/bits.hpp"
#include "pplab/io.hpp"
#include "pplab/numbers.hpp"
#include "pplab/quote.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

namespace pplab {
namespace {

using test::input_error;
using test::mentions;

std::string list_error(const std::string& text, bool allow_unknown = false) {
    return input_error([&] { parse_list(text, allow_unknown); });
}

TEST(FloatText, ReadsWhatAFloatHolds) {
    EXPECT_EQ(float_from_text("3").value, 3.0f);
    EXPECT_EQ(float_from_text("+3").value, 3.0f);
    EXPECT_EQ(float_from_text("-0.25").value, -0.25f);
    EXPECT_EQ(float_from_text("2e2").value, 200.0f);
    EXPECT_TRUE(std::signbit(float_from_text("-0").value));
    EXPECT_EQ(float_from_text("3.4028235e38").value, std::numeric_limits<float>::max());
    // A subnormal is a float above 0: kept, not refused.
    const FloatText tiny = float_from_text("1e-45");
    EXPECT_TRUE(tiny.problem.empty()) << tiny.problem;
    EXPECT_EQ(tiny.value, std::numeric_limits<float>::denorm_min());
    // Whole numbers up to 2^24 and those past it that a float holds exactly.
    EXPECT_TRUE(float_from_text("16777216").problem.empty());
    EXPECT_TRUE(float_from_text("16777218").problem.empty());
    EXPECT_TRUE(float_from_text("123456792").problem.empty());
    EXPECT_TRUE(float_from_text("0.1").problem.empty()); // decimals round, as they always do
}

TEST(FloatText, SaysWhyAFloatCannotHoldANumber) {
    EXPECT_TRUE(mentions(float_from_text("1e39").problem, "too large for a float"));
    EXPECT_TRUE(mentions(float_from_text("-1e39").problem, "too large for a float"));
    EXPECT_TRUE(mentions(float_from_text("3.4028236e38").problem, "too large for a float"));
    EXPECT_TRUE(mentions(float_from_text("1e400").problem, "too large for a float"));
    EXPECT_TRUE(mentions(float_from_text("1e-50").problem, "too small for a float"));
    EXPECT_TRUE(mentions(float_from_text("-1e-400").problem, "too small for a float"));
    EXPECT_TRUE(
        mentions(float_from_text("0.0000000000000000000000000000000000000000000000001").problem,
                 "too small for a float"));
    const std::string lost = float_from_text("16777217").problem;
    EXPECT_TRUE(mentions(lost, "whole number fp32 cannot hold")) << lost;
    EXPECT_TRUE(mentions(lost, "16777216")) << lost; // what it would have read as
    EXPECT_FALSE(float_from_text("16777217.0").problem.empty());
    EXPECT_FALSE(float_from_text("123456789").problem.empty());
    EXPECT_FALSE(float_from_text("3e10").problem.empty()); // 30000001024 as a float
    for (const char* text : {"", "+", "-", "+-1", "--1", "1x", "0x10", "1e", ".", "one", "1,5"})
        EXPECT_EQ(float_from_text(text).problem, "is not a number") << "'" << text << "'";
    for (const char* text : {"nan", "inf", "-inf", "infinity"})
        EXPECT_EQ(float_from_text(text).problem, "is not a finite number") << text;
}

TEST(FormatValue, WritesWholeNumbersPast2To24InFull) {
    EXPECT_EQ(format_value(123456792.0f), "123456792");
    EXPECT_EQ(format_value(-30000001024.0f), "-30000001024");
    EXPECT_EQ(format_value(1e36f), "1e+36"); // past 2^53: the shortest text
    // Every float pplab prints reads back through the strict reader as the same bits.
    for (std::uint32_t bits = 0x3f800000u; bits < 0x7f000000u; bits += 0x00d0001u) {
        float v = 0;
        std::memcpy(&v, &bits, sizeof v);
        const FloatText back = float_from_text(format_value(v));
        ASSERT_TRUE(back.problem.empty()) << format_value(v) << ": " << back.problem;
        EXPECT_EQ(bits_of(back.value), bits) << format_value(v);
    }
}

TEST(ParseList, NamesTheEmptyFieldByItsPosition) {
    EXPECT_EQ(list_error("1,,3"), "element 1 is empty: two commas with nothing between them");
    EXPECT_EQ(list_error("1, ,3"), "element 1 is empty: two commas with nothing between them");
    EXPECT_EQ(list_error(",1,2"), "element 0 is empty: the list starts with a comma");
    EXPECT_EQ(list_error("1,2,"), "element 2 is empty: the list ends with a comma");
    EXPECT_EQ(list_error("1,2,\n"), "element 2 is empty: the list ends with a comma");
    EXPECT_EQ(list_error(","), "element 0 is empty: the list starts with a comma");
    // A hand-trace line counts cells.
    EXPECT_EQ(list_error("1 3,,7", true), "cell 2 is empty: two commas with nothing between them");
    EXPECT_EQ(list_error("1 3 ?,", true), "cell 3 is empty: the line ends with a comma");
}

TEST(ParseList, SaysWhichElementAFloatCannotHold) {
    EXPECT_TRUE(mentions(list_error("1,1e39"), "element 1 ('1e39') is too large for a float"));
    EXPECT_TRUE(mentions(list_error("1e-50 2"), "element 0 ('1e-50') is too small for a float"));
    EXPECT_TRUE(mentions(list_error("0,1,16777217"),
                         "element 2 ('16777217') is a whole number fp32 cannot hold"));
    EXPECT_TRUE(mentions(list_error("1,nan"), "element 1 ('nan') is not a finite number"));
    EXPECT_TRUE(mentions(list_error("inf", true), "write ? for a value the code leaves undefined"));
    EXPECT_EQ(parse_list("16777216,-0,1e-45").size(), 3u);
}

TEST(Quote, EscapesWhatATerminalWouldActOn) {
    EXPECT_EQ(quote("upsweep 1"), "'upsweep 1'");
    EXPECT_EQ(quote("a\x1b[31mb"), "'a\\x1b[31mb'");
    EXPECT_EQ(quote(std::string("a\0b", 3)), "'a\\0b'");
    EXPECT_EQ(quote("a\nb\tc\rd"), "'a\\nb\\tc\\rd'");
    EXPECT_EQ(quote("\x7f"), "'\\x7f'");
    EXPECT_EQ(quote("\xEF\xBB\xBF"
                    "1"),
              "'\\ufeff1'"); // a byte order mark
    EXPECT_EQ(quote("a\xE2\x80\xAE"
                    "b"),
              "'a\\u202eb'"); // right-to-left override
    EXPECT_EQ(quote("\xC2\x9B"
                    "31m"),
              "'\\x9b31m'");                                            // the C1 CSI
    EXPECT_EQ(quote("\xff\xfe"), "'\\xff\\xfe'");                       // not UTF-8
    EXPECT_EQ(quote("\xC0\xAF"), "'\\xc0\\xaf'");                       // an overlong '/'
    EXPECT_EQ(quote("caf\xC3\xA9 \xCE\xA3"), "'caf\xC3\xA9 \xCE\xA3'"); // printable: kept
}

TEST(Quote, BoundsTheLength) {
    const std::string junk(100000, 'x');
    const std::string q = quote(junk);
    EXPECT_LT(q.size(), 120u);
    EXPECT_TRUE(mentions(q, "100000 bytes in all")) << q;
    EXPECT_EQ(quote(std::string(kQuoteChars, 'y')), "'" + std::string(kQuoteChars, 'y') + "'");
    // A multi-byte character is never cut in two.
    std::string accents;
    for (int i = 0; i < 100; ++i)
        accents += "\xC3\xA9";
    const std::string cut = quote(accents, 10);
    EXPECT_EQ(cut.substr(0, 21), "'" + accents.substr(0, 20));
}

TEST(Quote, PrintableKeepsAMessageOnOneLine) {
    EXPECT_EQ(printable("line 1: 'a\nb'"), "line 1: 'a\\nb'");
    EXPECT_EQ(without_bom("\xEF\xBB\xBF"
                          "1,2"),
              "1,2");
    EXPECT_EQ(without_bom("1,2"), "1,2");
}

} // namespace
} // namespace pplab
