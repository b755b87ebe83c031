// Reading scan-fast's look-back record, and holding it to soundness: the same check for the
// CPU model's schedule and for the order the GPU ran.
#include "pplab/lookback.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace pplab {

float warp_shuffle_sum(std::array<float, kWarpSize> v) {
    for (int offset = kWarpSize / 2; offset > 0; offset >>= 1) {
        std::array<float, kWarpSize> next;
        for (int lane = 0; lane < kWarpSize; ++lane)
            next[lane] = v[lane] + (lane + offset < kWarpSize ? v[lane + offset] : v[lane]);
        v = next;
    }
    return v[0];
}

std::optional<float>
lookback_carry(int tile, const std::function<std::optional<LaneRead>(int, int, int, bool)>& read) {
    float carry = 0.0f;
    for (int window = 0; tile > 0; ++window) {
        std::array<float, kWarpSize> lanes{};
        bool met = false;
        for (int lane = 0; lane < kLookbackWindow; ++lane) {
            const int pred = tile - 1 - window * kLookbackWindow - lane;
            if (pred < 0) {
                met = true; // tile 0 is the last: nothing lies before it
                break;
            }
            const std::optional<LaneRead> r = read(window, lane, pred, met);
            if (!r)
                return std::nullopt;
            if (!met)
                lanes[static_cast<std::size_t>(lane)] = r->value;
            met = met || r->inclusive;
        }
        carry += warp_shuffle_sum(lanes);
        if (met)
            break;
    }
    return carry;
}

namespace {

// A ticket is a small whole number carried in a float (exact below 2^24).
int ticket_of(float v) {
    return std::isfinite(v) && v >= -1.0f && v < 16777216.0f && v == std::floor(v)
               ? static_cast<int>(v)
               : -2;
}

bool same_bits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

std::string tile_name(int tile) {
    return "tile " + std::to_string(tile);
}

} // namespace

std::vector<LookbackTile> lookback_tiles(const Trace& t) {
    const int tiles = t.request.grid;
    if (t.request.algorithm != Algorithm::ScanFast ||
        t.frames.size() != 2 * static_cast<std::size_t>(tiles))
        throw InputError("this is not a scan-fast trace: it needs two records per tile");
    std::vector<LookbackTile> out(static_cast<std::size_t>(tiles));
    for (const Frame& f : t.frames) {
        const bool publish = f.step == Step::TilePublish && f.values.size() == kPublishValues;
        const bool reads = f.step == Step::LookBack &&
                           f.values.size() == static_cast<std::size_t>(kReadValues) * tiles;
        if ((!publish && !reads) || f.block < 0 || f.block >= tiles)
            throw InputError("scan-fast trace record " + std::string(step_id(f.step)) +
                             " of block " + std::to_string(f.block) + " has the wrong shape");
        LookbackTile& tile = out[static_cast<std::size_t>(f.block)];
        tile.tile = f.block;
        const float* v = f.values.data();
        if (publish) {
            tile.aggregate = v[kTileAggregate];
            tile.aggregate_ticket = ticket_of(v[kTileAggregateTicket]);
            tile.carry = v[kTileCarry];
            tile.inclusive = v[kTileInclusive];
            tile.inclusive_ticket = ticket_of(v[kTileInclusiveTicket]);
            continue;
        }
        for (int pred = f.block - 1; pred >= 0; --pred) {
            const float* slot = v + static_cast<std::ptrdiff_t>(pred) * kReadValues;
            if (slot[kReadState] == kNotRead)
                continue;
            LookbackRead read;
            read.predecessor = pred;
            read.first_look = ticket_of(slot[kReadFirstLook]);
            read.waits = static_cast<int>(std::clamp(slot[kReadWaits], 0.0f, 16777216.0f));
            read.state = slot[kReadState] == 1.0f   ? TileState::Aggregate
                         : slot[kReadState] == 2.0f ? TileState::Inclusive
                                                    : TileState::Nothing;
            read.value = slot[kReadValue];
            read.ticket = ticket_of(slot[kReadTicket]);
            tile.reads.push_back(read);
        }
        for (LookbackRead& read : tile.reads) { // added: up to the nearest inclusive prefix
            read.added = true;
            if (read.state == TileState::Inclusive)
                break;
        }
    }
    return out;
}

