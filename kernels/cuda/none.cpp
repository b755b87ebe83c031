// Linked instead of the CUDA back end when the build has no CUDA compiler.
#include "pplab/backend.hpp"

namespace pplab {

bool cuda_compiled() {
    return false;
}

#if defined(__EMSCRIPTEN__)
// The page: a browser cannot run CUDA, whatever GPU the machine has.
constexpr const char* kNoCuda = "a web page cannot run CUDA";
constexpr const char* kNoTiming =
    "a web page cannot run CUDA (the desktop app measures on a machine with an NVIDIA GPU)";
#else
constexpr const char* kNoCuda =
    "this build has no CUDA back end (no CUDA compiler was found when it was configured)";
constexpr const char* kNoTiming = "this build has no CUDA back end";
#endif

std::unique_ptr<Backend> make_cuda_backend(std::string& why) {
    why = kNoCuda;
    return nullptr;
}

} // namespace pplab

#include "pplab/lookback.hpp"
#include "pplab/timing.hpp"

namespace pplab {

bool timing_available(std::string& why) {
    why = kNoTiming;
    return false;
}

Trace trace_lookback_gpu(const Request&) {
    throw InputError(std::string("scan-fast's GPU trace needs the CUDA back end: ") + kNoCuda);
}

TimingReport measure_kernels(const TimingOptions&) {
    throw InputError("kernel timing needs the CUDA back end, which this build lacks; open saved "
                     "figures with `pplab bench --show FILE` (the H200's are in bench/results/)");
}

} // namespace pplab
