// The CPU models' recorder: writes snapshots into a trace buffer through the same layout the
// CUDA kernels use, so the decoder checks the CPU models' records exactly as the GPU's.
#pragma once

#include "pplab/plan.hpp"

#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace pplab::cpu {

class Recorder {
public:
    Recorder(std::vector<std::uint32_t>& words, const Launch& launch)
        : words_(words), launch_(launch) {}

    void operator()(record::Step step, int level, int block, int warp,
                    std::span<const float> values) {
        const int si = launch_.segment(step);
        if (si < 0)
            throw std::logic_error("kernel " + launch_.kernel + " records a step its plan lacks");
        const record::Segment& s = launch_.layout.seg[si];
        if (values.size() != s.count)
            throw std::logic_error("kernel " + launch_.kernel + " records " +
                                   std::to_string(values.size()) + " values where the plan has " +
                                   std::to_string(s.count));
        const std::uint64_t at =
            record::record_offset(s, level, s.blocks > 0 ? block : 0, s.warps > 0 ? warp : 0);
        const record::Header h = record::make_header(s, launch_.pass(), level, block, warp);
        std::memcpy(words_.data() + at, &h, sizeof h);
        std::memcpy(words_.data() + at + record::kHeaderWords, values.data(),
                    values.size() * sizeof(float));
    }

    const Launch& launch() const { return launch_; }

private:
    std::vector<std::uint32_t>& words_;
    const Launch& launch_;
};

// Models of each family. Each fills `words` through Recorders (one per launch of the plan)
// and returns what the kernels leave in their output buffer.
std::vector<float> run_reduce(const Request& r, const Plan& plan,
                              std::vector<std::uint32_t>& words);
std::vector<float> run_scan(const Request& r, const Plan& plan, std::vector<std::uint32_t>& words);
std::vector<float> run_histogram(const Request& r, const Plan& plan,
                                 std::vector<std::uint32_t>& words);
// The production kernels' results (they are not traced): see fast.cpp.
std::vector<float> run_fast(const Request& r);

} // namespace pplab::cpu
