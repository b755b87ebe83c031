// scanRing: the production scan at large sizes (pplab bench's scan-fast from kScanRingFrom
// elements on Hopper): decoupled look-back like scanFast, taken apart into warps with one job
// each, so the memory system never waits on a look-back (bench/NOTES.md, issue 14: 81% of the
// copy rate for scanFast at 2^28, 90% for this).
//
// A persistent block per SM owns a ring of kRingStages stages of kRingTile floats in shared
// memory, and
//   warp 0, the loader: takes a ticket and brings the tile in with ONE bulk copy
//     (cp.async.bulk), signalled through the stage's `full` mbarrier;
//   warp 1, the look-ahead: sums each landed tile and publishes its aggregate at once, so no
//     aggregate ever waits on a look-back (the chain that sank the earlier rings);
//   warp 2, the look-back: for each tile in turn, the sum of every tile before it, 384
//     predecessors per round trip, stopping at the last tile it did itself;
//   kRingGroups groups of 4 scan warps, taking tiles in turn: each copies its quarter of the
//     tile into registers as soon as it lands and gives the stage back to the loader, then waits
//     for the tile's prefix, scans and stores. So a tile waiting for its prefix holds registers,
//     not a stage: 6 stages + 3 groups = 9 tiles in flight per SM.
//
// A stage's use i is followed by use i + kRingStages before the look-back has finished use i,
// so what the look-ahead hands on lives in 2 x kRingStages slots with their own barriers (an
// mbarrier never runs two phases ahead of its waiter). sm_90 only: bulk copies and mbarrier
// waits; FastScan launches it only on such a device.
#pragma once

#include "cuda/lookback.cuh"

#include <cuda/ptx>

#include <cstdint>

namespace pplab::cuda {

inline constexpr int kRingStages = 6, kRingGroups = 3, kRingTile = 8192;
inline constexpr int kRingScanWarps = 4, kRingThreads = (3 + kRingGroups * kRingScanWarps) * 32;
inline constexpr int kRingChunk = kRingTile / kRingScanWarps, kRingRounds = kRingChunk / 128;
inline constexpr int kRingSlots = 2 * kRingStages;
inline constexpr int kRingLookWords = 12; // predecessors per lane per round trip
static_assert(kRingStages % kRingGroups == 0, "a stage's uses always fall to the same group");

struct RingState {
    unsigned long long full[kRingStages], empty[kRingStages];
    unsigned long long summed[kRingSlots], prefixed[kRingSlots];
    int stage_tile[kRingStages];
    int slot_tile[kRingSlots];
    float chunk[kRingSlots][kRingScanWarps];
    float aggregate[kRingSlots];
    float exclusive[kRingSlots];
};

__device__ __forceinline__ std::uint64_t* ring_bar(unsigned long long* b) {
    return reinterpret_cast<std::uint64_t*>(b);
}

__device__ __forceinline__ void ring_wait(unsigned long long* b, unsigned parity) {
    while (!::cuda::ptx::mbarrier_try_wait_parity(ring_bar(b), parity)) {
    }
}

__device__ __forceinline__ void ring_arrive(unsigned long long* b) {
    (void)::cuda::ptx::mbarrier_arrive(ring_bar(b));
}

// Brings `valid` floats of the input into a stage: one bulk copy of the whole float4s, whose
// landing completes the `full` barrier's phase, and the last tile's floats past its last
// float4 by this thread (one lane of the loader warp).
__device__ __forceinline__ void ring_bring(float* stage, const float* src, int valid,
                                           unsigned long long* full) {
    for (int k = valid & ~3; k < valid; ++k)
        stage[k] = src[k];
    const unsigned bytes = static_cast<unsigned>(valid & ~3) * 4u;
    if (bytes == 0) {
        ring_arrive(full);
        return;
    }
    (void)::cuda::ptx::mbarrier_arrive_expect_tx(::cuda::ptx::sem_release, ::cuda::ptx::scope_cta,
                                                 ::cuda::ptx::space_shared, ring_bar(full), bytes);
    ::cuda::ptx::cp_async_bulk(::cuda::ptx::space_cluster, ::cuda::ptx::space_global, stage, src,
                               bytes, ring_bar(full));
}

// Round k of a chunk is 128 consecutive floats, four per lane. Whole: every float is in the
// input, so no round needs a test and all rounds are in flight at once (with a test per round
// the look-ahead summed a tile one load at a time: 3.6 us).
template <bool Whole>
__device__ __forceinline__ float4 ring_load(const float* chunk, int e, int valid) {
    if (Whole)
        return *reinterpret_cast<const float4*>(chunk + e);
    return make_float4(e < valid ? chunk[e] : 0.0f, e + 1 < valid ? chunk[e + 1] : 0.0f,
                       e + 2 < valid ? chunk[e + 2] : 0.0f, e + 3 < valid ? chunk[e + 3] : 0.0f);
}

template <int Rounds, bool Whole>
__device__ float ring_chunk_sum(const float* chunk, int valid, int lane) {
    float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int k = 0; k < Rounds; ++k) {
        const float4 x = ring_load<Whole>(chunk, 128 * k + 4 * lane, valid);
        part[k % 4] += ((x.x + x.y) + x.z) + x.w;
    }
    return __shfl_sync(0xffffffffu, warp_sum((part[0] + part[1]) + (part[2] + part[3])), 0);
}

