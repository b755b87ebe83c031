#include "cpu/recorder.hpp"
#include "pplab/backend.hpp"
#include "pplab/lookback.hpp"
#include "trace/decode.hpp"

#include <utility>

namespace pplab {

namespace {

class CpuModel final : public Backend {
public:
    std::string name() const override { return "cpu"; }
    std::string device() const override { return "CPU lockstep model"; }

    Trace trace(const Request& request) override {
        if (request.algorithm == Algorithm::ScanFast)
            return trace_lookback_cpu(request); // a schedule chosen by the request's seed
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

    std::vector<float> run(const Request& r) override {
        const Request n = normalize(r);
        return info(n.algorithm).production ? cpu::run_fast(n) : trace(n).result;
    }
};

// CUDA when it works, the CPU model when a CUDA call fails: never a hang or a silent wrong
// answer, and the note says which one answered and why.
class AutoBackend final : public Backend {
public:
    AutoBackend(std::unique_ptr<Backend> gpu, std::unique_ptr<Backend> cpu)
        : gpu_(std::move(gpu)), cpu_(std::move(cpu)) {}
    std::string name() const override { return gpu_->name(); }
    std::string device() const override { return gpu_->device(); }
    Trace trace(const Request& r) override {
        return attempt(r, [&](Backend& b) { return b.trace(r); });
    }
    std::vector<float> run(const Request& r) override {
        return attempt(r, [&](Backend& b) { return b.run(r); });
    }
    std::string last_note() const override { return note_; }

private:
    template <class Fn>
    auto attempt(const Request& r, Fn fn) -> decltype(fn(std::declval<Backend&>())) {
        note_.clear();
        if (!pitfall_runs_on_gpu(r.options.pitfall)) {
            note_ = "the pitfall " + std::string(pitfall_id(r.options.pitfall)) +
                    " is undefined behaviour on a GPU; the CPU model shows it";
            return fn(*cpu_);
        }
        try {
            return fn(*gpu_);
        } catch (const InputError&) {
            throw;
        } catch (const std::exception& e) {
            note_ = std::string("the GPU run failed: ") + e.what() +
                    "; the CPU lockstep model answered instead";
            return fn(*cpu_);
        }
    }

    std::unique_ptr<Backend> gpu_, cpu_;
    std::string note_;
};

} // namespace

std::unique_ptr<Backend> make_cpu_backend() {
    return std::make_unique<CpuModel>();
}

BackendChoice choose_backend(std::string_view which) {
    BackendChoice c;
    if (which == "cpu") {
        c.backend = make_cpu_backend();
        return c;
    }
    if (which != "auto" && which != "cuda")
        throw InputError("unknown backend '" + std::string(which) + "': choose auto, cpu or cuda");
    std::string why;
    std::unique_ptr<Backend> gpu = make_cuda_backend(why);
    if (gpu) {
        c.backend = which == "cuda"
                        ? std::move(gpu)
                        : std::make_unique<AutoBackend>(std::move(gpu), make_cpu_backend());
        return c;
    }
    if (which == "cuda")
        throw InputError("the CUDA back end is not available: " + why);
    c.backend = make_cpu_backend();
    c.note = "no GPU: " + why + "; using the CPU lockstep model, which records the same trace";
    return c;
}

} // namespace pplab
