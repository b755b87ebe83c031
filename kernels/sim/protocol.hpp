// What the parent and the runner child say to each other: the request going in as JSON; coming
// out, the trace's record buffer as binary (trace.bin: the plan decodes it in the parent, as it
// decodes the CPU model's and the GPU's) and the hazards, notes and counts as JSON.
#pragma once

#include "pplab/sim.hpp"
#include "pplab/stats.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pplab::sim {

// The __global__ function of the student's file that a launch of the plan calls: the plan's
// kernel, except scan-blelloch's, whose listing wraps the block scan in scanBlelloch.
std::string listing_kernel(Algorithm a, const std::string& plan_kernel);

std::string request_to_json(const Request& r);
Request request_from_json(std::string_view text); // throws InputError

// The runner's exit codes when it stopped at the time limit or at the memory limit (an
// allocation failed), STOPPED.txt written.
inline constexpr int kStoppedExit = 3;
inline constexpr int kMemoryExit = 4;
// ... and when the kernel crashed (a recursion past a thread's stack), STOPPED.txt written.
inline constexpr int kCrashExit = 5;
// ... an integer division by zero (SIGFPE; a GPU gives an undefined number instead), and an
// abort or trap (a failed assert()), likewise.
inline constexpr int kDivideExit = 6;
inline constexpr int kAbortExit = 7;

struct RunnerOutput {
    bool faulted = false;
    std::vector<Hazard> hazards;
    std::vector<std::string> notes;
    Counters counted; // what the kernel did, as it ran
    std::vector<StepLines> step_lines;
    std::string error; // the run could not start (a kernel missing, a wrong signature)
};

std::string output_to_json(const RunnerOutput& o);
// Throws InputError, also when the step lines name more than max_steps steps (the trace's
// record words bound them: every step has a frame of at least one word).
RunnerOutput output_from_json(std::string_view text, std::uint64_t max_steps);

// The record buffer (frames the kernel did not give are "?") and the output buffer's values.
struct Recording {
    std::vector<std::uint32_t> words;
    std::vector<float> result;
};
std::string recording_to_bytes(const Recording& r);
// Throws InputError when the bytes are not a whole recording.
Recording recording_from_bytes(std::string_view bytes);

} // namespace pplab::sim
