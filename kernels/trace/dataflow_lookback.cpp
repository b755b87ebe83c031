// Who wrote which cell, and what each step means, in scan-fast's look-back record: a tile's
// publishes (tile-publish) and what it found at each predecessor it read (look-back). The
// captions tell the chain in one sentence per step, and say who chose the order: a seeded
// schedule on the CPU model, the hardware on a GPU.
#include "pplab/io.hpp"
#include "pplab/lookback.hpp"
#include "trace/dataflow_steps.hpp"

#include <algorithm>
#include <string>

namespace pplab::dataflow {

namespace {

// "tile 4", "tiles 4 and 3", "tiles 4 down to 1": predecessors are read nearest first, so a
// group of reads is a run of consecutive tiles, highest first.
std::string tiles_phrase(int nearest, int farthest) {
    if (nearest == farthest)
        return "tile " + std::to_string(nearest);
    if (nearest - farthest == 1)
        return "tiles " + std::to_string(nearest) + " and " + std::to_string(farthest);
    return "tiles " + std::to_string(nearest) + " down to " + std::to_string(farthest);
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

// The values a tile added into its carry, nearest first: "10, 12, 30" (at most four, then …).
std::string values_listed(const std::vector<LookbackRead>& reads, std::size_t first,
                          std::size_t last) {
    std::string s;
    constexpr std::size_t kShown = 4;
    for (std::size_t k = first; k <= last; ++k) {
        if (k - first == kShown && last - first + 1 > kShown + 1) {
            s += ", …, " + format_value(reads[last].value);
            break;
        }
        s += (k == first ? "" : ", ") + format_value(reads[k].value);
    }
    return s;
}

// "tiles 4 and 3 had only aggregates (10, 12), tile 2 its inclusive prefix 30; its carry is
// 10 + 12 + 30 = 52"
std::string chain(const LookbackTile& tile) {
    std::size_t added = 0;
    while (added < tile.reads.size() && tile.reads[added].added)
        ++added;
    if (added == 0)
        return "it found nothing to add";
    const auto& reads = tile.reads;
    std::string s;
    std::size_t aggregates = 0;
    while (aggregates < added && reads[aggregates].state == TileState::Aggregate)
        ++aggregates;
    if (aggregates > 0)
        s += tiles_phrase(reads[0].predecessor, reads[aggregates - 1].predecessor) +
             (aggregates == 1 ? " had only its aggregate (" : " had only aggregates (") +
             values_listed(reads, 0, aggregates - 1) + ")";
    if (aggregates < added) {
        const LookbackRead& last = reads[added - 1];
        s += (aggregates > 0 ? ", " : "") + tiles_phrase(last.predecessor, last.predecessor) +
             (aggregates > 0 ? " its" : " had its") + " inclusive prefix " +
             format_value(last.value);
    }
    s += "; its carry is ";
    if (added <= 5) {
        for (std::size_t k = 0; k < added; ++k)
            s += (k == 0 ? "" : " + ") + format_value(reads[k].value);
        s += added > 1 ? " = " + format_value(tile.carry) : "";
    } else {
        s += "their sum, " + format_value(tile.carry);
    }
    return s;
}

// Polls that found nothing, and reads past the inclusive prefix: what the chain leaves out.
std::string waits_and_extras(const LookbackTile& tile) {
    std::string s;
    int polls = 0, nearest = -1, farthest = -1;
    for (const LookbackRead& read : tile.reads)
        if (read.waits > 0) {
            polls += read.waits;
            nearest = nearest < 0 ? read.predecessor : nearest;
            farthest = read.predecessor;
        }
    if (polls > 0)
        s += "; " + count_of(polls, "poll", "polls") + " found " + tiles_phrase(nearest, farthest) +
             " unpublished";
    std::size_t extra = 0;
    while (extra < tile.reads.size() && tile.reads[extra].added)
        ++extra;
    if (extra < tile.reads.size()) {
        const bool one = extra + 1 == tile.reads.size();
        s += "; " + tiles_phrase(tile.reads[extra].predecessor, tile.reads.back().predecessor) +
             (one ? " (same window of 32) lies past that prefix: read, not added"
                  : " (same window of 32) lie past that prefix: read, not added");
    }
    return s;
}

void publish_writes(const StepView& v, const LookbackTile& tile, std::vector<CellWrite>& w) {
    const long long size = lookback_tile_size(v.request);
    const long long first = tile.tile * size;
    const long long last = std::min<long long>(first + size, v.n) - 1;
    for (long long i = first; i <= last; ++i)
        w[kTileAggregate].from.push_back(StepView::input(i));
    w[kTileAggregate].expression = "aggregate = the sum of " + cell_name("in", first) + "…" +
                                   cell_name("in", last) +
                                   " (each thread's float4, each warp's shuffles, the warp "
                                   "totals)";
    w[kTileAggregateTicket].expression = "the aggregate's publish: " + event(tile.aggregate_ticket);
    for (const LookbackRead& read : tile.reads)
        if (read.added)
            w[kTileCarry].from.push_back(
                {publish_frame(v, read.predecessor),
                 read.state == TileState::Inclusive ? kTileInclusive : kTileAggregate});
    w[kTileCarry].expression =
        tile.tile == 0 ? "carry = 0 (no tile before tile 0)" : "carry = what the look-back added";
    w[kTileInclusive].from = {{static_cast<int>(v.index), kTileCarry},
                              {static_cast<int>(v.index), kTileAggregate}};
    w[kTileInclusive].expression = "inclusive prefix = carry + aggregate";
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
        w[slot + kReadValue].expression =
            (inclusive ? "the inclusive prefix of " : "the aggregate of ") + at +
            (read.added ? ", added" : ", past the prefix: not added");
        w[slot + kReadTicket].expression = "the read that found it: " + event(read.ticket);
    }
}

} // namespace

void lookback_writes(const StepView& v, std::vector<CellWrite>& w) {
    const std::vector<LookbackTile> tiles = lookback_tiles(v.flow.trace());
    const LookbackTile& tile = tiles.at(static_cast<std::size_t>(v.frame.block));
    if (v.frame.step == Step::TilePublish)
        publish_writes(v, tile, w);
    else
        read_writes(v, tile, w);
}

std::string lookback_caption(const StepView& v) {
    const Trace& t = v.flow.trace();
    const std::vector<LookbackTile> tiles = lookback_tiles(t);
    const LookbackTile& tile = tiles.at(static_cast<std::size_t>(v.frame.block));
    const std::string name = "Tile " + std::to_string(tile.tile);
    const std::string order = " (" + schedule_of(t) + ")";
    const auto at = [&](int ticket) { return " (" + event(ticket) + "; " + schedule_of(t) + ")"; };
    if (v.frame.step == Step::TilePublish) {
        if (tile.tile == 0)
            return name + " has nothing before it: it publishes its aggregate " +
                   format_value(tile.aggregate) + " as its inclusive prefix at once (" +
                   event(tile.aggregate_ticket) + ") and scans its elements from 0" + order;
        return name + " publishes its aggregate " + format_value(tile.aggregate) + " at once (" +
               event(tile.aggregate_ticket) +
               "): a successor may add it before this tile knows its carry" + order;
    }
    if (tile.tile == 0)
        return name + " has no predecessor to look back at: its carry is 0" + order;
    const int farthest = tile.reads.empty() ? tile.tile - 1 : tile.reads.back().predecessor;
    return name + " looked back at " + tiles_phrase(tile.tile - 1, farthest) + ": " + chain(tile) +
           waits_and_extras(tile) + "; it publishes its inclusive prefix " +
           format_value(tile.inclusive) + " = " + format_value(tile.carry) + " + " +
           format_value(tile.aggregate) + at(tile.inclusive_ticket);
}

} // namespace pplab::dataflow
