// What the Timing panel shows, picked out of a TimingReport (pplab bench's rows): pure, so
// the tests check the bars and the plot without drawing them. Row pointers point into the
// report, which must outlive them.
#pragma once

#include "pplab/request.hpp"
#include "pplab/timing.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pplab::ui {

// The rows' name for a family: "reduce", "scan", "histogram".
std::string_view family_id(Family f);

// The family's timed stages in the chapter's story order: naive → tree → coarsened → full →
// fast; multi-block Blelloch → Hillis–Steele → fast; global atomics → privatised (with the
// empty-bin skip, then without: Exercise 4) → per-warp → fast.
std::span<const std::string_view> story(Family f);

// "reduceTree  §8.3", "histogramPrivatised, no empty-bin skip", "CUB", ...
std::string stage_title(std::string_view stage);
// Production kernels (reduce-fast, ...) are timed, not traced: the algorithm list hides them.
bool production_stage(std::string_view stage);

// What a report holds for a family, ascending.
std::vector<long long> timed_sizes(const TimingReport& r, Family f);
std::vector<std::string> timed_distributions(const TimingReport& r, Family f); // {""}: none
std::vector<int> timed_blocks(const TimingReport& r, Family f); // the textbook stages' blocks

// The size the panel opens at: the largest the family's stages share (2^28 on the H200).
long long default_size(const TimingReport& r, Family f);

struct StageBar {
    std::string stage;
    const TimingRow* row = nullptr; // nullptr: not timed at this size, see `note`
    std::string note;               // "timed at 2^20 only", "not timed"
};

struct Bars {
    std::vector<StageBar> stages; // story order
    const TimingRow* cub = nullptr;
    double roof_gbps = 0; // the copy bandwidth of the same run
};

// Every stage at one size and distribution: at `block` where the stage was timed at several
// block sizes (0: its fastest), else at the block it was timed with (naive, fast, CUB).
Bars stage_bars(const TimingReport& r, Family f, long long size, const std::string& distribution,
                int block);

// GB/s against block size: one series per stage timed at several block sizes.
struct BlockSeries {
    std::string stage;
    std::vector<const TimingRow*> points; // ascending block size
};
std::vector<BlockSeries> block_series(const TimingReport& r, Family f, long long size,
                                      const std::string& distribution);

// "2^28" for a power of two, the number otherwise.
std::string size_text(long long n);
// "1 GiB", "64 MiB", "4 KiB": what a size of elements or bytes weighs.
std::string bytes_text(double bytes);

} // namespace pplab::ui
