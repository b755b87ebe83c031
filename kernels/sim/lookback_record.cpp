// scan-fast's look-back records from the descriptor accesses (see lookback_record.hpp).
#include "lookback_record.hpp"

#include "pplab/lookback.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <map>
#include <set>

namespace pplab::sim {

namespace {

constexpr std::uint64_t kInvalid = 0, kAggregate = 1, kInclusive = 2;
constexpr float kUnknown = std::numeric_limits<float>::quiet_NaN(); // "?" in the trace

std::uint64_t status_of(std::uint64_t bits) {
    return bits >> 32;
}

float value_of(std::uint64_t bits) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
}

// Each block's tile: the descriptor it publishes first; -1 where it published none.
std::vector<int> tiles_of(const std::vector<WatchedAccess>& log, int grid, std::string& why) {
    std::vector<int> tile(static_cast<std::size_t>(grid), -1);
    std::vector<bool> taken(static_cast<std::size_t>(grid), false);
    for (const WatchedAccess& a : log) {
        if (!a.write)
            continue;
        const std::uint64_t status = status_of(a.bits);
        if (status != kAggregate && status != kInclusive) {
            why = "block " + std::to_string(a.block) + " stored a descriptor whose status (the " +
                  "high 32 bits) is " + std::to_string(status) + ", not 1 (aggregate) or 2 " +
                  "(inclusive prefix) as the listing encodes it";
            return {};
        }
        int& t = tile[static_cast<std::size_t>(a.block)];
        if (t >= 0)
            continue;
        if (taken[static_cast<std::size_t>(a.index)]) {
            why = "two blocks published tile " + std::to_string(a.index) + "'s descriptor";
            return {};
        }
        t = static_cast<int>(a.index);
        taken[static_cast<std::size_t>(a.index)] = true;
    }
    for (int b = 0; b < grid; ++b)
        if (tile[static_cast<std::size_t>(b)] < 0) {
            why = "block " + std::to_string(b) + " published no descriptor";
            return {};
        }
    return tile;
}

// The carry a tile's reads give, window by window in the kernel's order (32 predecessors a
// window, nearest first, up to the window with the first inclusive prefix); NaN ("?") where a
// window was not read whole.
float carry_of(int tile, const std::vector<float>& reads) {
    return lookback_carry(
               tile,
               [&](int, int, int pred, bool masked) -> std::optional<LaneRead> {
                   if (masked) // past the inclusive prefix: counts 0, read or not
                       return LaneRead{};
                   const float* slot = &reads[static_cast<std::size_t>(pred) * kReadValues];
                   if (slot[kReadState] == kNotRead ||
                       slot[kReadState] == static_cast<float>(TileState::Nothing))
                       return std::nullopt;
                   return LaneRead{slot[kReadValue],
                                   slot[kReadState] == static_cast<float>(TileState::Inclusive)};
               })
        .value_or(kUnknown);
}

} // namespace

std::optional<LookbackRecords> lookback_records(const std::vector<WatchedAccess>& log, int grid,
                                                std::string& why) {
    const std::vector<int> tile_of = tiles_of(log, grid, why);
    if (tile_of.empty())
        return std::nullopt;
    LookbackRecords out;
    out.publish.assign(static_cast<std::size_t>(grid), {kUnknown, -1.0f, 0.0f, kUnknown, -1.0f});
    std::vector<float> unread(static_cast<std::size_t>(kReadValues) * grid, 0.0f);
    for (int pred = 0; pred < grid; ++pred) {
        float* slot = &unread[static_cast<std::size_t>(pred) * kReadValues];
        slot[kReadFirstLook] = slot[kReadTicket] = -1.0f;
        slot[kReadState] = kNotRead;
    }
    out.reads.assign(static_cast<std::size_t>(grid), unread);
    // Each look at a predecessor ends with its final load: the first that found something
    // published, else (a look-back that stopped polling) the last.
    std::map<std::pair<int, long long>, std::size_t> final_load;
    std::set<std::pair<int, long long>> found;
    for (std::size_t i = 0; i < log.size(); ++i) {
        const WatchedAccess& a = log[i];
        const std::pair<int, long long> key{a.block, a.index};
        if (a.write || found.count(key))
            continue;
        final_load[key] = i;
        if (status_of(a.bits) != kInvalid)
            found.insert(key);
    }
    std::vector<bool> aggregate(static_cast<std::size_t>(grid), false),
        inclusive(static_cast<std::size_t>(grid), false);
    int tickets = 0;
    for (std::size_t i = 0; i < log.size(); ++i) {
        const WatchedAccess& a = log[i];
        const auto t = static_cast<std::size_t>(tile_of[static_cast<std::size_t>(a.block)]);
        const std::uint64_t status = status_of(a.bits);
        if (a.write) {
            std::vector<float>& p = out.publish[t];
            if (status == kAggregate && !aggregate[t]) {
                p[kTileAggregate] = value_of(a.bits);
                p[kTileAggregateTicket] = static_cast<float>(tickets++);
                aggregate[t] = true;
            } else if (status == kInclusive && !inclusive[t]) {
                if (!aggregate[t]) { // nothing before it: its aggregate is its inclusive prefix
                    p[kTileAggregate] = value_of(a.bits);
                    p[kTileAggregateTicket] = static_cast<float>(tickets);
                    aggregate[t] = true;
                }
                p[kTileInclusive] = value_of(a.bits);
                p[kTileInclusiveTicket] = static_cast<float>(tickets++);
                inclusive[t] = true;
            }
            continue;
        }
        if (status != kInvalid && status != kAggregate && status != kInclusive) {
            why = "block " + std::to_string(a.block) + " read a descriptor whose status is " +
                  std::to_string(status) + ", not one the listing publishes";
            return std::nullopt;
        }
        const std::size_t last = final_load.at({a.block, a.index});
        if (i > last)
            continue; // found already: a later load of it adds nothing to the story
        float* slot = &out.reads[t][static_cast<std::size_t>(a.index) * kReadValues];
        const bool first = slot[kReadFirstLook] < 0;
        if (first)
            slot[kReadFirstLook] = static_cast<float>(tickets++);
        if (i < last) {
            slot[kReadWaits] += 1.0f; // a poll that found nothing published
            continue;
        }
        slot[kReadState] = static_cast<float>(status == kAggregate   ? TileState::Aggregate
                                              : status == kInclusive ? TileState::Inclusive
                                                                     : TileState::Nothing);
        slot[kReadValue] = status == kInvalid ? 0.0f : value_of(a.bits);
        slot[kReadTicket] = first ? slot[kReadFirstLook] : static_cast<float>(tickets++);
    }
    for (int t = 1; t < grid; ++t)
        out.publish[static_cast<std::size_t>(t)][kTileCarry] =
            carry_of(t, out.reads[static_cast<std::size_t>(t)]);
    return out;
}

} // namespace pplab::sim
