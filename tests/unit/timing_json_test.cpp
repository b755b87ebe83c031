// Saved timings (`pplab bench --json`, opened by `bench --show` and the window): read back as
// written, every number range-checked with a message naming the field, and the table made
// of whatever length the names have.
#include "helpers.hpp"

#include "pplab/timing.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace pplab {
namespace {

using nlohmann::json;
using test::input_error;
using test::mentions;

TimingReport report() {
    TimingReport r;
    r.device = "NVIDIA H200";
    r.date = "2026-12-01T10:00:00Z";
    r.sms = 132;
    r.l2_mib = 60;
    r.runs = 20;
    r.warmups = 3;
    r.copy_gbps = 4235;
    r.notes = {"hist-fast skipped on this device"};
    TimingRow copy{"copy", "memcpy", "", 1LL << 28, 0, 0, 0.5, 2.0 * (1 << 30), 4235, 100, 0, true};
    TimingRow tree{"reduce", "reduce-tree", "",  1 << 20, 256, 4096,
                   0.01,     4 << 20,       419, 10,      0.5, true};
    r.rows = {copy, tree};
    return r;
}

std::string refusal(const json& j) {
    return input_error([&] { timing_from_json(j.dump()); });
}

TEST(TimingJson, ReadsBackWhatWasWritten) {
    const TimingReport r = report();
    const TimingReport back = timing_from_json(timing_to_json(r));
    EXPECT_EQ(back.device, r.device);
    EXPECT_EQ(back.sms, 132);
    EXPECT_EQ(back.notes, r.notes);
    ASSERT_EQ(back.rows.size(), 2u);
    EXPECT_EQ(back.rows[1].stage, "reduce-tree");
    EXPECT_EQ(back.rows[1].size, 1 << 20);
    EXPECT_EQ(back.rows[1].grid, 4096);
    EXPECT_EQ(back.rows[1].ms, 0.01);
    // A byte order mark at the start, as some editors save files.
    EXPECT_EQ(timing_from_json("\xEF\xBB\xBF" + timing_to_json(r)).sms, 132);
}

TEST(TimingJson, RangeChecksEveryNumberBeforeConverting) {
    const json good = json::parse(timing_to_json(report()));
    const auto with = [&](const json::json_pointer& at, const json& value) {
        json j = good;
        j[at] = value;
        return refusal(j);
    };
    using P = json::json_pointer;
    EXPECT_EQ(with(P("/sms"), 1e10),
              "the timing file's sms is 10000000000.0: it must be a whole number from 1 to "
              "100000");
    EXPECT_TRUE(mentions(with(P("/sms"), -2147483649LL), "sms is -2147483649"));
    EXPECT_TRUE(mentions(with(P("/sms"), 13.5), "sms is 13.5: it must be a whole number"));
    EXPECT_TRUE(mentions(with(P("/runs"), 0), "runs is 0"));
    EXPECT_TRUE(
        mentions(with(P("/runs"), 18446744073709551615ULL), "runs is 18446744073709551615"));
    EXPECT_TRUE(mentions(with(P("/warmups"), "3"), "warmups is the text '3'"));
    EXPECT_TRUE(mentions(with(P("/version"), 1e300), "version is 1e+300"));
    EXPECT_TRUE(mentions(with(P("/copy_gbps"), -5), "copy_gbps is -5: it must be a number from 0"));
    EXPECT_TRUE(mentions(with(P("/rows/1/block"), 1e10), "rows[1].block is 10000000000.0"));
    EXPECT_TRUE(
        mentions(with(P("/rows/1/size"), 1LL << 62), "rows[1].size is 4611686018427387904"));
    EXPECT_TRUE(mentions(with(P("/rows/1/grid"), -1), "rows[1].grid is -1"));
    EXPECT_TRUE(mentions(with(P("/rows/1/ms"), 0), "rows[1].ms is 0: a timing row needs a time"));
    EXPECT_TRUE(mentions(with(P("/rows/1/ms"), nullptr), "rows[1].ms is null"));
    EXPECT_TRUE(mentions(with(P("/rows/1/validated"), 1), "rows[1].validated is 1"));
    EXPECT_TRUE(mentions(with(P("/rows/1/family"), "histogramme"),
                         "rows[1].family is 'histogramme': it must be reduce, scan, histogram"));
    EXPECT_TRUE(mentions(with(P("/rows/1"), json::array()), "rows[1] is a list, not an object"));
    EXPECT_TRUE(mentions(with(P("/notes/0"), 7), "notes[0] is 7: it must be text"));
    EXPECT_TRUE(mentions(with(P("/device"), std::string(300, 'x')), "device is 300 bytes"));
    json missing = good;
    missing["rows"][0].erase("ms");
    EXPECT_EQ(refusal(missing), "the timing file has no rows[0].ms");
}

TEST(TimingJson, SaysWhatIsWrongWithText) {
    EXPECT_TRUE(mentions(input_error([] { timing_from_json("{\"format\": "); }),
                         "the timing file is not valid JSON: parse error at line 1, column 12"));
    EXPECT_TRUE(mentions(input_error([] { timing_from_json("[1e400]"); }),
                         "the timing file holds a number too large for a double"));
    EXPECT_TRUE(
        mentions(input_error([] { timing_from_json("{\"format\": 7}"); }), "not pplab timings"));
    EXPECT_TRUE(mentions(input_error([] { timing_from_json("[]"); }), "not pplab timings"));
}

TEST(TimingJson, TableHoldsLongNamesWholeAndEscapesControlCharacters) {
    TimingReport r = report();
    r.device = std::string(250, 'D') + "\x1b[2J";
    r.rows[1].stage = std::string(60, 's');
    r.rows[1].ms = 123456789.0;
    const std::string table = timing_to_table(r);
    EXPECT_TRUE(mentions(table, std::string(250, 'D') + "\\x1b[2J, 132 SMs")) << table;
    EXPECT_EQ(table.find('\x1b'), std::string::npos);
    EXPECT_TRUE(mentions(table, std::string(60, 's') + " "));
    EXPECT_TRUE(mentions(table, "123456789.0000"));
    EXPECT_TRUE(mentions(table, "hist-fast skipped on this device"));
}

} // namespace
} // namespace pplab
