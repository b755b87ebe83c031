// Issue 14's tuning runs (bench/NOTES.md): scan variants that hold more of a tile per SM, the
// reduce floor at 2^20 (an empty kernel, a 4 MiB load-only kernel, reduceFast and CUB
// interleaved run by run), and histogramFast variants against the read roof. Every variant is
// checked against the CPU before it is timed. Not part of `pplab bench`; built as
// pplab_explore_scan.
#include "cuda/fast.hpp"
#include "cuda/launch.hpp"
#include "cuda/scan_ring.cuh"
#include "cuda/timer.hpp"
#include "floor.cuh"
#include "pplab/request.hpp"

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/ptx>
#include <cuda_pipeline.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace pc = pplab::cuda;

namespace {

constexpr int kBlock = 256, kWarps = kBlock / 32;
enum : unsigned { kInvalid = 0, kAggregate = 1, kInclusive = 2 };

__device__ __forceinline__ unsigned long long pack(unsigned epoch, unsigned status, float v) {
    return (static_cast<unsigned long long>(epoch << 2 | status) << 32) | __float_as_uint(v);
}
__device__ __forceinline__ unsigned long long load_volatile(const unsigned long long* p) {
    return *reinterpret_cast<const volatile unsigned long long*>(p);
}
__device__ __forceinline__ void publish(unsigned long long* p, unsigned long long d) {
    *reinterpret_cast<volatile unsigned long long*>(p) = d;
}
__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}
__device__ __forceinline__ float warp_inclusive(float v, int lane) {
#pragma unroll
    for (int offset = 1; offset < 32; offset <<= 1) {
        const float up = __shfl_up_sync(0xffffffffu, v, offset);
        if (lane >= offset)
            v += up;
    }
    return v;
}

__device__ float look_back(const unsigned long long* descriptors, int tile, unsigned epoch,
                           int lane) {
    float exclusive = 0.0f;
    for (int pred = tile - 1 - lane;; pred -= 32) {
        unsigned status = kInclusive;
        float v = 0.0f;
        if (pred >= 0) {
            unsigned long long d;
            do {
                d = load_volatile(descriptors + pred);
            } while (static_cast<unsigned>(d >> 34) != epoch || ((d >> 32) & 3u) == kInvalid);
            status = static_cast<unsigned>(d >> 32) & 3u;
            v = __uint_as_float(static_cast<unsigned>(d));
        }
        const unsigned inclusive = __ballot_sync(0xffffffffu, status == kInclusive);
        const int stop = inclusive ? __ffs(inclusive) - 1 : 31;
        exclusive += __shfl_sync(0xffffffffu, warp_sum(lane <= stop ? v : 0.0f), 0);
        if (inclusive)
            return exclusive;
    }
}

// The look-back done by the whole block: each of the 256 threads reads one predecessor, so one
// round trip to L2 covers 256 tiles where a warp covers 32 (the median tile needed two warp
// windows: bench/NOTES.md). Every thread returns the sum of every tile before `tile`.
__device__ float look_back_block(const unsigned long long* descriptors, int tile, unsigned epoch,
                                 int* s_stop, float* s_sums) {
    float exclusive = 0.0f;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int newest = tile - 1;; newest -= kBlock) {
        const int pred = newest - static_cast<int>(threadIdx.x);
        unsigned status = kInclusive; // before tile 0: an inclusive 0
        float v = 0.0f;
        if (pred >= 0) {
            unsigned long long d;
            do {
                d = load_volatile(descriptors + pred);
            } while (static_cast<unsigned>(d >> 34) != epoch || ((d >> 32) & 3u) == kInvalid);
            status = static_cast<unsigned>(d >> 32) & 3u;
            v = __uint_as_float(static_cast<unsigned>(d));
        }
        if (threadIdx.x == 0)
            *s_stop = kBlock;
        __syncthreads();
        if (status == kInclusive)
            atomicMin(s_stop, static_cast<int>(threadIdx.x));
        __syncthreads();
        const int stop = *s_stop;
        const float part = warp_sum(static_cast<int>(threadIdx.x) <= stop ? v : 0.0f);
        if (lane == 0)
            s_sums[warp] = part;
        __syncthreads();
        for (int w = 0; w < kWarps; ++w)
            exclusive += s_sums[w];
        if (stop < kBlock)
            return exclusive;
        __syncthreads(); // s_stop and s_sums are reused
    }
}

// A tile split between shared memory (SmemRounds, brought in with cp.async) and registers
// (RegRounds): more of the tile per SM than registers alone hold, so more bytes in flight and
// fewer look-backs per byte. Round k of a warp is 128 consecutive elements, four per lane; the
// shared rounds come first in element order.
template <int RegRounds, int SmemRounds, int MinBlocks, bool BlockWide = false>
__global__ void __launch_bounds__(kBlock, MinBlocks)
    scanSplit(const float* __restrict__ in, float* __restrict__ out, int n,
              unsigned long long* __restrict__ descriptors, unsigned long long* __restrict__ tiles,
              unsigned long long tile_base, unsigned epoch) {
    constexpr int kRounds = RegRounds + SmemRounds;
    constexpr long long kTile = 1024LL * kRounds;
    extern __shared__ float4 s_rounds[]; // kWarps * SmemRounds * 32
    __shared__ float s_warp[kWarps];
    __shared__ float s_exclusive;
    __shared__ int s_tile;
    __shared__ int s_stop;
    __shared__ float s_sums[kWarps];
    if (threadIdx.x == 0)
        s_tile = static_cast<int>(atomicAdd(tiles, 1ull) - tile_base);
    __syncthreads();
    const int tile = s_tile;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const long long base = tile * kTile + warp * 128LL * kRounds + 4 * lane;
    const bool whole = (tile + 1) * kTile <= n;
    float4* mine = s_rounds + (warp * SmemRounds) * 32 + lane;
    const auto guarded = [&](long long i) {
        return make_float4(i < n ? in[i] : 0.0f, i + 1 < n ? in[i + 1] : 0.0f,
                           i + 2 < n ? in[i + 2] : 0.0f, i + 3 < n ? in[i + 3] : 0.0f);
    };
    float4 v[RegRounds];
    if (whole) {
#pragma unroll
        for (int k = 0; k < SmemRounds; ++k)
            __pipeline_memcpy_async(mine + 32 * k, in + base + 128 * k, sizeof(float4));
        __pipeline_commit();
#pragma unroll
        for (int k = 0; k < RegRounds; ++k)
            v[k] = __ldcs(reinterpret_cast<const float4*>(in + base + 128 * (SmemRounds + k)));
        __pipeline_wait_prior(0);
    } else {
#pragma unroll
        for (int k = 0; k < SmemRounds; ++k)
            mine[32 * k] = guarded(base + 128 * k);
#pragma unroll
        for (int k = 0; k < RegRounds; ++k)
            v[k] = guarded(base + 128 * (SmemRounds + k));
    }
    // Each lane reads only its own shared rounds: no barrier before the sums.
    float lane_total = 0.0f;
#pragma unroll
    for (int k = 0; k < SmemRounds; ++k) {
        const float4 x = mine[32 * k];
        lane_total += ((x.x + x.y) + x.z) + x.w;
    }
#pragma unroll
    for (int k = 0; k < RegRounds; ++k)
        lane_total += ((v[k].x + v[k].y) + v[k].z) + v[k].w;
    const float warp_total = warp_sum(lane_total);
    if (lane == 0)
        s_warp[warp] = warp_total;
    __syncthreads();
    float warp_prefix = 0.0f, aggregate = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
        const float x = s_warp[w];
        warp_prefix += w < warp ? x : 0.0f;
        aggregate += x;
    }
    float tile_exclusive = 0.0f;
    if constexpr (BlockWide) {
        if (tile == 0) {
            if (threadIdx.x == 0)
                publish(descriptors, pack(epoch, kInclusive, aggregate));
        } else {
            if (threadIdx.x == 0)
                publish(descriptors + tile, pack(epoch, kAggregate, aggregate));
            tile_exclusive = look_back_block(descriptors, tile, epoch, &s_stop, s_sums);
            if (threadIdx.x == 0)
                publish(descriptors + tile, pack(epoch, kInclusive, tile_exclusive + aggregate));
        }
    } else {
        if (threadIdx.x < 32) {
            float exclusive = 0.0f;
            if (tile == 0) {
                if (lane == 0)
                    publish(descriptors, pack(epoch, kInclusive, aggregate));
            } else {
                if (lane == 0)
                    publish(descriptors + tile, pack(epoch, kAggregate, aggregate));
                exclusive = look_back(descriptors, tile, epoch, lane);
                if (lane == 0)
                    publish(descriptors + tile, pack(epoch, kInclusive, exclusive + aggregate));
            }
            if (lane == 0)
                s_exclusive = exclusive;
        }
        __syncthreads();
        tile_exclusive = s_exclusive;
    }
    float running = tile_exclusive + warp_prefix;
    const auto emit = [&](const float4 x, long long i) {
        const float own = ((x.x + x.y) + x.z) + x.w;
        const float incl = warp_inclusive(own, lane);
        const float p = running + (incl - own);
        pc::store_scanned4(out, i, n, p, x, whole);
        running += __shfl_sync(0xffffffffu, incl, 31);
    };
