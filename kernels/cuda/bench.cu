// `pplab bench`: every stage of the chapter, the production kernels, CUB and the copy
// bandwidth, timed in one run on one device.
//
// Method (PERFORMANCE.md): results are validated against the CPU before anything is timed;
// CUDA events around each run; warm-up runs first; the median of the timed runs (the production
// kernels and CUB taken in turn, launch by launch, so launch noise falls on both); inputs
// rotate through at least four L2's worth of memory so no run reads what the last one left
// in L2; random data, never zeros. GB/s counts the bytes that must move.
#include "cuda/fast.hpp"
#include "cuda/launch.hpp"
#include "cuda/timer.hpp"
#include "pplab/files.hpp"
#include "pplab/quote.hpp"
#include "pplab/rng.hpp"
#include "pplab/timing.hpp"

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#if defined(PPLAB_HAVE_STB_IMAGE)
#include <stb_image.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <functional>
#include <memory>
#include <string>

namespace pplab {

namespace {

using cuda::check;
using cuda::DeviceBuffer;

std::string pow2(int k) {
    return "2^" + std::to_string(k);
}

class Bench {
public:
    explicit Bench(const TimingOptions& o) : o_(o) {
        int device = 0;
        check(cudaGetDevice(&device), "cudaGetDevice");
        cudaDeviceProp p{};
        check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
        report_.device = p.name;
        report_.sms = p.multiProcessorCount;
        l2_ = static_cast<std::size_t>(p.l2CacheSize);
        report_.l2_mib = static_cast<double>(l2_) / (1 << 20);
        report_.runs = o.runs;
        report_.warmups = o.warmups;
        const std::time_t now = std::time(nullptr);
        char date[32];
        std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
        report_.date = date;
        max_elems_ = std::size_t{1} << o.max_log2;
        // Room for the largest size and for four L2's worth of rotating copies of the smallest.
        capacity_ = std::max(max_elems_, 4 * l2_ / sizeof(float) + max_elems_);
    }

    TimingReport run() {
        total_steps_ = static_cast<double>(o_.families.size()) * (o_.max_log2 - o_.min_log2 + 1);
        measure_copy();
        for (Family f : o_.families) {
            if (f == Family::Reduce)
                reduce_rows();
            else if (f == Family::Scan)
                scan_rows();
            else
                histogram_rows();
        }
        return report_;
    }

private:
    bool wanted(const std::string& stage) const {
        return o_.stages.empty() ||
               std::find(o_.stages.begin(), o_.stages.end(), stage) != o_.stages.end();
    }

    void progress(const std::string& what) {
        if (o_.stop && o_.stop())
            throw TimingStopped(); // RAII buffers: nothing stays allocated
        if (o_.progress)
            o_.progress(std::min(1.0, done_steps_ / total_steps_), what);
    }

    // The grid of the grid-stride kernels: the anchors' 16 blocks per SM, or fewer when the
    // array is small (at least ELEMS_PER_THREAD elements per thread).
    int stride_grid(long long n, int block) const {
        const long long natural = (n + static_cast<long long>(block) * kElemsPerThread - 1) /
                                  (static_cast<long long>(block) * kElemsPerThread);
        return static_cast<int>(std::max(1LL, std::min<long long>(natural, 16LL * report_.sms)));
    }

    TimingRow& add(const std::string& family, const std::string& stage, long long size, int block,
                   int grid, double ms, double bytes, const std::string& distribution = "") {
        TimingRow r;
        r.family = family;
        r.stage = stage;
        r.distribution = distribution;
        r.size = size;
        r.block = block;
        r.grid = grid;
        r.ms = ms;
        r.bytes = bytes;
        r.gbps = bytes / (ms * 1e6);
        r.pct_copy = report_.copy_gbps > 0 ? 100.0 * r.gbps / report_.copy_gbps : 0;
        r.validated = true;
        report_.rows.push_back(r);
        return report_.rows.back();
    }

