// JSON: what to_json writes, trace_from_json reads back as the same recording, bit for bit;
// a file that is not such a trace (or was edited into something no request records) is
// refused with an InputError.
#include "helpers.hpp"

#include "pplab/backend.hpp"
#include "pplab/bits.hpp"
#include "pplab/io.hpp"
#include "pplab/lookback.hpp"
#include "pplab/stats.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace pplab {
namespace {

using namespace test;
using nlohmann::json;

using test::input_error;
using test::mentions;

void expect_round_trip(const Trace& t) {
    const Trace back = trace_from_json(to_json(t));
    EXPECT_TRUE(back.same_recording(t));
    EXPECT_EQ(back.backend, t.backend);
    EXPECT_EQ(back.device, t.device);
}

TEST(Json, RoundTripsEveryAlgorithmBitForBit) {
    for (const AlgorithmInfo& a : algorithms()) {
        SCOPED_TRACE(std::string(a.id));
        if (!a.traced)
            continue; // a production kernel records no frames (production_test.cpp)
        const bool hist = a.family == Family::Histogram;
        Request r = request(a.algorithm,
                            generate(hist ? Generator::Skewed : Generator::RandomFloat,
                                     a.single_block ? 128 : 2000, 3, hist ? 64 : 0),
                            128);
        r.bins = 64;
        r.options.order_seed = 99;
        expect_round_trip(trace(r));
        if (a.family == Family::Scan) {
            r.options.inclusive = true;
            expect_round_trip(trace(r));
        }
        if (hist) {
            r.options.skip_empty = false;
            expect_round_trip(trace(r));
        }
    }
}

TEST(Json, RoundTripsAwkwardFloats) {
    // Values whose shortest decimal form is long, tiny, huge, or negative zero.
    const float denormal = std::numeric_limits<float>::denorm_min();
    const std::vector<float> in{0.1f,   1.0f / 3.0f, -2.5e-30f, denormal, 1e36f,
                                -1e36f, 16777217.0f, 0.0f,      -0.0f};
    for (const Algorithm a :
         {Algorithm::ReduceNaive, Algorithm::ReduceTree, Algorithm::ScanBlelloch}) {
        SCOPED_TRACE(std::string(info(a).id));
        expect_round_trip(trace(request(a, in, 16)));
    }
}

TEST(Json, KeepsNegativeZero) {
    // -0 + -0 is -0 in fp32: the tree's every level holds it, and Frame equality tells -0
    // from +0, so the file must too.
    const Trace t = trace(request(Algorithm::ReduceTree, {-0.0f, -0.0f}, 2));
    ASSERT_TRUE(std::signbit(t.result.at(0)));
    const Trace back = trace_from_json(to_json(t));
    ASSERT_EQ(back.result.size(), 1u);
    EXPECT_TRUE(std::signbit(back.result[0]));
    EXPECT_TRUE(std::signbit(back.request.input.at(0)));
    EXPECT_TRUE(back.same_recording(t));
}

TEST(Json, HasTheDocumentedShape) {
    const Trace t = trace(request(Algorithm::ScanBlelloch, {1, 2, 3, 4}));
    const json j = json::parse(to_json(t));
    EXPECT_EQ(j.at("algorithm"), "scan-blelloch");
    EXPECT_EQ(j.at("backend"), "cpu");
    EXPECT_TRUE(j.at("device").is_string());
    EXPECT_EQ(j.at("config").at("n"), 4);
    EXPECT_EQ(j.at("config").at("block"), 4);
    EXPECT_EQ(j.at("config").at("grid"), 1);
    ASSERT_EQ(j.at("frames").size(), 6u);
    const json& down1 = j.at("frames").at(5);
    EXPECT_EQ(down1.at("step"), "downsweep");
    EXPECT_EQ(down1.at("level"), 1);
    EXPECT_EQ(down1.at("block"), 0);
    EXPECT_EQ(down1.at("warp"), -1);
    EXPECT_EQ(down1.at("buffer"), "shared");
    EXPECT_EQ(down1.at("values"), json({0, 1, 3, 6}));
    EXPECT_EQ(j.at("result"), json({0, 1, 3, 6}));
    EXPECT_EQ(j.at("stats").at("barriers_per_block"), 5);
}

// ---- Malformed files -------------------------------------------------------------------

class JsonRejects : public ::testing::Test {
protected:
    void SetUp() override {
        t_ = trace(request(Algorithm::ReduceTree, generate(Generator::RandomInt, 100, 1, 0), 32));
        good_ = json::parse(to_json(t_));
        ASSERT_NO_THROW(trace_from_json(good_.dump()));
    }
    void expect_refused(const json& j, const std::string& why_part) const {
        try {
            trace_from_json(j.dump());
            ADD_FAILURE() << "accepted an edited file; expected an error about " << why_part;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(why_part), std::string::npos) << e.what();
        }
    }
    Trace t_;
    json good_;
};