#pragma unroll
    for (int k = 0; k < SmemRounds; ++k)
        emit(mine[32 * k], base + 128 * k);
#pragma unroll
    for (int k = 0; k < RegRounds; ++k)
        emit(v[k], base + 128 * (SmemRounds + k));
}

// A persistent block with a ring of Stages tiles in shared memory, filled by cp.async: while the
// oldest tile waits for its look-back, the next Stages - 1 tiles are already loading, so the
// wait no longer idles the memory system (the measured median tile spent 4.5 us of its 10.8 in
// the look-back, waiting for its predecessors' loads). The look-back is the block's (256 tiles
// per round trip): a tile's predecessors are the other blocks' current tiles.
template <int Stages, int TileF4>
__global__ void __launch_bounds__(kBlock)
    scanRing(const float* __restrict__ in, float* __restrict__ out, int n,
             unsigned long long* __restrict__ descriptors, unsigned long long* __restrict__ tiles,
             unsigned long long tile_base, unsigned epoch, int tile_count) {
    constexpr int kTile = 4 * TileF4;
    constexpr int kPerWarp = TileF4 / kWarps; // float4s of the tile each warp scans
    extern __shared__ float4 ring[];          // Stages * TileF4
    __shared__ int s_tile[Stages];
    __shared__ float s_warp[kWarps];
    __shared__ int s_stop;
    __shared__ float s_sums[kWarps];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const auto claim = [&](int stage) {
        if (threadIdx.x == 0)
            s_tile[stage] = static_cast<int>(atomicAdd(tiles, 1ull) - tile_base);
        __syncthreads();
        const int tile = s_tile[stage];
        float4* dst = ring + stage * TileF4;
        const long long first = static_cast<long long>(tile) * kTile;
        if (tile < tile_count && first + kTile <= n) {
            for (int k = threadIdx.x; k < TileF4; k += kBlock)
                __pipeline_memcpy_async(dst + k, in + first + 4LL * k, sizeof(float4));
        } else if (tile < tile_count) { // the last, partial tile
            for (int k = threadIdx.x; k < TileF4; k += kBlock) {
                const long long i = first + 4LL * k;
                dst[k] = make_float4(i < n ? in[i] : 0.0f, i + 1 < n ? in[i + 1] : 0.0f,
                                     i + 2 < n ? in[i + 2] : 0.0f, i + 3 < n ? in[i + 3] : 0.0f);
            }
        }
        __pipeline_commit(); // one group per claim, empty or not: the waits count groups
    };
    for (int stage = 0; stage < Stages; ++stage)
        claim(stage);
    for (int it = 0;; ++it) {
        const int stage = it % Stages;
        const int tile = s_tile[stage];
        if (tile >= tile_count)
            break; // every later claim is past the end too
        __pipeline_wait_prior(Stages - 1);
        __syncthreads(); // every thread's copies of this stage have landed
        const float4* t = ring + stage * TileF4 + warp * kPerWarp;
        float lane_total = 0.0f;
#pragma unroll
        for (int r = 0; r < kPerWarp / 32; ++r) {
            const float4 x = t[32 * r + lane];
            lane_total += ((x.x + x.y) + x.z) + x.w;
        }
        const float warp_total = warp_sum(lane_total);
        if (lane == 0)
            s_warp[warp] = warp_total;
        __syncthreads();
        float warp_prefix = 0.0f, aggregate = 0.0f;
#pragma unroll
        for (int w = 0; w < kWarps; ++w) {
            const float x = s_warp[w];
            warp_prefix += w < warp ? x : 0.0f;
            aggregate += x;
        }
        float exclusive = 0.0f;
        if (tile == 0) {
            if (threadIdx.x == 0)
                publish(descriptors, pack(epoch, kInclusive, aggregate));
        } else {
            if (threadIdx.x == 0)
                publish(descriptors + tile, pack(epoch, kAggregate, aggregate));
            exclusive = look_back_block(descriptors, tile, epoch, &s_stop, s_sums);
            if (threadIdx.x == 0)
                publish(descriptors + tile, pack(epoch, kInclusive, exclusive + aggregate));
        }
        float running = exclusive + warp_prefix;
        const long long first = static_cast<long long>(tile) * kTile + 4LL * warp * kPerWarp;
        const bool whole = static_cast<long long>(tile + 1) * kTile <= n;
#pragma unroll
        for (int r = 0; r < kPerWarp / 32; ++r) {
            const float4 x = t[32 * r + lane];
            const float own = ((x.x + x.y) + x.z) + x.w;
            const float incl = warp_inclusive(own, lane);
            const float p = running + (incl - own);
            pc::store_scanned4(out, first + 128LL * r + 4 * lane, n, p, x, whole);
            running += __shfl_sync(0xffffffffu, incl, 31);
        }
        __syncthreads(); // the stage is read: refill it
        claim(stage);
    }
}

// The ring with a look-ahead: before a block looks back for its oldest tile, it waits for its
// next tile's loads and publishes that tile's aggregate. A tile's aggregate then no longer waits
// for its own block's previous look-back, which is the chain that sank scanRing (a look-back
// waiting on a tile that sat behind a slower tile of another block). Deadlock-free: the
// smallest tile without an aggregate belongs to a block whose look-back needs only aggregates
// of smaller tiles, which exist.
template <int Stages, int TileF4, bool WarpLook>
__global__ void __launch_bounds__(kBlock)
    scanAhead(const float* __restrict__ in, float* __restrict__ out, int n,
              unsigned long long* __restrict__ descriptors, unsigned long long* __restrict__ tiles,
              unsigned long long tile_base, unsigned epoch, int tile_count) {
    static_assert(Stages >= 2, "the look-ahead reads the stage after the one being scanned");
    constexpr int kTile = 4 * TileF4;
    constexpr int kPerWarp = TileF4 / kWarps;
    extern __shared__ float4 ring[]; // Stages * TileF4
    __shared__ int s_tile[Stages];
    __shared__ float s_warp[Stages][kWarps];
    __shared__ int s_stop;
    __shared__ float s_sums[kWarps];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const auto claim = [&](int stage) {
        if (threadIdx.x == 0)
            s_tile[stage] = static_cast<int>(atomicAdd(tiles, 1ull) - tile_base);
        __syncthreads();
        const int tile = s_tile[stage];
        float4* dst = ring + stage * TileF4;
        const long long first = static_cast<long long>(tile) * kTile;
        if (tile < tile_count && first + kTile <= n) {
            for (int k = threadIdx.x; k < TileF4; k += kBlock)
                __pipeline_memcpy_async(dst + k, in + first + 4LL * k, sizeof(float4));
        } else if (tile < tile_count) {
            for (int k = threadIdx.x; k < TileF4; k += kBlock) {
                const long long i = first + 4LL * k;
                dst[k] = make_float4(i < n ? in[i] : 0.0f, i + 1 < n ? in[i + 1] : 0.0f,
                                     i + 2 < n ? in[i + 2] : 0.0f, i + 3 < n ? in[i + 3] : 0.0f);
            }
        }
        __pipeline_commit();
    };
    // The stage's warp totals into s_warp[stage] and its aggregate published; the caller has
    // waited on the pipeline for this stage.
    const auto publish_aggregate = [&](int stage) {
        __syncthreads(); // every thread's copies of this stage have landed
        const int tile = s_tile[stage];
        const float4* t = ring + stage * TileF4 + warp * kPerWarp;
        float lane_total = 0.0f;
#pragma unroll
        for (int r = 0; r < kPerWarp / 32; ++r) {
            const float4 x = t[32 * r + lane];
            lane_total += ((x.x + x.y) + x.z) + x.w;
        }
        const float warp_total = warp_sum(lane_total);
        if (lane == 0)
            s_warp[stage][warp] = warp_total;
        __syncthreads();
        if (threadIdx.x == 0) {
            float aggregate = 0.0f;
            for (int w = 0; w < kWarps; ++w)
                aggregate += s_warp[stage][w];
            publish(descriptors + tile,
                    pack(epoch, tile == 0 ? kInclusive : kAggregate, aggregate));
        }
    };
    for (int stage = 0; stage < Stages; ++stage)
        claim(stage);
    __pipeline_wait_prior(Stages - 1);
    if (s_tile[0] < tile_count)
        publish_aggregate(0);
    for (int it = 0;; ++it) {
        const int stage = it % Stages, next = (it + 1) % Stages;
        const int tile = s_tile[stage];
        if (tile >= tile_count)
            break;
        // Groups committed so far: Stages + it; the next tile's is group it + 1.
        __pipeline_wait_prior(Stages - 2);
        if (s_tile[next] < tile_count)
            publish_aggregate(next);
        float warp_prefix = 0.0f, aggregate = 0.0f;
#pragma unroll
        for (int w = 0; w < kWarps; ++w) {
            const float x = s_warp[stage][w];
            warp_prefix += w < warp ? x : 0.0f;
            aggregate += x;
        }
        float exclusive = 0.0f;
        if constexpr (WarpLook) { // one warp walks back 32 tiles a round trip, no barriers
            if (tile > 0 && warp == 0) {
                exclusive = look_back(descriptors, tile, epoch, lane);
                if (lane == 0)
                    publish(descriptors + tile, pack(epoch, kInclusive, exclusive + aggregate));
            }
            if (threadIdx.x == 0)
                s_sums[0] = exclusive;
            __syncthreads();
            exclusive = s_sums[0];
        } else if (tile > 0) {
            exclusive = look_back_block(descriptors, tile, epoch, &s_stop, s_sums);
            if (threadIdx.x == 0)
                publish(descriptors + tile, pack(epoch, kInclusive, exclusive + aggregate));
        }
        float running = exclusive + warp_prefix;
        const float4* t = ring + stage * TileF4 + warp * kPerWarp;
        const long long first = static_cast<long long>(tile) * kTile + 4LL * warp * kPerWarp;
        const bool whole = static_cast<long long>(tile + 1) * kTile <= n;
#pragma unroll
        for (int r = 0; r < kPerWarp / 32; ++r) {
            const float4 x = t[32 * r + lane];
            const float own = ((x.x + x.y) + x.z) + x.w;
            const float incl = warp_inclusive(own, lane);
            const float p = running + (incl - own);
            pc::store_scanned4(out, first + 128LL * r + 4 * lane, n, p, x, whole);
            running += __shfl_sync(0xffffffffu, incl, 31);
        }
        __syncthreads(); // the stage is read: refill it
        claim(stage);
    }
}

