// Where traces come from: the CPU lockstep model (always), or the GPU (when built with CUDA
// and a device answers). Every trace names the back end and device that produced it.
#pragma once

#include "pplab/trace.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pplab {

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0;   // "cpu" or "cuda"
    virtual std::string device() const = 0; // "CPU lockstep model" or the GPU's name
    // Runs the instrumented kernels for a request (normalized here) and returns the
    // canonical trace. Throws InputError for requests the kernel cannot run.
    virtual Trace trace(const Request& r) = 0;
    // Runs the uninstrumented kernels (the ones `pplab bench` times) and returns what they
    // leave in their output buffer. The CPU model has one kind of run: its trace's result.
    virtual std::vector<float> run(const Request& r) = 0;
    // Set when the last call could not use the GPU and the CPU model answered instead.
    virtual std::string last_note() const { return {}; }
};

std::unique_ptr<Backend> make_cpu_backend();

// Whether this build has the CUDA back end compiled in.
bool cuda_compiled();

// The CUDA back end, or nullptr with `why` filled in (not compiled, no device, no driver).
std::unique_ptr<Backend> make_cuda_backend(std::string& why);

struct BackendChoice {
    std::unique_ptr<Backend> backend;
    std::string note; // said once, visibly, when `auto` fell back to the CPU model
};

// which: "auto" (CUDA when a device answers, else the CPU model; a CUDA error during a run
// falls back to the CPU model and says so in last_note()), "cpu" or "cuda".
// Throws InputError for an unknown name, or for "cuda" when no device answers.
BackendChoice choose_backend(std::string_view which);

} // namespace pplab
