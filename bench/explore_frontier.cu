// Issue 14's two targets besides the scan (bench/NOTES.md): reduce at 2^20 against CUB, timed
// launch by launch in turn so that launch noise falls on both, beside the floor (an empty
// kernel, a 4 MiB load-only kernel); and the 8-bit histogram at 2^28 bytes against the read
// roof (reduce-fast's GB/s in the same run), with a ceiling: the same shared atomics on bytes
// made in registers, no loads. Every variant is checked against the CPU before it is timed.
// Not part of `pplab bench`; built as pplab_explore_frontier. Modes: reduce, hist (default both).
#include "cuda/fast.hpp"
#include "cuda/hist_count.cuh"
#include "cuda/launch.hpp"
#include "cuda/timer.hpp"
#include "floor.cuh"
#include "pplab/request.hpp"

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/atomic>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace pc = pplab::cuda;

namespace {

constexpr int kBlock = 256, kWarps = kBlock / 32;

__device__ __forceinline__ float warp_total(float v) {
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

__device__ __forceinline__ float block_total(float v, float* s_warp) {
    v = warp_total(v);
    if (threadIdx.x % 32 == 0)
        s_warp[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < kWarps ? s_warp[threadIdx.x] : 0.0f;
    if (threadIdx.x < 32)
        v = warp_total(v);
    return v;
}

using pplab::bench::emptyKernel;
using pplab::bench::loadOnly;

// reduceFast (whose ticket is one release-acquire atomic since this exploration) with every
// float4 of a thread issued before the first add (n4 <= grid x block x 8), where the product
// keeps four in flight per round.
__global__ void __launch_bounds__(kBlock)
    reduceAllLoads(const float* __restrict__ in, float* __restrict__ partials,
                   unsigned* __restrict__ finished, float* __restrict__ out, int n) {
    __shared__ float s_warp[kWarps];
    __shared__ bool s_last;
    const int n4 = n / 4;
    const float4* in4 = reinterpret_cast<const float4*>(in);
    const int stride = gridDim.x * kBlock;
    const int i = blockIdx.x * kBlock + threadIdx.x;
    float4 x[8];
#pragma unroll
    for (int k = 0; k < 8; ++k)
        x[k] = i + k * stride < n4 ? __ldcs(in4 + i + k * stride) : make_float4(0, 0, 0, 0);
    float a = 0.0f, b = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; k += 2) {
        a += (x[k].x + x[k].y) + (x[k].z + x[k].w);
        b += (x[k + 1].x + x[k + 1].y) + (x[k + 1].z + x[k + 1].w);
    }
    if (blockIdx.x == 0 && threadIdx.x < n - 4 * n4)
        b += in[4 * n4 + threadIdx.x];
    const float total = block_total(a + b, s_warp);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = total;
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*finished);
        s_last = ticket.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
    }
    __syncthreads();
    if (!s_last)
        return;
    float v = 0.0f;
    for (int k = threadIdx.x; k < static_cast<int>(gridDim.x); k += kBlock)
        v += __ldcg(partials + k);
    __syncthreads();
    v = block_total(v, s_warp);
    if (threadIdx.x == 0) {
        *out = v;
        *finished = 0;
    }
}

struct Reduce {
    float* partials = nullptr;
    unsigned* finished = nullptr;
    Reduce() {
        pc::check(cudaMalloc(&partials, sizeof(float) * 65536), "cudaMalloc");
        pc::check(cudaMalloc(&finished, sizeof(unsigned)), "cudaMalloc");
        pc::check(cudaMemset(finished, 0, sizeof(unsigned)), "cudaMemset");
    }
    ~Reduce() {
        cudaFree(partials);
        cudaFree(finished);
    }
};

