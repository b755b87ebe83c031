// Issue 14's tuning runs (bench/NOTES.md): scan variants that hold more of a tile per SM, the
// reduce floor at 2^20 (an empty kernel, a 4 MiB load-only kernel, reduceFast and CUB
// interleaved run by run), and histogramFast variants against the read roof. Every variant is
// checked against the CPU before it is timed. Not part of `pplab bench`; built as
// pplab_explore_scan.
#include "cuda/fast.hpp"
#include "cuda/launch.hpp"
#include "cuda/timer.hpp"
#include "pplab/request.hpp"

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_pipeline.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
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

// A tile split between shared memory (SmemRounds, brought in with cp.async) and registers
// (RegRounds): more of the tile per SM than registers alone hold, so more bytes in flight and
// fewer look-backs per byte. Round k of a warp is 128 consecutive elements, four per lane; the
// shared rounds come first in element order.
template <int RegRounds, int SmemRounds, int MinBlocks>
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
    float running = s_exclusive + warp_prefix;
    const auto emit = [&](const float4 x, long long i) {
        const float own = ((x.x + x.y) + x.z) + x.w;
        const float incl = warp_inclusive(own, lane);
        const float p = running + (incl - own);
        const float4 o = make_float4(p, p + x.x, (p + x.x) + x.y, ((p + x.x) + x.y) + x.z);
        if (whole) {
            __stcs(reinterpret_cast<float4*>(out + i), o);
        } else {
            if (i < n)
                out[i] = o.x;
            if (i + 1 < n)
                out[i + 1] = o.y;
            if (i + 2 < n)
                out[i + 2] = o.z;
            if (i + 3 < n)
                out[i + 3] = o.w;
        }
        running += __shfl_sync(0xffffffffu, incl, 31);
    };
#pragma unroll
    for (int k = 0; k < SmemRounds; ++k)
        emit(mine[32 * k], base + 128 * k);
#pragma unroll
    for (int k = 0; k < RegRounds; ++k)
        emit(v[k], base + 128 * (SmemRounds + k));
}

struct SplitScan {
    unsigned long long* descriptors = nullptr;
    unsigned long long* tiles = nullptr;
    unsigned long long tile_base = 0;
    unsigned epoch = 0;
    explicit SplitScan(int max_n) {
        const std::size_t count = static_cast<std::size_t>(max_n / 4096 + 2);
        pc::check(cudaMalloc(&descriptors, 8 * count), "cudaMalloc");
        pc::check(cudaMemset(descriptors, 0, 8 * count), "cudaMemset");
        pc::check(cudaMalloc(&tiles, 8), "cudaMalloc");
        pc::check(cudaMemset(tiles, 0, 8), "cudaMemset");
    }
    ~SplitScan() {
        cudaFree(descriptors);
        cudaFree(tiles);
    }
    template <int RegRounds, int SmemRounds, int MinBlocks>
    void launch(const float* in, float* out, int n) {
        constexpr int kTile = 1024 * (RegRounds + SmemRounds);
        const std::size_t smem = sizeof(float4) * kWarps * SmemRounds * 32;
        static bool configured = false;
        if (!configured) {
            pc::check(cudaFuncSetAttribute(scanSplit<RegRounds, SmemRounds, MinBlocks>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(smem)),
                      "cudaFuncSetAttribute");
            configured = true;
        }
        const int count = (n + kTile - 1) / kTile;
        ++epoch;
        scanSplit<RegRounds, SmemRounds, MinBlocks><<<count, kBlock, smem>>>(
            in, out, n, descriptors, tiles, tile_base, epoch & 0x3FFFFFFFu);
        tile_base += static_cast<unsigned long long>(count);
    }
};

__global__ void emptyKernel() {}

// Reads n floats (16 bytes per load), writes one only if the sum is a value it cannot be: the
// floor of any reduction's memory traffic at this size, through the same timer.
__global__ void loadOnly(const float4* __restrict__ in, int n4, float* __restrict__ out) {
    float s = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        const float4 x = __ldcs(in + i);
        s += (x.x + x.y) + (x.z + x.w);
    }
    if (s == -1.0f)
        *out = s;
}

