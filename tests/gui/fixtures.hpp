// Small traces of every view, for the GUI tests.
#pragma once

#include "scene/model.hpp"

#include "pplab/request.hpp"

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace pplab::test {

struct Case {
    std::string name; // also the screenshot's file name
    Request request;
};

// Test names print the case's name, not its bytes.
inline void PrintTo(const Case& c, std::ostream* os) {
    *os << c.name;
}

// One small, readable request per traced algorithm (the chapter's worked sizes).
std::vector<Case> view_cases();

// Traces on the CPU model: the same trace the GPU records.
std::unique_ptr<scene::Model> trace(const Request& r);

Request request(Algorithm a, std::vector<float> input, int block, int bins = 256);
std::vector<float> seq(int n); // 1, 2, ..., n

} // namespace pplab::test
