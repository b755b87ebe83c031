// The Timing panel: the current algorithm's family timed stage by stage (the chapter's story
// order) against CUB and the copy roof, and GB/s against block size. The figures are the
// classroom's timing report (State::classroom.timing): the H200's, built in, until another
// file is opened or this machine's GPU measures its own.
#pragma once

#include "state.hpp"
#include "timing_job.hpp"

#include <functional>
#include <string>

namespace pplab::ui {

class TimingPanel {
public:
    explicit TimingPanel(std::function<void()> wake);

    // Every frame, shown or not: takes a finished measurement; the first time, puts the
    // built-in H200 figures in the state when no report is there.
    void update(State& st);
    // The panel's window, placed over `pos`, `size` when it opens.
    void draw(State& st, float x, float y, float w, float h);

    bool open = false;
    bool busy() const { return job_.busy(); }

    // What the buttons do (the tests press them through these).
    void measure(const State& st); // the family at the size shown, every block size
    void open_builtin(State& st);  // bench/results/h200-bench.json, embedded in the binary
    void open_file(State& st, const std::string& path);
    const std::string& source() const { return source_; }
    const std::string& error() const { return error_; }
    bool gpu() const { return gpu_; }

    // What the charts show: which size, data and block size of the report.
    long long size = 0;       // 0: the family's default
    std::string distribution; // histograms
    int block = 0;            // 0: each stage at its fastest block size
    bool log_scale = false;

private:
    void contents(State& st);
    void status(State& st);
    void choices(const State& st, Family f);

    TimingJob job_;
    bool gpu_ = false;
    std::string why_no_gpu_;
    bool offered_builtin_ = false;
    std::string source_; // where the figures on show came from
    std::string shown_;  // which figures source_ describes
    std::string error_;  // why the last open or measurement failed
    std::string path_;   // the path field
    Family family_seen_ = Family::Reduce;
    int settings_block_seen_ = -1;
    bool placed_ = false;
};

} // namespace pplab::ui
