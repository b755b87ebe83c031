// One function per family of the chapter's kernels (internal to visualizer/scene).
#pragma once

#include "compose.hpp"

namespace pplab::scene::detail {

void view_naive(Composer& c);
void view_tree(Composer& c); // reduce-tree and reduce-coarsened
void view_shuffle(Composer& c);
void view_full(Composer& c);
void view_atomic(Composer& c);
void view_blelloch(Composer& c);
void view_multiblock(Composer& c);
void view_hillis_steele(Composer& c);
void view_histogram(Composer& c);

// The input as grid-stride rounds: one row of grid x block elements per round.
Grid rounds_grid(const Composer& c, float y, int n, int per_round, float width);

} // namespace pplab::scene::detail