void reduce_runs(pc::Events& ev, const std::vector<float>& host, std::size_t l2) {
    const int n = 1 << 20;
    const std::size_t copies = 4 * l2 / (4u * n) + 1;
    pc::DeviceBuffer<float> in(std::vector<float>(host.begin(), host.begin() + copies * n));
    pc::DeviceBuffer<float> out(16);
    const auto src = [&](int run) {
        return in.data() + static_cast<std::size_t>(run) % copies * n;
    };
    double ref = 0;
    for (int i = 0; i < n; ++i)
        ref += host[static_cast<std::size_t>(i)];
    pc::FastReduce product;
    Reduce state;
    std::size_t temp_bytes = 0;
    cub::DeviceReduce::Sum(nullptr, temp_bytes, in.data(), out.data(), n);
    pc::DeviceBuffer<unsigned char> temp(temp_bytes);
    const auto cub_sum = [&](int run) {
        std::size_t b = temp_bytes;
        cub::DeviceReduce::Sum(temp.data(), b, src(run), out.data(), n);
    };
    const auto all_loads = [&](int grid) {
        return [&, grid](int run) {
            reduceAllLoads<<<grid, kBlock>>>(src(run), state.partials, state.finished, out.data(),
                                             n);
        };
    };
    struct Variant {
        const char* name;
        std::function<void(int)> fn;
    };
    // The first measurement (bench/NOTES.md) also had the product with a __threadfence() and a
    // relaxed atomic as its ticket, 0.25 us slower: the product now has the acq_rel ticket.
    const std::vector<Variant> variants = {
        {"reduceFast (product), 256 blocks x 4 loads",
         [&](int run) { product.launch(src(run), out.data(), n); }},
        {"128 blocks x 8 loads at once", all_loads(128)},
        {"264 blocks x 8 loads at once", all_loads(264)},
        {"512 blocks x 2 loads at once", all_loads(512)},
        {"1024 blocks x 1 load", all_loads(1024)},
    };
    for (const Variant& v : variants) { // validated first, run twice on one state
        for (int twice = 0; twice < 2; ++twice) {
            v.fn(0);
            pc::check(cudaDeviceSynchronize(), v.name);
            const float got = out.to_host()[0];
            if (std::fabs(got - ref) > 1e-5 * std::fabs(ref)) {
                std::printf("%s: sum %.7g, the CPU says %.7g\n", v.name, got, ref);
                std::exit(1);
            }
        }
    }
    const int warmups = 5, runs = 201;
    std::vector<std::function<void(int)>> fns = {
        [](int) { emptyKernel<<<1, 32>>>(); },
        [&](int run) {
            loadOnly<<<2112, 256>>>(reinterpret_cast<const float4*>(src(run)), n / 4, out.data());
        },
        cub_sum};
    for (const Variant& v : variants)
        fns.push_back(v.fn);
    const std::vector<double> ms = ev.in_turn_ms(fns, warmups, runs);
    std::printf("reduce 2^20, each launch timed alone, all taken in turn, medians of %d:\n", runs);
    std::printf("  %-46s %8.2f us\n", "empty kernel", 1e3 * ms[0]);
    std::printf("  %-46s %8.2f us\n", "4 MiB load-only, 2112 blocks", 1e3 * ms[1]);
    std::printf("  %-46s %8.2f us\n", "CUB", 1e3 * ms[2]);
    for (std::size_t k = 0; k < variants.size(); ++k)
        std::printf("  %-46s %8.2f us  %.2fx CUB  %+.2f us over the load floor\n", variants[k].name,
                    1e3 * ms[3 + k], ms[2] / ms[3 + k], 1e3 * (ms[3 + k] - ms[1]));
}

// ---- histogram ----------------------------------------------------------------------------

using pc::count16;
using pc::kCopies;

template <int Threads>
__device__ __forceinline__ void zero_copies(unsigned* s) {
    for (int k = threadIdx.x; k < 256 * kCopies; k += Threads)
        s[k] = 0;
    __syncthreads();
}

// A thread per bin sums the bin's copies into g_hist; rotate: the bin a block starts with.
template <int Threads>
__device__ __forceinline__ void fold(const unsigned* s, unsigned* g_hist, int lane, int rotate) {
    __syncthreads();
    for (int k = threadIdx.x; k < 256; k += Threads) {
        const int bin = (k + rotate) % 256;
        unsigned sum = 0;
#pragma unroll 8
        for (int c = 0; c < kCopies; ++c)
            sum += s[bin * kCopies + (c + lane) % kCopies];
        if (sum != 0)
            atomicAdd(g_hist + bin, sum);
    }
}

// histogramFast with Threads per block (the product had 256 when this began, and has 1024
// since: 6 blocks of 256 = 48 warps a SM, 4 of 512 or 2 of 1024 = 64 warps, for the same 32 KB
// of copies a block) and Loads 16-byte loads in flight per thread (the product has 2).
// Ceiling: no loads at all; the bytes come from a hash of the index (uniform), the atomics are
// the product's.
template <int Threads, int Loads, bool Ceiling>
__global__ void __launch_bounds__(Threads)
    histLoads(const unsigned char* __restrict__ data, unsigned* __restrict__ g_hist, long long n) {
    __shared__ unsigned s[256 * kCopies];
    zero_copies<Threads>(s);
    const int lane = threadIdx.x % 32;
    const long long n16 = n / 16;
    const uint4* d16 = reinterpret_cast<const uint4*>(data);
    const long long stride = static_cast<long long>(gridDim.x) * Threads;
    long long i = static_cast<long long>(blockIdx.x) * Threads + threadIdx.x;
    for (; i + (Loads - 1) * stride < n16; i += Loads * stride) {
        uint4 v[Loads];
#pragma unroll
        for (int k = 0; k < Loads; ++k) {
            if (Ceiling) {
                const unsigned h = static_cast<unsigned>(i + k * stride) * 2654435761u;
                v[k] = make_uint4(h, h * 747796405u, h ^ (h >> 13), h * 2891336453u);
            } else {
                v[k] = __ldcs(d16 + i + k * stride);
            }
        }
#pragma unroll
        for (int k = 0; k < Loads; ++k)
            count16(s, v[k], lane);
    }
    for (; i < n16; i += stride)
        count16(s, __ldcs(d16 + i), lane);
    fold<Threads>(s, g_hist, lane, 0);
}

