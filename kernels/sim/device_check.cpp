// A student's file on the device, after the simulator (see sim.hpp, "compared and timed"):
// what `pplab run --backend cuda` prints and the window's Your kernel tab shows.
#include "pplab/io.hpp"
#include "pplab/sim.hpp"
#include "pplab/timing.hpp"

#include <bit>
#include <cmath>
#include <cstring>

namespace pplab::sim {

namespace {

bool same_bits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// The device's output at the timing size against a serial reference in double precision: the
// sum (of the block totals), each prefix, each count.
std::string check_against_reference(const Request& r, const std::vector<float>& out) {
    const Family f = info(r.algorithm).family;
    if (f == Family::Histogram) {
        std::vector<float> counts(static_cast<std::size_t>(r.bins), 0.0f);
        for (const float v : r.input)
            counts[static_cast<std::size_t>(v)] += 1.0f;
        for (std::size_t b = 0; b < counts.size() && b < out.size(); ++b)
            if (counts[b] != out[b])
                return "g_hist[" + std::to_string(b) + "] is " + format_value(out[b]) + ", not " +
                       format_value(counts[b]);
        return {};
    }
    double total = 0, magnitude = 0;
    const bool inclusive = r.options.inclusive;
    for (std::size_t i = 0; i < r.input.size(); ++i) {
        if (f == Family::Scan) {
            const double want = inclusive ? total + r.input[i] : total;
            if (std::fabs(out[i] - want) > 1e-4 * std::max(1.0, magnitude + std::fabs(r.input[i])))
                return "out[" + std::to_string(i) + "] is " + format_value(out[i]) +
                       ", the prefix sum is " + format_value(static_cast<float>(want));
        }
        total += r.input[i];
        magnitude += std::fabs(r.input[i]);
    }
    if (f == Family::Reduce) {
        double sum = 0;
        for (const float v : out)
            sum += v;
        if (std::fabs(sum - total) > 1e-4 * std::max(1.0, magnitude))
            return "its output adds up to " + format_value(static_cast<float>(sum)) +
                   ", the sum is " + format_value(static_cast<float>(total));
    }
    return {};
}

// Where the device's output parts from the simulator's, in words; empty: bit for bit the same.
std::string parting(const Request& r, const std::vector<float>& gpu,
                    const std::vector<float>& cpu) {
    std::size_t k = 0;
    while (k < gpu.size() && k < cpu.size() && same_bits(gpu[k], cpu[k]))
        ++k;
    if (k == gpu.size() && k == cpu.size())
        return {};
    return "the output differs from the simulator's run at out[" + std::to_string(k) +
           "]: " + (k < gpu.size() ? format_value(gpu[k]) : "nothing") + " on the GPU, " +
           (k < cpu.size() ? format_value(cpu[k]) : "nothing") + " on the simulator" +
           (r.algorithm == Algorithm::ReduceAtomic
                ? " (the atomics arrive in the hardware's order on the GPU)"
                : ": a race or undefined value the simulator ordered one way");
}

// The chapter's kernel and CUB at the timed size, measured as pplab bench measures them.
void chapter_and_cub(const Request& r, long long n, DeviceCheck& d) {
    std::string why;
    if (!timing_available(why)) {
        d.beside_note = "the chapter's kernel and CUB are not timed: " + why;
        return;
    }
    if (!std::has_single_bit(static_cast<unsigned long long>(n)) || n < (1 << 10)) {
        d.beside_note = "the chapter's kernel and CUB are timed at powers of two from 2^10";
        return;
    }
    TimingOptions o;
    o.families = {info(r.algorithm).family};
    o.min_log2 = o.max_log2 = std::countr_zero(static_cast<unsigned long long>(n));
    o.blocks = {r.block};
    o.stages = {std::string(info(r.algorithm).id), "cub"};
    const TimingReport report = measure_kernels(o);
    for (const TimingRow& t : report.rows)
        if (t.size == n && (t.distribution.empty() || t.distribution == "uniform"))
            d.rows.push_back({t.stage == "cub" ? std::string("CUB") : "the chapter's " + t.stage,
                              t.ms, t.bytes});
    d.copy_gbps = report.copy_gbps;
}

} // namespace

Request at_timing_size(const Request& traced, Generator g, std::uint64_t seed, long long n,
                       int grid) {
    Request r = traced;
    const bool histogram = info(r.algorithm).family == Family::Histogram;
    r.input = generate(g, static_cast<int>(n), seed, histogram ? r.bins : 0);
    r.grid = grid > 0 ? grid : 0;
    return r;
}

DeviceCheck check_on_device(const Request& traced, const std::vector<float>& simulated,
                            std::string_view source, const std::optional<Request>& timed,
                            const GpuOptions& o) {
    DeviceCheck d;
    d.run = run_on_gpu(traced, source, o);
    if (d.run.status != GpuRun::Status::Ran)
        return d;
    d.difference = parting(traced, d.run.result, simulated);
    if (!timed)
        return d;
    d.timed_n = static_cast<long long>(timed->input.size());
    d.timed_block = timed->block;
    d.runs = o.runs;
    d.warmups = o.warmups;
    d.timed = run_on_gpu(*timed, source, o);
    if (d.timed.status != GpuRun::Status::Ran)
        return d;
    d.not_validated = check_against_reference(*timed, d.timed.result);
    d.rows.push_back({"your kernel", d.timed.ms, d.timed.bytes});
    chapter_and_cub(traced, d.timed_n, d);
    return d;
}

} // namespace pplab::sim
