// scanFast traced at classroom sizes: the production look-back (lookback.cuh) over tiles of
// blockDim.x threads x kLookbackItems elements, recording the order the hardware ran.
//
// Every event takes a ticket from one global counter (atomicAdd): a publish takes its ticket,
// then fences, then stores the descriptor; a read loads the descriptor, fences, then takes its
// ticket. So a reader that saw a value always holds a later ticket than its publisher, which
// is what check_lookback verifies.
#include "cuda/launch.hpp"
#include "cuda/lookback.cuh"
#include "pplab/lookback.hpp"
#include "trace/decode.hpp"

namespace pplab::cuda {

namespace {

constexpr int kMaxWarps = kMaxBlock / 32;

// The tile's two records (record.hpp layout) and the event counter.
struct TraceLookback {
    std::uint32_t* words;
    record::LaunchLayout layout;
    unsigned* events;
    int tile;

    __device__ float* values(int segment) const {
        const record::Segment& g = layout.seg[segment];
        return reinterpret_cast<float*>(words + record::record_offset(g, 0, tile, 0) +
                                        record::kHeaderWords);
    }
    __device__ float* publish_record() const { return values(0); }
    __device__ float* read_slot(int pred) const { return values(1) + pred * kReadValues; }

    __device__ float ticket() const { return static_cast<float>(atomicAdd(events, 1u)); }

    // The tile's records before its look-back: headers, and every slot "not read".
    __device__ void begin() const {
        for (int k = threadIdx.x; k < static_cast<int>(layout.seg[1].count); k += blockDim.x)
            values(1)[k] = k % kReadValues == kReadState ? kNotRead
                           : k % kReadValues == kReadWaits || k % kReadValues == kReadValue ? 0.0f
                                                                                            : -1.0f;
        if (threadIdx.x < 2) {
            const record::Segment& g = layout.seg[threadIdx.x];
            const record::Header h = record::make_header(g, layout.pass, 0, tile, -1);
            const std::uint32_t* src = reinterpret_cast<const std::uint32_t*>(&h);
            std::uint32_t* dst = words + record::record_offset(g, 0, tile, 0);
            for (std::uint32_t k = 0; k < record::kHeaderWords; ++k)
                dst[k] = src[k];
        }
        __syncthreads();
    }

    // Lane 0, before the descriptor's store: the ticket, then a fence, so any reader that sees
    // the store takes a later ticket.
    __device__ void publishing(int, unsigned status, float aggregate, float carry,
                               float inclusive) const {
        float* p = publish_record();
        const float t = ticket();
        if (status == kAggregate || tile == 0) {
            p[kTileAggregate] = aggregate;
            p[kTileAggregateTicket] = t;
        }
        if (status == kInclusive) {
            p[kTileCarry] = carry;
            p[kTileInclusive] = inclusive;
            p[kTileInclusiveTicket] = t;
        }
        __threadfence();
    }

    // After the lane's first load: that poll's event.
    __device__ int first_look(int pred) const {
        __threadfence();
        const float t = ticket();
        read_slot(pred)[kReadFirstLook] = t;
        return static_cast<int>(t);
    }

    // After the load that found something: the first look's event, or a new one.
    __device__ void found(int pred, int first, int waits, unsigned status, float v) const {
        float* slot = read_slot(pred);
        float t = static_cast<float>(first);
        if (waits > 0) {
            __threadfence();
            t = ticket();
        }
        slot[kReadWaits] = static_cast<float>(waits < (1 << 24) ? waits : (1 << 24));
        slot[kReadState] = static_cast<float>(status);
        slot[kReadValue] = v;
        slot[kReadTicket] = t;
    }
};

// The chapter's tile scan in the production kernel's order, one float4 per thread: lane
// prefixes by shuffles, warp totals through shared memory; then the look-back; then the store.
__global__ void scanFastTraced(const float* __restrict__ in, float* __restrict__ out, int n,
                               unsigned long long* descriptors, unsigned* tiles,
                               TraceLookback hook) {
    __shared__ float s_warp[kMaxWarps];
    __shared__ float s_exclusive;
    __shared__ int s_tile;
    if (threadIdx.x == 0) // tiles in the order blocks start: the look-back never waits on a
        s_tile = static_cast<int>(atomicAdd(tiles, 1u)); // block that is not running
    __syncthreads();
    const int tile = s_tile;
    hook.tile = tile;
    hook.begin();
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    const long long base =
        (static_cast<long long>(tile) * blockDim.x + threadIdx.x) * kLookbackItems;
    float x[kLookbackItems];
    for (int k = 0; k < kLookbackItems; ++k)
        x[k] = base + k < n ? in[base + k] : 0.0f;
    const float own = ((x[0] + x[1]) + x[2]) + x[3];
    const float incl = warp_inclusive(own, lane);
    float before = __shfl_up_sync(0xffffffffu, incl, 1);
    if (lane == 0)
        before = 0.0f;
    const float lane_prefix = 0.0f + before;
    const float warp_total = 0.0f + __shfl_sync(0xffffffffu, incl, 31);
    if (lane == 0)
        s_warp[warp] = warp_total;
    __syncthreads();
    float warp_prefix = 0.0f, aggregate = 0.0f;
    for (int w = 0; w < warps; ++w) {
        warp_prefix += w < warp ? s_warp[w] : 0.0f;
        aggregate += s_warp[w];
    }
    const float carry = tile_prefix(tile, aggregate, descriptors, 1u, &s_exclusive, hook);
    float p = (carry + warp_prefix) + lane_prefix;
    for (int k = 0; k < kLookbackItems; ++k) {
        if (base + k < n)
            out[base + k] = p;
        p += x[k];
    }
}

} // namespace

} // namespace pplab::cuda

namespace pplab {

using cuda::check;
using cuda::DeviceBuffer;

Trace trace_lookback_gpu(const Request& request) {
    Trace t;
    t.request = normalize_lookback(request);
    const Request& r = t.request;
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    t.backend = "cuda";
    t.device = prop.name;
    const Plan plan = make_lookback_plan(r);
    DeviceBuffer<std::uint32_t> words(plan.words, kPoison);
    DeviceBuffer<float> in(r.input);
    DeviceBuffer<float> out(r.input.size());
    // A fresh descriptor array and counters: epoch 1, every descriptor invalid.
    DeviceBuffer<unsigned long long> descriptors(static_cast<std::size_t>(r.grid), 0ull);
    DeviceBuffer<unsigned> counters(2, 0u); // tiles started, events
    const cuda::TraceLookback hook{words.data(), plan.launches.front().layout, counters.data() + 1,
                                   0};
    cuda::scanFastTraced<<<r.grid, r.block>>>(in.data(), out.data(), r.n(), descriptors.data(),
                                              counters.data(), hook);
    cuda::check_launch("scanFast (traced)");
    t.frames = decode(plan, words.to_host());
    t.result = out.to_host();
    return t;
}

} // namespace pplab