// The look-back started before the tile's loads land: a block of DataWarps data warps and one
// look-back warp. The data warps load the tile into registers and report their totals through
// shared memory; the look-back warp starts walking back at once, so its round trips to L2
// overlap the tile's own loads (in the product they follow them: 4.5 us of a 10.5 us tile life,
// bench/NOTES.md). While it waits on predecessors it publishes the tile's aggregate the moment
// the data warps have reported, and when the look-back ends first it publishes the inclusive
// prefix directly, never the aggregate.
template <int DataWarps>
__device__ bool aggregate_landed(const int* s_landed) {
    const int landed = *reinterpret_cast<const volatile int*>(s_landed);
    return __shfl_sync(0xffffffffu, landed, 0) == DataWarps;
}

template <int DataWarps>
__device__ float landed_aggregate(const float* s_warp) {
    float aggregate = 0.0f;
#pragma unroll
    for (int w = 0; w < DataWarps; ++w)
        aggregate += reinterpret_cast<const volatile float*>(s_warp)[w];
    return aggregate;
}

template <int DataWarps, int SleepNs>
__device__ float look_back_early(unsigned long long* descriptors, int tile, unsigned epoch,
                                 int lane, const float* s_warp, const int* s_landed) {
    float exclusive = 0.0f;
    bool published = false;
    for (int pred = tile - 1 - lane;; pred -= 32) {
        unsigned long long d =
            pred >= 0 ? load_volatile(descriptors + pred) : pack(epoch, kInclusive, 0.0f);
        const auto waiting = [&] {
            return static_cast<unsigned>(d >> 34) != epoch || ((d >> 32) & 3u) == kInvalid;
        };
        while (__any_sync(0xffffffffu, waiting())) {
            if (!published && aggregate_landed<DataWarps>(s_landed)) {
                const float aggregate = landed_aggregate<DataWarps>(s_warp);
                if (lane == 0)
                    publish(descriptors + tile, pack(epoch, kAggregate, aggregate));
                published = true;
            }
            if constexpr (SleepNs > 0)
                __nanosleep(SleepNs);
            if (waiting())
                d = load_volatile(descriptors + pred);
        }
        const unsigned status = static_cast<unsigned>(d >> 32) & 3u;
        const float v = __uint_as_float(static_cast<unsigned>(d));
        const unsigned inclusive = __ballot_sync(0xffffffffu, status == kInclusive);
        const int stop = inclusive ? __ffs(inclusive) - 1 : 31;
        exclusive += __shfl_sync(0xffffffffu, warp_sum(lane <= stop ? v : 0.0f), 0);
        if (inclusive)
            return exclusive;
    }
}

template <int DataWarps, int Rounds, int MinBlocks, int SleepNs>
__global__ void __launch_bounds__((DataWarps + 1) * 32, MinBlocks)
    scanEarly(const float* __restrict__ in, float* __restrict__ out, int n,
              unsigned long long* __restrict__ descriptors, unsigned long long* __restrict__ tiles,
              unsigned long long tile_base, unsigned epoch) {
    constexpr long long kTile = DataWarps * 128LL * Rounds;
    __shared__ float s_warp[DataWarps];
    __shared__ float s_exclusive;
    __shared__ int s_tile;
    __shared__ int s_landed;
    if (threadIdx.x == 0) {
        s_tile = static_cast<int>(atomicAdd(tiles, 1ull) - tile_base);
        s_landed = 0;
    }
    __syncthreads();
    const int tile = s_tile;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const long long base = tile * kTile + warp * 128LL * Rounds + 4 * lane;
    const bool whole = (tile + 1) * kTile <= n;
    float4 v[Rounds];
    if (warp == DataWarps) {
        const float exclusive = tile == 0 ? 0.0f
                                          : look_back_early<DataWarps, SleepNs>(
                                                descriptors, tile, epoch, lane, s_warp, &s_landed);
        while (!aggregate_landed<DataWarps>(&s_landed)) {
        }
        const float aggregate = landed_aggregate<DataWarps>(s_warp);
        if (lane == 0) {
            publish(descriptors + tile, pack(epoch, kInclusive, exclusive + aggregate));
            s_exclusive = exclusive;
        }
    } else {
#pragma unroll
        for (int k = 0; k < Rounds; ++k) {
            const long long i = base + 128 * k;
            v[k] = whole ? __ldcs(reinterpret_cast<const float4*>(in + i))
                         : make_float4(i < n ? in[i] : 0.0f, i + 1 < n ? in[i + 1] : 0.0f,
                                       i + 2 < n ? in[i + 2] : 0.0f, i + 3 < n ? in[i + 3] : 0.0f);
        }
        float lane_total = 0.0f;
#pragma unroll
        for (int k = 0; k < Rounds; ++k)
            lane_total += ((v[k].x + v[k].y) + v[k].z) + v[k].w;
        const float warp_total = warp_sum(lane_total);
        if (lane == 0) {
            s_warp[warp] = warp_total;
            __threadfence_block();
            atomicAdd(&s_landed, 1);
        }
    }
    __syncthreads();
    if (warp == DataWarps)
        return;
    float running = s_exclusive;
#pragma unroll
    for (int w = 0; w < DataWarps; ++w)
        running += w < warp ? s_warp[w] : 0.0f;
#pragma unroll
    for (int k = 0; k < Rounds; ++k) {
        const long long i = base + 128 * k;
        const float4 x = v[k];
        const float own = ((x.x + x.y) + x.z) + x.w;
        const float incl = warp_inclusive(own, lane);
        const float p = running + (incl - own);
        pc::store_scanned4(out, i, n, p, x, whole);
        running += __shfl_sync(0xffffffffu, incl, 31);
    }
}

// A persistent, warp-specialised scan (the design the issue names; CCCL's newest scan on B200):
// per block a ring of Stages tiles of Tile floats in shared memory, and four kinds of warps:
//   warp 0, the loader: takes a ticket and brings the tile in with ONE bulk copy (TMA),
//     signalled through the stage's `full` mbarrier; it runs ahead as far as the ring allows;
//   warp 1, the look-ahead: sums each landed tile (per scan warp's chunk) and publishes the
//     tile's aggregate at once, whatever the look-backs are doing: no chain through them;
//   warps 2 .. 2 + Looks - 1, the look-backs: for each tile, the sum of every tile before it,
//     tiles dealt round-robin over the look-back warps (one was measured the ring's bottleneck:
//     a tile waited 5 us for it); each reads 32 x Words predecessors per round trip and stops
//     at the last tile it did itself, whose inclusive prefix it knows;
//   then the scan warps: scan their chunk from shared memory and store it.
constexpr int kBulkFirstLook = 2;

// scanBulk's helpers are the product's (kernels/cuda/scan_ring.cuh): the ring that grew out of it.
// Per tile, from %globaltimer (ns, one clock for every SM): to see which warp holds the ring up.
struct BulkStamps {
    unsigned long long ticket, landed, summed, look, prefixed, stored;
    int block;
};

__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

template <int Stages, int Tile, int ScanWarps>
struct BulkRing {
    unsigned long long full[Stages], empty[Stages], summed[Stages], prefixed[Stages];
    int tile[Stages];
    float chunk[Stages][ScanWarps];
    float aggregate[Stages];
    float exclusive[Stages];
};

