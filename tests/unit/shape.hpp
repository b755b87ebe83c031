// The shape a trace must have, worked out here from the chapter's loops and not from
// make_plan: which launches run, and for each the frames (step, level, block, warp) in
// canonical order, each with its buffer and its number of values. The production kernels
// (AlgorithmInfo::traced == false) record no frames: expected_keys() refuses them.
#pragma once

#include "pplab/trace.hpp"

#include <string>
#include <vector>

namespace pplab::shape {

// One launch: its grid, its block size and how many elements it reads.
struct Pass {
    int grid = 1;
    int block = 1;
    int n = 0;
};

// The launches a (normalized) request makes, in launch order.
std::vector<Pass> passes(const Request& r);

// The grid the chapter's rules give when none is asked for: one element per thread for the
// tree and the shuffle, ELEMS_PER_THREAD = 4 per thread for the grid-stride kernels; the
// production kernels size theirs from fast.cu's loads (block is then always 256).
int default_grid(Algorithm a, int n, int block);

// What one frame must be, minus its values. AtomicAdd frames carry the arriving block,
// which no shape fixes: their `block` here is -2, "any block".
struct Key {
    int pass = 0;
    Step step = Step::Load;
    int level = 0;
    int block = -1;
    int warp = -1;
    Buffer buffer = Buffer::Shared;
    std::size_t count = 0;
    bool operator==(const Key&) const = default;
};
inline constexpr int kAnyBlock = -2;

std::vector<Key> expected_keys(const Request& r);
Key key_of(const Frame& f);
std::string describe(const Key& k);

// Frames a plan promises: levels x blocks x warps summed over its segments.
std::size_t frames_in_plan(const Request& r);

int log2_exact(int power_of_two);
int log2_ceil(int x);

} // namespace pplab::shape
