#include "tracer.hpp"

#include "pplab/backend.hpp"

#include <map>

namespace pplab::ui {

Tracer::Tracer(std::function<void()> wake)
    : wake_(std::move(wake)), worker_([this](std::stop_token st) { run(st); }) {}

Tracer::~Tracer() {
    worker_.request_stop();
    cv_.notify_all();
}

std::uint64_t Tracer::submit(const Settings& s) {
    std::uint64_t id = 0;
    {
        const std::lock_guard lock(mutex_);
        id = next_job_++;
        pending_ = std::pair{id, s};
    }
    cv_.notify_all();
    return id;
}

std::optional<TraceResult> Tracer::take() {
    const std::lock_guard lock(mutex_);
    std::optional<TraceResult> r = std::move(done_);
    done_.reset();
    return r;
}

bool Tracer::busy() const {
    const std::lock_guard lock(mutex_);
    return working_ || pending_.has_value();
}

double Tracer::busy_seconds() const {
    const std::lock_guard lock(mutex_);
    if (!working_)
        return 0;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

std::string Tracer::stage() const {
    const std::lock_guard lock(mutex_);
    return stage_;
}

float Tracer::progress() const {
    const std::lock_guard lock(mutex_);
    return progress_;
}

void Tracer::run(std::stop_token stop) {
    // Back ends are made once per name: a CUDA context is expensive to create.
    std::map<std::string, BackendChoice> backends;
    while (!stop.stop_requested()) {
        std::pair<std::uint64_t, Settings> job;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, stop, [this] { return pending_.has_value(); });
            if (stop.stop_requested())
                return;
            job = std::move(*pending_);
            pending_.reset();
            working_ = true;
            started_ = std::chrono::steady_clock::now();
        }
        const auto set_stage = [this](const char* what, float p) {
            const std::lock_guard lock(mutex_);
            stage_ = what;
            progress_ = p;
        };
        TraceResult result;
        result.job = job.first;
        result.settings = job.second;
        try {
            set_stage("reading the input", 0.05f);
            const Request r = job.second.request();
            set_stage("choosing the back end", 0.15f);
            auto it = backends.find(job.second.backend);
            if (it == backends.end())
                it = backends.emplace(job.second.backend, choose_backend(job.second.backend)).first;
            result.note = it->second.note;
            set_stage("tracing every level", 0.3f);
            Trace t = it->second.backend->trace(r);
            set_stage("deriving the data flow and the counters", 0.75f);
            result.model = std::make_shared<const scene::Model>(std::move(t));
        } catch (const InputError& e) {
            result.error = e.what();
        } catch (const std::exception& e) { // a driver error or a bug: said, never a crash
            result.error = std::string("error: ") + e.what();
        }
        {
            const std::lock_guard lock(mutex_);
            result.seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
            working_ = false;
            stage_.clear();
            progress_ = 1;
            // A newer job is waiting: this result is already stale, but it is the latest
            // good trace if the newer one fails, so it is still delivered.
            done_ = std::move(result);
        }
        if (wake_)
            wake_();
    }
}

} // namespace pplab::ui