TEST_F(JsonRejects, TextThatIsNotJson) {
    for (const char* text : {"", "{", "hello", "{\"format\": \"pplab-trace\",}", "[1, 2, 3"}) {
        EXPECT_THROW(trace_from_json(text), InputError) << "'" << text << "'";
    }
}

TEST_F(JsonRejects, AWrongFormatTagOrVersion) {
    json j = good_;
    j["format"] = "chrome-trace";
    expect_refused(j, "not a pplab trace");
    j = good_;
    j.erase("format");
    expect_refused(j, "not a pplab trace");
    j = good_;
    j["version"] = 99;
    expect_refused(j, "version");
    EXPECT_THROW(trace_from_json("[]"), InputError);
}

TEST_F(JsonRejects, AFrameRemoved) {
    json j = good_;
    j["frames"].erase(j["frames"].begin() + 3);
    expect_refused(j, "frame");
    j = good_;
    j["frames"].erase(j["frames"].end() - 1);
    expect_refused(j, "frames");
}

TEST_F(JsonRejects, AValueCountChanged) {
    json j = good_;
    j["frames"][2]["values"].push_back(1.0);
    expect_refused(j, "values");
    j = good_;
    j["result"].push_back(1.0);
    expect_refused(j, "result");
    j = good_;
    j["input"].erase(j["input"].begin(), j["input"].begin() + 40);
    expect_refused(j, "config.n is 100, but its input holds 60 values");
    j["config"]["n"] = 60;
    expect_refused(j, "grid"); // 60 elements need 2 blocks of 32, not the file's 4
}

TEST_F(JsonRejects, AConfigNormalizeWouldChange) {
    json j = good_;
    j["config"]["bins"] = 256; // a reduction has no bins: normalize() writes 0
    expect_refused(j, "config");
    j = good_;
    j["config"]["block"] = 0; // a default left unfilled: 256, and then the grid is wrong
    expect_refused(j, "");
    j = good_;
    j["config"]["block"] = 48; // not a power of two: normalize() refuses it outright
    expect_refused(j, "power of two");
    j = good_;
    j["config"]["order_seed"] = 5; // only the atomic reduction has an arrival order
    expect_refused(j, "config");
}

TEST_F(JsonRejects, MissingFieldsAndUnknownNames) {
    for (const char* field : {"algorithm", "config", "input", "frames", "result", "backend"}) {
        json j = good_;
        j.erase(field);
        EXPECT_THROW(trace_from_json(j.dump()), InputError) << "without " << field;
    }
    json j = good_;
    j["algorithm"] = "reduce-magic";
    expect_refused(j, "unknown algorithm");
    j = good_;
    j["frames"][0]["step"] = "teleport";
    expect_refused(j, "unknown step");
    j = good_;
    j["frames"][0]["values"][0] = "seven";
    EXPECT_THROW(trace_from_json(j.dump()), InputError);
}