template <int Stages, int Tile, int ScanWarps, int Words, int MinBlocks, int Looks>
__global__ void __launch_bounds__((kBulkFirstLook + Looks + ScanWarps) * 32, MinBlocks)
    scanBulk(const float* __restrict__ in, float* __restrict__ out, int n,
             unsigned long long* __restrict__ descriptors, unsigned long long* __restrict__ tiles,
             unsigned long long tile_base, unsigned epoch, int count,
             BulkStamps* __restrict__ stamps) {
    static_assert(Tile % (ScanWarps * 128) == 0, "a scan warp's chunk is whole rounds");
    constexpr int kChunk = Tile / ScanWarps, kRounds = kChunk / 128;
    extern __shared__ __align__(128) float s_ring[]; // Stages x Tile
    __shared__ BulkRing<Stages, Tile, ScanWarps> r;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < Stages; ++s) {
            cuda::ptx::mbarrier_init(pc::ring_bar(&r.full[s]), 1);
            cuda::ptx::mbarrier_init(pc::ring_bar(&r.empty[s]), ScanWarps + 1);
            cuda::ptx::mbarrier_init(pc::ring_bar(&r.summed[s]), 1);
            cuda::ptx::mbarrier_init(pc::ring_bar(&r.prefixed[s]), 1);
        }
        cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
    }
    __syncthreads();
    if (warp == 0) { // the loader
        if (lane != 0)
            return;
        for (int i = 0;; ++i) {
            const int s = i % Stages;
            if (i >= Stages)
                pc::ring_wait(&r.empty[s], (i / Stages + 1) & 1);
            const int tile = static_cast<int>(atomicAdd(tiles, 1ull) - tile_base);
            float* stage = s_ring + s * Tile;
            if (tile >= count) {
                // The end, said to every look-back warp: each waits on its own next stage.
                for (int j = i; j < i + Looks; ++j) {
                    if (j != i && j >= Stages)
                        pc::ring_wait(&r.empty[j % Stages], (j / Stages + 1) & 1);
                    r.tile[j % Stages] = -1;
                    pc::ring_arrive(&r.full[j % Stages]);
                }
                return;
            }
            r.tile[s] = tile;
            if (stamps) {
                stamps[tile].ticket = global_ns();
                stamps[tile].block = blockIdx.x;
            }
            const long long first = static_cast<long long>(tile) * Tile;
            const int valid = static_cast<int>(min(static_cast<long long>(Tile), n - first));
            pc::ring_bring(stage, in + first, valid, &r.full[s]);
        }
    }
    if (warp == 1) { // the look-ahead: aggregates only
        for (int i = 0;; ++i) {
            const int s = i % Stages;
            pc::ring_wait(&r.full[s], (i / Stages) & 1);
            const int tile = r.tile[s];
            if (tile < 0)
                return;
            if (stamps && lane == 0)
                stamps[tile].landed = global_ns();
            const int valid = static_cast<int>(
                min(static_cast<long long>(Tile), n - static_cast<long long>(tile) * Tile));
            const float* stage = s_ring + s * Tile;
            float aggregate = 0.0f;
#pragma unroll
            for (int c = 0; c < ScanWarps; ++c) {
                float part = valid == Tile
                                 ? pc::ring_chunk_sum<kRounds, true>(stage + c * kChunk, 0, lane)
                                 : pc::ring_chunk_sum<kRounds, false>(stage + c * kChunk,
                                                                      valid - c * kChunk, lane);
                if (lane == 0)
                    r.chunk[s][c] = part;
                aggregate += part;
            }
            __syncwarp();
            if (lane == 0) {
                r.aggregate[s] = aggregate;
                publish(descriptors + tile,
                        pack(epoch, tile == 0 ? kInclusive : kAggregate, aggregate));
                if (stamps)
                    stamps[tile].summed = global_ns();
                pc::ring_arrive(&r.summed[s]);
                pc::ring_arrive(&r.empty[s]);
            }
        }
    }
    static_assert(Stages % Looks == 0, "a stage is always looked back by the same warp");
    if (warp >= kBulkFirstLook && warp < kBulkFirstLook + Looks) { // a look-back
        int known = -1;
        float known_inclusive = 0.0f;
        for (int i = warp - kBulkFirstLook;; i += Looks) {
            const int s = i % Stages;
            pc::ring_wait(&r.full[s], (i / Stages) & 1); // the end of the ring is said only here
            const int tile = r.tile[s];
            if (tile < 0)
                return;
            pc::ring_wait(&r.summed[s], (i / Stages) & 1);
            if (stamps && lane == 0)
                stamps[tile].look = global_ns();
            const float aggregate = r.aggregate[s];
            const float exclusive = tile == 0
                                        ? 0.0f
                                        : pc::ring_look_back<Words>(descriptors, tile, epoch, lane,
                                                                    known, known_inclusive);
            known = tile;
            known_inclusive = exclusive + aggregate;
            if (lane == 0) {
                if (tile != 0)
                    publish(descriptors + tile, pack(epoch, kInclusive, known_inclusive));
                r.exclusive[s] = exclusive;
                if (stamps)
                    stamps[tile].prefixed = global_ns();
                pc::ring_arrive(&r.prefixed[s]);
            }
        }
    }
    if (warp < kBulkFirstLook + Looks)
        return;
    // A scan warp: its chunk of each tile, from shared memory to the output.
    const int c = warp - kBulkFirstLook - Looks;
    for (int i = 0;; ++i) {
        const int s = i % Stages;
        // The end of the ring is said only by `full` (no look-back runs for it): wait on it
        // first, so a -1 tile is seen without waiting on a look-back that never comes.
        pc::ring_wait(&r.full[s], (i / Stages) & 1);
        const int tile = r.tile[s];
        if (tile < 0)
            return;
        pc::ring_wait(&r.prefixed[s], (i / Stages) & 1);
        const long long first = static_cast<long long>(tile) * Tile;
        const int valid = static_cast<int>(min(static_cast<long long>(Tile), n - first));
        float running = r.exclusive[s];
        for (int w = 0; w < c; ++w)
            running += r.chunk[s][w];
        const float* stage = s_ring + s * Tile + c * kChunk;
        float4 x[kRounds];
        if (valid == Tile)
            pc::ring_fetch<kRounds, true>(stage, 0, lane, x);
        else
            pc::ring_fetch<kRounds, false>(stage, valid - c * kChunk, lane, x);
        pc::ring_store<kRounds>(out + first + c * kChunk, valid - c * kChunk, valid == Tile,
                                running, lane, x);
        __syncwarp();
        if (lane == 0) {
            if (stamps && c == ScanWarps - 1)
                stamps[tile].stored = global_ns();
            pc::ring_arrive(&r.empty[s]);
        }
    }
}

