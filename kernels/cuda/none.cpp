// Linked instead of the CUDA back end when the build has no CUDA compiler.
#include "pplab/backend.hpp"

namespace pplab {

bool cuda_compiled() { return false; }

std::unique_ptr<Backend> make_cuda_backend(std::string& why) {
    why = "this build has no CUDA back end (no CUDA compiler was found when it was configured)";
    return nullptr;
}

} // namespace pplab
