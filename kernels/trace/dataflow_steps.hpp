// Dataflow's per-family parts (dataflow_reduce.cpp, dataflow_scan.cpp, dataflow_histogram.cpp):
// each answers, for the steps of its kernels, who wrote which cell from which cells and what the
// step means in the chapter's words. One function per family, as the kernel files are split.
#pragma once

#include "pplab/dataflow.hpp"

#include <string>
#include <vector>

namespace pplab::dataflow {

// One frame of the trace and the geometry of the launch that recorded it.
struct StepView {
    const Dataflow& flow;
    const Request& request;
    const Frame& frame;
    std::size_t index;
    int predecessor; // the frame this step updated in place; -1: it starts afresh
    const Launch& launch;
    int block_size, grid, n, warps;
    int levels; // log2 of the block size: the tree's levels

    StepView(const Dataflow& flow, std::size_t index);

    // A cell of the frame this step updated, or of the launch's input.
    CellRef before(int cell) const { return {predecessor, cell}; }
    static CellRef input(long long i) { return {CellRef::kInput, static_cast<int>(i)}; }
    // A frame of this pass and block (and warp).
    int find(Step step, int level, int warp = -1) const;
    // "Block 3: " when the launch has more than one block.
    std::string where() const;
    // Cells no thread wrote keep the predecessor's value.
    void unchanged_from_predecessor(std::vector<CellWrite>& w) const;
};

// "s[3]"
std::string cell_name(const char* array, long long i);
// "thread 3" or "threads 0–7" ("lane", "lanes"); `first` <= `last`.
std::string thread_range(long long first, long long last, bool lanes = false);
// "1 slot", "8 slots"
std::string count_of(long long k, const char* one, const char* many);
// "Level 0, the 1st of 3": levels count from 0, as the chapter's comments do.
std::string level_of(const char* name, int level, int levels);

// Load: each thread (or lane) copies one element; shared by the reductions and the scans.
void load_writes(const StepView& v, std::vector<CellWrite>& w);
std::string load_caption(const StepView& v);

void reduce_writes(const StepView& v, std::vector<CellWrite>& w);
std::string reduce_caption(const StepView& v);
void scan_writes(const StepView& v, std::vector<CellWrite>& w);
std::string scan_caption(const StepView& v);
// scan-fast's look-back record (dataflow_lookback.cpp): reached through the scan family.
void lookback_writes(const StepView& v, std::vector<CellWrite>& w);
std::string lookback_caption(const StepView& v);
std::string lookback_details(const StepView& v);
void histogram_writes(const StepView& v, std::vector<CellWrite>& w);
std::string histogram_caption(const StepView& v);

} // namespace pplab::dataflow