struct SplitScan {
    unsigned long long* descriptors = nullptr;
    unsigned long long* tiles = nullptr;
    unsigned long long tile_base = 0;
    unsigned epoch = 0;
    explicit SplitScan(int max_n) {
        const std::size_t count = static_cast<std::size_t>(max_n / 2048 + 2); // tiles of 2048 up
        pc::check(cudaMalloc(&descriptors, 8 * count), "cudaMalloc");
        pc::check(cudaMemset(descriptors, 0, 8 * count), "cudaMemset");
        pc::check(cudaMalloc(&tiles, 8), "cudaMalloc");
        pc::check(cudaMemset(tiles, 0, 8), "cudaMemset");
    }
    ~SplitScan() {
        cudaFree(descriptors);
        cudaFree(tiles);
    }
    // The ring: a resident grid; every block claims Stages tiles past the end before it stops.
    template <int Stages, int TileF4, int Ahead = 0> // 1: look-ahead, 2: and warp look-back
    void ring(const float* in, float* out, int n) {
        constexpr int kTile = 4 * TileF4;
        const std::size_t smem = sizeof(float4) * Stages * TileF4;
        const auto kernel = Ahead == 2   ? scanAhead<Stages, TileF4, true>
                            : Ahead == 1 ? scanAhead<Stages, TileF4, false>
                                         : scanRing<Stages, TileF4>;
        static int resident = 0;
        if (resident == 0) {
            pc::check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(smem)),
                      "cudaFuncSetAttribute");
            int per_sm = 0, sms = 0;
            pc::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, smem),
                      "occupancy");
            pc::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SMs");
            resident = per_sm * sms;
        }
        const int count = (n + kTile - 1) / kTile;
        const int grid = std::min(count, resident);
        ++epoch;
        kernel<<<grid, kBlock, smem>>>(in, out, n, descriptors, tiles, tile_base,
                                       epoch & 0x3FFFFFFFu, count);
        tile_base +=
            static_cast<unsigned long long>(count) + static_cast<unsigned long long>(grid) * Stages;
    }
    template <int Stages, int TileF4, bool WarpLook = false>
    void ahead(const float* in, float* out, int n) {
        ring<Stages, TileF4, WarpLook ? 2 : 1>(in, out, n);
    }
    template <int Stages, int Tile, int ScanWarps, int PerSm = 1, int Words = 4, int Looks = 1>
    void bulk(const float* in, float* out, int n, BulkStamps* stamps = nullptr) {
        const std::size_t smem = sizeof(float) * Stages * Tile;
        const auto kernel = scanBulk<Stages, Tile, ScanWarps, Words, PerSm, Looks>;
        constexpr int threads = (kBulkFirstLook + Looks + ScanWarps) * 32;
        static int resident = 0;
        if (resident == 0) {
            pc::check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(smem)),
                      "cudaFuncSetAttribute");
            int per_sm = 0, sms = 0;
            pc::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem),
                      "occupancy");
            pc::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SMs");
            resident = std::min(per_sm, PerSm) * sms;
            std::printf("bulk %d x %d, %d scan warps, %d words, %d look-backs: %d per SM\n", Stages,
                        Tile, ScanWarps, Words, Looks, per_sm);
        }
        const int count = (n + Tile - 1) / Tile;
        const int grid = std::min(count, resident);
        ++epoch;
        kernel<<<grid, threads, smem>>>(in, out, n, descriptors, tiles, tile_base,
                                        epoch & 0x3FFFFFFFu, count, stamps);
        tile_base += static_cast<unsigned long long>(count) + static_cast<unsigned long long>(grid);
    }
    template <int DataWarps, int Rounds, int MinBlocks, int SleepNs = 0>
    void early(const float* in, float* out, int n) {
        constexpr int kTile = DataWarps * 128 * Rounds;
        const int count = (n + kTile - 1) / kTile;
        ++epoch;
        scanEarly<DataWarps, Rounds, MinBlocks, SleepNs><<<count, (DataWarps + 1) * 32>>>(
            in, out, n, descriptors, tiles, tile_base, epoch & 0x3FFFFFFFu);
        tile_base += static_cast<unsigned long long>(count);
    }
    template <int RegRounds, int SmemRounds, int MinBlocks, bool BlockWide = false>
    void launch(const float* in, float* out, int n) {
        constexpr int kTile = 1024 * (RegRounds + SmemRounds);
        const std::size_t smem = sizeof(float4) * kWarps * SmemRounds * 32;
        static bool configured = false;
        if (!configured) {
            pc::check(cudaFuncSetAttribute(scanSplit<RegRounds, SmemRounds, MinBlocks, BlockWide>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(smem)),
                      "cudaFuncSetAttribute");
            configured = true;
        }
        const int count = (n + kTile - 1) / kTile;
        ++epoch;
        scanSplit<RegRounds, SmemRounds, MinBlocks, BlockWide><<<count, kBlock, smem>>>(
            in, out, n, descriptors, tiles, tile_base, epoch & 0x3FFFFFFFu);
        tile_base += static_cast<unsigned long long>(count);
    }
};

// The product's kernel (fast.cu, 16 rounds in registers) with clock64() stamps per tile:
// start, loads landed (the first use of the tile), aggregate published, prefix known, stores
// issued; and the look-back's window steps. To see where a tile's lifetime goes.
struct Stamps {
    long long start, loaded, published, prefixed, stored;
    int windows;
    int sm;
};

__device__ __forceinline__ int sm_id() {
    int id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

__device__ float look_back_counted(const unsigned long long* descriptors, int tile, unsigned epoch,
                                   int lane, int& windows) {
    float exclusive = 0.0f;
    windows = 0;
    for (int pred = tile - 1 - lane;; pred -= 32) {
        ++windows;
        unsigned status = kInclusive;
        float v = 0.0f;
        if (pred >= 0) {
            unsigned long long d;
            do {
                d = load_volatile(descriptors + pred);
            } while (static_cast<unsigned>(d >> 34) != epoch || ((d >> 32) & 3u) == kInvalid);
            status = static_cast<unsigned>(d >> 32) & 3u;
            v = __uint_as_float(static_cast<unsigned>(d));
        }
        const unsigned inclusive = __ballot_sync(0xffffffffu, status == kInclusive);
        const int stop = inclusive ? __ffs(inclusive) - 1 : 31;
        exclusive += __shfl_sync(0xffffffffu, warp_sum(lane <= stop ? v : 0.0f), 0);
        if (inclusive)
            return exclusive;
    }
}

__global__ void __launch_bounds__(kBlock)
    scanTimed(const float* __restrict__ in, float* __restrict__ out, int n,
              unsigned long long* __restrict__ descriptors, unsigned long long* __restrict__ tiles,
              unsigned long long tile_base, unsigned epoch, Stamps* __restrict__ stamps) {
    constexpr int kRounds = 16;
    constexpr long long kTile = 1024LL * kRounds;
    __shared__ float s_warp[kWarps];
    __shared__ float s_exclusive;
    __shared__ int s_tile;
    const long long start = clock64();
    if (threadIdx.x == 0)
        s_tile = static_cast<int>(atomicAdd(tiles, 1ull) - tile_base);
    __syncthreads();
    const int tile = s_tile;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const long long base = tile * kTile + warp * 128LL * kRounds + 4 * lane;
    float4 v[kRounds];
#pragma unroll
    for (int k = 0; k < kRounds; ++k)
        v[k] = __ldcs(reinterpret_cast<const float4*>(in + base + 128 * k));
    float lane_prefix[kRounds];
    float warp_total = 0.0f;
#pragma unroll
    for (int k = 0; k < kRounds; ++k) {
        const float own = ((v[k].x + v[k].y) + v[k].z) + v[k].w;
        const float incl = warp_inclusive(own, lane);
        float before = __shfl_up_sync(0xffffffffu, incl, 1);
        if (lane == 0)
            before = 0.0f;
        lane_prefix[k] = warp_total + before;
        warp_total += __shfl_sync(0xffffffffu, incl, 31);
    }
    if (lane == 0)
        s_warp[warp] = warp_total;
    __syncthreads();
    const long long loaded = clock64();
    float warp_prefix = 0.0f, aggregate = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
        const float x = s_warp[w];
        warp_prefix += w < warp ? x : 0.0f;
        aggregate += x;
    }
    long long published = loaded;
    int windows = 0;
    if (threadIdx.x < 32) {
        float exclusive = 0.0f;
        if (tile == 0) {
            if (lane == 0)
                publish(descriptors, pack(epoch, kInclusive, aggregate));
        } else {
            if (lane == 0)
                publish(descriptors + tile, pack(epoch, kAggregate, aggregate));
            published = clock64();
            exclusive = look_back_counted(descriptors, tile, epoch, lane, windows);
            if (lane == 0)
                publish(descriptors + tile, pack(epoch, kInclusive, exclusive + aggregate));
        }
        if (lane == 0)
            s_exclusive = exclusive;
    }
    __syncthreads();
    const long long prefixed = clock64();
    const float prefix = s_exclusive + warp_prefix;
#pragma unroll
    for (int k = 0; k < kRounds; ++k) {
        const float p = prefix + lane_prefix[k];
        __stcs(reinterpret_cast<float4*>(out + base + 128 * k),
               make_float4(p, p + v[k].x, (p + v[k].x) + v[k].y, ((p + v[k].x) + v[k].y) + v[k].z));
    }
    const long long stored = clock64();
    if (threadIdx.x == 0)
        stamps[tile] = {start, loaded, published, prefixed, stored, windows, sm_id()};
}

using pplab::bench::emptyKernel;
using pplab::bench::loadOnly;

double median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Exclusive prefix of `in` in double, rounded once: the reference the float scans approach.
bool close_to_reference(const std::vector<float>& in, const std::vector<float>& got) {
    double sum = 0.0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (std::fabs(got[i] - sum) > 1e-3 * std::max(1.0, std::fabs(sum))) {
            std::printf("  first difference at %zu of %zu: %.6g, expected %.6g\n", i, in.size(),
                        static_cast<double>(got[i]), sum);
            return false;
        }
        sum += in[i];
    }
    return true;
}

// What every part of the exploration shares: the input, the output, the timer, the L2 rotation.
struct Bench {
    std::size_t l2 = 0;
    std::size_t capacity = 0;
    std::vector<float> host;
    pc::DeviceBuffer<float>* in = nullptr;
    pc::DeviceBuffer<float>* out = nullptr;
    pc::Events* ev = nullptr;
    int runs = 20, warmups = 3;
};

