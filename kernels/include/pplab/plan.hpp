// From a Request to the launches it takes and the records each launch writes.
//
// The plan is the single place that knows the trace's shape: the CPU models and the CUDA
// kernels both write through it, and the decoder reads through it, so the two back ends
// cannot disagree about where a snapshot goes.
#pragma once

#include "pplab/record.hpp"
#include "pplab/request.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace pplab {

struct Launch {
    std::string kernel; // the chapter's name: "reduceTree", "scanBlocks", "addCarries", ...
    int grid = 1;
    int block = 1;
    int n = 0; // elements this launch reads
    record::LaunchLayout layout{};

    int pass() const { return layout.pass; }
    // Index of the launch's segment with this step; -1 when the launch records no such step.
    int segment(record::Step s) const;
};

struct Plan {
    std::vector<Launch> launches;
    std::uint64_t words = 0; // size of the whole trace buffer
    int rounds = 0;          // grid-stride rounds of the main launch (0 when it has none)
};

// Throws InputError when the trace would exceed kMaxTraceWords.
Plan make_plan(const Request& normalized);

// How many values the kernels leave in their output buffer (Trace::result).
std::size_t result_size(const Request& normalized);

// Grid-stride rounds: every thread of the grid runs the same number, so snapshots between
// rounds are well defined (see the kernels' comments).
int grid_stride_rounds(int n, int grid, int block);

// The multi-block scan's recursion, shared by its plan, its CPU model and its CUDA driver:
// level 0 scans the input in blocks; level k scans the block totals of level k-1 until one
// block holds them all. Passes are numbered in launch order: scans going down, carries back up.
struct ScanLevel {
    int n = 0;           // elements scanned at this level
    int grid = 0;        // blocks at this level
    int scan_pass = 0;   // pass of this level's scanBlocks launch
    int carry_pass = -1; // pass of this level's addCarries launch; -1 when grid == 1
};
std::vector<ScanLevel> scan_levels(int n, int block);

} // namespace pplab
