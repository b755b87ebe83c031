// scanRing: the production scan at large sizes (pplab bench's scan-fast from kScanRingFrom
// elements on Hopper): decoupled look-back like scanFast, taken apart into warps with one job
// each, so the memory system never waits on a look-back (bench/NOTES.md, issue 14: 81% of the
// copy rate for scanFast at 2^28, 90% for this).
//
// A persistent block per SM owns a ring of Stages stages of Tile floats in shared memory, and
//   warp 0, the loader: takes a ticket and brings the tile in with ONE bulk copy
//     (cp.async.bulk), signalled through the stage's `full` mbarrier;
//   warp 1, the look-ahead: sums each landed tile and publishes its aggregate at once, so no
//     aggregate ever waits on a look-back (the chain that sank the earlier rings);
//   warp 2, the look-back: for each tile in turn, the sum of every tile before it, 384
//     predecessors per round trip, stopping at the last tile it did itself;
//   Groups groups of 4 scan warps, taking tiles in turn: each copies its quarter of the tile
//     into registers once the look-ahead has summed it and gives the stage back to the loader,
//     then waits for the tile's prefix, scans and stores. So a tile waiting for its prefix holds
//     registers, not a stage: Stages + Groups tiles in flight per SM.
//
// A stage's use i is followed by use i + Stages before the look-back has finished use i, so
// what the look-ahead hands on lives in 2 x Stages slots with their own barriers, and every
// warp after the loader waits on those slots, which complete in order (an mbarrier must never
// run two phases ahead of its waiter: a stage's own barrier may, when its uses fall to
// different groups). sm_90 only: bulk copies and mbarrier waits; FastScan launches it only on
// such a device. The shape is a template (bench/explore_scan.cu times others); RingProduct is
// the one pplab bench runs. Instantiate a shape in one translation unit only: a kernel
// template instantiated in two is registered twice, and an attribute set through one copy
// (the shared memory size) is not the launched one's (fast.cu holds RingProduct's).
#pragma once

#include "cuda/launch.hpp"
#include "cuda/lookback.cuh"

#include <cuda/ptx>

#include <cstddef>
#include <cstdint>

