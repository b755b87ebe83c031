// The host compiler's errors on a student's kernel, read back: each placed on the student's
// line and, for the mistakes students make most, said in the chapter's words.
#pragma once

#include "pplab/sim.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pplab::sim {

// `log` is what the compiler printed for the pre-processed file `compiled` (its columns are
// placed in the student's lines; empty: the columns as the compiler says), `source` the
// student's file. Errors in pplab's header are placed on the student's line that led there
// ("required from here"); the simulator's own types (ptr<float>) are written as the student
// wrote them.
std::vector<CompileError> compiler_errors(const std::string& log, std::string_view source,
                                          std::string_view compiled = {});

} // namespace pplab::sim
