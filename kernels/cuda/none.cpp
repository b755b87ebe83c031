// Linked instead of the CUDA back end when the build has no CUDA compiler.
#include "pplab/backend.hpp"

namespace pplab {

bool cuda_compiled() {
    return false;
}

std::unique_ptr<Backend> make_cuda_backend(std::string& why) {
    why = "this build has no CUDA back end (no CUDA compiler was found when it was configured)";
    return nullptr;
}

} // namespace pplab

#include "pplab/timing.hpp"

namespace pplab {

bool timing_available(std::string& why) {
    why = "this build has no CUDA back end";
    return false;
}

TimingReport measure_kernels(const TimingOptions&) {
    throw InputError("kernel timing needs the CUDA back end, which this build lacks; open saved "
                     "figures with `pplab bench --show FILE` (the H200's are in bench/results/)");
}

} // namespace pplab
