// What the simulator's child process answers (hazards, notes, what it counted, the lines of
// each step; the trace itself comes as a record buffer). The student's kernel
// runs in that process and can write anything there, so the parent reads the answer as it
// reads any file: an answer that reads writes back and reads the same.
#include "harness.hpp"

#include "sim/protocol.hpp"

#include <cstdint>

using namespace pplab;

// The parent bounds the step lines by the trace's record words; a small trace's bound here.
constexpr std::uint64_t kMaxSteps = 1 << 16;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto read =
        fuzz::accepted([&] { return sim::output_from_json(fuzz::text(data, size), kMaxSteps); });
    if (!read)
        return 0;
    const sim::RunnerOutput again = sim::output_from_json(sim::output_to_json(*read), kMaxSteps);
    fuzz::require(again.faulted == read->faulted && again.counted == read->counted &&
                      again.step_lines.size() == read->step_lines.size() &&
                      again.notes == read->notes && again.error == read->error &&
                      again.hazards.size() == read->hazards.size(),
                  "an answer written back reads the same");
    return 0;
}