    // Once CUB's row for a size and distribution exists, every row of that size gets its ratio.
    void ratios(const std::string& family, long long size, const std::string& distribution) {
        double cub = 0;
        for (const TimingRow& r : report_.rows)
            if (r.family == family && r.size == size && r.distribution == distribution &&
                r.stage == "cub")
                cub = r.ms;
        if (cub > 0)
            for (TimingRow& r : report_.rows)
                if (r.family == family && r.size == size && r.distribution == distribution)
                    r.vs_cub = cub / r.ms;
    }

    void skip(const std::string& what) { report_.notes.push_back(what); }

    // The production kernel and CUB (each validated by the caller), timed launch by launch in
    // turn: at 2^20 a launch is most of the time, and its noise must fall on both alike.
    struct Timed {
        std::string stage;
        int block = 0;
        std::function<void(int)> once;
    };
    void add_in_turn(const std::string& family, long long n, double bytes,
                     const std::vector<Timed>& timed, const std::string& distribution = "") {
        std::vector<std::function<void(int)>> fns;
        for (const Timed& t : timed)
            fns.push_back(t.once);
        const std::vector<double> ms = events_.in_turn_ms(fns, o_.warmups, o_.runs);
        for (std::size_t k = 0; k < timed.size(); ++k)
            add(family, timed[k].stage, n, timed[k].block, 0, ms[k], bytes, distribution);
    }

    // ---- copy ------------------------------------------------------------------------------

    void measure_copy() {
        progress("cudaMemcpy device to device");
        const std::size_t bytes = max_elems_ * sizeof(float);
        DeviceBuffer<unsigned char> a(bytes), b(bytes);
        check(cudaMemset(a.data(), 1, bytes), "cudaMemset");
        const double ms = events_.median_ms(
            [&](int) {
                check(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice),
                      "cudaMemcpyAsync");
            },
            o_.warmups, o_.runs);
        report_.copy_gbps = 2.0 * static_cast<double>(bytes) / (ms * 1e6);
        add("copy", "memcpy", static_cast<long long>(bytes), 0, 0, ms,
            2.0 * static_cast<double>(bytes));
    }

    // ---- reduce ----------------------------------------------------------------------------

    std::vector<float> random_floats(std::size_t n) {
        std::vector<float> v(n);
        SplitMix rng{0xF10A7};
        for (float& x : v)
            x = rng.unit(); // [0, 1): never zeros
        return v;
    }