// Validation first: every scan variant against the reference at sizes with partial tiles.
bool validate_variants(const Bench& bench, const std::string& mode) {
    for (const int n : {1, 4097, 65539, (1 << 20) + 5}) {
        const std::vector<float> part(bench.host.begin(), bench.host.begin() + n);
        pc::DeviceBuffer<float> din(part);
        pc::DeviceBuffer<float> dout(static_cast<std::size_t>(n) + 4096);
        bool all_ok = true;
        const auto check_variant = [&](const char* name, auto&& launch) {
            SplitScan state(n);
            launch(state, din.data(), dout.data());
            const bool ok = close_to_reference(part, dout.to_host());
            std::printf("validate n=%d %s: %s\n", n, name, ok ? "ok" : "WRONG");
            all_ok = all_ok && ok;
        };
        if (mode == "early") {
            check_variant("early 7x16", [&](SplitScan& st, const float* i, float* o) {
                st.early<7, 16, 3>(i, o, n);
            });
            check_variant("early 7x16 s1000", [&](SplitScan& st, const float* i, float* o) {
                st.early<7, 16, 3, 1000>(i, o, n);
            });
            check_variant("early 8x14 s400", [&](SplitScan& st, const float* i, float* o) {
                st.early<8, 14, 3, 400>(i, o, n);
            });
            check_variant("early 7x16, twice", [&](SplitScan& st, const float* i, float* o) {
                st.early<7, 16, 3>(i, o, n);
                st.early<7, 16, 3>(i, o, n);
            });
            continue;
        }
        // The product's ring (FastScan from 0 elements; from kScanRingFrom in the product), twice
        // on one state: the ticket base must follow the tickets each block takes past the end.
        check_variant("scanRing (product), twice", [&](SplitScan&, const float* i, float* o) {
            pc::FastScan ring(n, 16, 0);
            ring.launch(i, o, n);
            ring.launch(i, o, n);
        });
        if (mode == "hold") {
            if (!all_ok)
                return false;
            continue;
        }
        check_variant("bulk 6x8192 1/SM 2 looks, twice",
                      [&](SplitScan& st, const float* i, float* o) {
                          st.bulk<6, 8192, 4, 1, 12, 2>(i, o, n);
                          st.bulk<6, 8192, 4, 1, 12, 2>(i, o, n);
                      });
        check_variant("bulk 6x8192 1/SM 2 looks", [&](SplitScan& st, const float* i, float* o) {
            st.bulk<6, 8192, 4, 1, 12, 2>(i, o, n);
        });
        check_variant("bulk 6x8192 1/SM 3 looks", [&](SplitScan& st, const float* i, float* o) {
            st.bulk<6, 8192, 4, 1, 12, 3>(i, o, n);
        });
        check_variant("bulk 6x8192 4w 1/SM 12wd", [&](SplitScan& st, const float* i, float* o) {
            st.bulk<6, 8192, 4, 1, 12>(i, o, n);
        });
        check_variant("bulk 4x12288 1/SM 2 looks", [&](SplitScan& st, const float* i, float* o) {
            st.bulk<4, 12288, 4, 1, 12, 2>(i, o, n);
        });
        if (mode == "bulk") {
            if (!all_ok)
                return false;
            continue;
        }
        check_variant("16+0 warp", [&](SplitScan& st, const float* i, float* o) {
            st.launch<16, 0, 3>(i, o, n);
        });
        check_variant("16+0 block", [&](SplitScan& st, const float* i, float* o) {
            st.launch<16, 0, 3, true>(i, o, n);
        });
        check_variant("8+12 warp", [&](SplitScan& st, const float* i, float* o) {
            st.launch<8, 12, 4>(i, o, n);
        });
        check_variant("8+12 block", [&](SplitScan& st, const float* i, float* o) {
            st.launch<8, 12, 4, true>(i, o, n);
        });
        check_variant("16+16 block", [&](SplitScan& st, const float* i, float* o) {
            st.launch<16, 16, 3, true>(i, o, n);
        });
        check_variant("ring 3 x 8192",
                      [&](SplitScan& st, const float* i, float* o) { st.ring<3, 2048>(i, o, n); });
        check_variant("ring 4 x 4096",
                      [&](SplitScan& st, const float* i, float* o) { st.ring<4, 1024>(i, o, n); });
        check_variant("ring 6 x 4096",
                      [&](SplitScan& st, const float* i, float* o) { st.ring<6, 1024>(i, o, n); });
        check_variant("ring 2 x 16384",
                      [&](SplitScan& st, const float* i, float* o) { st.ring<2, 4096>(i, o, n); });
        check_variant("ahead 3 x 4096",
                      [&](SplitScan& st, const float* i, float* o) { st.ahead<3, 1024>(i, o, n); });
        check_variant("ahead 4 x 4096",
                      [&](SplitScan& st, const float* i, float* o) { st.ahead<4, 1024>(i, o, n); });
        check_variant("ahead 3 x 8192",
                      [&](SplitScan& st, const float* i, float* o) { st.ahead<3, 2048>(i, o, n); });
        check_variant("ahead 6 x 2048",
                      [&](SplitScan& st, const float* i, float* o) { st.ahead<6, 512>(i, o, n); });
        check_variant("ahead 3 x 8192 warp", [&](SplitScan& st, const float* i, float* o) {
            st.ahead<3, 2048, true>(i, o, n);
        });
        check_variant("ahead 2 x 16384 warp", [&](SplitScan& st, const float* i, float* o) {
            st.ahead<2, 4096, true>(i, o, n);
        });
        check_variant("ahead 4 x 4096, twice", [&](SplitScan& st, const float* i, float* o) {
            st.ahead<4, 1024>(i, o, n);
            st.ahead<4, 1024>(i, o, n);
        });
        // A second launch on the same state: the claim counter's base must follow.
        check_variant("ring 4 x 4096, twice", [&](SplitScan& st, const float* i, float* o) {
            st.ring<4, 1024>(i, o, n);
            st.ring<4, 1024>(i, o, n);
        });
        if (!all_ok)
            return false;
    }
    return true;
}

// Each variant beside the copy and CUB at 2^20..2^28, the input rotated through the L2.
void time_sizes(const Bench& bench, const std::string& mode) {
    pc::Events& ev = *bench.ev;
    const int runs = bench.runs, warmups = bench.warmups;
    pc::DeviceBuffer<float>& in = *bench.in;
    pc::DeviceBuffer<float>& out = *bench.out;
    for (const int k : {20, 22, 24, 26, 28}) {
        const int n = 1 << k;
        const pc::Rotation rot =
            pc::rotation(static_cast<std::size_t>(n) * 4, bench.capacity * 4, bench.l2);
        const auto src = [&](int run) {
            return in.data() + rot.offset(run, static_cast<std::size_t>(n));
        };
        const auto dst = [&](int run) {
            return out.data() + rot.offset(run, static_cast<std::size_t>(n));
        };
        const double copy_ms = ev.median_ms(
            [&](int run) {
                cudaMemcpyAsync(dst(run), src(run), 4ull * n, cudaMemcpyDeviceToDevice);
            },
            warmups, runs);
        const double copy_gbs = 8.0 * n / (copy_ms * 1e6);
        std::size_t bytes = 0;
        cub::DeviceScan::ExclusiveSum(nullptr, bytes, in.data(), out.data(), n);
        pc::DeviceBuffer<unsigned char> temp(bytes);
        const double cub_ms = ev.median_ms(
            [&](int run) {
                std::size_t b = bytes;
                cub::DeviceScan::ExclusiveSum(temp.data(), b, src(run), dst(run), n);
            },
            warmups, runs);
        const auto line = [&](const char* what, double ms) {
            const double gbs = 8.0 * n / (ms * 1e6);
            std::printf("%-26s 2^%d %9.4f %6.0f %5.1f%% %5.2fx\n", what, k, ms, gbs,
                        100.0 * gbs / copy_gbs, cub_ms / ms);
        };
        line("copy (read + write)", copy_ms);
        line("cub::DeviceScan", cub_ms);
        {
            pc::FastScan s(n, 16);
            line("scanFast 16 (product)",
                 ev.median_ms([&](int run) { s.launch(src(run), dst(run), n); }, warmups, runs));
        }
        const auto time = [&](auto&& launch) {
            return ev.median_ms([&](int run) { launch(src(run), dst(run)); }, warmups, runs);
        };
        if (mode == "early") {
            SplitScan e1(n), e2(n), e3(n);
            line("early 7 x 16, 3/SM",
                 time([&](const float* i, float* o) { e1.early<7, 16, 3>(i, o, n); }));
            line("early 7x16 sleep 1000",
                 time([&](const float* i, float* o) { e2.early<7, 16, 3, 1000>(i, o, n); }));
            line("early 8x14 sleep 400",
                 time([&](const float* i, float* o) { e3.early<8, 14, 3, 400>(i, o, n); }));
            continue;
        }
        {
            pc::FastScan ring(n, 16, 0);
            line("scanRing (product >= 2^24)",
                 ev.median_ms([&](int run) { ring.launch(src(run), dst(run), n); }, warmups, runs));
            pc::FastScan chosen(n);
            line("FastScan as pplab bench",
                 ev.median_ms([&](int run) { chosen.launch(src(run), dst(run), n); }, warmups,
                              runs));
        }
        SplitScan h5(n);
        SplitScan b1(n), b2(n), b3(n), b4(n), b5(n);
        line("bulk 6x8192 4w 1/SM 12wd (again)",
             time([&](const float* i, float* o) { h5.bulk<6, 8192, 4, 1, 12>(i, o, n); }));
        if (mode == "hold") {
            pc::FastScan s(n, 16);
            line("scanFast 16 (again)",
                 ev.median_ms([&](int run) { s.launch(src(run), dst(run), n); }, warmups, runs));
            continue;
        }
        line("bulk 3 x 8192, 4w, 2/SM",
             time([&](const float* i, float* o) { b1.bulk<3, 8192, 4, 2>(i, o, n); }));
        line("bulk 6x8192 1/SM 2 looks",
             time([&](const float* i, float* o) { b2.bulk<6, 8192, 4, 1, 12, 2>(i, o, n); }));
        line("bulk 6x8192 1/SM 3 looks",
             time([&](const float* i, float* o) { b3.bulk<6, 8192, 4, 1, 12, 3>(i, o, n); }));
        line("bulk 6x8192 4w 1/SM 12wd",
             time([&](const float* i, float* o) { b4.bulk<6, 8192, 4, 1, 12>(i, o, n); }));
        line("bulk 4x12288 1/SM 2 looks",
             time([&](const float* i, float* o) { b5.bulk<4, 12288, 4, 1, 12, 2>(i, o, n); }));
        {
            pc::FastScan s(n, 16);
            line("scanFast 16 (again)",
                 ev.median_ms([&](int run) { s.launch(src(run), dst(run), n); }, warmups, runs));
        }
        if (mode == "bulk")
            continue;
        SplitScan a(n), b(n), c(n), d(n), e(n);
        line("16 reg, warp look-back",
             time([&](const float* i, float* o) { a.launch<16, 0, 3>(i, o, n); }));
        line("16 reg, block look-back",
             time([&](const float* i, float* o) { b.launch<16, 0, 3, true>(i, o, n); }));
        line("8 reg + 12 smem, warp",
             time([&](const float* i, float* o) { c.launch<8, 12, 4>(i, o, n); }));
        line("8 reg + 12 smem, block",
             time([&](const float* i, float* o) { d.launch<8, 12, 4, true>(i, o, n); }));
        line("16 reg + 16 smem, block",
             time([&](const float* i, float* o) { e.launch<16, 16, 3, true>(i, o, n); }));
        SplitScan f(n), g(n), h(n), q(n);
        line("ring 3 x 8192", time([&](const float* i, float* o) { f.ring<3, 2048>(i, o, n); }));
        line("ring 4 x 4096", time([&](const float* i, float* o) { g.ring<4, 1024>(i, o, n); }));
        line("ring 6 x 4096", time([&](const float* i, float* o) { h.ring<6, 1024>(i, o, n); }));
        line("ring 2 x 16384", time([&](const float* i, float* o) { q.ring<2, 4096>(i, o, n); }));
        SplitScan a3(n), a4(n), a38(n), a6(n);
        line("ahead 3 x 4096", time([&](const float* i, float* o) { a3.ahead<3, 1024>(i, o, n); }));
        line("ahead 4 x 4096", time([&](const float* i, float* o) { a4.ahead<4, 1024>(i, o, n); }));
        line("ahead 3 x 8192",
             time([&](const float* i, float* o) { a38.ahead<3, 2048>(i, o, n); }));
        line("ahead 6 x 2048", time([&](const float* i, float* o) { a6.ahead<6, 512>(i, o, n); }));
        SplitScan w38(n), w216(n);
        line("ahead 3 x 8192 warp",
             time([&](const float* i, float* o) { w38.ahead<3, 2048, true>(i, o, n); }));
        line("ahead 2 x 16384 warp",
             time([&](const float* i, float* o) { w216.ahead<2, 4096, true>(i, o, n); }));
    }
}

