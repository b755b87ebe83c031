// Kernel timing off the UI thread: measure_kernels runs on a worker while the window keeps
// drawing, and its progress callback reports (and, when asked, stops the run between rows).
// The page (PPLAB_NO_THREADS) has no threads and no GPU: there start() asks measure_kernels,
// which says at once why it cannot measure, and the outcome carries that.
#pragma once

#include "pplab/timing.hpp"

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#if !PPLAB_NO_THREADS
#include <thread>
#endif

namespace pplab::ui {

struct TimingOutcome {
    std::optional<TimingReport> report; // empty when the run failed or was stopped
    std::string error;                  // what went wrong, for the user
};

class TimingJob {
public:
    // `wake` is called from the worker at each row and at the end (the window's loop sleeps
    // until something happens).
    explicit TimingJob(std::function<void()> wake);
    ~TimingJob(); // a run in progress stops after its current row
    TimingJob(const TimingJob&) = delete;
    TimingJob& operator=(const TimingJob&) = delete;

    void start(TimingOptions options); // ignored while a run is in progress
    void stop();                       // the run ends after the row being timed
    bool busy() const;
    double progress() const; // 0..1
    std::string stage() const;
    double seconds() const;              // since the run started
    std::optional<TimingOutcome> take(); // a finished run, once

private:
    std::function<void()> wake_;
    mutable std::mutex mutex_;
    bool busy_ = false;
    double progress_ = 0;
    std::string stage_;
    std::chrono::steady_clock::time_point started_;
    std::optional<TimingOutcome> done_;
#if PPLAB_NO_THREADS
    bool stop_ = false;
#else
    std::jthread worker_; // last: it stops and joins before the members it uses go
#endif
    void run(TimingOptions options); // on the worker, or in start() without threads
};

} // namespace pplab::ui
