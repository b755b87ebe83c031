// scan-fast traced at classroom sizes: the CPU model's scan against an exact serial prefix sum,
// its seeded schedule (deterministic, and showing real look-back), and check_lookback, the
// soundness check the GPU's record is held to, shown to accept the model's records and to
// reject each kind of unsound one.
#include "pplab/lookback.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace pplab {
namespace {

Request scan_fast(int n, int block, std::uint64_t seed, int modulus = 7) {
    Request r;
    r.algorithm = Algorithm::ScanFast;
    r.block = block;
    r.options.order_seed = seed;
    for (int i = 0; i < n; ++i) // small whole numbers: every order of additions is exact
        r.input.push_back(static_cast<float>((i * 37 + 11) % modulus) - 2.0f);
    return r;
}

bool mentions(const std::vector<std::string>& problems, const std::string& what) {
    return std::any_of(problems.begin(), problems.end(),
                       [&](const std::string& p) { return p.find(what) != std::string::npos; });
}

std::string joined(const std::vector<std::string>& problems) {
    std::string s;
    for (const auto& p : problems)
        s += p + "\n";
    return s;
}

struct Shape {
    int n, block;
};

class LookbackShapes : public ::testing::TestWithParam<Shape> {};

TEST_P(LookbackShapes, ExclusiveScanExactAndRecordSound) {
    const auto [n, block] = GetParam();
    for (std::uint64_t seed : {0u, 1u, 2u, 17u}) {
        const Trace t = trace_lookback_cpu(scan_fast(n, block, seed));
        SCOPED_TRACE("n " + std::to_string(n) + " block " + std::to_string(block) + " seed " +
                     std::to_string(seed));
        ASSERT_EQ(t.result.size(), static_cast<std::size_t>(n));
        long long sum = 0; // the serial exclusive scan, in integers
        for (int i = 0; i < n; ++i) {
            ASSERT_EQ(t.result[static_cast<std::size_t>(i)], static_cast<float>(sum)) << i;
            sum += static_cast<long long>(t.request.input[static_cast<std::size_t>(i)]);
        }
        const std::vector<LookbackTile> tiles = lookback_tiles(t);
        const int tile_size = block * kLookbackItems;
        ASSERT_EQ(static_cast<int>(tiles.size()), (n + tile_size - 1) / tile_size);
        std::vector<long long> tile_sums(tiles.size(), 0);
        for (int i = 0; i < n; ++i)
            tile_sums[static_cast<std::size_t>(i / tile_size)] +=
                static_cast<long long>(t.request.input[static_cast<std::size_t>(i)]);
        long long before = 0;
        for (const LookbackTile& tile : tiles) {
            const long long own = tile_sums[static_cast<std::size_t>(tile.tile)];
            EXPECT_EQ(tile.aggregate, static_cast<float>(own)) << tile.tile;
            EXPECT_EQ(tile.carry, static_cast<float>(before)) << tile.tile;
            EXPECT_EQ(tile.inclusive, static_cast<float>(before + own)) << tile.tile;
            before += own;
        }
        const auto problems = check_lookback(t);
        EXPECT_TRUE(problems.empty()) << joined(problems);
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, LookbackShapes,
                         ::testing::Values(Shape{1, 32}, Shape{128, 32}, Shape{129, 32},
                                           Shape{256, 32}, Shape{1000, 32}, Shape{8192, 32},
                                           Shape{8191, 32}, Shape{4096, 256}, Shape{3000, 96},
                                           Shape{64 * 4096, 1024}));

TEST(LookbackSchedule, TheSameSeedGivesTheSameTraceAnotherSeedAnother) {
    const Trace a = trace_lookback_cpu(scan_fast(64 * 128, 32, 5));
    EXPECT_TRUE(a.same_recording(trace_lookback_cpu(scan_fast(64 * 128, 32, 5))));
    EXPECT_FALSE(a.same_recording(trace_lookback_cpu(scan_fast(64 * 128, 32, 6))));
    EXPECT_EQ(a.request.options.order_seed, 5u) << "the seed is part of the request";
}

// The schedule is there to teach: with the default seed, tiles must meet aggregates and walk
// past them, and wait on predecessors that have published nothing, at 8 tiles and at 64.
TEST(LookbackSchedule, ShowsWalkingBackAndWaiting) {
    for (int tiles : {8, 64}) {
        SCOPED_TRACE(std::to_string(tiles) + " tiles");
        const Trace t = trace_lookback_cpu(scan_fast(tiles * 128, 32, 0));
        int walked = 0, waited = 0;
        for (const LookbackTile& tile : lookback_tiles(t)) {
            const auto added = std::count_if(tile.reads.begin(), tile.reads.end(),
                                             [](auto& r) { return r.added; });
            walked += added >= 2;
            waited += std::any_of(tile.reads.begin(), tile.reads.end(),
                                  [](auto& r) { return r.waits > 0; });
        }
        EXPECT_GE(walked, 2) << "tiles that added an aggregate and kept walking back";
        EXPECT_GE(waited, 1) << "tiles that found a predecessor with nothing published";
    }
}

// ---- check_lookback rejects what is unsound --------------------------------------------------

class LookbackCheck : public ::testing::Test {
protected:
    Trace t = trace_lookback_cpu(scan_fast(64 * 128, 32, 0));

    // Canonical order: every tile-publish record, then every look-back record.
    Frame& publish_of(int tile) { return t.frames.at(static_cast<std::size_t>(tile)); }
    Frame& reads_of(int tile) {
        return t.frames.at(static_cast<std::size_t>(t.request.grid + tile));
    }
    float* slot(int tile, int pred) {
        return reads_of(tile).values.data() + static_cast<std::ptrdiff_t>(pred) * kReadValues;
    }
    // A tile whose nearest predecessor it saw with only an aggregate.
    int walker() {
        for (const LookbackTile& tile : lookback_tiles(t))
            if (!tile.reads.empty() && tile.reads.front().state == TileState::Aggregate)
                return tile.tile;
        ADD_FAILURE() << "no tile walked past an aggregate";
        return 1;
    }
};

TEST_F(LookbackCheck, TheModelsRecordIsSound) {
    ASSERT_EQ(publish_of(3).step, Step::TilePublish);
    ASSERT_EQ(reads_of(3).step, Step::LookBack);
    EXPECT_TRUE(check_lookback(t).empty()) << joined(check_lookback(t));
}

TEST_F(LookbackCheck, ACarryThatIsNotTheSumOfWhatWasRead) {
    publish_of(5).values[kTileCarry] += 1.0f;
    publish_of(5).values[kTileInclusive] += 1.0f;
    EXPECT_TRUE(mentions(check_lookback(t), "tile 5's carry")) << joined(check_lookback(t));
}

TEST_F(LookbackCheck, AnInclusivePrefixThatIsNotCarryPlusAggregate) {
    publish_of(7).values[kTileInclusive] += 1.0f;
    EXPECT_TRUE(mentions(check_lookback(t), "is not carry + aggregate"));
}

TEST_F(LookbackCheck, AReadBeforeThePublish) {
    const int tile = walker();
    const int pred = tile - 1;
    // Swap the read's ticket with the predecessor's aggregate ticket: read first.
    std::swap(slot(tile, pred)[kReadTicket], publish_of(pred).values[kTileAggregateTicket]);
    slot(tile, pred)[kReadFirstLook] = slot(tile, pred)[kReadTicket];
    slot(tile, pred)[kReadWaits] = 0.0f;
    EXPECT_TRUE(mentions(check_lookback(t), "before it was published"))
        << joined(check_lookback(t));
}

TEST_F(LookbackCheck, AValueThatWasNeverPublished) {
    const int tile = walker();
    slot(tile, tile - 1)[kReadValue] += 2.0f;
    EXPECT_TRUE(mentions(check_lookback(t), "as its aggregate, which is"));
}

TEST_F(LookbackCheck, WalkingPastTheFirstInclusivePrefix) {
    // Tile 40's window covers tiles 39 to 8; reading tile 7 is past it.
    float* s = slot(40, 7);
    s[kReadState] = 2.0f;
    s[kReadFirstLook] = s[kReadTicket] = 1e6f;
    EXPECT_TRUE(mentions(check_lookback(t), "tile 40 read tile 7, past the window"));
}

TEST_F(LookbackCheck, SkippingAPredecessorInTheWindow) {
    slot(9, 8)[kReadState] = kNotRead;
    EXPECT_TRUE(mentions(check_lookback(t), "tile 9 did not read tile 8"));
}

TEST_F(LookbackCheck, AnEventNumberedTwice) {
    publish_of(2).values[kTileAggregateTicket] = publish_of(1).values[kTileAggregateTicket];
    EXPECT_TRUE(mentions(check_lookback(t), "once each"));
}

TEST_F(LookbackCheck, ATraceOfAnotherAlgorithm) {
    t.frames.pop_back();
    EXPECT_THROW(check_lookback(t), InputError);
}

// ---- The request's rules --------------------------------------------------------------------

TEST(LookbackRequest, ClassroomSizesOnlyInWholeWarps) {
    EXPECT_EQ(normalize_lookback(scan_fast(1000, 0, 0)).block, 256);
    EXPECT_EQ(normalize_lookback(scan_fast(1000, 32, 0)).grid, 8);
    const auto message = [](const Request& r) {
        try {
            normalize_lookback(r);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message(scan_fast(100, 48, 0)).find("multiple of 32"), std::string::npos);
    EXPECT_NE(message(scan_fast(64 * 128 + 1, 32, 0)).find("at most 64 tiles"), std::string::npos);
    Request grid = scan_fast(1000, 32, 0);
    grid.grid = 3;
    EXPECT_NE(message(grid).find("ceil(n / 128) = 8"), std::string::npos);
    EXPECT_NE(message(scan_fast(0, 32, 0)).find("empty"), std::string::npos);
}

} // namespace
} // namespace pplab
