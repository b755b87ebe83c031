// What pplab hands the GPU driver (gpu_driver.cu) for a student's file: the buffers, what is
// cleared before each run, the launches, and the output (see gpu.cpp).
#pragma once

#include "pplab/sim.hpp"

#include <string>
#include <vector>

namespace pplab::sim {

struct Spec {
    std::string text;                 // what the driver reads
    std::size_t output_count = 0;     // values of the output buffer that are the result
    bool int_output = false;          // histograms count in int
    std::vector<std::string> defines; // -D for nvcc: which kernels the driver launches
    double bytes = 0;
};

// The launch sequence, as the runner runs it on the simulator (runner.cpp), for `grid` blocks.
Spec spec_for(const Request& r, int grid, const GpuOptions& o);

} // namespace pplab::sim
