// What each step of the chapter's (uninstrumented) kernel costs: barriers, shared-memory
// traffic, shuffles, atomics, global traffic. Derived from (step, level, request) and, for
// the data-dependent counts of histograms, from the frame's values: never recorded, so the
// counters cannot disagree with the code. They answer Exercise 1 and feed the GUI's counters.
#pragma once

#include "pplab/trace.hpp"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace pplab {

struct Counters {
    std::int64_t barriers = 0;       // __syncthreads() executed (per block, summed over blocks)
    std::int64_t shared_reads = 0;   // shared-memory loads
    std::int64_t shared_writes = 0;  // shared-memory stores
    std::int64_t shuffles = 0;       // __shfl_down_sync executed by a warp
    std::int64_t shared_atomics = 0; // atomicAdd on shared memory
    std::int64_t global_atomics = 0; // atomicAdd on global memory
    std::int64_t global_reads = 0;   // elements read from global memory
    std::int64_t global_writes = 0;  // elements written to global memory
    std::int64_t additions = 0;      // floating-point or integer additions of data

    Counters& operator+=(const Counters& o);
    bool operator==(const Counters&) const = default;
};

// The counters by name, in the order the window lists them: "shared reads" and its JSON id
// "shared_reads" with its field.
struct CounterField {
    std::string_view name;
    std::string_view id;
    std::int64_t Counters::*field;
};
std::span<const CounterField> counter_fields();

// The cost of the step that produced frames[index] (its block or warp only).
Counters frame_cost(const Trace& t, std::size_t index);

// Running totals over the canonical order: element i includes frames 0..i.
std::vector<Counters> cumulative_costs(const Trace& t);

struct Summary {
    int barriers_per_block = 0; // in one block of the main launch: Exercise 1's number
    Counters total;             // over the whole run
};
Summary summarize(const Trace& t);

// Barriers a block passes up to and including frames[index], counted in that frame's block
// and pass ("barrier 3 of 8").
int barriers_so_far(const Trace& t, std::size_t index);

} // namespace pplab