// Where a tile's lifetime goes (2^28, whole tiles only).
void stamp_tiles(const Bench& bench) {
    using pc::check;
    pc::DeviceBuffer<float>& in = *bench.in;
    pc::DeviceBuffer<float>& out = *bench.out;
    {
        const int n = 1 << 28;
        const int count = n / 16384;
        SplitScan state(n);
        pc::DeviceBuffer<Stamps> stamps(static_cast<std::size_t>(count));
        for (int run = 0; run < 3; ++run) {
            ++state.epoch;
            scanTimed<<<count, kBlock>>>(in.data(), out.data(), n, state.descriptors, state.tiles,
                                         state.tile_base, state.epoch, stamps.data());
            state.tile_base += static_cast<unsigned long long>(count);
        }
        check(cudaDeviceSynchronize(), "scanTimed");
        const std::vector<Stamps> st = stamps.to_host();
        std::vector<float> load, scan, look, store, life;
        std::vector<int> windows(8, 0);
        for (const Stamps& x : st) {
            load.push_back(static_cast<float>(x.loaded - x.start));
            look.push_back(static_cast<float>(x.prefixed - x.published));
            scan.push_back(static_cast<float>(x.published - x.loaded));
            store.push_back(static_cast<float>(x.stored - x.prefixed));
            life.push_back(static_cast<float>(x.stored - x.start));
            ++windows[static_cast<std::size_t>(std::min(x.windows, 7))];
        }
        int khz = 0;
        check(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0), "the SM clock");
        const double ghz = khz / 1e6;
        std::printf("scanTimed 2^28, median cycles (us at %.2f GHz): load+scan %.0f (%.2f), "
                    "publish %.0f, look-back %.0f (%.2f), store issue %.0f (%.2f), life %.0f "
                    "(%.2f)\n",
                    ghz, median(load), median(load) / ghz / 1e3, median(scan), median(look),
                    median(look) / ghz / 1e3, median(store), median(store) / ghz / 1e3,
                    median(life), median(life) / ghz / 1e3);
        std::printf("look-back windows: 0:%d 1:%d 2:%d 3:%d 4:%d 5:%d 6:%d 7+:%d\n", windows[0],
                    windows[1], windows[2], windows[3], windows[4], windows[5], windows[6],
                    windows[7]);
        std::sort(look.begin(), look.end());
        std::printf("look-back cycles p10 %.0f p50 %.0f p90 %.0f p99 %.0f\n",
                    look[look.size() / 10], look[look.size() / 2], look[look.size() * 9 / 10],
                    look[look.size() * 99 / 100]);
    }
}

// Where a bulk tile's life goes (2^28): percentiles over tiles of each interval, microseconds.
template <int Stages, int PerSm, int Looks>
void stamp_bulk(const Bench& bench) {
    const int n = 1 << 28, count = n / 8192;
    SplitScan state(n);
    pc::DeviceBuffer<BulkStamps> stamps(static_cast<std::size_t>(count));
    for (int run = 0; run < 3; ++run)
        state.bulk<Stages, 8192, 4, PerSm, 12, Looks>(bench.in->data(), bench.out->data(), n,
                                                      stamps.data());
    pc::check(cudaDeviceSynchronize(), "scanBulk stamped");
    const std::vector<BulkStamps> st = stamps.to_host();
    std::vector<float> load, sum, queue, look, store, life, gap;
    std::vector<std::vector<unsigned long long>> per_block(2048);
    const auto us = [](unsigned long long from, unsigned long long to) {
        return static_cast<float>(static_cast<double>(to - from) / 1e3);
    };
    for (const BulkStamps& x : st) {
        load.push_back(us(x.ticket, x.landed));
        sum.push_back(us(x.landed, x.summed));
        queue.push_back(us(x.summed, x.look));
        look.push_back(us(x.look, x.prefixed));
        store.push_back(us(x.prefixed, x.stored));
        life.push_back(us(x.ticket, x.stored));
        per_block[static_cast<std::size_t>(x.block) % 2048].push_back(x.ticket);
    }
    for (auto& b : per_block) {
        std::sort(b.begin(), b.end());
        for (std::size_t k = 1; k < b.size(); ++k)
            gap.push_back(us(b[k - 1], b[k]));
    }
    const auto pct = [](std::vector<float> v, int p) {
        std::sort(v.begin(), v.end());
        return v[v.size() * static_cast<std::size_t>(p) / 100];
    };
    const auto row = [&](const char* what, const std::vector<float>& v) {
        std::printf("  %-34s p10 %7.2f  p50 %7.2f  p90 %7.2f us\n", what, pct(v, 10), pct(v, 50),
                    pct(v, 90));
    };
    std::printf("bulk %d x 8192, %d/SM, %d look-backs, 2^28, per tile (last of 3 runs):\n", Stages,
                PerSm, Looks);
    row("ticket -> landed (the bulk copy)", load);
    row("landed -> aggregate published", sum);
    row("published -> look-back starts", queue);
    row("look-back", look);
    row("prefix -> last chunk stored", store);
    row("life (ticket -> stored)", life);
    row("one block's ticket to its next", gap);
}