double median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Exclusive prefix of `in` in double, rounded once: the reference the float scans approach.
bool close_to_reference(const std::vector<float>& in, const std::vector<float>& got) {
    double sum = 0.0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (std::fabs(got[i] - sum) > 1e-3 * std::max(1.0, std::fabs(sum)))
            return false;
        sum += in[i];
    }
    return true;
}

} // namespace

int main() {
    using pc::check;
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    const std::size_t l2 = static_cast<std::size_t>(p.l2CacheSize);
    const std::size_t max_n = std::size_t{1} << 28;
    const std::size_t capacity = max_n + 4 * l2 / 4;
    const std::vector<float> host =
        pplab::generate(pplab::Generator::RandomFloat, static_cast<int>(capacity), 3, 0);
    pc::DeviceBuffer<float> in(host);
    pc::DeviceBuffer<float> out(capacity + 4096);
    pc::Events ev;
    const int runs = 20, warmups = 3;
    std::printf("%s: what, n, ms, GB/s, %% of copy, x CUB (median of %d)\n", p.name, runs);

    // Validation first: every scan variant against the reference at sizes with partial tiles.
    for (const int n : {1, 4097, 65539, (1 << 20) + 5}) {
        const std::vector<float> part(host.begin(), host.begin() + n);
        pc::DeviceBuffer<float> din(part);
        pc::DeviceBuffer<float> dout(static_cast<std::size_t>(n) + 4096);
        SplitScan a(n), b(n), c(n), d(n);
        a.launch<16, 16, 3>(din.data(), dout.data(), n);
        const bool ok_a = close_to_reference(part, dout.to_host());
        b.launch<12, 12, 4>(din.data(), dout.data(), n);
        const bool ok_b = close_to_reference(part, dout.to_host());
        c.launch<8, 12, 4>(din.data(), dout.data(), n);
        const bool ok_c = close_to_reference(part, dout.to_host());
        d.launch<16, 8, 3>(din.data(), dout.data(), n);
        const bool ok_d = close_to_reference(part, dout.to_host());
        std::printf("validate n=%d: 16+16 %s, 12+12 %s, 8+12 %s, 16+8 %s\n", n,
                    ok_a ? "ok" : "WRONG", ok_b ? "ok" : "WRONG", ok_c ? "ok" : "WRONG",
                    ok_d ? "ok" : "WRONG");
        if (!ok_a || !ok_b || !ok_c || !ok_d)
            return 1;
    }

    for (const int k : {20, 22, 24, 26, 28}) {
        const int n = 1 << k;
        const pc::Rotation rot = pc::rotation(static_cast<std::size_t>(n) * 4, capacity * 4, l2);
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
        SplitScan a(n), b(n), c(n), d(n);
        const auto time = [&](auto&& launch) {
            return ev.median_ms([&](int run) { launch(src(run), dst(run)); }, warmups, runs);
        };
        line("split 16 reg + 16 smem, 3/SM",
             time([&](const float* i, float* o) { a.launch<16, 16, 3>(i, o, n); }));
        line("split 12 reg + 12 smem, 4/SM",
             time([&](const float* i, float* o) { b.launch<12, 12, 4>(i, o, n); }));
        line("split 8 reg + 12 smem, 4/SM",
             time([&](const float* i, float* o) { c.launch<8, 12, 4>(i, o, n); }));
        line("split 16 reg + 8 smem, 3/SM",
             time([&](const float* i, float* o) { d.launch<16, 8, 3>(i, o, n); }));
    }

    // The reduce floor at 2^20, and reduceFast against CUB interleaved run by run.
    {
        const int n = 1 << 20;
        const pc::Rotation rot = pc::rotation(4ull * n, capacity * 4, l2);
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
    check(cudaGetLastError(), "the runs");
    return 0;
}
