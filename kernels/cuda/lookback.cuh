// Decoupled look-back (Merrill & Garland), shared by the timed scanFast (fast.cu) and its
// traced twin at classroom sizes (lookback.cu): one source for the part the class watches.
//
// The look-back is templated on a hook. NullLookback is empty and inlined, so the timed kernel
// is the look-back with the recording compiled away; TraceLookback (lookback.cu) takes a
// ticket from one global counter for every event and writes the tile's records.
#pragma once

namespace pplab::cuda {

__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// Tile descriptor: (epoch << 2 | status) in the high word, the float in the low word, one
// 64-bit store so status and value are seen together. The epoch makes a launch ignore the
// descriptors of earlier launches, so nothing needs clearing between runs.
enum : unsigned { kInvalid = 0, kAggregate = 1, kInclusive = 2 };

__device__ __forceinline__ unsigned long long pack(unsigned epoch, unsigned status, float v) {
    return (static_cast<unsigned long long>(epoch << 2 | status) << 32) | __float_as_uint(v);
}

__device__ __forceinline__ unsigned long long load_volatile(const unsigned long long* p) {
    return *reinterpret_cast<const volatile unsigned long long*>(p);
}

// Volatile: the store goes to L2 now, where the successors' volatile loads look.
__device__ __forceinline__ void publish(unsigned long long* p, unsigned long long d) {
    *reinterpret_cast<volatile unsigned long long*>(p) = d;
}

__device__ __forceinline__ bool unpublished(unsigned long long d, unsigned epoch) {
    return static_cast<unsigned>(d >> 34) != epoch || ((d >> 32) & 3u) == kInvalid;
}

// Inclusive scan of one value per lane.
__device__ __forceinline__ float warp_inclusive(float v, int lane) {
#pragma unroll
    for (int offset = 1; offset < 32; offset <<= 1) {
        const float up = __shfl_up_sync(0xffffffffu, v, offset);
        if (lane >= offset)
            v += up;
    }
    return v;
}

// Four consecutive elements of an exclusive scan, x's after the prefix p: one 16-byte store
// when all four are in the output (i + 3 < n), else each one that is.
__device__ __forceinline__ void store_scanned4(float* out, long long i, long long n, float p,
                                               float4 x, bool whole) {
    const float4 o = make_float4(p, p + x.x, (p + x.x) + x.y, ((p + x.x) + x.y) + x.z);
    if (whole) {
        __stcs(reinterpret_cast<float4*>(out + i), o);
        return;
    }
    if (i < n)
        out[i] = o.x;
    if (i + 1 < n)
        out[i + 1] = o.y;
    if (i + 2 < n)
        out[i + 2] = o.z;
    if (i + 3 < n)
        out[i + 3] = o.w;
}

// The timed kernel's hook: records nothing.
struct NullLookback {
    __device__ void publishing(int, unsigned, float, float, float) const {}
    __device__ int first_look(int) const { return 0; }
    __device__ void found(int, int, int, unsigned, float) const {}
};

// Warp 0's look-back: the sum of every tile before `tile`, taken from the nearest
// predecessor that has published its inclusive prefix and the aggregates in between.
// (Sleeping between polls was measured slower: bench/NOTES.md.)
template <class Hook>
inline __device__ float look_back(const unsigned long long* descriptors, int tile, unsigned epoch,
                                  int lane, const Hook& hook) {
    float exclusive = 0.0f;
    for (int pred = tile - 1 - lane;; pred -= 32) {
        unsigned status = kInclusive; // before tile 0 there is nothing: an inclusive 0
        float v = 0.0f;
        if (pred >= 0) {
            unsigned long long d = load_volatile(descriptors + pred);
            const int first = hook.first_look(pred);
            int waits = 0;
            while (unpublished(d, epoch)) {
                ++waits;
                d = load_volatile(descriptors + pred);
            }
            status = static_cast<unsigned>(d >> 32) & 3u;
            v = __uint_as_float(static_cast<unsigned>(d));
            hook.found(pred, first, waits, status, v);
        }
        const unsigned inclusive = __ballot_sync(0xffffffffu, status == kInclusive);
        const int stop = inclusive ? __ffs(inclusive) - 1 : 31;
        exclusive += __shfl_sync(0xffffffffu, warp_sum(lane <= stop ? v : 0.0f), 0);
        if (inclusive)
            return exclusive;
    }
}

// The sum of every tile before this one: warp 0 publishes the tile's total, looks back,
// publishes the inclusive prefix; one barrier hands the result to the block.
template <class Hook>
inline __device__ float tile_prefix(int tile, float aggregate, unsigned long long* descriptors,
                                    unsigned epoch, float* s_exclusive, const Hook& hook) {
    const int lane = threadIdx.x % 32;
    if (threadIdx.x < 32) {
        float exclusive = 0.0f;
        if (tile == 0) {
            if (lane == 0) {
                hook.publishing(tile, kInclusive, aggregate, 0.0f, aggregate);
                publish(descriptors, pack(epoch, kInclusive, aggregate));
            }
        } else {
            if (lane == 0) { // at once: successors can use it before this tile knows its prefix
                hook.publishing(tile, kAggregate, aggregate, 0.0f, aggregate);
                publish(descriptors + tile, pack(epoch, kAggregate, aggregate));
            }
            exclusive = look_back(descriptors, tile, epoch, lane, hook);
            if (lane == 0) {
                const float inclusive = exclusive + aggregate;
                hook.publishing(tile, kInclusive, aggregate, exclusive, inclusive);
                publish(descriptors + tile, pack(epoch, kInclusive, inclusive));
            }
        }
        if (lane == 0)
            *s_exclusive = exclusive;
    }
    __syncthreads();
    return *s_exclusive;
}

} // namespace pplab::cuda
