// CPU model of the traced scanFast (kernels/cuda/lookback.cu): the in-tile scan in the
// kernel's order of additions, and the look-back run under a seeded schedule.
//
// On the GPU, which tile acts next is up to the hardware. Here a seeded generator picks, among
// the kLookbackResident tiles in flight, the one that takes its next step: publish its
// aggregate, poll one window of predecessors (each lane once), publish its inclusive prefix.
// Tiles start in order as earlier ones finish, as the kernel's tile ticket makes them.
#include "pplab/lookback.hpp"
#include "cpu/recorder.hpp"
#include "pplab/rng.hpp"
#include "trace/decode.hpp"

#include <array>
#include <vector>

namespace pplab {

namespace {

using record::Step;

// warp_inclusive: five __shfl_up_sync steps; lanes below the offset keep their value.
std::array<float, kWarpSize> warp_inclusive(std::array<float, kWarpSize> v) {
    for (int offset = 1; offset < kWarpSize; offset <<= 1) {
        const std::array<float, kWarpSize> up = v;
        for (int lane = offset; lane < kWarpSize; ++lane)
            v[lane] += up[lane - offset];
    }
    return v;
}

// scan_within and the store of one tile, one float4 per thread: returns the tile's aggregate;
// with `out`, writes the exclusive scan of the tile's elements below n, starting from carry.
float scan_tile(const std::vector<float>& in, int tile, int block, float carry,
                std::vector<float>* out) {
    const long long n = static_cast<long long>(in.size());
    const int warps = block / kWarpSize;
    const long long first = static_cast<long long>(tile) * block * kLookbackItems;
    const auto element = [&](long long i) {
        return i < n ? in[static_cast<std::size_t>(i)] : 0.0f;
    };
    std::vector<std::array<float, kWarpSize>> lane_prefix(warps);
    std::vector<float> warp_total(warps);
    for (int w = 0; w < warps; ++w) {
        std::array<float, kWarpSize> own;
        for (int lane = 0; lane < kWarpSize; ++lane) {
            const long long i = first + w * kWarpSize * kLookbackItems + kLookbackItems * lane;
            own[lane] = ((element(i) + element(i + 1)) + element(i + 2)) + element(i + 3);
        }
        const std::array<float, kWarpSize> incl = warp_inclusive(own);
        for (int lane = 0; lane < kWarpSize; ++lane)
            lane_prefix[w][lane] = 0.0f + (lane == 0 ? 0.0f : incl[lane - 1]);
        warp_total[w] = 0.0f + incl[kWarpSize - 1];
    }
    float aggregate = 0.0f;
    for (int w = 0; w < warps; ++w)
        aggregate += warp_total[w];
    if (!out)
        return aggregate;
    for (int w = 0; w < warps; ++w) {
        float warp_prefix = 0.0f;
        for (int k = 0; k < warps; ++k)
            warp_prefix += k < w ? warp_total[k] : 0.0f;
        const float prefix = carry + warp_prefix;
        for (int lane = 0; lane < kWarpSize; ++lane) {
            const long long i = first + w * kWarpSize * kLookbackItems + kLookbackItems * lane;
            float p = prefix + lane_prefix[w][lane];
            for (int k = 0; k < kLookbackItems; ++k) {
                if (i + k < n)
                    (*out)[static_cast<std::size_t>(i + k)] = p;
                p += element(i + k);
            }
        }
    }
    return aggregate;
}

enum class Phase { Publish, LookBack, PublishInclusive, Done };

// One tile in flight: where it is in the kernel, and its two records as they fill.
struct TileRun {
    int tile = 0;
    Phase phase = Phase::Publish;
    int window = 0;
    std::vector<float> publish;
    std::vector<float> reads;
};

// The descriptors every tile publishes into, and the one ticket counter.
struct Board {
    std::vector<TileState> state;
    std::vector<float> value;
    int tickets = 0;
};

// One poll of the current window by every lane that has not found its predecessor yet; when
// all have, warp 0's ballot and sum. Returns whether the carry is now known.
bool poll_window(TileRun& run, Board& board) {
    bool all_found = true;
    std::array<float, kWarpSize> lanes{};
    std::array<bool, kWarpSize> inclusive{};
    for (int lane = 0; lane < kLookbackWindow; ++lane) {
        const int pred = run.tile - 1 - run.window * kLookbackWindow - lane;
        if (pred < 0) { // before tile 0 there is nothing: an inclusive 0
            inclusive[lane] = true;
            continue;
        }
        float* slot = &run.reads[static_cast<std::size_t>(pred) * kReadValues];
        if (slot[kReadState] == kNotRead) {
            const bool first = slot[kReadFirstLook] < 0;
            if (first)
                slot[kReadFirstLook] = static_cast<float>(board.tickets++);
            const TileState seen = board.state[static_cast<std::size_t>(pred)];
            if (seen == TileState::Nothing) {
                slot[kReadWaits] += 1.0f;
                all_found = false;
                continue;
            }
            slot[kReadState] = static_cast<float>(seen);
            slot[kReadValue] = board.value[static_cast<std::size_t>(pred)];
            slot[kReadTicket] = first ? slot[kReadFirstLook] : static_cast<float>(board.tickets++);
        }
        lanes[lane] = slot[kReadValue];
        inclusive[lane] = slot[kReadState] == static_cast<float>(TileState::Inclusive);
    }
    if (!all_found)
        return false;
    int stop = kLookbackWindow - 1;
    for (int lane = kLookbackWindow - 1; lane >= 0; --lane)
        if (inclusive[lane])
            stop = lane;
    for (int lane = stop + 1; lane < kLookbackWindow; ++lane)
        lanes[lane] = 0.0f;
    run.publish[kTileCarry] += warp_shuffle_sum(lanes);
    ++run.window;
    return inclusive[stop];
}

void publish(TileRun& run, Board& board, TileState state, float value) {
    board.state[static_cast<std::size_t>(run.tile)] = state;
    board.value[static_cast<std::size_t>(run.tile)] = value;
}

// The tile's next step under the schedule.
void step(TileRun& run, Board& board) {
    float* p = run.publish.data();
    switch (run.phase) {
    case Phase::Publish:
        p[kTileAggregateTicket] = static_cast<float>(board.tickets++);
        if (run.tile == 0) { // nothing before it: its aggregate is its inclusive prefix
            p[kTileInclusive] = p[kTileAggregate];
            p[kTileInclusiveTicket] = p[kTileAggregateTicket];
            publish(run, board, TileState::Inclusive, p[kTileInclusive]);
            run.phase = Phase::Done;
        } else {
            publish(run, board, TileState::Aggregate, p[kTileAggregate]);
            run.phase = Phase::LookBack;
        }
        break;
    case Phase::LookBack:
        if (poll_window(run, board))
            run.phase = Phase::PublishInclusive;
        break;
    case Phase::PublishInclusive:
        p[kTileInclusive] = p[kTileCarry] + p[kTileAggregate];
        p[kTileInclusiveTicket] = static_cast<float>(board.tickets++);
        publish(run, board, TileState::Inclusive, p[kTileInclusive]);
        run.phase = Phase::Done;
        break;
    case Phase::Done:
        break;
    }
}

} // namespace

std::vector<float> lookback_aggregates(const Request& r) {
    std::vector<float> aggregates(static_cast<std::size_t>(r.grid));
    for (int tile = 0; tile < r.grid; ++tile)
        aggregates[static_cast<std::size_t>(tile)] =
            scan_tile(r.input, tile, r.block, 0.0f, nullptr);
    return aggregates;
}

std::vector<float> lookback_outputs(const Request& r, const std::vector<float>& carries) {
    std::vector<float> out(r.input.size());
    for (int tile = 0; tile < r.grid && tile < static_cast<int>(carries.size()); ++tile)
        scan_tile(r.input, tile, r.block, carries[static_cast<std::size_t>(tile)], &out);
    return out;
}

Trace trace_lookback_cpu(const Request& request) {
    Trace t;
    t.request = normalize_lookback(request);
    t.backend = "cpu";
    t.device = "CPU lockstep model";
    const Request& r = t.request;
    const Plan plan = make_lookback_plan(r);
    const std::vector<float> aggregates = lookback_aggregates(r);
    Board board{std::vector<TileState>(static_cast<std::size_t>(r.grid), TileState::Nothing),
                std::vector<float>(static_cast<std::size_t>(r.grid), 0.0f), 0};
    std::vector<TileRun> runs(static_cast<std::size_t>(r.grid));
    for (int tile = 0; tile < r.grid; ++tile) {
        TileRun& run = runs[static_cast<std::size_t>(tile)];
        run.tile = tile;
        run.publish = {aggregates[static_cast<std::size_t>(tile)], -1.0f, 0.0f, 0.0f, -1.0f};
        run.reads.assign(static_cast<std::size_t>(kReadValues) * r.grid, 0.0f);
        for (int pred = 0; pred < r.grid; ++pred) {
            float* slot = &run.reads[static_cast<std::size_t>(pred) * kReadValues];
            slot[kReadFirstLook] = slot[kReadTicket] = -1.0f;
            slot[kReadState] = kNotRead;
        }
    }
    SplitMix rng{r.options.order_seed};
    std::vector<int> in_flight;
    int next_tile = 0;
    while (next_tile < r.grid || !in_flight.empty()) {
        while (next_tile < r.grid && static_cast<int>(in_flight.size()) < kLookbackResident)
            in_flight.push_back(next_tile++);
        const std::size_t pick = rng.below(static_cast<std::uint32_t>(in_flight.size()));
        TileRun& run = runs[static_cast<std::size_t>(in_flight[pick])];
        step(run, board);
        if (run.phase == Phase::Done)
            in_flight.erase(in_flight.begin() + static_cast<long>(pick));
    }
    std::vector<std::uint32_t> words = poisoned_buffer(plan);
    cpu::Recorder rec(words, plan.launches.front());
    std::vector<float> carries;
    for (const TileRun& run : runs) {
        rec(Step::TilePublish, 0, run.tile, -1, run.publish);
        rec(Step::LookBack, 0, run.tile, -1, run.reads);
        carries.push_back(run.publish[kTileCarry]);
    }
    t.frames = decode(plan, words);
    t.result = lookback_outputs(r, carries);
    return t;
}

} // namespace pplab
