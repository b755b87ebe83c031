// The chapter's CUDA source for each algorithm, shown beside the canvas with the lines of
// the current step highlighted. The listings live in kernel_sources/*.cu (embedded); a
// trailing "// @step-id,step-id" on a line says which steps run it and is not shown.
#pragma once

#include "pplab/request.hpp"
#include "pplab/trace.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pplab::ui {

struct Listing {
    std::vector<std::string> lines;
    std::vector<std::vector<Step>> steps; // per line: the steps that execute it

    bool runs(std::size_t line, Step s) const;
};

// Throws InputError naming an unknown step id.
Listing parse_listing(std::string_view text);

// The listing of an algorithm (throws std::logic_error if the build lost one).
Listing listing(Algorithm a);

} // namespace pplab::ui