// The product's two loads per round, but the next round's two issued before this round's
// bytes are counted, so loads stay in flight while the atomics run. Rotate: each block folds
// its bins starting at a different one, so the blocks' global atomics at the end do not all
// queue on bin 0 first. (n a multiple of 16 here: the runs use 2^28 bytes.)
template <bool Rotate>
__global__ void __launch_bounds__(kBlock)
    histPipelined(const unsigned char* __restrict__ data, unsigned* __restrict__ g_hist,
                  long long n) {
    __shared__ unsigned s[256 * kCopies];
    zero_copies<kBlock>(s);
    const int lane = threadIdx.x % 32;
    const long long n16 = n / 16;
    const uint4* d16 = reinterpret_cast<const uint4*>(data);
    const long long stride = static_cast<long long>(gridDim.x) * kBlock;
    long long i = static_cast<long long>(blockIdx.x) * kBlock + threadIdx.x;
    uint4 u{}, v{};
    if (i < n16)
        u = __ldcs(d16 + i);
    if (i + stride < n16)
        v = __ldcs(d16 + i + stride);
    for (; i + 3 * stride < n16; i += 2 * stride) {
        const uint4 next_u = __ldcs(d16 + i + 2 * stride), next_v = __ldcs(d16 + i + 3 * stride);
        count16(s, u, lane);
        count16(s, v, lane);
        u = next_u;
        v = next_v;
    }
    if (i < n16)
        count16(s, u, lane);
    if (i + stride < n16)
        count16(s, v, lane);
    for (i += 2 * stride; i < n16; i += stride)
        count16(s, __ldcs(d16 + i), lane);
    fold<kBlock>(s, g_hist, lane, Rotate ? static_cast<int>(blockIdx.x) % 256 : 0);
}

template <int Threads>
int wide_grid(int sms) {
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histLoads<Threads, 2, false>, Threads,
                                                  0);
    return per_sm * sms;
}

