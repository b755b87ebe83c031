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

} // namespace pplab::simtest
