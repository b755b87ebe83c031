// `pplab run --backend cuda`: the student's file on the device, after the simulator. Its output
// is compared with the simulator's, and with --time-n it is timed (CUDA events, the median)
// beside the chapter's kernel and CUB at that size, measured in the same way by pplab bench.
#include "run_gpu.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace pplab::cli {

namespace {

// One row of the timing table, its name in a column `width` wide.
std::string row(const sim::TimedRow& t, std::size_t width) {
    std::ostringstream s;
    s << "  " << std::left << std::setw(static_cast<int>(width)) << t.what << std::right
      << std::fixed << std::setprecision(4) << std::setw(10) << t.ms << " ms  "
      << std::setprecision(0) << std::setw(7) << t.bytes / (t.ms * 1e6) << " GB/s\n";
    return s.str();
}

} // namespace

int run_on_device(const RequestOptions& opts, const GpuRunOptions& gpu, const Request& traced,
                  const sim::RunResult& cpu, const std::string& source, const std::string& file) {
    sim::GpuOptions o;
    o.runs = gpu.runs;
    std::optional<Request> timed;
    if (gpu.time_n > 0)
        timed =
            sim::at_timing_size(traced, find_generator(opts.gen), opts.seed, gpu.time_n, opts.grid);
    const sim::DeviceCheck d = sim::check_on_device(traced, cpu.trace.result, source, timed, o);
    const sim::GpuRun& g = d.run;
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
    std::cout << "On the GPU (" << g.device << "): "
              << (d.difference.empty() ? "the same output as the simulator's run, bit for bit"
                                       : d.difference)
              << ".\n";
    const int code = d.difference.empty() ? 0 : kExitWrong;
    if (d.timed_n <= 0)
        return code;
    const sim::GpuRun& t = d.timed;
    if (t.status != sim::GpuRun::Status::Ran) {
        std::cerr << "pplab: timing at n = " << d.timed_n << ": " << t.message << "\n";
        return kExitBadInput;
    }
    std::cout << "Timed on " << t.device << ", n = " << d.timed_n << ", block " << d.timed_block
              << ": the median of " << d.runs << " runs after " << d.warmups
              << " warm-ups (CUDA events)"
              << (d.not_validated.empty() ? ", the output checked against a serial sum first:\n"
                                          : ":\n  NOT VALIDATED: " + d.not_validated + "\n");
    std::size_t width = 28; // "the chapter's scan-multiblock" is 29
    for (const sim::TimedRow& r : d.rows)
        width = std::max(width, r.what.size() + 2);
    for (const sim::TimedRow& r : d.rows)
        std::cout << row(r, width);
    if (!d.beside_note.empty())
        std::cout << "  (" << d.beside_note
                  << (d.beside_note.find("powers of two") != std::string::npos
                          ? ": --time-n 1048576, for instance)\n"
                          : ")\n");
    else
        std::cout << "  copy roof (cudaMemcpy, read + write, same run): "
                  << static_cast<int>(d.copy_gbps) << " GB/s\n";
    return d.not_validated.empty() ? code : kExitWrong;
}

} // namespace pplab::cli