void hist_runs(pc::Events& ev, int sms, const std::vector<float>& floats) {
    const long long n = 1LL << 28;
    std::vector<unsigned char> uniform(static_cast<std::size_t>(n));
    unsigned long long x = 0x9E3779B97F4A7C15ull;
    for (auto& b : uniform) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        b = static_cast<unsigned char>(x >> 56);
    }
    const std::vector<unsigned char> one(static_cast<std::size_t>(n), 170);
    pc::DeviceBuffer<unsigned> g_hist(256);
    pc::FastHistogram product(256), before(256, false);
    std::size_t temp_bytes = 0;
    cub::DeviceHistogram::HistogramEven(nullptr, temp_bytes, static_cast<unsigned char*>(nullptr),
                                        g_hist.data(), 257, 0, 256, static_cast<int>(n));
    pc::DeviceBuffer<unsigned char> temp(temp_bytes);
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histLoads<kBlock, 2, false>, kBlock, 0);
    const int grid = per_sm * sms;
    // The read roof: reduce-fast over the same 2^28 bytes (2^26 floats), in the same run.
    pc::DeviceBuffer<float> f(std::vector<float>(floats.begin(), floats.begin() + n / 4));
    pc::DeviceBuffer<float> fout(1);
    pc::FastReduce reduce;
    // reduce-fast's rate at 2^28 floats (1 GiB: four times the bytes over the same fixed costs),
    // the headline figure of `pplab bench`; the values do not matter to the time.
    pc::DeviceBuffer<float> big(std::size_t{1} << 28, 1.0f);
    for (const std::vector<unsigned char>* data :
         std::initializer_list<const std::vector<unsigned char>*>{&uniform, &one}) {
        const char* name = data == &uniform ? "uniform" : "one value";
        pc::DeviceBuffer<unsigned char> d(*data);
        std::vector<unsigned> ref(256, 0);
        for (unsigned char b : *data)
            ++ref[b];
        const auto zero = [&] { cudaMemsetAsync(g_hist.data(), 0, 256 * sizeof(unsigned)); };
        struct Variant {
            std::string name;
            std::function<void(int)> fn;
            bool validated;
        };
        std::vector<Variant> variants = {
            {"hist-fast (product: one launch)",
             [&](int) { product.launch(d.data(), g_hist.data(), n); }, true},
            {"hist-fast, memset then count (before)",
             [&](int) { before.launch(d.data(), g_hist.data(), n); }, true},
            {"256 threads, 4 loads in flight",
             [&](int) {
                 zero();
                 histLoads<kBlock, 4, false><<<grid, kBlock>>>(d.data(), g_hist.data(), n);
             },
             true},
            {"256 threads, 8 loads in flight",
             [&](int) {
                 zero();
                 histLoads<kBlock, 8, false><<<grid, kBlock>>>(d.data(), g_hist.data(), n);
             },
             true},
            {"256 threads, next 2 loads before counting",
             [&](int) {
                 zero();
                 histPipelined<false><<<grid, kBlock>>>(d.data(), g_hist.data(), n);
             },
             true},
            {"256 threads, the same, fold rotated",
             [&](int) {
                 zero();
                 histPipelined<true><<<grid, kBlock>>>(d.data(), g_hist.data(), n);
             },
             true},
            {"256 threads a block (the product before)",
             [&](int) {
                 zero();
                 histLoads<256, 2, false><<<wide_grid<256>(sms), 256>>>(d.data(), g_hist.data(), n);
             },
             true},
            {"512 threads a block",
             [&](int) {
                 zero();
                 histLoads<512, 2, false><<<wide_grid<512>(sms), 512>>>(d.data(), g_hist.data(), n);
             },
             true},
            {"CUB",
             [&](int) {
                 std::size_t b = temp_bytes;
                 cub::DeviceHistogram::HistogramEven(temp.data(), b, d.data(), g_hist.data(), 257,
                                                     0, 256, static_cast<int>(n));
             },
             true},
            {"ceiling: atomics on hashed bytes, no loads",
             [&](int) {
                 zero();
                 histLoads<kBlock, 4, true><<<grid, kBlock>>>(d.data(), g_hist.data(), n);
             },
             false},
            {"reduce-fast, 2^28 floats",
             [&](int) { reduce.launch(big.data(), fout.data(), 1 << 28); }, false},
            {"read roof: reduce-fast, 2^26 floats",
             [&](int) { reduce.launch(f.data(), fout.data(), static_cast<int>(n / 4)); }, false},
        };
        for (const Variant& v : variants) {
            if (!v.validated)
                continue;
            v.fn(0);
            pc::check(cudaDeviceSynchronize(), v.name);
            if (g_hist.to_host() != ref) {
                std::printf("%s on %s data: counts differ from the CPU's\n", v.name.c_str(), name);
                std::exit(1);
            }
        }
        std::vector<std::function<void(int)>> fns;
        for (const Variant& v : variants)
            fns.push_back(v.fn);
        const std::vector<double> ms = ev.in_turn_ms(fns, 3, 21);
        const double roof = static_cast<double>(n) / (ms.back() * 1e6);
        const std::size_t big_k = variants.size() - 2, cub_k = variants.size() - 4;
        const double big_roof = 4.0 * static_cast<double>(1LL << 28) / (ms[big_k] * 1e6);
        std::printf("hist 2^28 bytes, %s data (%d blocks of %d; read roof %.0f GB/s, reduce-fast "
                    "at 2^28 floats %.0f GB/s):\n",
                    name, grid, kBlock, roof, big_roof);
        for (std::size_t k = 0; k + 2 < variants.size(); ++k) {
            const double gbps = static_cast<double>(n) / (ms[k] * 1e6);
            std::printf("  %-44s %8.4f ms %7.0f GB/s %5.1f%% of the read roof, %5.1f%% of 2^28 "
                        "floats' %.2fx CUB\n",
                        variants[k].name.c_str(), ms[k], gbps, 100 * gbps / roof,
                        100 * gbps / big_roof, ms[cub_k] / ms[k]);
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "all";
    cudaDeviceProp p{};
    pc::check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    std::printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
    const std::vector<float> host = pplab::generate(pplab::Generator::RandomFloat, 1 << 26, 3, 0);
    pc::Events ev;
    if (mode == "all" || mode == "reduce")
        reduce_runs(ev, host, static_cast<std::size_t>(p.l2CacheSize));
    if (mode == "all" || mode == "hist")
        hist_runs(ev, p.multiProcessorCount, host);
    pc::check(cudaGetLastError(), "the runs");
    return 0;
}
