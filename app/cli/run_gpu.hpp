// `pplab run --backend cuda|auto`: the student's file on the device (see run_gpu.cpp).
#pragma once

#include "cli.hpp"

#include "pplab/sim.hpp"

#include <string>

namespace pplab::cli {

struct GpuRunOptions {
    long long time_n = 0; // time at this size (0: not timed)
    int runs = 20;
};

// After the simulator's run `cpu` of the same file and request: runs it with nvcc's build on
// the device, compares the output, and times it when asked. Returns the exit code (0 same,
// 1 different, 2 it does not compile or fails there); --backend auto without nvcc or a device
// returns 0 quietly, --backend cuda throws InputError saying why.
int run_on_device(const RequestOptions& opts, const GpuRunOptions& gpu, const Request& traced,
                  const sim::RunResult& cpu, const std::string& source, const std::string& file);

} // namespace pplab::cli
