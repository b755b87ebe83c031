// The production kernels: the chapter's ideas taken to the limit of the memory system.
//
//   reduceFast     §8.6 plus: 16-byte loads, four independent sums per thread (bytes in
//                  flight), a grid sized to the SMs, and ONE launch: the last block to finish
//                  adds the block totals in a fixed order, so the sum stays bit-reproducible
//   scanFast       §8.7 in a single pass: decoupled look-back (Merrill & Garland). Each tile
//                  publishes its total at once and its inclusive prefix when known; a tile
//                  looks back over up to 32 predecessors per step, so the input is read once
//                  and the output written once: scan at copy speed
//   histogramFast  §8.8 plus: 16-byte loads, and 32 copies of every bin interleaved so that
//                  lane l always uses copy l: a warp's 32 atomics land in 32 different banks
//                  and never on one address, whatever the data (uniform or one value);
//                  blocks of 1024 threads, so 64 warps a SM share two sets of copies
//
// These are timed, not traced: the look-back reads whichever predecessors happen to have
// published, so no two runs of scanFast take the same steps.
#include "cuda/fast.hpp"
#include "cuda/hist_count.cuh"
#include "cuda/launch.hpp"
#include "cuda/lookback.cuh"
#include "cuda/scan_ring.cuh"
#include "pplab/request.hpp"

#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace pplab::cuda {

namespace {

constexpr int kWarps = kFastBlock / 32;
constexpr int kMaxGrid = 65535;

// Block total in thread 0 (fixed order: deterministic).
__device__ __forceinline__ float block_sum(float v, float* s_warp) {
    v = warp_sum(v);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0)
        s_warp[warp] = v;
    __syncthreads();
    v = threadIdx.x < kWarps ? s_warp[threadIdx.x] : 0.0f;
    if (warp == 0)
        v = warp_sum(v);
    return v;
}

// ---- reduceFast ----------------------------------------------------------------------------

__global__ void __launch_bounds__(kFastBlock)
    reduceFast(const float* __restrict__ in, float* __restrict__ partials,
               unsigned* __restrict__ finished, float* __restrict__ out, int n) {
    __shared__ float s_warp[kWarps];
    __shared__ bool s_last;
    const int n4 = n / 4;
    const float4* in4 = reinterpret_cast<const float4*>(in);
    const int stride = gridDim.x * kFastBlock;
    // Four independent sums: four 16-byte loads in flight per thread per round.
    float a = 0.0f, b = 0.0f, c = 0.0f, d = 0.0f;
    int i = blockIdx.x * kFastBlock + threadIdx.x;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        const float4 x = __ldcs(in4 + i), y = __ldcs(in4 + i + stride),
                     z = __ldcs(in4 + i + 2 * stride), w = __ldcs(in4 + i + 3 * stride);
        a += (x.x + x.y) + (x.z + x.w);
        b += (y.x + y.y) + (y.z + y.w);
        c += (z.x + z.y) + (z.z + z.w);
        d += (w.x + w.y) + (w.z + w.w);
    }
    for (; i < n4; i += stride) {
        const float4 x = __ldcs(in4 + i);
        a += (x.x + x.y) + (x.z + x.w);
    }
    // The n % 4 elements past the last whole float4.
    if (blockIdx.x == 0 && threadIdx.x < n - 4 * n4)
        b += in[4 * n4 + threadIdx.x];
    const float total = block_sum((a + b) + (c + d), s_warp);

    if (threadIdx.x == 0) {
        partials[blockIdx.x] = total;
        // One release-acquire ticket at device scope: the total is visible before the ticket
        // says so, and the last block sees every total. A full __threadfence() before a relaxed
        // atomic did the same 0.25 us slower at 2^20 (bench/NOTES.md, issue 14).
        ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device> ticket(*finished);
        s_last = ticket.fetch_add(1u, ::cuda::memory_order_acq_rel) == gridDim.x - 1;
    }
    __syncthreads(); // orders the other threads' reads of the totals after the acquire
    if (!s_last)
        return;
    // The last block adds the block totals in a fixed order (strided per thread, then the
    // shuffle tree): the same sum every run.
    float v = 0.0f;
    for (int k = threadIdx.x; k < static_cast<int>(gridDim.x); k += kFastBlock)
        v += __ldcg(partials + k);
    __syncthreads(); // s_warp is reused
    v = block_sum(v, s_warp);
    if (threadIdx.x == 0) {
        *out = v;
        *finished = 0; // ready for the next launch, without a memset
    }
}

// ---- scanFast ------------------------------------------------------------------------------