template <int Rounds, bool Whole>
__device__ __forceinline__ void ring_fetch(const float* chunk, int valid, int lane,
                                           float4 (&x)[Rounds]) {
#pragma unroll
    for (int k = 0; k < Rounds; ++k)
        x[k] = ring_load<Whole>(chunk, 128 * k + 4 * lane, valid);
}

// The exclusive scan of a chunk held in registers, after `running`, stored.
template <int Rounds>
__device__ __forceinline__ void ring_store(float* out, int valid, bool whole, float running,
                                           int lane, const float4 (&x)[Rounds]) {
    float own[Rounds], incl[Rounds], total[Rounds];
#pragma unroll
    for (int k = 0; k < Rounds; ++k) {
        own[k] = ((x[k].x + x[k].y) + x[k].z) + x[k].w;
        incl[k] = warp_inclusive(own[k], lane);
        total[k] = __shfl_sync(0xffffffffu, incl[k], 31);
    }
#pragma unroll
    for (int k = 0; k < Rounds; ++k) {
        const int e = 128 * k + 4 * lane;
        store_scanned4(out, e, valid, running + (incl[k] - own[k]), x[k], whole);
        running += total[k];
    }
}

// The sum of every tile before `tile`, 32 x Words predecessors per round trip; `known` is the
// last tile this warp did (its inclusive prefix `known_inclusive`), or -1.
template <int Words>
__device__ float ring_look_back(const unsigned long long* descriptors, int tile, unsigned epoch,
                                int lane, int known, float known_inclusive) {
    constexpr int kWords = Words;
    float exclusive = 0.0f;
    for (int newest = tile - 1;; newest -= 32 * kWords) {
        unsigned long long d[kWords];
        bool need[kWords];
#pragma unroll
        for (int j = 0; j < kWords; ++j) {
            const int pred = newest - 32 * j - lane;
            need[j] = pred > known && pred >= 0;
            const float v = pred == known ? known_inclusive : 0.0f;
            d[j] = need[j] ? load_volatile(descriptors + pred) : pack(epoch, kInclusive, v);
        }
        for (;;) {
            bool waiting = false;
#pragma unroll
            for (int j = 0; j < kWords; ++j) {
                if (need[j] && unpublished(d[j], epoch)) {
                    waiting = true;
                    d[j] = load_volatile(descriptors + (newest - 32 * j - lane));
                }
            }
            if (!__any_sync(0xffffffffu, waiting))
                break;
        }
#pragma unroll
        for (int j = 0; j < kWords; ++j) {
            const unsigned status = static_cast<unsigned>(d[j] >> 32) & 3u;
            const float v = __uint_as_float(static_cast<unsigned>(d[j]));
            const unsigned inclusive = __ballot_sync(0xffffffffu, status == kInclusive);
            const int stop = inclusive ? __ffs(inclusive) - 1 : 31;
            exclusive += __shfl_sync(0xffffffffu, warp_sum(lane <= stop ? v : 0.0f), 0);
            if (inclusive)
                return exclusive;
        }
    }
}

} // namespace pplab::cuda
