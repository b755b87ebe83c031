// Timing the uninstrumented kernels against CUB and the device's copy bandwidth, measured in
// the same run (CUDA back end), and reading/writing the figures (everywhere: a laptop without
// a GPU opens the H200's saved results).
#pragma once

#include "pplab/request.hpp"

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pplab {

struct TimingRow {
    std::string family;       // "reduce", "scan", "histogram", or "copy"
    std::string stage;        // an algorithm id, "reduce-fast", ..., "cub", or "memcpy"
    std::string distribution; // histograms: "uniform", "one-value", "90%-one-value", "image"
    long long size = 0;       // elements (bytes for histograms)
    int block = 0;            // threads per block; 0 where the kernel chooses (CUB, fast, copy)
    int grid = 0;             // blocks of the (first) launch; 0 where the library chooses
    double ms = 0;            // median of the timed runs
    double bytes = 0;         // bytes that must move: reduce n*4, scan 2*n*4, histogram n
    double gbps = 0;          // bytes / ms
    double pct_copy = 0;      // of the copy bandwidth measured in the same run
    double vs_cub = 0;        // CUB's time / this time, same size and data; 0 where n/a
    bool validated = false;   // result checked against the CPU before timing
};

struct TimingReport {
    std::string device;
    std::string date; // UTC, ISO 8601
    int sms = 0;
    double l2_mib = 0;
    int runs = 0; // timed runs per row (median reported)
    int warmups = 0;
    double copy_gbps = 0; // cudaMemcpy device to device, read + write
    std::vector<TimingRow> rows;
    std::vector<std::string> notes; // what was skipped and why
};

struct TimingOptions {
    std::vector<Family> families{Family::Reduce, Family::Scan, Family::Histogram};
    int min_log2 = 20;
    int max_log2 = 28;
    std::vector<int> blocks{64, 128, 256, 512, 1024};
    int runs = 20;
    int warmups = 3;
    std::string image; // a picture whose bytes make the histogram's "image" distribution
    // Only these stages (algorithm ids, "reduce-fast"... or "cub"); empty: all.
    std::vector<std::string> stages;
    // Called between rows: fraction done and what runs next. The GUI's progress bar.
    std::function<void(double, const std::string&)> progress;
    // Asked between rows; true ends the run: measure_kernels throws TimingStopped, having
    // freed everything it allocated on the device.
    std::function<bool()> stop;
};

class TimingStopped : public std::runtime_error {
public:
    TimingStopped() : std::runtime_error("the timing run was stopped") {}
};

// Whether this build and machine can time kernels; `why` says what is missing.
bool timing_available(std::string& why);

// Validates every stage against the CPU, then times it. Throws InputError for bad options and
// std::runtime_error for CUDA failures.
TimingReport measure_kernels(const TimingOptions& options);

std::string timing_to_json(const TimingReport& r);
TimingReport timing_from_json(std::string_view json); // throws InputError
std::string timing_to_table(const TimingReport& r);   // for the terminal

} // namespace pplab
