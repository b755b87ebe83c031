#include "tracer.hpp"

namespace pplab::ui {

namespace {

// What each stage does, for the progress bar: shown while it runs.
struct StageInfo {
    const char* what;
    float progress;
};
constexpr StageInfo kStages[] = {{"reading the input", 0.05f},
                                 {"choosing the back end", 0.15f},
                                 {"tracing every level", 0.3f},
                                 {"deriving the data flow and the counters", 0.75f}};
constexpr int kStageCount = static_cast<int>(std::size(kStages));

#if PPLAB_NO_THREADS
// Without threads, stages run in a frame for at most about this long, so the page redraws.
constexpr auto kFrameBudget = std::chrono::milliseconds(12);
#endif

} // namespace

#if PPLAB_NO_THREADS
Tracer::Tracer(std::function<void()> wake) : wake_(std::move(wake)) {}

Tracer::~Tracer() = default;
#else
Tracer::Tracer(std::function<void()> wake)
    : wake_(std::move(wake)), worker_([this](std::stop_token st) { run(st); }) {}

Tracer::~Tracer() {
    worker_.request_stop();
    cv_.notify_all();
}
#endif

std::uint64_t Tracer::submit(const Settings& s) {
    std::uint64_t id = 0;
    {
        const std::lock_guard lock(mutex_);
        id = next_job_++;
        pending_ = std::pair{id, s};
    }
#if !PPLAB_NO_THREADS
    cv_.notify_all();
#endif
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

bool Tracer::run_stage(Job& job) {
    try {
        switch (job.stage) {
        case 0:
            job.request = job.result.settings.request();
            break;
        case 1: {
            const std::string& name = job.result.settings.backend;
            auto it = backends_.find(name);
            if (it == backends_.end())
                it = backends_.emplace(name, choose_backend(name)).first;
            job.result.note = it->second.note;
            job.backend = it->second.backend.get();
            break;
        }
        case 2:
            job.trace = job.backend->trace(*job.request);
            break;
        default:
            job.result.model = std::make_shared<const scene::Model>(std::move(*job.trace));
            break;
        }
    } catch (const InputError& e) {
        job.result.error = e.what();
        return true;
    } catch (const std::exception& e) { // a driver error or a bug: said, never a crash
        job.result.error = std::string("error: ") + e.what();
        return true;
    }
    if (++job.stage == kStageCount)
        return true;
    const std::lock_guard lock(mutex_);
    stage_ = kStages[job.stage].what;
    progress_ = kStages[job.stage].progress;
    return false;
}

void Tracer::finish(Job& job) {
    {
        const std::lock_guard lock(mutex_);
        job.result.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        working_ = false;
        stage_.clear();
        progress_ = 1;
        // A newer job is waiting: this result is already stale, but it is the latest good
        // trace if the newer one fails, so it is still delivered.
        done_ = std::move(job.result);
    }
    if (wake_)
        wake_();
}

#if PPLAB_NO_THREADS
void Tracer::advance() {
    {
        const std::lock_guard lock(mutex_);
        if (pending_) { // the newest request replaces the one in progress
            job_.emplace();
            job_->result.job = pending_->first;
            job_->result.settings = std::move(pending_->second);
            pending_.reset();
            working_ = true;
            started_ = std::chrono::steady_clock::now();
            stage_ = kStages[0].what;
            progress_ = kStages[0].progress;
        }
        if (!job_)
            return;
    }
    // Stages while the frame has time: a small trace arrives in the frame that asked for it.
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < kFrameBudget)
        if (run_stage(*job_)) {
            finish(*job_);
            job_.reset();
            return;
        }
}
#else
void Tracer::advance() {}

void Tracer::run(std::stop_token stop) {
    while (!stop.stop_requested()) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, stop, [this] { return pending_.has_value(); });
            if (stop.stop_requested())
                return;
            job.result.job = pending_->first;
            job.result.settings = std::move(pending_->second);
            pending_.reset();
            working_ = true;
            started_ = std::chrono::steady_clock::now();
            stage_ = kStages[0].what;
            progress_ = kStages[0].progress;
        }
        while (!run_stage(job)) {
        }
        finish(job);
    }
}
#endif

} // namespace pplab::ui
