#include "cpu/recorder.hpp"
#include "pplab/backend.hpp"
#include "trace/decode.hpp"

namespace pplab {

namespace {

class CpuModel final : public Backend {
public:
    std::string name() const override { return "cpu"; }
    std::string device() const override { return "CPU lockstep model"; }

    Trace trace(const Request& request) override {
        Trace t;
        t.request = normalize(request);
        t.backend = name();
        t.device = device();
        const Plan plan = make_plan(t.request);
        std::vector<std::uint32_t> words = poisoned_buffer(plan);
        switch (info(t.request.algorithm).family) {
        case Family::Reduce:
            t.result = cpu::run_reduce(t.request, plan, words);
            break;
        case Family::Scan:
            t.result = cpu::run_scan(t.request, plan, words);
            break;
        case Family::Histogram:
            t.result = cpu::run_histogram(t.request, plan, words);
            break;
        }
        t.frames = decode(plan, words);
        return t;
    }
};

} // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuModel>(); }

BackendChoice choose_backend(std::string_view which) {
    BackendChoice c;
    if (which == "cpu") {
        c.backend = make_cpu_backend();
        return c;
    }
    if (which != "auto" && which != "cuda")
        throw InputError("unknown backend '" + std::string(which) + "': choose auto, cpu or cuda");
    std::string why;
    c.backend = make_cuda_backend(why);
    if (c.backend)
        return c;
    if (which == "cuda")
        throw InputError("the CUDA back end is not available: " + why);
    c.backend = make_cpu_backend();
    c.note = "no GPU: " + why + "; using the CPU lockstep model, which records the same trace";
    return c;
}

} // namespace pplab
