// scan-fast at classroom sizes: decoupled look-back (Merrill & Garland), traced.
//
// The production scanFast (kernels/cuda/fast.cu) is timed at 2^28 with 16384-element tiles; its
// traced twin scans tiles of block x kLookbackItems elements, at most kMaxLookbackTiles of them,
// so a class can watch every tile publish and look back. Each event (a tile publishing its
// aggregate or its inclusive prefix, a lane's first look at a predecessor, the read that found
// something published) takes a ticket from one global counter: the tickets order the trace.
//
// The trace holds two records per tile (frames of pass 0, block = tile):
//   tile-publish: kPublishValues values (see PublishValue)
//   look-back:    kReadValues values per tile of the grid (see ReadValue); the slot of
//                 predecessor p says what the tile saw there; slots the tile never read
//                 hold kNotRead and tickets of -1.
// The GPU's order differs from run to run, so its look-back record is held to soundness
// (check_lookback), not to equality with the CPU model's.
#pragma once

#include "pplab/plan.hpp"
#include "pplab/trace.hpp"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pplab {

// Each thread loads one float4, as every lane of the production kernel does per round.
inline constexpr int kLookbackItems = 4;
// A tile is drawn as one cell: 64 fit a projector's row.
inline constexpr int kMaxLookbackTiles = 64;
// Warp 0 looks back over 32 predecessors at once, one per lane.
inline constexpr int kLookbackWindow = kWarpSize;

enum PublishValue : int {
    kTileAggregate = 0,       // the tile's own sum
    kTileAggregateTicket = 1, // when it was published (tile 0: published as its inclusive prefix)
    kTileCarry = 2,           // the sum of every tile before this one, found by the look-back
    kTileInclusive = 3,       // carry + aggregate
    kTileInclusiveTicket = 4, // when it was published
    kPublishValues = 5,
};

enum ReadValue : int {
    kReadFirstLook = 0, // the lane's first poll of this predecessor
    kReadWaits = 1,     // polls that found nothing published yet
    kReadState = 2,     // a TileState: what the lane finally found
    kReadValue = 3,     // the value it found (aggregate or inclusive prefix)
    kReadTicket = 4,    // the poll that found it
    kReadValues = 5,
};

// A predecessor's descriptor as a lane saw it.
enum class TileState : int { NotRead = -1, Nothing = 0, Aggregate = 1, Inclusive = 2 };
inline constexpr float kNotRead = -1.0f;

// One predecessor read during a tile's look-back.
struct LookbackRead {
    int predecessor = 0;
    int first_look = -1; // ticket
    int waits = 0;       // polls that saw nothing published
    TileState state = TileState::NotRead;
    float value = 0.0f;
    int ticket = -1;
    bool added = false; // between the tile and the nearest inclusive prefix, that one included
};

// One tile's story, read back from the trace's two records.
struct LookbackTile {
    int tile = 0;
    float aggregate = 0.0f;
    int aggregate_ticket = 0;
    float carry = 0.0f;
    float inclusive = 0.0f;
    int inclusive_ticket = 0;
    std::vector<LookbackRead> reads; // nearest predecessor first
};

// Fills in scan-fast's classroom defaults (block 256, grid = tiles) and checks its rules:
// whole warps, at most kMaxLookbackTiles tiles. Throws InputError. order_seed is kept: it
// chooses the CPU model's schedule.
Request normalize_lookback(Request r);

// Elements per tile for a normalized scan-fast request.
int lookback_tile_size(const Request& normalized);

// The records of the traced scanFast: one launch, two per tile (see above).
Plan make_lookback_plan(const Request& normalized);

// The CPU model (kernels/cpu/lookback.cpp): a schedule chosen with seed order_seed, with up to
// kLookbackResident tiles in flight, standing in for the order the GPU happens to run.
Trace trace_lookback_cpu(const Request& request);
inline constexpr int kLookbackResident = 6;

// The instrumented kernel on the GPU (kernels/cuda/lookback.cu): the order the hardware ran.
// Throws InputError in a build without CUDA, and a CUDA error when the device fails.
Trace trace_lookback_gpu(const Request& request);

// What the kernel's fixed-order parts compute, for comparing a GPU run: each tile's aggregate,
// and the scanned output given each tile's carry (the only part the schedule decides).
std::vector<float> lookback_aggregates(const Request& normalized);
std::vector<float> lookback_outputs(const Request& normalized, const std::vector<float>& carries);

// Throws InputError when the trace is not a scan-fast trace of the right shape.
std::vector<LookbackTile> lookback_tiles(const Trace& t);

// warp_sum of kernels/cuda/fast.cu: the shuffle-down tree, lane 0's result (lanes past the
// end add their own value, which never reaches lane 0). The look-back adds each window with it.
float warp_shuffle_sum(std::array<float, kWarpSize> lanes);

// What one lane of a look-back window read: the predecessor's value, and whether it was an
// inclusive prefix (else an aggregate).
struct LaneRead {
    float value = 0.0f;
    bool inclusive = false;
};

// The carry `tile`'s look-back adds, in the kernel's order: windows of kLookbackWindow
// predecessors going back from tile - 1, a lane each, nearest first; each window summed with
// warp_shuffle_sum, its lanes past the first inclusive prefix (or past tile 0) counting 0; the
// walk ends with the window that met one. `read(window, lane, predecessor, masked)` gives what
// that lane read (masked: an earlier lane of its window met an inclusive prefix, so its value
// counts 0), or nothing: the walk stops there and the carry is unknown.
std::optional<float>
lookback_carry(int tile,
               const std::function<std::optional<LaneRead>(int window, int lane, int predecessor,
                                                           bool masked)>& read);

// Soundness of a look-back record, whoever ran it: every ticket used once; each tile's
// aggregate published before its inclusive prefix; each tile read its predecessors window by
// window, nearest first, and stopped at the window holding the first inclusive prefix; every
// value it read had been published (ticket before the read) and is the value published; its
// carry is the sum of what it read, added in the kernel's order; its inclusive prefix is carry
// + aggregate. Returns the problems found, in the chapter's words (empty: sound).
std::vector<std::string> check_lookback(const Trace& t);

} // namespace pplab
