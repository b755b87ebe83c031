// The chapter's CUDA source for each algorithm: shown beside the canvas with the lines of the
// current step highlighted, and the starting point of a student's own kernel. The listings live
// in kernels/listings/*.cu (embedded); a trailing "// @step-id,step-id" on a line says which
// steps run it and is not shown.
#pragma once

#include "pplab/request.hpp"
#include "pplab/trace.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pplab {

struct Listing {
    std::vector<std::string> lines;
    std::vector<std::vector<Step>> steps; // per line: the steps that execute it

    bool runs(std::size_t line, Step s) const;
};

// Throws InputError naming an unknown step id.
Listing parse_listing(std::string_view text);

// The listing of an algorithm as the chapter writes it (throws std::logic_error if the build
// lost one).
Listing listing(Algorithm a);

// The listing as this launch runs it: the constants it uses (TILE, WARPS, BINS) defined with the
// launch's values, so the text shown and the text a student edits and compiles say what ran
// (the chapter's `#define TILE 256` reads `#define TILE 64` for a block of 64). A constant the
// listing uses without defining it gets a `#define` above the first kernel. `r` must be
// normalized (its block filled in).
Listing listing(const Request& r);

} // namespace pplab
