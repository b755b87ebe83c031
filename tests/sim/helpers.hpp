// Shared by the simulator's tests: requests, the chapter's listing as the editor shows it.
#pragma once

#include "pplab/listing.hpp"
#include "pplab/sim.hpp"

#include <string>

namespace pplab::simtest {

inline std::string listing_text(const Request& r) {
    std::string text;
    for (const std::string& line : listing(normalize(r)).lines)
        text += line + "\n";
    return text;
}

inline Request request(Algorithm a, std::vector<float> input, int block = 0) {
    Request r;
    r.algorithm = a;
    r.block = block;
    r.options.order_seed = 7;
    r.input = std::move(input);
    return r;
}

// Every hazard, one per line, for failure messages.
inline std::string hazards_text(const sim::RunResult& res) {
    std::string s = res.message + "\n";
    for (const auto& h : res.hazards)
        s += std::string(sim::hazard_id(h.kind)) + " line " + std::to_string(h.line) + ": " +
             h.message + "\n";
    for (const auto& n : res.notes)
        s += "note: " + n + "\n";
    for (const auto& e : res.errors)
        s += "error line " + std::to_string(e.line) + ": " + e.message + "\n";
    return s;
}

inline std::string counters_text(const Counters& c) {
    return "barriers " + std::to_string(c.barriers) + ", shared reads " +
           std::to_string(c.shared_reads) + ", shared writes " + std::to_string(c.shared_writes) +
           ", shuffles " + std::to_string(c.shuffles) + ", shared atomics " +
           std::to_string(c.shared_atomics) + ", global atomics " +
           std::to_string(c.global_atomics) + ", global reads " + std::to_string(c.global_reads) +
           ", global writes " + std::to_string(c.global_writes) + "\n";
}

} // namespace pplab::simtest
