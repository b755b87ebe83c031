// The two recorders every kernel is templated on.
//
// NullRecorder: every method empty (or the plain operation, for atomic_add and
// in_block_order) and inlined, so the timed kernel is the traced kernel with the recording
// compiled away. TraceRecorder: writes snapshots into the device trace buffer at the offsets
// the host computed (record.hpp), adding the barriers a snapshot needs so that it sees every
// write of the step and no thread runs ahead into the next step while it is copied.
//
// Every method except value() and atomic_add() must be called by all threads of the block
// (block-wide snapshots contain __syncthreads()); lanes() by all 32 lanes of a warp.
#pragma once

#include "pplab/record.hpp"

#include <cooperative_groups.h>
#include <cstdint>

namespace pplab::cuda {

using record::Step;

struct NullRecorder {
    static constexpr bool kGridSync = false; // needs a cooperative launch

    template <class T>
    __device__ void shared(Step, int, const T*) const {}
    __device__ void registers(Step, int, float) const {}
    __device__ void lanes(Step, int, int, float) const {}
    __device__ void value(Step, int, float) const {}
    __device__ void grid_array(Step, int, const int*) const {}
    __device__ void block_global(Step, int, const int*) const {}

    __device__ void atomic_add(float* out, float v) const { atomicAdd(out, v); }
    template <class Fn>
    __device__ void in_block_order(Fn fn) const {
        fn();
    }
};

struct TraceRecorder {
    static constexpr bool kGridSync = true;

    std::uint32_t* words = nullptr;
    record::LaunchLayout layout{};
    // reduce-atomic: (arrivals << 32) | float bits of the running sum, updated in one CAS so
    // the arrival order and the order of the float additions are the same order.
    unsigned long long* arrivals = nullptr;

    __device__ const record::Segment& seg(Step s) const {
        int i = 0;
        while (i + 1 < layout.segments && layout.seg[i].step != static_cast<std::uint8_t>(s))
            ++i;
        return layout.seg[i];
    }

    __device__ std::uint32_t* record_at(const record::Segment& g, int level, int block,
                                        int warp) const {
        return words +
               record::record_offset(g, level, g.blocks > 0 ? block : 0, g.warps > 0 ? warp : 0);
    }

    __device__ void header(const record::Segment& g, int level, int block, int warp) const {
        const record::Header h = record::make_header(g, layout.pass, level, block, warp);
        const std::uint32_t* src = reinterpret_cast<const std::uint32_t*>(&h);
        std::uint32_t* dst = record_at(g, level, block, warp);
        for (std::uint32_t k = 0; k < record::kHeaderWords; ++k)
            dst[k] = src[k];
    }

    __device__ void put(const record::Segment& g, int level, int block, int warp, int cell,
                        float v) const {
        record_at(g, level, block, warp)[record::kHeaderWords + cell] = __float_as_uint(v);
    }

    // A block's array in shared memory (count values per record; with per-warp records, the
    // warps' copies follow each other). Barriers on both sides: the snapshot sees the whole
    // step, and the next step's writes wait until it is copied.
    template <class T>
    __device__ void shared(Step s, int level, const T* a) const {
        const record::Segment& g = seg(s);
        const int copies = g.warps > 0 ? g.warps : 1;
        const int count = static_cast<int>(g.count);
        __syncthreads();
        for (int k = threadIdx.x; k < copies * count; k += blockDim.x)
            put(g, level, blockIdx.x, g.warps > 0 ? k / count : -1, k % count,
                static_cast<float>(a[k]));
        for (int w = threadIdx.x; w < copies; w += blockDim.x)
            header(g, level, blockIdx.x, g.warps > 0 ? w : -1);
        __syncthreads();
    }

    // One value per thread of the block, in the thread's own slot: no barrier needed.
    __device__ void registers(Step s, int level, float v) const {
        const record::Segment& g = seg(s);
        put(g, level, blockIdx.x, -1, threadIdx.x, v);
        if (threadIdx.x == 0)
            header(g, level, blockIdx.x, -1);
    }

    // One value per lane of a warp (warp -1: the record is the block's one warp record).
    __device__ void lanes(Step s, int level, int warp, float v) const {
        const record::Segment& g = seg(s);
        const int lane = threadIdx.x % 32;
        put(g, level, blockIdx.x, warp, lane, v);
        if (lane == 0)
            header(g, level, blockIdx.x, warp);
    }

    // A single value, written by the one thread that calls it.
    __device__ void value(Step s, int level, float v) const {
        const record::Segment& g = seg(s);
        header(g, level, blockIdx.x, -1);
        put(g, level, blockIdx.x, -1, 0, v);
    }

    // Global bins after a grid-wide step (hist-global's rounds): every block's atomics of the
    // round must have landed, so the whole grid meets at a barrier, block 0 copies the bins,
    // and the grid meets again before anyone starts the next round.
    __device__ void grid_array(Step s, int level, const int* g_hist) const {
        namespace cg = cooperative_groups;
        cg::grid_group grid = cg::this_grid();
        grid.sync();
        if (blockIdx.x == 0) {
            const record::Segment& g = seg(s);
            for (int k = threadIdx.x; k < static_cast<int>(g.count); k += blockDim.x)
                put(g, level, -1, -1, k, static_cast<float>(__ldcg(g_hist + k)));
            if (threadIdx.x == 0)
                header(g, level, -1, -1);
        }
        grid.sync();
    }

    // Global bins as this block sees them after its own atomics (inside in_block_order).
    // __ldcg reads past L1, which may hold lines another block on this SM read earlier.
    __device__ void block_global(Step s, int level, const int* g_hist) const {
        const record::Segment& g = seg(s);
        __syncthreads();
        for (int k = threadIdx.x; k < static_cast<int>(g.count); k += blockDim.x)
            put(g, level, blockIdx.x, -1, k, static_cast<float>(__ldcg(g_hist + k)));
        if (threadIdx.x == 0)
            header(g, level, blockIdx.x, -1);
        __syncthreads();
    }

    // reduce-atomic's atomicAdd, made observable: one 64-bit compare-and-swap carries both
    // the arrival count and the sum, so the recorded order is the order of the additions.
    __device__ void atomic_add(float* out, float v) const {
        unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(arrivals);
        unsigned long long seen;
        float sum;
        do {
            seen = old;
            sum = __uint_as_float(static_cast<std::uint32_t>(seen)) + v;
            const unsigned long long next =
                ((seen >> 32) + 1) << 32 | static_cast<unsigned long long>(__float_as_uint(sum));
            old = atomicCAS(arrivals, seen, next);
        } while (old != seen);
        const int arrival = static_cast<int>(seen >> 32) + 1;
        const record::Segment& g = seg(Step::AtomicAdd);
        header(g, arrival, blockIdx.x, -1);
        put(g, arrival, 0, -1, 0, v);
        put(g, arrival, 0, -1, 1, sum);
        if (arrival == static_cast<int>(gridDim.x))
            *out = sum; // the last block to arrive leaves the final sum in out
    }

    // Runs fn in block 0, then block 1, ...: the grid meets at a barrier between turns, so
    // "global bins after block b's fold" is a state the GPU really passes through.
    template <class Fn>
    __device__ void in_block_order(Fn fn) const {
        namespace cg = cooperative_groups;
        cg::grid_group grid = cg::this_grid();
        for (unsigned b = 0; b < gridDim.x; ++b) {
            grid.sync();
            if (blockIdx.x == b)
                fn();
        }
        grid.sync();
    }
};

} // namespace pplab::cuda
