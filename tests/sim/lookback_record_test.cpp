// scan-fast's look-back records from a kernel's loads and stores of the tile descriptors
// (kernels/sim/lookback_record.hpp), on a log written by hand: which tile each block took, the
// events numbered as the CUDA recorder numbers them, the polls that found nothing, the carry
// from the windows read, and the logs it refuses to read.
#include "sim/lookback_record.hpp"

#include "pplab/lookback.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

namespace pplab {
namespace {

std::uint64_t descriptor(std::uint64_t status, float v) {
    return status << 32 | std::bit_cast<std::uint32_t>(v);
}

sim::WatchedAccess store(int block, long long tile, std::uint64_t status, float v) {
    return {block, true, tile, descriptor(status, v)};
}

sim::WatchedAccess load(int block, long long tile, std::uint64_t status, float v) {
    return {block, false, tile, descriptor(status, v)};
}

std::vector<float> slot(const std::vector<float>& reads, int pred) {
    const auto at = reads.begin() + static_cast<long>(pred) * kReadValues;
    return {at, at + kReadValues};
}

const std::vector<float> kUnread = {-1.0f, 0.0f, kNotRead, 0.0f, -1.0f};

TEST(LookbackRecord, TheStoryOfThreeTilesFromTheirDescriptors) {
    // Block 1 took tile 2 and block 2 tile 1 (tiles go in the order blocks start).
    const std::vector<sim::WatchedAccess> log = {
        store(0, 0, 2, 10.0f), // event 0: tile 0, its aggregate as its inclusive prefix
        store(1, 2, 1, 5.0f),  // event 1: tile 2's aggregate
        load(1, 1, 0, 0.0f),   // event 2: tile 2's first look at tile 1: nothing yet
        store(2, 1, 1, 7.0f),  // event 3: tile 1's aggregate
        load(2, 0, 2, 10.0f),  // event 4: tile 1 finds tile 0's inclusive prefix at once
        load(1, 1, 1, 7.0f),   // event 5: tile 2 finds tile 1's aggregate after one wait
        load(1, 0, 2, 10.0f),  // event 6: tile 2 finds tile 0's inclusive prefix at once
        store(2, 1, 2, 17.0f), // event 7: tile 1's inclusive prefix
        store(1, 2, 2, 22.0f), // event 8: tile 2's inclusive prefix
        load(1, 1, 2, 17.0f),  // a later load of a predecessor already found: no event
    };
    std::string why;
    const auto r = sim::lookback_records(log, 3, why);
    ASSERT_TRUE(r) << why;
    EXPECT_EQ(r->publish[0], (std::vector<float>{10.0f, 0.0f, 0.0f, 10.0f, 0.0f}));
    EXPECT_EQ(r->publish[1], (std::vector<float>{7.0f, 3.0f, 10.0f, 17.0f, 7.0f}));
    EXPECT_EQ(r->publish[2], (std::vector<float>{5.0f, 1.0f, 17.0f, 22.0f, 8.0f}));
    for (const int pred : {0, 1, 2})
        EXPECT_EQ(slot(r->reads[0], pred), kUnread) << "tile 0 reads nothing";
    EXPECT_EQ(slot(r->reads[1], 0), (std::vector<float>{4.0f, 0.0f, 2.0f, 10.0f, 4.0f}));
    EXPECT_EQ(slot(r->reads[1], 1), kUnread);
    EXPECT_EQ(slot(r->reads[2], 1), (std::vector<float>{2.0f, 1.0f, 1.0f, 7.0f, 5.0f}));
    EXPECT_EQ(slot(r->reads[2], 0), (std::vector<float>{6.0f, 0.0f, 2.0f, 10.0f, 6.0f}));
}

// A lane that stopped polling before anything was published: its last load is the look, and
// it found nothing (what check_lookback says is wrong).
TEST(LookbackRecord, ALookThatStoppedPollingFoundNothing) {
    const std::vector<sim::WatchedAccess> log = {
        store(1, 1, 1, 7.0f), // event 0
        load(1, 0, 0, 0.0f),  // event 1: first look, nothing (a wait)
        load(1, 0, 0, 0.0f),  // a second poll that found nothing (a wait)
        load(1, 0, 0, 0.0f),  // event 2: the last, nothing: the lane went on
        store(0, 0, 2, 3.0f), // event 3
        store(1, 1, 2, 7.0f), // event 4
    };
    std::string why;
    const auto r = sim::lookback_records(log, 2, why);
    ASSERT_TRUE(r) << why;
    EXPECT_EQ(slot(r->reads[1], 0),
              (std::vector<float>{1.0f, 2.0f, static_cast<float>(TileState::Nothing), 0.0f, 2.0f}));
    EXPECT_EQ(r->publish[0][kTileAggregateTicket], 3.0f);
}

TEST(LookbackRecord, DescriptorsEncodedOtherwiseAreSaidNotGuessed) {
    std::string why;
    EXPECT_FALSE(sim::lookback_records({store(0, 0, 5, 1.0f)}, 1, why));
    EXPECT_NE(why.find("status (the high 32 bits) is 5"), std::string::npos) << why;
    EXPECT_FALSE(sim::lookback_records({store(0, 0, 2, 1.0f)}, 2, why));
    EXPECT_NE(why.find("block 1 published no descriptor"), std::string::npos) << why;
    EXPECT_FALSE(sim::lookback_records({store(0, 0, 2, 1.0f), store(1, 0, 2, 1.0f)}, 2, why));
    EXPECT_NE(why.find("two blocks published tile 0"), std::string::npos) << why;
    EXPECT_FALSE(sim::lookback_records(
        {store(0, 0, 2, 1.0f), store(1, 1, 1, 1.0f), load(1, 0, 7, 1.0f)}, 2, why));
    EXPECT_NE(why.find("status is 7"), std::string::npos) << why;
}

} // namespace
} // namespace pplab
