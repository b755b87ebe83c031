#include "timing_job.hpp"

#include <exception>

namespace pplab::ui {

TimingJob::TimingJob(std::function<void()> wake) : wake_(std::move(wake)) {}

TimingJob::~TimingJob() = default; // a jthread asks the run to stop, then joins it

void TimingJob::start(TimingOptions options) {
    {
        const std::lock_guard lock(mutex_);
        if (busy_)
            return;
        busy_ = true;
        progress_ = 0;
        stage_ = "starting";
        started_ = std::chrono::steady_clock::now();
        done_.reset();
    }
#if PPLAB_NO_THREADS
    stop_ = false;
    options.stop = [this] { return stop_; };
    run(std::move(options));
#else
    // The previous run's thread has finished (busy_ was false): joining it is immediate.
    worker_ = std::jthread([this, options = std::move(options)](std::stop_token stop) mutable {
        options.stop = [stop] { return stop.stop_requested(); };
        run(std::move(options));
    });
#endif
}

void TimingJob::run(TimingOptions options) {
    options.progress = [this](double fraction, const std::string& what) {
        {
            const std::lock_guard lock(mutex_);
            progress_ = fraction;
            stage_ = what;
        }
        if (wake_)
            wake_();
    };
    TimingOutcome outcome;
    try {
        outcome.report = measure_kernels(options);
    } catch (const TimingStopped&) {
        outcome.error = "stopped before the end: the figures shown are the ones from before";
    } catch (const std::exception& e) { // no GPU, a CUDA error: said, never a crash
        outcome.error = e.what();
    }
    {
        const std::lock_guard lock(mutex_);
        busy_ = false;
        done_ = std::move(outcome);
    }
    if (wake_)
        wake_();
}

void TimingJob::stop() {
#if PPLAB_NO_THREADS
    stop_ = true;
#else
    worker_.request_stop();
#endif
}

bool TimingJob::busy() const {
    const std::lock_guard lock(mutex_);
    return busy_;
}

double TimingJob::progress() const {
    const std::lock_guard lock(mutex_);
    return progress_;
}

std::string TimingJob::stage() const {
    const std::lock_guard lock(mutex_);
    return stage_;
}

double TimingJob::seconds() const {
    const std::lock_guard lock(mutex_);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

std::optional<TimingOutcome> TimingJob::take() {
    const std::lock_guard lock(mutex_);
    std::optional<TimingOutcome> out = std::move(done_);
    done_.reset();
    return out;
}

} // namespace pplab::ui
