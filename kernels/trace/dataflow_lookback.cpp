// Who wrote which cell, and what each step means, in scan-fast's look-back record: a tile's
// publishes (tile-publish) and what it found at each predecessor it read (look-back). A caption
// says the step in a projector's two lines: which tiles the look-back added and what it found
// there, its carry and the inclusive prefix it publishes. The rest (every value added, polls,
// reads past the prefix, events, who chose the order) is in the details (`pplab trace`'s text
// and markdown) and in the hover of the cells.
#include "pplab/io.hpp"
#include "pplab/lookback.hpp"
#include "trace/dataflow_steps.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace pplab::dataflow {

namespace {

// "tile 4", "tiles 3 and 4", "tiles 1–4": predecessors are read nearest first, so a group of
// reads is a run of consecutive tiles; named lowest first, as every range of the captions is.
std::string tiles_phrase(int nearest, int farthest) {
    if (nearest == farthest)
        return "tile " + std::to_string(nearest);
    if (nearest - farthest == 1)
        return "tiles " + std::to_string(farthest) + " and " + std::to_string(nearest);
    return "tiles " + std::to_string(farthest) + "–" + std::to_string(nearest);
}

// The tiles that polls found unpublished (`tiles` ascending), named as they are, not as a
// run: "tiles 3–7" only when consecutive, "tiles 3, 5 and 7" or "tiles 2–4 and 7" when not,
// "5 of tiles 1–9" where a list of more than four would outgrow a line.
std::string tiles_listed(const std::vector<int>& tiles) {
    if (tiles.back() - tiles.front() + 1 == static_cast<int>(tiles.size()))
        return tiles_phrase(tiles.back(), tiles.front());
    std::vector<std::string> parts; // a run of three or more as a range, the rest one by one
    for (std::size_t k = 0; k < tiles.size();) {
        std::size_t end = k + 1;
        while (end < tiles.size() && tiles[end] == tiles[end - 1] + 1)
            ++end;
        if (end - k >= 3) {
            parts.push_back(std::to_string(tiles[k]) + "–" + std::to_string(tiles[end - 1]));
            k = end;
        }
        for (; k < end; ++k)
            parts.push_back(std::to_string(tiles[k]));
    }
    if (parts.size() > 4)
        return std::to_string(tiles.size()) + " of " + tiles_phrase(tiles.back(), tiles.front());
    std::string s = "tiles " + parts[0];
    for (std::size_t k = 1; k < parts.size(); ++k)
        s += (k + 1 == parts.size() ? " and " : ", ") + parts[k];
    return s;
}

std::string schedule_of(const Trace& t) {
    if (const std::string by = seeded_order_by(t); !by.empty()) // tiles at paces a seed chose
        return by + "'s schedule, seed " + std::to_string(t.request.options.order_seed);
    return "the order the " + t.device + " ran";
}

std::string event(int ticket) {
    return "event " + std::to_string(ticket);
}

int publish_frame(const StepView& v, int tile) {
    return v.flow.find(Step::TilePublish, v.frame.pass, 0, tile, -1);
}

// How many of the tile's reads (nearest first) went into its carry: up to the nearest
// inclusive prefix, that one included.
std::size_t added_reads(const LookbackTile& tile) {
    std::size_t added = 0;
    while (added < tile.reads.size() && tile.reads[added].added)
        ++added;
    return added;
}

// What the carry is made of: "10 + 12 + 30 = 52, added from tile 4 down to tile 2" (every
// value); "30, tile 2's inclusive prefix" for one.
std::string carry_sum(const LookbackTile& tile) {
    const std::size_t added = added_reads(tile);
    if (added == 0)
        return format_value(tile.carry) + ", nothing added";
    const LookbackRead& last = tile.reads[added - 1];
    if (added == 1)
        return format_value(tile.carry) + ", tile " + std::to_string(last.predecessor) +
               (last.state == TileState::Inclusive ? "'s inclusive prefix" : "'s aggregate");
    std::string s;
    for (std::size_t k = 0; k < added; ++k)
        s += (k == 0 ? "" : " + ") + format_value(tile.reads[k].value);
    return s + " = " + format_value(tile.carry) + ", added from tile " +
           std::to_string(tile.reads[0].predecessor) + " down to tile " +
           std::to_string(last.predecessor);
}

// What the look-back added, for the caption: "tile 3's inclusive prefix, adding the aggregates
// of tiles 4 and 5" ends where it stopped; the values are on the canvas and in the details.
std::string found_phrase(const LookbackTile& tile) {
    const std::size_t added = added_reads(tile);
    if (added == 0)
        return " and finds nothing to add";
    const auto& reads = tile.reads;
    std::size_t aggregates = 0;
    while (aggregates < added && reads[aggregates].state == TileState::Aggregate)
        ++aggregates;
    std::string of;
    if (aggregates > 0)
        of = (aggregates == 1 ? "the aggregate of " : "the aggregates of ") +
             tiles_phrase(reads[0].predecessor, reads[aggregates - 1].predecessor);
    if (aggregates == added) // no inclusive prefix met (a record that ends at tile 0's aggregate)
        return " and adds " + of;
    const std::string prefix =
        " to tile " + std::to_string(reads[added - 1].predecessor) + "'s inclusive prefix";
    return prefix + (aggregates > 0 ? ", adding " + of : "");
}

// Polls that found nothing, and reads past the inclusive prefix: what the carry leaves out.
std::string waits_and_extras(const LookbackTile& tile) {
    std::string s;
    int polls = 0;
    std::vector<int> waited; // lowest first: the reads are nearest first
    for (auto read = tile.reads.rbegin(); read != tile.reads.rend(); ++read)
        if (read->waits > 0) {
            polls += read->waits;
            waited.push_back(read->predecessor);
        }
    if (polls > 0)
        s += "; " + count_of(polls, "poll", "polls") + " found " + tiles_listed(waited) +
             " unpublished";
    const std::size_t extra = added_reads(tile);
    if (extra < tile.reads.size()) {
        const bool one = extra + 1 == tile.reads.size();
        s += "; " + tiles_phrase(tile.reads[extra].predecessor, tile.reads.back().predecessor) +
             (one ? " (same window of 32) lies past that prefix: read, not added"
                  : " (same window of 32) lie past that prefix: read, not added");
    }
    return s;
}

// "published at event 40 of the CPU model's schedule, seed 3"
std::string published_at(const Trace& t, int ticket) {
    return "published at " + event(ticket) + " of " + schedule_of(t);
}

void publish_writes(const StepView& v, const LookbackTile& tile, std::vector<CellWrite>& w) {
    const Trace& t = v.flow.trace();
    const long long size = lookback_tile_size(v.request);
    const long long first = tile.tile * size;
    const long long last = std::min<long long>(first + size, v.n) - 1;
    for (long long i = first; i <= last; ++i)
        w[kTileAggregate].from.push_back(StepView::input(i));
    w[kTileAggregate].expression = "aggregate = the sum of " + cell_name("in", first) + "…" +
                                   cell_name("in", last) +
                                   " (each thread's float4, each warp's shuffles, the warp "
                                   "totals), " +
                                   published_at(t, tile.aggregate_ticket);
    w[kTileAggregateTicket].expression = "the aggregate's publish: " + event(tile.aggregate_ticket);
    for (const LookbackRead& read : tile.reads)
        if (read.added)
            w[kTileCarry].from.push_back(
                {publish_frame(v, read.predecessor),
                 read.state == TileState::Inclusive ? kTileInclusive : kTileAggregate});
    w[kTileCarry].expression =
        tile.tile == 0 ? "carry = 0 (no tile before tile 0)" : "carry = " + carry_sum(tile);
    w[kTileInclusive].from = {{static_cast<int>(v.index), kTileCarry},
                              {static_cast<int>(v.index), kTileAggregate}};
    w[kTileInclusive].expression =
        "inclusive prefix = carry + aggregate = " + format_value(tile.carry) + " + " +
        format_value(tile.aggregate) + ", " + published_at(t, tile.inclusive_ticket);
    w[kTileInclusiveTicket].expression =
        "the inclusive prefix's publish: " + event(tile.inclusive_ticket);
    for (CellWrite& cell : w)
        cell.thread = 0; // lane 0 of warp 0 publishes
}

void read_writes(const StepView& v, const LookbackTile& tile, std::vector<CellWrite>& w) {
    for (const LookbackRead& read : tile.reads) {
        const int lane = (tile.tile - 1 - read.predecessor) % kLookbackWindow;
        const std::size_t slot = static_cast<std::size_t>(read.predecessor) * kReadValues;
        const std::string at = "tile " + std::to_string(read.predecessor);
        for (std::size_t k = 0; k < static_cast<std::size_t>(kReadValues); ++k)
            w[slot + k].thread = lane;
        w[slot + kReadFirstLook].expression = "lane " + std::to_string(lane) + "'s first look at " +
                                              at + ": " + event(read.first_look);
        w[slot + kReadWaits].expression =
            count_of(read.waits, "poll", "polls") + " of " + at + " found nothing published";
        const bool inclusive = read.state == TileState::Inclusive;
        w[slot + kReadState].expression =
            at + " had published " + (inclusive ? "its inclusive prefix" : "only its aggregate");
        w[slot + kReadValue].from = {
            {publish_frame(v, read.predecessor), inclusive ? kTileInclusive : kTileAggregate}};
        // The found cell is the one drawn: it tells the read whole (the caption leaves it out).
        w[slot + kReadValue].expression =
            (inclusive ? "the inclusive prefix of " : "the aggregate of ") + at +
            (read.added ? ", added" : ", past the prefix: not added") + "; found at " +
            event(read.ticket) +
            (read.waits > 0 ? ", after " + count_of(read.waits, "poll", "polls") + " found nothing"
                            : "");
        w[slot + kReadTicket].expression = "the read that found it: " + event(read.ticket);
    }
}

const LookbackTile& tile_of(const StepView& v, const std::vector<LookbackTile>& tiles) {
    return tiles.at(static_cast<std::size_t>(v.frame.block));
}

} // namespace

