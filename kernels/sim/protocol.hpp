// What the parent and the runner child say to each other, as JSON files: the request going in,
// the trace, hazards and notes coming out.
#pragma once

#include "pplab/sim.hpp"

#include <string>
#include <string_view>

namespace pplab::sim {

std::string request_to_json(const Request& r);
Request request_from_json(std::string_view text); // throws InputError

struct RunnerOutput {
    bool faulted = false;
    std::string trace_json; // to_json of the trace (frames the kernel did not give are "?")
    std::vector<Hazard> hazards;
    std::vector<std::string> notes;
    std::string error; // the run could not start (a kernel missing, a wrong signature)
};

std::string output_to_json(const RunnerOutput& o);
RunnerOutput output_from_json(std::string_view text); // throws InputError

} // namespace pplab::sim