// The reduce floor at 2^20, and reduceFast against CUB interleaved run by run.
void reduce_floor(const Bench& bench) {
    pc::Events& ev = *bench.ev;
    const int runs = bench.runs, warmups = bench.warmups;
    pc::DeviceBuffer<float>& in = *bench.in;
    pc::DeviceBuffer<float>& out = *bench.out;
    {
        const int n = 1 << 20;
        const pc::Rotation rot = pc::rotation(4ull * n, bench.capacity * 4, bench.l2);
        const auto src = [&](int run) {
            return in.data() + rot.offset(run, static_cast<std::size_t>(n));
        };
        std::printf("empty kernel               %9.4f ms\n",
                    ev.median_ms([&](int) { emptyKernel<<<1, 32>>>(); }, warmups, runs));
        std::printf("4 MiB load-only (2112 blk) %9.4f ms\n",
                    ev.median_ms(
                        [&](int run) {
                            loadOnly<<<2112, 256>>>(reinterpret_cast<const float4*>(src(run)),
                                                    n / 4, out.data());
                        },
                        warmups, runs));
        std::printf("4 MiB load-only (264 blk)  %9.4f ms\n",
                    ev.median_ms(
                        [&](int run) {
                            loadOnly<<<264, 256>>>(reinterpret_cast<const float4*>(src(run)), n / 4,
                                                   out.data());
                        },
                        warmups, runs));
        pc::FastReduce ours;
        std::size_t bytes = 0;
        cub::DeviceReduce::Sum(nullptr, bytes, in.data(), out.data(), n);
        pc::DeviceBuffer<unsigned char> temp(bytes);
        std::vector<float> t_ours, t_cub;
        for (int run = 0; run < 2 * (runs + warmups) * 5; ++run) {
            const bool mine = run % 2 == 0;
            const double ms = ev.median_ms(
                [&](int r) {
                    if (mine) {
                        ours.launch(src(r), out.data(), n);
                    } else {
                        std::size_t b = bytes;
                        cub::DeviceReduce::Sum(temp.data(), b, src(r), out.data(), n);
                    }
                },
                0, 1);
            if (run >= 2 * warmups)
                (mine ? t_ours : t_cub).push_back(static_cast<float>(ms));
        }
        std::printf("interleaved 2^20: reduceFast %.4f ms, CUB %.4f ms, %.2fx\n", median(t_ours),
                    median(t_cub), median(t_cub) / median(t_ours));
    }
}

// ---- The product ring's shape (issue 14, fifth session) ------------------------------------

// A ring of one shape with its own descriptors and tickets: validated, then timed in turn.
template <class Shape>
struct ShapedRing {
    SplitScan state;
    int grid = 0;
    explicit ShapedRing(int max_n) : state(max_n) {
        int device = 0;
        pc::check(cudaGetDevice(&device), "cudaGetDevice");
        grid = pc::ring_grid<Shape>(device);
    }
    void launch(const float* in, float* out, int n) {
        ++state.epoch;
        pc::launch_ring<Shape>(in, out, n, grid, state.descriptors, state.tiles, state.tile_base,
                               state.epoch & 0x3FFFFFFFu, nullptr);
    }
    static std::string name() {
        return std::to_string(Shape::kStages) + " x " + std::to_string(Shape::kTile) + ", " +
               std::to_string(Shape::kGroups) + " groups, " + std::to_string(Shape::kWords) +
               " words";
    }
};

template <class... Shapes>
bool validate_shapes(const Bench& bench) {
    bool all_ok = true;
    for (const int n : {1, 4097, 65539, (1 << 20) + 5, (1 << 22) + 3}) {
        const std::vector<float> part(bench.host.begin(), bench.host.begin() + n);
        pc::DeviceBuffer<float> din(part);
        pc::DeviceBuffer<float> dout(static_cast<std::size_t>(n) + 4096);
        const auto check_shape = [&](auto ring) {
            for (int twice = 0; twice < 2; ++twice) { // one state: the ticket base must follow
                ring->launch(din.data(), dout.data(), n);
                const bool ok = close_to_reference(part, dout.to_host());
                std::printf("validate n=%d ring %s, run %d: %s\n", n, ring->name().c_str(),
                            twice + 1, ok ? "ok" : "WRONG");
                all_ok = all_ok && ok;
            }
        };
        (check_shape(std::make_unique<ShapedRing<Shapes>>(n)), ...);
        pc::FastScan product(n, 16, 0); // the product's ring from 0 elements
        for (int twice = 0; twice < 2; ++twice) {
            product.launch(din.data(), dout.data(), n);
            const bool ok = close_to_reference(part, dout.to_host());
            std::printf("validate n=%d product ring, run %d: %s\n", n, twice + 1,
                        ok ? "ok" : "WRONG");
            all_ok = all_ok && ok;
        }
    }
    return all_ok;
}

// Copy, CUB, the product's shape and the others, launch by launch in turn (medians of 41).
template <class... Shapes>
void time_shapes(const Bench& bench) {
    pc::Events& ev = *bench.ev;
    for (const int k : {20, 22, 24, 26, 28}) {
        const int n = 1 << k;
        const pc::Rotation rot =
            pc::rotation(static_cast<std::size_t>(n) * 4, bench.capacity * 4, bench.l2);
        const auto src = [&](int run) {
            return bench.in->data() + rot.offset(run, static_cast<std::size_t>(n));
        };
        const auto dst = [&](int run) {
            return bench.out->data() + rot.offset(run, static_cast<std::size_t>(n));
        };
        std::size_t bytes = 0;
        cub::DeviceScan::ExclusiveSum(nullptr, bytes, src(0), dst(0), n);
        pc::DeviceBuffer<unsigned char> temp(bytes);
        pc::FastScan product(n), product_ring(n, 16, 0);
        std::vector<std::string> names = {"copy (read + write)", "cub::DeviceScan",
                                          "FastScan (pplab bench)", "product ring"};
        std::vector<std::function<void(int)>> fns = {
            [&](int run) {
                cudaMemcpyAsync(dst(run), src(run), 4ull * n, cudaMemcpyDeviceToDevice);
            },
            [&](int run) {
                std::size_t b = bytes;
                cub::DeviceScan::ExclusiveSum(temp.data(), b, src(run), dst(run), n);
            },
            [&](int run) { product.launch(src(run), dst(run), n); },
            [&](int run) { product_ring.launch(src(run), dst(run), n); }};
        const auto add = [&](auto ring) {
            names.push_back("ring " + ring->name());
            fns.push_back([&, r = ring.get()](int run) { r->launch(src(run), dst(run), n); });
            return ring;
        };
        const auto rings = std::make_tuple(add(std::make_shared<ShapedRing<Shapes>>(n))...);
        const std::vector<double> ms = ev.in_turn_ms(fns, 3, 41);
        const double copy_gbs = 8.0 * n / (ms[0] * 1e6);
        for (std::size_t f = 0; f < fns.size(); ++f) {
            const double gbs = 8.0 * n / (ms[f] * 1e6);
            std::printf("%-40s 2^%d %9.4f %6.0f %5.1f%% %5.2fx\n", names[f].c_str(), k, ms[f], gbs,
                        100.0 * gbs / copy_gbs, ms[1] / ms[f]);
        }
        (void)rings;
    }
}

// The product's shape is timed as FastScan from 0 elements: a kernel template instantiated in
// two translation units is registered twice (scan_ring.cuh), and fast.cu holds the product's.
using Shape6 = pc::RingShape<6, 3, 8192>; // the product before the fifth session
using Shape7w16 = pc::RingShape<7, 3, 8192, 16>;
using Shape6x4 = pc::RingShape<6, 4, 8192>;
using Shape9216 = pc::RingShape<6, 3, 9216>;
using Shape16w = pc::RingShape<6, 3, 8192, 16>;

void shapes(const Bench& bench) {
    if (!validate_shapes<Shape6, Shape7w16, Shape6x4, Shape9216, Shape16w>(bench))
        return;
    time_shapes<Shape6, Shape7w16, Shape6x4, Shape9216, Shape16w>(bench);
}

} // namespace

int main(int argc, char** argv) {
    // "early" or "bulk": only those variants beside the product, CUB and the copy.
    const std::string mode = argc > 1 ? argv[1] : "all";
    using pc::check;
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    Bench bench;
    bench.l2 = static_cast<std::size_t>(p.l2CacheSize);
    const std::size_t max_n = std::size_t{1} << 28;
    bench.capacity = max_n + 4 * bench.l2 / 4;
    bench.host =
        pplab::generate(pplab::Generator::RandomFloat, static_cast<int>(bench.capacity), 3, 0);
    pc::DeviceBuffer<float> in(bench.host);
    pc::DeviceBuffer<float> out(bench.capacity + 4096);
    pc::Events ev;
    bench.in = &in;
    bench.out = &out;
    bench.ev = &ev;
    std::printf("%s: what, n, ms, GB/s, %% of copy, x CUB (median of %d)\n", p.name, bench.runs);
    if (mode == "shape") {
        shapes(bench);
        check(cudaGetLastError(), "the runs");
        return 0;
    }
    if (mode != "stamp-bulk" && !validate_variants(bench, mode))
        return 1;
    if (mode == "stamp-bulk") {
        stamp_bulk<6, 1, 1>(bench);
        stamp_bulk<6, 1, 2>(bench);
        return 0;
    }
    time_sizes(bench, mode);
    if (mode != "all")
        return 0;
    stamp_tiles(bench);
    reduce_floor(bench);
    check(cudaGetLastError(), "the runs");
    return 0;
}