// A tile is Rounds x 128 elements per warp; production uses four rounds (4096 per tile).
template <int Rounds>
inline constexpr int kTileSize = kFastBlock * 4 * Rounds;
static_assert(kTileSize<16> == kScanFastTile, "normalize() sizes scan-fast's grid by this tile");

// One tile of Rounds x 128 elements per warp. Round k of a warp covers 128 consecutive
// elements, four per lane, so every load and store instruction moves 512 contiguous bytes.
template <int Rounds>
struct Tile {
    static constexpr int kSize = kTileSize<Rounds>;
    float4 v[Rounds];
    long long base = 0; // this lane's first element
    bool whole = false;

    __device__ void load(const float* __restrict__ in, int n, int tile) {
        const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
        base = static_cast<long long>(tile) * kSize + warp * 128 * Rounds + 4 * lane;
        whole = static_cast<long long>(tile + 1) * kSize <= n;
#pragma unroll
        for (int k = 0; k < Rounds; ++k) {
            const long long i = base + 128 * k;
            if (whole) {
                v[k] = __ldcs(reinterpret_cast<const float4*>(in + i));
            } else {
                v[k].x = i < n ? in[i] : 0.0f;
                v[k].y = i + 1 < n ? in[i + 1] : 0.0f;
                v[k].z = i + 2 < n ? in[i + 2] : 0.0f;
                v[k].w = i + 3 < n ? in[i + 3] : 0.0f;
            }
        }
    }

    // Exclusive scan of the tile after the tile's prefix is known: prefix of each element.
    __device__ void store(float* __restrict__ out, int n, float prefix,
                          const float (&lane_prefix)[Rounds]) const {
#pragma unroll
        for (int k = 0; k < Rounds; ++k) {
            const long long i = base + 128 * k;
            store_scanned4(out, i, n, prefix + lane_prefix[k], v[k], whole);
        }
    }
};

// Scans the loaded tile within the block: lane prefixes within the warp, and the warp's
// prefix and the tile's total through shared memory (one barrier).
template <int Rounds>
__device__ void scan_within(const Tile<Rounds>& t, float (&lane_prefix)[Rounds], float& warp_prefix,
                            float& aggregate, float* s_warp) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    float warp_total = 0.0f;
#pragma unroll
    for (int k = 0; k < Rounds; ++k) {
        const float own = ((t.v[k].x + t.v[k].y) + t.v[k].z) + t.v[k].w;
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
    warp_prefix = 0.0f;
    aggregate = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
        const float x = s_warp[w];
        warp_prefix += w < warp ? x : 0.0f;
        aggregate += x;
    }
}

// One tile per block. Tiles are numbered in the order blocks start, so every tile a block
// waits for has started already: the look-back cannot wait on a block that is not running.
template <int Rounds>
__global__ void __launch_bounds__(kFastBlock)
    scanFast(const float* __restrict__ in, float* __restrict__ out, int n,
             unsigned long long* __restrict__ descriptors, unsigned long long* __restrict__ tiles,
             unsigned long long tile_base, unsigned epoch) {
    __shared__ float s_warp[kWarps];
    __shared__ float s_exclusive;
    __shared__ int s_tile;
    if (threadIdx.x == 0)
        s_tile = static_cast<int>(atomicAdd(tiles, 1ull) - tile_base);
    __syncthreads();
    const int tile = s_tile;
    Tile<Rounds> t;
    t.load(in, n, tile);
    float lane_prefix[Rounds];
    float warp_prefix, aggregate;
    scan_within(t, lane_prefix, warp_prefix, aggregate, s_warp);
    const float prefix =
        tile_prefix(tile, aggregate, descriptors, epoch, &s_exclusive, NullLookback{});
    t.store(out, n, prefix + warp_prefix, lane_prefix);
}

// ---- histogramFast -------------------------------------------------------------------------

