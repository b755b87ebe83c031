// `pplab run --backend cuda`: the student's file on the device, after the simulator. Its output
// is compared with the simulator's, and with --time-n it is timed (CUDA events, the median)
// beside the chapter's kernel and CUB at that size, measured in the same way by pplab bench.
#include "run_gpu.hpp"

#include "pplab/backend.hpp"
#include "pplab/io.hpp"
#include "pplab/timing.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace pplab::cli {

namespace {

bool same_bits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// The request at the timing size: the traced request's launch (its block; its grid when one
// was asked for, else the kernel's natural grid for n), generated input.
Request timing_request(const Request& traced, const RequestOptions& opts, long long n) {
    Request r = traced;
    const bool histogram = info(r.algorithm).family == Family::Histogram;
    r.input =
        generate(find_generator(opts.gen), static_cast<int>(n), opts.seed, histogram ? r.bins : 0);
    r.grid = opts.grid > 0 ? opts.grid : 0;
    return r;
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

std::string row(const std::string& what, double ms, double bytes) {
    std::ostringstream s;
    s << "  " << std::left << std::setw(28) << what << std::right << std::fixed
      << std::setprecision(4) << std::setw(10) << ms << " ms  " << std::setprecision(0)
      << std::setw(7) << bytes / (ms * 1e6) << " GB/s\n";
    return s.str();
}

// The chapter's kernel and CUB at 2^k, measured as pplab bench measures them.
std::string chapter_and_cub(const Request& r, long long n) {
    std::string why;
    if (!timing_available(why))
        return "  (the chapter's kernel and CUB are not timed: " + why + ")\n";
    if (!std::has_single_bit(static_cast<unsigned long long>(n)) || n < (1 << 10))
        return "  (the chapter's kernel and CUB are timed at powers of two from 2^10: "
               "--time-n 1048576, for instance)\n";
    TimingOptions o;
    o.families = {info(r.algorithm).family};
    o.min_log2 = o.max_log2 = std::countr_zero(static_cast<unsigned long long>(n));
    o.blocks = {r.block};
    o.stages = {std::string(info(r.algorithm).id), "cub"};
    const TimingReport report = measure_kernels(o);
    std::string out;
    for (const TimingRow& t : report.rows)
        if (t.size == n && (t.distribution.empty() || t.distribution == "uniform"))
            out += row(t.stage == "cub" ? std::string("CUB") : "the chapter's " + t.stage, t.ms,
                       t.bytes);
    return out + "  copy roof (cudaMemcpy, read + write, same run): " +
           std::to_string(static_cast<int>(report.copy_gbps)) + " GB/s\n";
}

} // namespace

int run_on_device(const RequestOptions& opts, const GpuRunOptions& gpu, const Request& traced,
                  const sim::RunResult& cpu, const std::string& source, const std::string& file) {
    sim::GpuOptions o;
    o.runs = gpu.runs;
    const sim::GpuRun g = sim::run_on_gpu(traced, source, o);
    if (g.status == sim::GpuRun::Status::Skipped) {
        if (opts.backend == "cuda")
            throw InputError("--backend cuda: " + g.message);
        return 0; // auto: the simulator's answer is the answer
    }
    if (g.status == sim::GpuRun::Status::CompileFailed) {
        for (const sim::CompileError& e : g.errors)
            std::cerr << file << ":" << e.line << ": error (nvcc): " << e.message << "\n";
        std::cerr << "pplab: the kernel does not compile with nvcc\n";
        return kExitBadInput;
    }
    if (g.status != sim::GpuRun::Status::Ran) {
        std::cerr << "pplab: " << g.message << "\n";
        return kExitBadInput;
    }
    int code = 0;
    std::cout << "On the GPU (" << g.device << "): ";
    std::size_t k = 0;
    while (k < g.result.size() && k < cpu.trace.result.size() &&
           same_bits(g.result[k], cpu.trace.result[k]))
        ++k;
    if (k == g.result.size() && k == cpu.trace.result.size()) {
        std::cout << "the same output as the simulator's run, bit for bit.\n";
    } else {
        code = kExitWrong;
        std::cout << "the output differs from the simulator's run at out[" << k
                  << "]: " << (k < g.result.size() ? format_value(g.result[k]) : "nothing")
                  << " on the GPU, "
                  << (k < cpu.trace.result.size() ? format_value(cpu.trace.result[k]) : "nothing")
                  << " on the simulator"
                  << (traced.algorithm == Algorithm::ReduceAtomic
                          ? " (the atomics arrive in the hardware's order on the GPU)."
                          : ": a race or undefined value the simulator ordered one way.")
                  << "\n";
    }
    if (gpu.time_n <= 0)
        return code;
    const Request timed = timing_request(traced, opts, gpu.time_n);
    const sim::GpuRun t = sim::run_on_gpu(timed, source, o);
    if (t.status != sim::GpuRun::Status::Ran) {
        std::cerr << "pplab: timing at n = " << gpu.time_n << ": " << t.message << "\n";
        return kExitBadInput;
    }
    const std::string wrong = check_against_reference(timed, t.result);
    std::cout << "Timed on " << t.device << ", n = " << gpu.time_n << ", block " << traced.block
              << ": the median of " << o.runs << " runs after " << o.warmups
              << " warm-ups (CUDA events)"
              << (wrong.empty() ? ", the output checked against a serial sum first:\n"
                                : ":\n  NOT VALIDATED: " + wrong + "\n")
              << row("your kernel", t.ms, t.bytes) << chapter_and_cub(traced, gpu.time_n);
    return wrong.empty() ? code : kExitWrong;
}

} // namespace pplab::cli