    void reduce_rows() {
        const std::vector<float> host = random_floats(capacity_);
        DeviceBuffer<float> in(host);
        DeviceBuffer<float> partials(max_elems_ / 32 + 1), out(1);
        cuda::FastReduce fast;
        std::size_t temp_bytes = 0;
        check(cub::DeviceReduce::Sum(nullptr, temp_bytes, in.data(), out.data(),
                                     static_cast<int>(max_elems_)),
              "cub::DeviceReduce::Sum");
        DeviceBuffer<unsigned char> temp(temp_bytes);

        for (int k = o_.min_log2; k <= o_.max_log2; ++k, ++done_steps_) {
            const long long n = 1LL << k;
            const double bytes = 4.0 * static_cast<double>(n);
            const cuda::Rotation rot =
                cuda::rotation(static_cast<std::size_t>(n) * 4, capacity_ * 4, l2_);
            double ref = 0;
            for (long long i = 0; i < n; ++i)
                ref += host[static_cast<std::size_t>(i)];
            const auto at = [&](int run) {
                return in.data() + rot.offset(run, static_cast<std::size_t>(n));
            };
            // Compares the sum of what the kernel left (block totals or the single sum).
            const auto expect_sum = [&](const std::string& stage, const float* d, std::size_t count,
                                        double tolerance) {
                check(cudaDeviceSynchronize(), stage);
                const std::vector<float> got = [&] {
                    std::vector<float> h(count);
                    check(cudaMemcpy(h.data(), d, count * sizeof(float), cudaMemcpyDeviceToHost),
                          "cudaMemcpy");
                    return h;
                }();
                double sum = 0;
                for (float g : got)
                    sum += g;
                if (!(std::fabs(sum - ref) <= tolerance * ref))
                    throw std::runtime_error(stage + " at n = " + pow2(k) + " summed to " +
                                             std::to_string(sum) + "; the CPU says " +
                                             std::to_string(ref));
            };
            progress("reduce " + pow2(k));

            if (k == o_.min_log2 && wanted("reduce-naive")) {
                // One thread: serial fp32 additions drift, hence the looser check.
                cuda::reduce_untraced(Algorithm::ReduceNaive, at(0), out.data(),
                                      static_cast<int>(n), 1, 32, nullptr);
                expect_sum("reduceNaive", out.data(), 1, 1e-3);
                const double ms = events_.median_ms(
                    [&](int run) {
                        cuda::reduce_untraced(Algorithm::ReduceNaive, at(run), out.data(),
                                              static_cast<int>(n), 1, 32, nullptr);
                    },
                    1, std::min(o_.runs, 5));
                add("reduce", "reduce-naive", n, 1, 1, ms, bytes);
                skip("reduce-naive is timed at " + pow2(k) + " only, with 5 runs: one thread");
            }
            for (int block : o_.blocks) {
                if (wanted("reduce-tree")) {
                    const int grid = static_cast<int>((n + block - 1) / block);
                    if (static_cast<std::size_t>(grid) <= partials.size()) {
                        cuda::reduce_untraced(Algorithm::ReduceTree, at(0), partials.data(),
                                              static_cast<int>(n), grid, block, nullptr);
                        expect_sum("reduceTree", partials.data(), static_cast<std::size_t>(grid),
                                   1e-5);
                        add("reduce", "reduce-tree", n, block, grid,
                            events_.median_ms(
                                [&](int run) {
                                    cuda::reduce_untraced(Algorithm::ReduceTree, at(run),
                                                          partials.data(), static_cast<int>(n),
                                                          grid, block, nullptr);
                                },
                                o_.warmups, o_.runs),
                            bytes);
                    }
                }
                const int grid = stride_grid(n, block);
                if (wanted("reduce-coarsened")) {
                    cuda::reduce_untraced(Algorithm::ReduceCoarsened, at(0), partials.data(),
                                          static_cast<int>(n), grid, block, nullptr);
                    expect_sum("reduceCoarsened", partials.data(), static_cast<std::size_t>(grid),
                               1e-5);
                    add("reduce", "reduce-coarsened", n, block, grid,
                        events_.median_ms(
                            [&](int run) {
                                cuda::reduce_untraced(Algorithm::ReduceCoarsened, at(run),
                                                      partials.data(), static_cast<int>(n), grid,
                                                      block, nullptr);
                            },
                            o_.warmups, o_.runs),
                        bytes);
                }
                if (wanted("reduce-full")) {
                    const auto both = [&](int run) { // two launches: blocks, then their totals
                        cuda::reduce_untraced(Algorithm::ReduceFull, at(run), partials.data(),
                                              static_cast<int>(n), grid, block, nullptr);
                        cuda::reduce_untraced(Algorithm::ReduceFull, partials.data(), out.data(),
                                              grid, 1, block, nullptr);
                    };
                    both(0);
                    expect_sum("reduceFull", out.data(), 1, 1e-5);
                    add("reduce", "reduce-full", n, block, grid,
                        events_.median_ms(both, o_.warmups, o_.runs), bytes);
                }
            }
            std::vector<Timed> in_turn;
            if (wanted("reduce-fast")) {
                fast.launch(at(0), out.data(), static_cast<int>(n));
                expect_sum("reduceFast", out.data(), 1, 1e-5);
                in_turn.push_back({"reduce-fast", 256, [&](int run) {
                                       fast.launch(at(run), out.data(), static_cast<int>(n));
                                   }});
            }
            if (wanted("cub")) {
                const auto cub_sum = [&](int run) {
                    std::size_t tb = temp_bytes;
                    check(cub::DeviceReduce::Sum(temp.data(), tb, at(run), out.data(),
                                                 static_cast<int>(n)),
                          "cub::DeviceReduce::Sum");
                };
                cub_sum(0);
                expect_sum("cub::DeviceReduce::Sum", out.data(), 1, 1e-5);
                in_turn.push_back({"cub", 0, cub_sum});
            }
            add_in_turn("reduce", n, bytes, in_turn);
            ratios("reduce", n, "");
        }
    }

