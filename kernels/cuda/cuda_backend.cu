// The CUDA back end: runs the instrumented kernels, copies the trace buffer back and decodes
// it through the same plan and checks as the CPU model.
#include "cuda/launch.hpp"
#include "pplab/backend.hpp"
#include "pplab/lookback.hpp"
#include "trace/decode.hpp"

namespace pplab {

namespace {

class CudaBackend final : public Backend {
public:
    explicit CudaBackend(std::string device) : device_(std::move(device)) {}

    std::string name() const override { return "cuda"; }
    std::string device() const override { return device_; }

    Trace trace(const Request& request) override {
        if (request.algorithm == Algorithm::ScanFast)
            return trace_lookback_gpu(request); // the order the GPU ran
        Trace t;
        t.request = normalize(request);
        refuse_undefined(t.request);
        t.backend = name();
        t.device = device_;
        const Plan plan = make_plan(t.request);
        // Poisoned, so a record no kernel wrote fails the decoder's magic check.
        cuda::DeviceBuffer<std::uint32_t> words(plan.words, kPoison);
        t.result = dispatch(t.request, &plan, &words);
        t.frames = decode(plan, words.to_host());
        return t;
    }

    std::vector<float> run(const Request& request) override {
        const Request r = normalize(request);
        refuse_undefined(r);
        return dispatch(r, nullptr, nullptr);
    }

private:
    // A race or undefined behaviour teaches nothing on a device: it may do anything.
    static void refuse_undefined(const Request& r) {
        if (!pitfall_runs_on_gpu(r.options.pitfall))
            throw InputError("the pitfall " + std::string(pitfall_id(r.options.pitfall)) +
                             " is undefined behaviour on a GPU: it is shown on the CPU model "
                             "(--backend cpu)");
    }

    static std::vector<float> dispatch(const Request& r, const Plan* plan,
                                       cuda::DeviceBuffer<std::uint32_t>* words) {
        if (info(r.algorithm).production)
            return cuda::fast(r);
        switch (info(r.algorithm).family) {
        case Family::Reduce:
            return cuda::reduce(r, plan, words);
        case Family::Scan:
            return cuda::scan(r, plan, words);
        case Family::Histogram:
            return cuda::histogram(r, plan, words);
        }
        throw std::logic_error("unknown family");
    }

    std::string device_;
};

} // namespace

bool cuda_compiled() {
    return true;
}

std::unique_ptr<Backend> make_cuda_backend(std::string& why) {
    int count = 0;
    if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
        why = e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice
                  ? std::string("no NVIDIA driver or GPU answers on this machine")
                  : std::string("no CUDA device answers (") + cudaGetErrorString(e) + ")";
        cudaGetLastError(); // clear it: the CPU model runs next
        return nullptr;
    }
    if (count == 0) {
        why = "no CUDA device was found";
        return nullptr;
    }
    cudaDeviceProp prop{};
    if (const cudaError_t e = cudaGetDeviceProperties(&prop, 0); e != cudaSuccess) {
        why = std::string("the CUDA device does not answer (") + cudaGetErrorString(e) + ")";
        return nullptr;
    }
    return std::make_unique<CudaBackend>(prop.name);
}

} // namespace pplab
