// What the chapter's exercises and its determinism paragraph ask the reader to work out,
// computed from traces and runs, for the window's exercise panel and the tests.
#pragma once

#include "pplab/backend.hpp"

#include <string>
#include <vector>

namespace pplab {

// Exercise 1: barriers per block of the Stage-1 tree and of the full kernel for one TILE.
struct BarrierCounts {
    int tile = 0;
    int tree = 0; // reduceTree: log2(TILE), one per level
    int full = 0; // reduceFull: the one barrier
};
BarrierCounts exercise1_barriers(int tile); // tile: a power of two from 32 to 1024

// Exercise 4: global atomics the privatised fold issues with and without the empty-bin skip.
struct FoldAtomics {
    std::string data; // the generator's id
    long long with_skip = 0, without_skip = 0;
};
FoldAtomics exercise4_fold_atomics(Generator data, int n, int bins, int block);

// §8.6 "Determinism": the same reduction run again and again. On the CPU model each run of
// reduce-atomic takes another arrival order (seeds 1, 2, ...), as a GPU's scheduler would.
struct RepeatedRuns {
    std::vector<float> sums;
    int distinct = 0; // how many different bit patterns
};
RepeatedRuns run_repeatedly(Backend& backend, Request r, int times);

// "0 10010010 00000000001011010111000": sign, exponent and fraction, to compare sums by bits.
std::string float_bits(float v);

} // namespace pplab
