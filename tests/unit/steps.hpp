// Every frame of a trace against what the chapter says the buffer holds after that step,
// in closed form ("after tree level k, s[t] is the sum of the loaded elements congruent to t
// modulo TILE >> k"), computed here with plain loops.
//
// Only for inputs whose every partial sum is exact in fp32 (small whole numbers, histogram
// counts): then the order of the additions cannot matter and the comparison is exact.
#pragma once

#include "pplab/trace.hpp"

namespace pplab::steps {

// Adds a gtest failure for the first wrong cell of each wrong frame (at most a few).
void expect_frames_follow_the_kernel(const Trace& t);

// The two reductions whose fp32 order the chapter fixes serially, checked bit for bit for any
// input: reduce-naive's running sum in index order, and reduce-atomic's running sum in the
// blocks' arrival order (each block adding its own total exactly once).
void expect_fixed_order_sums(const Trace& t);

} // namespace pplab::steps