// Every number is range-checked before it is converted, and the message names the field.
TEST_F(JsonRejects, NumbersOutOfRangeNamingTheField) {
    const auto with = [&](const json::json_pointer& at, const json& value) {
        json j = good_;
        j[at] = value;
        return input_error([&] { trace_from_json(j.dump()); });
    };
    using P = json::json_pointer;
    EXPECT_EQ(with(P("/config/block"), 5000000000LL),
              "the trace file's config.block is 5000000000: it must be a whole number from 1 to "
              "1024");
    EXPECT_TRUE(mentions(with(P("/config/block"), 32.5), "config.block is 32.5"));
    EXPECT_TRUE(mentions(with(P("/config/block"), "32"), "config.block is the text '32'"));
    EXPECT_TRUE(mentions(with(P("/config/grid"), -2147483649LL), "config.grid is -2147483649"));
    EXPECT_TRUE(mentions(with(P("/config/bins"), 1e30),
                         "config.bins is 1e+30: it must be a whole number from 0 to"));
    EXPECT_TRUE(mentions(with(P("/config/order_seed"), -1), "config.order_seed is -1"));
    EXPECT_TRUE(mentions(with(P("/config/order_seed"), 1.5), "config.order_seed is 1.5"));
    EXPECT_TRUE(mentions(with(P("/config/active_lanes"), 99), "config.active_lanes is 99"));
    EXPECT_TRUE(mentions(with(P("/config/inclusive"), 1), "config.inclusive is 1: it must be "
                                                          "true or false"));
    EXPECT_TRUE(mentions(with(P("/version"), 1e10), "version is 1e+10"));
    EXPECT_TRUE(mentions(with(P("/frames/3/level"), 1e10), "frames[3].level is 1e+10"));
    EXPECT_TRUE(mentions(with(P("/frames/3/warp"), -2), "frames[3].warp is -2"));
    EXPECT_TRUE(mentions(with(P("/frames/3"), 7), "frames[3] is 7, not an object"));
    EXPECT_TRUE(mentions(with(P("/frames/3/values/2"), "seven"),
                         "frames[3].values[2] is the text 'seven': it must be a number"));
    EXPECT_TRUE(mentions(with(P("/input/2"), nullptr), "input[2] is null: it must be a number"));
    EXPECT_TRUE(mentions(with(P("/input/2"), 16777217),
                         "input[2] is 16777217, a whole number fp32 cannot hold"));
    EXPECT_TRUE(mentions(with(P("/input/2"), 18446744073709551615ULL), "input[2] is 1844674"));
    EXPECT_TRUE(mentions(with(P("/device"), std::string(1000, 'x')), "device is 1000 bytes"));
    json j = good_;
    j["config"].erase("grid");
    EXPECT_EQ(input_error([&] { trace_from_json(j.dump()); }), "the trace file has no config.grid");
}

// Numbers a float cannot hold are named with their line, before any is converted.
TEST_F(JsonRejects, NumbersAFloatCannotHold) {
    const std::string text = to_json(t_);
    const auto replaced = [&](const std::string& number) {
        std::string edited = text;
        const std::size_t at = edited.find("\"input\": [") + 10;
        edited.insert(at, number + ", ");
        return input_error([&] { trace_from_json(edited); });
    };
    EXPECT_TRUE(mentions(replaced("1e39"), "'1e39' is too large for a float")) << replaced("1e39");
    EXPECT_TRUE(mentions(replaced("1e-50"), "'1e-50' is too small for a float"));
    EXPECT_TRUE(mentions(replaced("16777217.0"), "'16777217.0' is a whole number fp32 cannot"));
    EXPECT_TRUE(mentions(replaced("1e-50"), "the trace file, line "));
}

// The window's session loader is as strict as `pplab trace` is about a request.
TEST(JsonSession, ArrivalBlocksAreEachBlockOnce) {
    Request r = with_grid(request(Algorithm::ReduceAtomic, ones(256), 32), 8);
    r.options.order_seed = 7;
    const json good = json::parse(to_json(trace(r)));
    std::vector<std::size_t> arrivals;
    for (std::size_t k = 0; k < good["frames"].size(); ++k)
        if (good["frames"][k]["step"] == "atomic-add")
            arrivals.push_back(k);
    ASSERT_EQ(arrivals.size(), 8u);
    json j = good;
    j["frames"][arrivals[3]]["block"] = j["frames"][arrivals[1]]["block"];
    EXPECT_TRUE(mentions(input_error([&] { trace_from_json(j.dump()); }), "arrived already"));
    j = good;
    j["frames"][arrivals[0]]["block"] = -1;
    EXPECT_TRUE(mentions(input_error([&] { trace_from_json(j.dump()); }),
                         "says block -1 arrived; the grid has blocks 0 to 7"));
    j = good;
    j["frames"][arrivals[0]]["block"] = 8;
    EXPECT_TRUE(mentions(input_error([&] { trace_from_json(j.dump()); }), "says block 8"));
}

TEST(JsonSession, GridWideFramesNameNoBlock) {
    Request r = request(Algorithm::HistGlobal, {1, 2, 3, 1}, 32);
    r.bins = 4;
    json j = json::parse(to_json(trace(r)));
    ASSERT_EQ(j["frames"][0]["step"], "hist-accumulate");
    ASSERT_EQ(j["frames"][0]["block"], -1);
    j["frames"][0]["block"] = 0;
    EXPECT_TRUE(mentions(input_error([&] { trace_from_json(j.dump()); }), "frame 0"));
}