// OneLaunch: the blocks add their bins into `pending` (kept zero between launches) instead of
// g_hist, and the last block to take a ticket moves `pending` into g_hist and zeroes it, so no
// memset launch is needed before the count (as reduceFast's ticket). Without it, g_hist is
// zeroed by a memset first and the blocks add straight into it.
template <bool OneLaunch>
__global__ void __launch_bounds__(kFastHistBlock)
    histogramFast(const unsigned char* __restrict__ data, unsigned* __restrict__ g_hist,
                  unsigned* __restrict__ pending, unsigned* __restrict__ finished, long long n,
                  int bins) {
    extern __shared__ unsigned s_copies[]; // bins * 32
    __shared__ bool s_last;
    for (int k = threadIdx.x; k < bins * kCopies; k += kFastHistBlock)
        s_copies[k] = 0;
    __syncthreads();
    const int lane = threadIdx.x % 32;
    const long long n16 = n / 16;
    const uint4* d16 = reinterpret_cast<const uint4*>(data);
    const long long stride = static_cast<long long>(gridDim.x) * kFastHistBlock;
    long long i = static_cast<long long>(blockIdx.x) * kFastHistBlock + threadIdx.x;
    for (; i + stride < n16; i += 2 * stride) { // two 16-byte loads in flight
        const uint4 u = __ldcs(d16 + i), v = __ldcs(d16 + i + stride);
        count16(s_copies, u, lane);
        count16(s_copies, v, lane);
    }
    for (; i < n16; i += stride)
        count16(s_copies, __ldcs(d16 + i), lane);
    for (long long k = 16 * n16 + static_cast<long long>(blockIdx.x) * kFastHistBlock + threadIdx.x;
         k < n; k += stride)
        atomicAdd(s_copies + data[k] * kCopies + lane, 1u);
    __syncthreads();
    // Fold: thread per bin sums its 32 copies, starting at its own lane's copy so the warp's
    // reads fall in 32 different banks.
    unsigned* into = OneLaunch ? pending : g_hist;
    for (int bin = threadIdx.x; bin < bins; bin += kFastHistBlock) {
        unsigned sum = 0;
#pragma unroll 8
        for (int c = 0; c < kCopies; ++c)
            sum += s_copies[bin * kCopies + (c + lane) % kCopies];
        if (sum != 0)
            atomicAdd(into + bin, sum);
    }
    if constexpr (OneLaunch) {
        // Every thread's adds are visible at device scope before thread 0's ticket says the
        // block is done; the last block then sees every block's adds.
        __threadfence();
        __syncthreads();
        if (threadIdx.x == 0) {
            ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device> ticket(*finished);
            s_last = ticket.fetch_add(1u, ::cuda::memory_order_acq_rel) == gridDim.x - 1;
        }
        __syncthreads();
        if (!s_last)
            return;
        // The last block: each bin's count out, and `pending` zero again for the next launch.
        for (int bin = threadIdx.x; bin < bins; bin += kFastHistBlock)
            g_hist[bin] = atomicExch(pending + bin, 0u);
        if (threadIdx.x == 0)
            *finished = 0;
    }
}

int resident_grid(const void* kernel, std::size_t smem, int block = kFastBlock) {
    return max_resident_blocks(kernel, block, smem);
}

} // namespace

// ---- Launchers -----------------------------------------------------------------------------

FastReduce::FastReduce(int min_loads) : min_loads_(min_loads) {
    grid_ = resident_grid(reinterpret_cast<const void*>(&reduceFast), 0);
    check(cudaMalloc(&partials_, sizeof(float) * kMaxGrid), "cudaMalloc");
    check(cudaMalloc(&finished_, sizeof(unsigned)), "cudaMalloc");
    check(cudaMemset(finished_, 0, sizeof(unsigned)), "cudaMemset");
}

FastReduce::~FastReduce() {
    cudaFree(partials_);
    cudaFree(finished_);
}

void FastReduce::launch(const float* in, float* out, int n, int grid, cudaStream_t stream) const {
    if (grid == 0) {
        // Small inputs want fewer, fuller blocks: at least eight 16-byte loads per thread,
        // and fewer block totals for the last block to add.
        // The same rule as normalize() for reduce-fast, capped at the blocks that reside.
        const long long per_block = 4LL * kFastBlock * min_loads_;
        const int wanted = static_cast<int>((n + per_block - 1) / per_block);
        grid = wanted < 1 ? 1 : (wanted < grid_ ? wanted : grid_);
    }
    if (grid > kMaxGrid)
        throw std::logic_error("reduceFast grid too large");
    reduceFast<<<grid, kFastBlock, 0, stream>>>(in, partials_, finished_, out, n);
}

FastScan::FastScan(int max_n, int rounds, int ring_from) : rounds_(rounds), ring_from_(ring_from) {
    if (rounds != 4 && rounds != 8 && rounds != 16)
        throw std::logic_error("scanFast is built for 4, 8 or 16 rounds");
    int device = 0, major = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
          "the compute capability");
    if (major < 9) {
        ring_from_ = std::numeric_limits<int>::max(); // no bulk copies before Hopper
    } else if (ring_from_ <= max_n) {
        ring_grid_ = ring_grid<RingProduct>(device);
        if (ring_grid_ == 0)
            ring_from_ = std::numeric_limits<int>::max();
    }
    const int smallest_tile = kTileSize<4>;
    const std::size_t tiles =
        static_cast<std::size_t>((max_n + smallest_tile - 1) / smallest_tile) + 1;
    check(cudaMalloc(&descriptors_, sizeof(unsigned long long) * tiles), "cudaMalloc");
    check(cudaMemset(descriptors_, 0, sizeof(unsigned long long) * tiles), "cudaMemset");
    check(cudaMalloc(&tiles_, sizeof(unsigned long long)), "cudaMalloc");
    check(cudaMemset(tiles_, 0, sizeof(unsigned long long)), "cudaMemset");
    max_n_ = max_n;
}