namespace {

// Each tile read whole windows of 32 predecessors, nearest first, up to the window with the
// first inclusive prefix; its carry is the windows' sums in the kernel's order.
void check_windows(const LookbackTile& tile, std::vector<std::string>& problems) {
    const std::string who = tile_name(tile.tile);
    std::size_t k = 0;
    const std::optional<float> carry =
        lookback_carry(tile.tile, [&](int window, int, int pred, bool) -> std::optional<LaneRead> {
            if (k >= tile.reads.size() || tile.reads[k].predecessor != pred) {
                problems.push_back(who + " did not read tile " + std::to_string(pred) +
                                   ", which its look-back window " + std::to_string(window) +
                                   " covers");
                return std::nullopt;
            }
            const LookbackRead& r = tile.reads[k++];
            return LaneRead{r.value, r.state == TileState::Inclusive};
        });
    if (!carry)
        return;
    if (k != tile.reads.size())
        problems.push_back(who + " read tile " + std::to_string(tile.reads[k].predecessor) +
                           ", past the window where it met an inclusive prefix: it must stop "
                           "there");
    if (!same_bits(*carry, tile.carry))
        problems.push_back(who + "'s carry " + std::to_string(tile.carry) +
                           " is not the sum of what it read (" + std::to_string(*carry) + ")");
}

// What a tile read must have been published, before the read, with that value.
void check_reads(const LookbackTile& tile, const std::vector<LookbackTile>& tiles,
                 std::vector<std::string>& problems) {
    const std::string who = tile_name(tile.tile);
    for (const LookbackRead& read : tile.reads) {
        const std::string at = who + " at " + tile_name(read.predecessor) + ": ";
        const LookbackTile& pred = tiles[static_cast<std::size_t>(read.predecessor)];
        if (read.state == TileState::Nothing) {
            problems.push_back(at + "the look-back ended without finding anything published");
            continue;
        }
        const bool inclusive = read.state == TileState::Inclusive;
        const int published = inclusive ? pred.inclusive_ticket : pred.aggregate_ticket;
        const float value = inclusive ? pred.inclusive : pred.aggregate;
        const std::string what = inclusive ? "inclusive prefix" : "aggregate";
        if (read.ticket <= published)
            problems.push_back(at + "read its " + what + " (event " + std::to_string(read.ticket) +
                               ") before it was published (event " + std::to_string(published) +
                               ")");
        if (!same_bits(read.value, value))
            problems.push_back(at + "read " + std::to_string(read.value) + " as its " + what +
                               ", which is " + std::to_string(value));
        if (read.first_look < 0 || read.first_look > read.ticket ||
            (read.waits == 0) != (read.first_look == read.ticket))
            problems.push_back(at + "its first look (event " + std::to_string(read.first_look) +
                               "), " + std::to_string(read.waits) +
                               " polls that found nothing and the read (event " +
                               std::to_string(read.ticket) + ") do not agree");
    }
}

// Every event takes one ticket: together they number 0, 1, 2, ... with none twice.
void check_tickets(const std::vector<LookbackTile>& tiles, std::vector<std::string>& problems) {
    std::vector<int> used;
    for (const LookbackTile& tile : tiles) {
        used.push_back(tile.aggregate_ticket);
        if (tile.tile > 0)
            used.push_back(tile.inclusive_ticket);
        for (const LookbackRead& read : tile.reads) {
            used.push_back(read.first_look);
            if (read.ticket != read.first_look)
                used.push_back(read.ticket);
        }
    }
    std::sort(used.begin(), used.end());
    for (std::size_t k = 0; k < used.size(); ++k)
        if (used[k] != static_cast<int>(k)) {
            problems.push_back("the events are not numbered 0 to " +
                               std::to_string(used.size() - 1) + " once each: event " +
                               std::to_string(k) + " is " + std::to_string(used[k]));
            return;
        }
}

} // namespace

std::vector<std::string> check_lookback(const Trace& t) {
    std::vector<std::string> problems;
    const std::vector<LookbackTile> tiles = lookback_tiles(t);
    check_tickets(tiles, problems);
    for (const LookbackTile& tile : tiles) {
        const std::string who = tile_name(tile.tile);
        if (tile.tile == 0 &&
            (tile.aggregate_ticket != tile.inclusive_ticket || !same_bits(tile.carry, 0.0f)))
            problems.push_back("tile 0 has nothing before it: it publishes its aggregate as its "
                               "inclusive prefix, in one event, with carry 0");
        if (tile.tile > 0 && tile.aggregate_ticket >= tile.inclusive_ticket)
            problems.push_back(who + " published its inclusive prefix (event " +
                               std::to_string(tile.inclusive_ticket) +
                               ") before its aggregate (event " +
                               std::to_string(tile.aggregate_ticket) + ")");
        const float inclusive = tile.tile == 0 ? tile.aggregate : tile.carry + tile.aggregate;
        if (!same_bits(inclusive, tile.inclusive))
            problems.push_back(who + "'s inclusive prefix " + std::to_string(tile.inclusive) +
                               " is not carry + aggregate (" + std::to_string(inclusive) + ")");
        check_windows(tile, problems);
        check_reads(tile, tiles, problems);
    }
    return problems;
}

} // namespace pplab