TEST(JsonSession, NullOnlyWhereThePitfallLeavesAValueUndefined) {
    json plain = json::parse(to_json(trace(request(Algorithm::ReduceTree, ones(8), 8))));
    plain["frames"][2]["values"][0] = nullptr;
    EXPECT_TRUE(mentions(input_error([&] { trace_from_json(plain.dump()); }),
                         "but its request has no pitfall"));
    plain = json::parse(to_json(trace(request(Algorithm::ReduceTree, ones(8), 8))));
    plain["result"][0] = nullptr;
    EXPECT_TRUE(mentions(input_error([&] { trace_from_json(plain.dump()); }),
                         "but its request has no pitfall"));
    // A student's kernel (the simulator) may leave any value undefined: a race of its own.
    plain["backend"] = "sim";
    plain["frames"][2]["values"][0] = nullptr;
    EXPECT_NO_THROW(trace_from_json(plain.dump()));

    Request r = request(Algorithm::ReduceShuffle, ones(32), 32);
    r.options.pitfall = Pitfall::PartialWarp;
    r.options.active_lanes = 20;
    const Trace t = trace(r);
    EXPECT_NO_THROW(trace_from_json(to_json(t)));
    json j = json::parse(to_json(t));
    ASSERT_EQ(j["frames"][0]["step"], "load");
    j["frames"][0]["values"][0] = nullptr; // the load is defined, pitfall or not
    EXPECT_TRUE(mentions(input_error([&] { trace_from_json(j.dump()); }),
                         "frames[0].values[0] (load) is null, but the pitfall partial-warp "
                         "leaves that value defined"));
}

// Every pitfall's trace, whatever its undefined values, opens again as it was saved.
TEST(JsonSession, EveryPitfallRoundTrips) {
    int tested = 0;
    for (int p = 1; p < kPitfallCount; ++p) {
        const auto pitfall = static_cast<Pitfall>(p);
        SCOPED_TRACE(std::string(pitfall_id(pitfall)));
        for (const int n : {6, 32, 100, 256}) {
            Request r = request(pitfall_algorithm(pitfall), ones(n), 0);
            r.options.pitfall = pitfall;
            r.options.active_lanes = 13;
            if (pitfall == Pitfall::NonPowerOfTwo)
                r.block = 6;
            if (pitfall == Pitfall::NoFinalSync)
                r.input = generate(Generator::RandomFloat, std::min(n, 64), 2, 0);
            if (pitfall == Pitfall::EveryLaneWrites || pitfall == Pitfall::PartialWarp)
                r.block = 64;
            if (!rejection(r).empty())
                continue;
            const Trace t = trace(r);
            EXPECT_TRUE(trace_from_json(to_json(t)).same_recording(t)) << "n " << n;
            ++tested;
        }
    }
    EXPECT_GE(tested, 12);
}

TEST(Markdown, HasACaptionedRowPerFrame) {
    const Trace t = trace(request(Algorithm::ScanBlelloch, {1, 2, 3, 4}));
    const std::string md = to_markdown(t);
    EXPECT_NE(md.find("scanBlelloch"), std::string::npos);
    EXPECT_NE(md.find("| downsweep 1 | Downsweep level 1, the 2nd of 2"), std::string::npos) << md;
    EXPECT_NE(md.find("`0 1 3 6`"), std::string::npos);
    std::size_t rows = 0;
    for (std::size_t p = md.find("\n| "); p != std::string::npos; p = md.find("\n| ", p + 1))
        ++rows;
    EXPECT_EQ(rows, 1 + t.frames.size()); // the header row and one per frame
}