FastScan::~FastScan() {
    cudaFree(descriptors_);
    cudaFree(tiles_);
}

void FastScan::launch(const float* in, float* out, int n, cudaStream_t stream) {
    if (n > max_n_)
        throw std::logic_error("FastScan sized for fewer elements");
    ++epoch_; // 30 bits: a billion launches before it wraps
    const unsigned e = epoch_ & 0x3FFFFFFFu;
    if (n >= ring_from_ && n > 0) {
        launch_ring<RingProduct>(in, out, n, ring_grid_, descriptors_, tiles_, tile_base_, e,
                                 stream);
        return;
    }
    const int tile = kFastBlock * 4 * rounds_;
    const int tiles = (n + tile - 1) / tile;
    const auto go = [&](auto kernel) {
        kernel<<<tiles, kFastBlock, 0, stream>>>(in, out, n, descriptors_, tiles_, tile_base_, e);
    };
    if (rounds_ == 4)
        go(scanFast<4>);
    else if (rounds_ == 8)
        go(scanFast<8>);
    else
        go(scanFast<16>);
    tile_base_ += static_cast<unsigned long long>(tiles);
}

FastHistogram::FastHistogram(int bins, bool one_launch) : bins_(bins), one_launch_(one_launch) {
    smem_ = sizeof(unsigned) * static_cast<std::size_t>(bins) * kCopies;
    const void* kernel = one_launch ? reinterpret_cast<const void*>(&histogramFast<true>)
                                    : reinterpret_cast<const void*>(&histogramFast<false>);
    if (smem_ > 48 * 1024)
        check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(smem_)),
              "cudaFuncSetAttribute");
    grid_ = resident_grid(kernel, smem_, kFastHistBlock);
    check(cudaMalloc(&pending_, sizeof(unsigned) * static_cast<std::size_t>(bins)), "cudaMalloc");
    check(cudaMemset(pending_, 0, sizeof(unsigned) * static_cast<std::size_t>(bins)), "cudaMemset");
    check(cudaMalloc(&finished_, sizeof(unsigned)), "cudaMalloc");
    check(cudaMemset(finished_, 0, sizeof(unsigned)), "cudaMemset");
}

FastHistogram::~FastHistogram() {
    cudaFree(pending_);
    cudaFree(finished_);
}

void FastHistogram::launch(const unsigned char* data, unsigned* g_hist, long long n, int grid,
                           cudaStream_t stream) const {
    if (grid == 0) {
        const long long wanted = (n / 16 + kFastHistBlock - 1) / kFastHistBlock;
        grid = wanted < 1 ? 1 : static_cast<int>(wanted < grid_ ? wanted : grid_);
    }
    if (one_launch_) {
        histogramFast<true>
            <<<grid, kFastHistBlock, smem_, stream>>>(data, g_hist, pending_, finished_, n, bins_);
        return;
    }
    check(cudaMemsetAsync(g_hist, 0, sizeof(unsigned) * static_cast<std::size_t>(bins_), stream),
          "cudaMemsetAsync");
    histogramFast<false>
        <<<grid, kFastHistBlock, smem_, stream>>>(data, g_hist, nullptr, nullptr, n, bins_);
}

std::vector<float> fast(const Request& r) {
    DeviceBuffer<float> in(r.input);
    switch (r.algorithm) {
    case Algorithm::ReduceFast: {
        DeviceBuffer<float> out(1);
        FastReduce().launch(in.data(), out.data(), r.n(), r.grid);
        check_launch("reduceFast");
        return out.to_host();
    }
    case Algorithm::ScanFast: {
        DeviceBuffer<float> out(static_cast<std::size_t>(r.n()));
        FastScan(r.n()).launch(in.data(), out.data(), r.n());
        check_launch("scanFast");
        return out.to_host();
    }
    case Algorithm::HistFast: {
        std::vector<unsigned char> bytes(r.input.begin(), r.input.end());
        DeviceBuffer<unsigned char> data(bytes);
        DeviceBuffer<unsigned> counts(static_cast<std::size_t>(r.bins));
        FastHistogram(r.bins).launch(data.data(), counts.data(), r.n(), r.grid);
        check_launch("histogramFast");
        const std::vector<unsigned> c = counts.to_host();
        return {c.begin(), c.end()};
    }
    default:
        throw std::logic_error("not a production kernel");
    }
}

} // namespace pplab::cuda