    // ---- scan ------------------------------------------------------------------------------

    void scan_rows() {
        const std::vector<float> host = random_floats(capacity_);
        DeviceBuffer<float> in(host);
        DeviceBuffer<float> out(capacity_ + 1024); // padded: scanBlocks writes whole tiles
        cuda::FastScan fast(static_cast<int>(max_elems_));
        std::size_t temp_bytes = 0;
        check(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, in.data(), out.data(),
                                            static_cast<int>(max_elems_)),
              "cub::DeviceScan::ExclusiveSum");
        DeviceBuffer<unsigned char> temp(temp_bytes);
        std::vector<double> ref;

        for (int k = o_.min_log2; k <= o_.max_log2; ++k, ++done_steps_) {
            const long long n = 1LL << k;
            const double bytes = 8.0 * static_cast<double>(n);
            const cuda::Rotation rot =
                cuda::rotation(static_cast<std::size_t>(n) * 4, capacity_ * 4, l2_);
            ref.assign(static_cast<std::size_t>(n), 0.0);
            double run_sum = 0;
            for (long long i = 0; i < n; ++i) {
                ref[static_cast<std::size_t>(i)] = run_sum;
                run_sum += host[static_cast<std::size_t>(i)];
            }
            const auto src = [&](int run) {
                return in.data() + rot.offset(run, static_cast<std::size_t>(n));
            };
            const auto dst = [&](int run) {
                return out.data() + rot.offset(run, static_cast<std::size_t>(n));
            };
            const auto expect_scan = [&](const std::string& stage) {
                check(cudaDeviceSynchronize(), stage);
                std::vector<float> got(static_cast<std::size_t>(n));
                check(cudaMemcpy(got.data(), out.data(), got.size() * sizeof(float),
                                 cudaMemcpyDeviceToHost),
                      "cudaMemcpy");
                for (std::size_t i = 0; i < got.size(); ++i)
                    if (!(std::fabs(got[i] - ref[i]) <= 1e-5 * std::max(1.0, ref[i])))
                        throw std::runtime_error(stage + " at n = " + pow2(k) + ": element " +
                                                 std::to_string(i) + " is " +
                                                 std::to_string(got[i]) + "; the CPU says " +
                                                 std::to_string(ref[i]));
            };
            progress("scan " + pow2(k));
            for (int block : o_.blocks) {
                const cuda::ScanWorkspace ws(static_cast<int>(n), block);
                const int grid = ws.levels().front().grid;
                for (const bool hs : {false, true}) {
                    const std::string stage = hs ? "scan-hillis-steele" : "scan-multiblock";
                    if (!wanted(stage))
                        continue;
                    const auto once = [&](int run) {
                        cuda::scan_untraced(src(run), dst(run), static_cast<int>(n), hs, false, ws,
                                            nullptr);
                    };
                    once(0);
                    expect_scan(stage);
                    add("scan", stage, n, block, grid, events_.median_ms(once, o_.warmups, o_.runs),
                        bytes);
                }
            }
            std::vector<Timed> in_turn;
            if (wanted("scan-fast")) {
                const auto once = [&](int run) {
                    fast.launch(src(run), dst(run), static_cast<int>(n));
                };
                once(0);
                expect_scan("scanFast");
                in_turn.push_back({"scan-fast", 256, once});
            }
            if (wanted("cub")) {
                const auto once = [&](int run) {
                    std::size_t tb = temp_bytes;
                    check(cub::DeviceScan::ExclusiveSum(temp.data(), tb, src(run), dst(run),
                                                        static_cast<int>(n)),
                          "cub::DeviceScan::ExclusiveSum");
                };
                once(0);
                expect_scan("cub::DeviceScan::ExclusiveSum");
                in_turn.push_back({"cub", 0, once});
            }
            add_in_turn("scan", n, bytes, in_turn);
            ratios("scan", n, "");
        }
    }

    // ---- histogram -------------------------------------------------------------------------