// The first line of `text` after `from` that starts with `head`, or "".
std::string line_from(const std::string& text, const std::string& head, std::size_t from = 0) {
    const std::size_t at = text.find("\n" + head, from);
    return at == std::string::npos ? "" : text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

// scan-fast's captions are cut to a projector's two lines: what they leave out of each tile's
// step (each publish's event, the polls that found nothing, the reads past the prefix, who chose
// the order) is in `pplab trace`'s markdown row and in a text line under the record's values.
// 40 tiles: the last ones look back over two windows of 32.
TEST(Markdown, ScanFastKeepsWhatItsCaptionsLeaveOut) {
    Request r = request(Algorithm::ScanFast, generate(Generator::RandomInt, 40 * 128, 2, 0), 32);
    r.options.order_seed = 3;
    const Trace t = trace(r);
    const std::string md = to_markdown(t), text = to_text(t);
    int polled = 0, past = 0;
    for (const LookbackTile& tile : lookback_tiles(t)) {
        const std::string block = "block " + std::to_string(tile.tile);
        const std::string published = "published at event " +
                                      std::to_string(tile.aggregate_ticket) +
                                      " of the CPU model's schedule, seed 3";
        EXPECT_TRUE(mentions(line_from(md, "| " + block + " tile-publish |"), published)) << block;
        const std::string publish_values = line_from(text, block + " tile-publish: ");
        EXPECT_TRUE(mentions(text, publish_values + "\n#   " + published)) << block;
        if (tile.tile == 0)
            continue;
        int polls = 0, not_added = 0;
        for (const LookbackRead& read : tile.reads) {
            polls += read.waits;
            not_added += read.added ? 0 : 1;
        }
        const std::string row = line_from(md, "| " + block + " look-back |");
        const std::string details =
            line_from(text, "#   ", text.find("\n" + block + " look-back: ") + 1);
        for (const std::string& told : {row, details}) {
            EXPECT_TRUE(
                mentions(told, "published at event " + std::to_string(tile.inclusive_ticket)))
                << told;
            EXPECT_TRUE(mentions(told, " = " + format_value(tile.carry) + " + " +
                                           format_value(tile.aggregate) + " = " +
                                           format_value(tile.inclusive)))
                << told;
            if (polls > 0) {
                EXPECT_TRUE(mentions(told, std::to_string(polls) +
                                               (polls == 1 ? " poll found" : " polls found")))
                    << told;
            }
            if (not_added > 0) {
                EXPECT_TRUE(mentions(told, "past that prefix: read, not added")) << told;
            }
        }
        polled += polls > 0 ? 1 : 0;
        past += not_added > 0 ? 1 : 0;
    }
    EXPECT_GT(polled, 0) << "no tile waited: the polls go untested";
    EXPECT_GT(past, 0) << "no tile read past its prefix: those reads go untested";
}

TEST(FormatValue, ShortestTextThatReadsBack) {
    EXPECT_EQ(format_value(3.0f), "3");
    EXPECT_EQ(format_value(0.1f), "0.1");
    EXPECT_EQ(format_value(-0.0f), "-0");
    for (const float v : {0.1f, 1.0f / 3.0f, 1e-40f, 3.4028235e38f, -7.25f}) {
        const float back = std::strtof(format_value(v).c_str(), nullptr);
        EXPECT_EQ(bits_of(back), bits_of(v)) << format_value(v);
    }
}

// The page formats floats without std::to_chars (libc++ 13 lacks it for float): its text must
// be what the desktop writes, or the page's traces and sessions would differ from the CLI's.
TEST(FormatValue, ShortestTextWithoutToCharsIsToCharsText) {
    std::vector<float> values = {
        0.1f,   1.0f / 3.0f, 1e-45f, 1.17549435e-38f, 3.4028235e38f, -7.25f,
        100.0f, 1e5f,        1e6f,   123456.0f,       1234567.0f,    16777216.0f,
        1e20f,  1.5e-5f,     0.001f, 0.0001f,         65536.0f};
    for (int e = -149; e < 128; ++e) { // every power of two and its neighbours
        const float p = std::ldexp(1.0f, e);
        values.insert(values.end(), {p, std::nextafter(p, 0.0f),
                                     std::nextafter(p, std::numeric_limits<float>::infinity())});
    }
    std::uint32_t word = 12345;
    for (int i = 0; i < 60000; ++i) { // and many bit patterns across every exponent
        word = word * 1664525u + 1013904223u;
        float v = 0;
        std::memcpy(&v, &word, sizeof v);
        if (std::isfinite(v))
            values.push_back(v);
    }
    for (const float v : values) {
        const std::string text = shortest_float_text(v);
        EXPECT_EQ(bits_of(std::strtof(text.c_str(), nullptr)), bits_of(v)) << text;
#if defined(__cpp_lib_to_chars)
        char buf[64];
        const auto res = std::to_chars(buf, buf + sizeof buf, v);
        ASSERT_EQ(text, std::string(buf, res.ptr)) << "bits " << bits_of(v);
#else
        // Without to_chars (the page): the text is as short as any that reads back.
        char shorter[64];
        for (int digits = 1; digits <= 9; ++digits) {
            std::snprintf(shorter, sizeof shorter, "%.*e", digits - 1, static_cast<double>(v));
            if (std::strtof(shorter, nullptr) == v)
                break;
        }
        EXPECT_LE(text.size(), std::string(shorter).size()) << text << " vs " << shorter;
#endif
    }
}

} // namespace
} // namespace pplab