namespace pplab::cuda {

// The ring's shape: Stages stages of Tile floats, Groups groups of 4 scan warps, Words x 32
// predecessors per look-back round trip.
template <int Stages, int Groups, int Tile, int Words = 12>
struct RingShape {
    static constexpr int kStages = Stages, kGroups = Groups, kTile = Tile, kWords = Words;
    static constexpr int kScanWarps = 4, kThreads = (3 + Groups * kScanWarps) * 32;
    static constexpr int kChunk = Tile / kScanWarps, kRounds = kChunk / 128;
    static constexpr int kSlots = 2 * Stages;
    static constexpr std::size_t kSmem = sizeof(float) * Stages * Tile;
    static_assert(Tile % (kScanWarps * 128) == 0, "a chunk is whole rounds of 128 floats");
    static_assert(Groups <= Stages, "each group's tile waits in registers, its stage given back");
};

// 7 x 8192 floats: 224 KB of the 227 KB a block may hold; 10 tiles in flight per SM (0.3-0.7
// points of the copy rate above 6 stages at 2^28, bench/NOTES.md).
using RingProduct = RingShape<7, 3, 8192>;

template <class Shape>
struct RingState {
    unsigned long long full[Shape::kStages], empty[Shape::kStages];
    unsigned long long summed[Shape::kSlots], prefixed[Shape::kSlots];
    int stage_tile[Shape::kStages];
    int slot_tile[Shape::kSlots];
    float chunk[Shape::kSlots][Shape::kScanWarps];
    float aggregate[Shape::kSlots];
    float exclusive[Shape::kSlots];
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

// Device code for sm_90 and later only (bulk copies, mbarrier waits): the compute_75 PTX
// carries an empty scanRing.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
template <class Shape>
__device__ __forceinline__ int ring_valid(int tile, int n) {
    const long long left = n - static_cast<long long>(tile) * Shape::kTile;
    return static_cast<int>(left < Shape::kTile ? left : Shape::kTile);
}

// Warp 0, lane 0: tickets and bulk copies until the tickets run out; then the end is said in
// as many stages as there are groups, so every group meets it.
template <class Shape>
__device__ void ring_loader(RingState<Shape>& r, float* s_ring, const float* __restrict__ in, int n,
                            unsigned long long* tiles, unsigned long long tile_base, int count) {
    constexpr int kStages = Shape::kStages;
    for (int i = 0;; ++i) {
        const int s = i % kStages;
        if (i >= kStages)
            ring_wait(&r.empty[s], (i / kStages + 1) & 1);
        const int tile = static_cast<int>(atomicAdd(tiles, 1ull) - tile_base);
        if (tile >= count) {
            for (int j = i; j < i + Shape::kGroups; ++j) {
                if (j != i && j >= kStages)
                    ring_wait(&r.empty[j % kStages], (j / kStages + 1) & 1);
                r.stage_tile[j % kStages] = -1;
                ring_arrive(&r.full[j % kStages]);
            }
            return;
        }
        r.stage_tile[s] = tile;
        ring_bring(s_ring + s * Shape::kTile, in + static_cast<long long>(tile) * Shape::kTile,
                   ring_valid<Shape>(tile, n), &r.full[s]);
    }
}

// Warp 1: each landed tile's quarter sums and aggregate, published at once; the end handed on
// in as many slots as there are groups.
template <class Shape>
__device__ void ring_look_ahead(RingState<Shape>& r, const float* s_ring, int n,
                                unsigned long long* descriptors, unsigned epoch) {
    const int lane = threadIdx.x % 32;
    for (int i = 0, ends = 0;; ++i) {
        const int s = i % Shape::kStages, u = i % Shape::kSlots;
        ring_wait(&r.full[s], (i / Shape::kStages) & 1);
        const int tile = r.stage_tile[s];
        if (tile < 0) {
            if (lane == 0) {
                r.slot_tile[u] = -1;
                ring_arrive(&r.summed[u]);
            }
            if (++ends == Shape::kGroups)
                return;
            continue;
        }
        const int valid = ring_valid<Shape>(tile, n);
        const float* stage = s_ring + s * Shape::kTile;
        float aggregate = 0.0f;
#pragma unroll
        for (int c = 0; c < Shape::kScanWarps; ++c) {
            const float* chunk = stage + c * Shape::kChunk;
            const float part =
                valid == Shape::kTile
                    ? ring_chunk_sum<Shape::kRounds, true>(chunk, 0, lane)
                    : ring_chunk_sum<Shape::kRounds, false>(chunk, valid - c * Shape::kChunk, lane);
            if (lane == 0)
                r.chunk[u][c] = part;
            aggregate += part;
        }
        __syncwarp();
        if (lane == 0) {
            r.aggregate[u] = aggregate;
            r.slot_tile[u] = tile;
            publish(descriptors + tile,
                    pack(epoch, tile == 0 ? kInclusive : kAggregate, aggregate));
            ring_arrive(&r.summed[u]);
            ring_arrive(&r.empty[s]);
        }
    }
}

// Warp 2: each tile's exclusive prefix, in the order the tiles landed in this block.
template <class Shape>
__device__ void ring_prefixes(RingState<Shape>& r, unsigned long long* descriptors,
                              unsigned epoch) {
    const int lane = threadIdx.x % 32;
    int known = -1;
    float known_inclusive = 0.0f;
    for (int i = 0;; ++i) {
        const int u = i % Shape::kSlots;
        ring_wait(&r.summed[u], (i / Shape::kSlots) & 1);
        const int tile = r.slot_tile[u];
        if (tile < 0)
            return;
        const float exclusive = tile == 0
                                    ? 0.0f
                                    : ring_look_back<Shape::kWords>(descriptors, tile, epoch, lane,
                                                                    known, known_inclusive);
        known = tile;
        known_inclusive = exclusive + r.aggregate[u];
        if (lane == 0) {
            if (tile != 0)
                publish(descriptors + tile, pack(epoch, kInclusive, known_inclusive));
            r.exclusive[u] = exclusive;
            ring_arrive(&r.prefixed[u]);
        }
    }
}

// A scan warp of group `group`: quarter `c` of every Groups-th tile, copied once the look-ahead
// has summed it (its slot, not its stage: the slots complete in order).
template <class Shape>
__device__ void ring_scan(RingState<Shape>& r, const float* s_ring, float* __restrict__ out, int n,
                          int group, int c) {
    const int lane = threadIdx.x % 32;
    for (int i = group;; i += Shape::kGroups) {
        const int s = i % Shape::kStages, u = i % Shape::kSlots;
        ring_wait(&r.summed[u], (i / Shape::kSlots) & 1);
        const int tile = r.slot_tile[u];
        if (tile < 0)
            return;
        const int valid = ring_valid<Shape>(tile, n);
        const float* chunk = s_ring + s * Shape::kTile + c * Shape::kChunk;
        float4 x[Shape::kRounds];
        if (valid == Shape::kTile)
            ring_fetch<Shape::kRounds, true>(chunk, 0, lane, x);
        else
            ring_fetch<Shape::kRounds, false>(chunk, valid - c * Shape::kChunk, lane, x);
        __syncwarp();
        if (lane == 0)
            ring_arrive(&r.empty[s]); // the stage goes back to the loader now
        ring_wait(&r.prefixed[u], (i / Shape::kSlots) & 1);
        float running = r.exclusive[u];
        for (int w = 0; w < c; ++w)
            running += r.chunk[u][w];
        ring_store<Shape::kRounds>(
            out + static_cast<long long>(tile) * Shape::kTile + c * Shape::kChunk,
            valid - c * Shape::kChunk, valid == Shape::kTile, running, lane, x);
    }
}
#endif

template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, 1)
    scanRing(const float* __restrict__ in, float* __restrict__ out, int n,
             unsigned long long* __restrict__ descriptors, unsigned long long* __restrict__ tiles,
             unsigned long long tile_base, unsigned epoch, int count) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(128) float s_ring[]; // Stages x Tile
    __shared__ RingState<Shape> r;
    if (threadIdx.x == 0) {
        for (int s = 0; s < Shape::kStages; ++s) {
            ::cuda::ptx::mbarrier_init(ring_bar(&r.full[s]), 1);
            ::cuda::ptx::mbarrier_init(ring_bar(&r.empty[s]), Shape::kScanWarps + 1);
        }
        for (int u = 0; u < Shape::kSlots; ++u) {
            ::cuda::ptx::mbarrier_init(ring_bar(&r.summed[u]), 1);
            ::cuda::ptx::mbarrier_init(ring_bar(&r.prefixed[u]), 1);
        }
        ::cuda::ptx::fence_mbarrier_init(::cuda::ptx::sem_release, ::cuda::ptx::scope_cluster);
    }
    __syncthreads();
    const int warp = threadIdx.x / 32;
    if (warp == 0) {
        if (threadIdx.x == 0)
            ring_loader<Shape>(r, s_ring, in, n, tiles, tile_base, count);
    } else if (warp == 1) {
        ring_look_ahead<Shape>(r, s_ring, n, descriptors, epoch);
    } else if (warp == 2) {
        ring_prefixes<Shape>(r, descriptors, epoch);
    } else {
        ring_scan<Shape>(r, s_ring, out, n, (warp - 3) / Shape::kScanWarps,
                         (warp - 3) % Shape::kScanWarps);
    }
#else
    __trap(); // launched only on sm_90 and later
#endif
}

// One persistent block per SM that can hold one (0: none can, so the ring is not used).
template <class Shape>
int ring_grid(int device) {
    const auto kernel = scanRing<Shape>;
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(Shape::kSmem)),
          "cudaFuncSetAttribute");
    int per_sm = 0, sms = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Shape::kThreads,
                                                        Shape::kSmem),
          "occupancy");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "SMs");
    return (per_sm > 0 ? 1 : 0) * sms;
}

// Scans n > 0 floats with `grid` blocks (ring_grid's); tile_base follows the tickets taken.
template <class Shape>
void launch_ring(const float* in, float* out, int n, int grid, unsigned long long* descriptors,
                 unsigned long long* tiles, unsigned long long& tile_base, unsigned epoch,
                 cudaStream_t stream) {
    const int count = (n + Shape::kTile - 1) / Shape::kTile;
    grid = grid < count ? grid : count;
    scanRing<Shape><<<grid, Shape::kThreads, Shape::kSmem, stream>>>(in, out, n, descriptors, tiles,
                                                                     tile_base, epoch, count);
    // Every block takes one ticket past the last tile before it stops.
    tile_base += static_cast<unsigned long long>(count) + static_cast<unsigned long long>(grid);
}

} // namespace pplab::cuda
