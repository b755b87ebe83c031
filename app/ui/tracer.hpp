// Tracing off the UI thread: the request is built, traced and analysed (data flow, steps,
// counters) in the background while the window keeps drawing. Only the latest request
// matters: one submitted while another runs replaces any that was waiting.
// The page has no threads (PPLAB_NO_THREADS): there the same stages run between frames, from
// advance(), with the same progress; a newer request replaces the one in progress.
#pragma once

#include "settings.hpp"

#include "pplab/backend.hpp"
#include "scene/model.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#if !PPLAB_NO_THREADS
#include <condition_variable>
#include <thread>
#endif

namespace pplab::ui {

struct TraceResult {
    std::uint64_t job = 0;
    Settings settings;
    std::shared_ptr<const scene::Model> model; // null when the request failed
    std::string error;                         // what was wrong, for the user
    std::string note;                          // the backend's fallback note, if any
    double seconds = 0;
};

class Tracer {
public:
    // `wake` is called from the worker when a result is ready (the window's event loop
    // sleeps until something happens).
    explicit Tracer(std::function<void()> wake);
    ~Tracer();
    Tracer(const Tracer&) = delete;
    Tracer& operator=(const Tracer&) = delete;

    std::uint64_t submit(const Settings& s);
    std::optional<TraceResult> take(); // the newest finished result, once
    // Without threads: the next stage of the job in progress (called once a frame). With a
    // worker thread: nothing, the worker does it.
    void advance();

    bool busy() const;
    double busy_seconds() const;
    std::string stage() const; // what the worker is doing now
    float progress() const;    // 0..1 over the stages

private:
    // One request on its way through the stages.
    struct Job {
        TraceResult result;
        std::optional<Request> request;
        Backend* backend = nullptr;
        std::optional<Trace> trace;
        int stage = 0;
    };
    // Does the job's next stage and says what comes next; true when the job is finished.
    bool run_stage(Job& job);
    void finish(Job& job);

    std::function<void()> wake_;
    mutable std::mutex mutex_;
    std::optional<std::pair<std::uint64_t, Settings>> pending_;
    std::optional<TraceResult> done_;
    std::uint64_t next_job_ = 1;
    bool working_ = false;
    std::string stage_;
    float progress_ = 0;
    std::chrono::steady_clock::time_point started_;
    // Back ends are made once per name (a CUDA context is expensive to create); only the
    // job's stages use them.
    std::map<std::string, BackendChoice> backends_;
#if PPLAB_NO_THREADS
    std::optional<Job> job_;
#else
    void run(std::stop_token stop);
    std::condition_variable_any cv_;
    std::jthread worker_; // last: it starts after everything it uses exists
#endif
};

} // namespace pplab::ui