void lookback_writes(const StepView& v, std::vector<CellWrite>& w) {
    const std::vector<LookbackTile> tiles = lookback_tiles(v.flow.trace());
    const LookbackTile& tile = tile_of(v, tiles);
    if (v.frame.step == Step::TilePublish)
        publish_writes(v, tile, w);
    else
        read_writes(v, tile, w);
}

std::string lookback_caption(const StepView& v) {
    const std::vector<LookbackTile> tiles = lookback_tiles(v.flow.trace());
    const LookbackTile& tile = tile_of(v, tiles);
    const std::string name = "Tile " + std::to_string(tile.tile);
    if (v.frame.step == Step::TilePublish) {
        if (tile.tile == 0)
            return name + " has nothing before it: it publishes its aggregate " +
                   format_value(tile.aggregate) + " as its inclusive prefix at once";
        return name + " publishes its aggregate " + format_value(tile.aggregate) +
               " at once: a later tile may add it before tile " + std::to_string(tile.tile) +
               " knows its carry";
    }
    if (tile.tile == 0)
        return name + " has no predecessor to look back at: its carry is 0";
    return name + " looks back" + found_phrase(tile) + ": carry " + format_value(tile.carry) +
           ", inclusive prefix " + format_value(tile.inclusive);
}

std::string lookback_details(const StepView& v) {
    const Trace& t = v.flow.trace();
    const std::vector<LookbackTile> tiles = lookback_tiles(t);
    const LookbackTile& tile = tile_of(v, tiles);
    if (v.frame.step == Step::TilePublish)
        return published_at(t, tile.aggregate_ticket) +
               (tile.tile == 0 ? "; its elements scan from 0" : "");
    if (tile.tile == 0)
        return schedule_of(t);
    return "carry = " + carry_sum(tile) + waits_and_extras(tile) +
           "; inclusive prefix = carry + aggregate = " + format_value(tile.carry) + " + " +
           format_value(tile.aggregate) + " = " + format_value(tile.inclusive) + ", " +
           published_at(t, tile.inclusive_ticket);
}

} // namespace pplab::dataflow