    struct Distribution {
        std::string name;
        std::vector<unsigned char> bytes;
    };

    std::vector<Distribution> distributions(std::size_t n) {
        std::vector<Distribution> d;
        SplitMix rng{0xB17E5};
        d.push_back({"uniform", std::vector<unsigned char>(n)});
        for (auto& b : d.back().bytes)
            b = static_cast<unsigned char>(rng.next() >> 56);
        d.push_back({"one-value", std::vector<unsigned char>(n, 170)});
        d.push_back({"90%-one-value", std::vector<unsigned char>(n)});
        for (auto& b : d.back().bytes) {
            const std::uint64_t r = rng.next();
            b = (r >> 32) % 10 < 9 ? 170 : static_cast<unsigned char>(r >> 56);
        }
        if (!o_.image.empty()) {
#if defined(PPLAB_HAVE_STB_IMAGE)
            // Read as any file the user names is (a regular file, at most 64 MiB), then decoded.
            const std::string file = read_file(o_.image, kMaxTextFileBytes);
            int w = 0, h = 0, c = 0;
            unsigned char* pixels =
                stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(file.data()),
                                      static_cast<int>(file.size()), &w, &h, &c, 3);
            if (!pixels)
                throw InputError("cannot read the image " + quote(o_.image, kQuotePathChars) +
                                 ": " + stbi_failure_reason());
            const std::size_t size = static_cast<std::size_t>(w) * h * 3;
            d.push_back({"image", std::vector<unsigned char>(n)});
            for (std::size_t i = 0; i < n; ++i) // the picture's RGB bytes, repeated to fill n
                d.back().bytes[i] = pixels[i % size];
            stbi_image_free(pixels);
#else
            throw InputError("this build cannot read images (built without stb_image)");
#endif
        }
        return d;
    }

    void histogram_rows() {
        constexpr int kBins = 256;
        const std::size_t capacity = std::max(max_elems_, 4 * l2_ + max_elems_);
        DeviceBuffer<int> g_hist(kBins);
        cuda::FastHistogram fast(kBins);
        std::size_t temp_bytes = 0;
        check(cub::DeviceHistogram::HistogramEven(
                  nullptr, temp_bytes, static_cast<const unsigned char*>(nullptr), g_hist.data(),
                  kBins + 1, 0, kBins, static_cast<int>(max_elems_)),
              "cub::DeviceHistogram::HistogramEven");
        DeviceBuffer<unsigned char> temp(temp_bytes);
        // A stage is dropped at larger sizes once one run of it would pass 100 ms.
        std::vector<std::string> too_slow;

        const std::vector<Distribution> dists = distributions(capacity);
        for (const Distribution& dist : dists) {
            too_slow.clear();
            DeviceBuffer<unsigned char> data(dist.bytes);
            for (int k = o_.min_log2; k <= o_.max_log2; ++k) {
                const long long n = 1LL << k;
                const cuda::Rotation rot =
                    cuda::rotation(static_cast<std::size_t>(n), capacity, l2_);
                std::vector<int> ref(kBins, 0);
                for (long long i = 0; i < n; ++i)
                    ++ref[dist.bytes[static_cast<std::size_t>(i)]];
                const auto src = [&](int run) {
                    return data.data() + rot.offset(run, static_cast<std::size_t>(n));
                };
                const auto expect_counts = [&](const std::string& stage) {
                    check(cudaDeviceSynchronize(), stage);
                    const std::vector<int> got = g_hist.to_host();
                    for (int b = 0; b < kBins; ++b)
                        if (got[static_cast<std::size_t>(b)] != ref[static_cast<std::size_t>(b)])
                            throw std::runtime_error(
                                stage + " on " + dist.name + " data at " + pow2(k) +
                                " bytes: bin " + std::to_string(b) + " counted " +
                                std::to_string(got[static_cast<std::size_t>(b)]) +
                                "; the CPU says " +
                                std::to_string(ref[static_cast<std::size_t>(b)]));
                };
                const auto time_stage = [&](const std::string& stage, int block, int grid,
                                            const std::function<void(int)>& once) {
                    if (!wanted(stage) ||
                        std::find(too_slow.begin(), too_slow.end(),
                                  stage + std::to_string(block)) != too_slow.end())
                        return;
                    once(0);
                    expect_counts(stage);
                    const double ms = events_.median_ms(once, o_.warmups, o_.runs);
                    add("histogram", stage, n, block, grid, ms, static_cast<double>(n), dist.name);
                    if (ms > 50) { // the next size takes twice as long
                        too_slow.push_back(stage + std::to_string(block));
                        skip(stage + " (block " + std::to_string(block) + ") on " + dist.name +
                             " data stops at " + pow2(k) + " bytes: one run takes " +
                             std::to_string(static_cast<int>(ms)) + " ms");
                    }
                };
                progress("histogram " + dist.name + " " + pow2(k));
                const auto zero = [&] {
                    check(cudaMemsetAsync(g_hist.data(), 0, sizeof(int) * kBins),
                          "cudaMemsetAsync");
                };
                for (int block : o_.blocks) {
                    const int grid = stride_grid(n, block);
                    const auto textbook = [&](Algorithm a, bool skip_empty) {
                        return [&, a, skip_empty, block, grid](int run) {
                            zero();
                            cuda::histogram_untraced(a, src(run), g_hist.data(),
                                                     static_cast<int>(n), kBins, grid, block,
                                                     skip_empty, nullptr);
                        };
                    };
                    time_stage("hist-global", block, grid, textbook(Algorithm::HistGlobal, true));
                    time_stage("hist-privatised", block, grid,
                               textbook(Algorithm::HistPrivatised, true));
                    time_stage("hist-privatised-no-skip", block, grid,
                               textbook(Algorithm::HistPrivatised, false));
                    if (block >= 32)
                        time_stage("hist-per-warp", block, grid,
                                   textbook(Algorithm::HistPerWarp, true));
                }
                std::vector<Timed> in_turn;
                const auto validated = [&](const std::string& stage, int block,
                                           const std::function<void(int)>& once) {
                    if (!wanted(stage))
                        return;
                    once(0);
                    expect_counts(stage);
                    in_turn.push_back({stage, block, once});
                };
                validated("hist-fast", kFastHistBlock, [&](int run) {
                    fast.launch(src(run), reinterpret_cast<unsigned*>(g_hist.data()), n);
                });
                validated("cub", 0, [&](int run) {
                    std::size_t tb = temp_bytes;
                    check(cub::DeviceHistogram::HistogramEven(temp.data(), tb, src(run),
                                                              g_hist.data(), kBins + 1, 0, kBins,
                                                              static_cast<int>(n)),
                          "cub::DeviceHistogram::HistogramEven");
                });
                add_in_turn("histogram", n, static_cast<double>(n), in_turn, dist.name);
                ratios("histogram", n, dist.name);
                done_steps_ += 1.0 / static_cast<double>(dists.size());
            }
        }
    }

    TimingOptions o_;
    TimingReport report_;
    cuda::Events events_;
    std::size_t l2_ = 0;
    std::size_t max_elems_ = 0;
    std::size_t capacity_ = 0;
    double total_steps_ = 1, done_steps_ = 0;
};

} // namespace

bool timing_available(std::string& why) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        why = "no NVIDIA GPU answers on this machine";
        return false;
    }
    return true;
}

TimingReport measure_kernels(const TimingOptions& o) {
    if (o.min_log2 < 10 || o.max_log2 > 29 || o.min_log2 > o.max_log2)
        throw InputError("sizes must run from 2^10 to at most 2^29 elements, smallest first");
    if (o.runs < 1 || o.warmups < 0)
        throw InputError("at least one timed run");
    for (int b : o.blocks)
        if (b < 32 || b > kMaxBlock || (b & (b - 1)) != 0)
            throw InputError("block size " + std::to_string(b) +
                             " cannot be timed: the stages need a power of two from 32 to 1024");
    std::string why;
    if (!timing_available(why))
        throw InputError("kernel timing needs a GPU: " + why);
    return Bench(o).run();
}

} // namespace pplab
