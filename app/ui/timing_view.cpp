#include "timing_view.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <utility>

namespace pplab::ui {

namespace {

constexpr std::string_view kNoSkip = "-no-skip";

constexpr std::array<std::string_view, 5> kReduce = {
    "reduce-naive", "reduce-tree", "reduce-coarsened", "reduce-full", "reduce-fast"};
constexpr std::array<std::string_view, 3> kScan = {"scan-multiblock", "scan-hillis-steele",
                                                   "scan-fast"};
constexpr std::array<std::string_view, 5> kHistogram = {
    "hist-global", "hist-privatised", "hist-privatised-no-skip", "hist-per-warp", "hist-fast"};

bool in_family(const TimingRow& row, Family f) {
    return row.family == family_id(f);
}

// The algorithm a stage times ("hist-privatised-no-skip" is hist-privatised without the
// skip), or nullptr for CUB and the copy.
const AlgorithmInfo* algorithm_of(std::string_view stage) {
    if (stage.ends_with(kNoSkip))
        stage.remove_suffix(kNoSkip.size());
    for (const AlgorithmInfo& a : algorithms())
        if (a.id == stage)
            return &a;
    return nullptr;
}

} // namespace

std::string_view family_id(Family f) {
    switch (f) {
    case Family::Reduce:
        return "reduce";
    case Family::Scan:
        return "scan";
    case Family::Histogram:
        return "histogram";
    }
    return "";
}

std::span<const std::string_view> story(Family f) {
    switch (f) {
    case Family::Reduce:
        return kReduce;
    case Family::Scan:
        return kScan;
    case Family::Histogram:
        return kHistogram;
    }
    return {};
}

std::string stage_title(std::string_view stage) {
    if (stage == "cub")
        return "CUB";
    if (stage == "memcpy")
        return "cudaMemcpy";
    const AlgorithmInfo* a = algorithm_of(stage);
    if (!a)
        return std::string(stage);
    std::string title = std::string(a->title);
    if (stage.ends_with(kNoSkip))
        return title + ", no empty-bin skip";
    return title + "  " + (a->production ? "(production)" : std::string(a->section));
}

bool production_stage(std::string_view stage) {
    const AlgorithmInfo* a = algorithm_of(stage);
    return a && a->production;
}

std::vector<long long> timed_sizes(const TimingReport& r, Family f) {
    std::set<long long> sizes;
    for (const TimingRow& row : r.rows)
        if (in_family(row, f))
            sizes.insert(row.size);
    return {sizes.begin(), sizes.end()};
}

std::vector<std::string> timed_distributions(const TimingReport& r, Family f) {
    // In the order pplab bench measures them: uniform first, the image last.
    const std::array<std::string_view, 4> order = {"uniform", "one-value", "90%-one-value",
                                                   "image"};
    std::set<std::string> seen;
    for (const TimingRow& row : r.rows)
        if (in_family(row, f))
            seen.insert(row.distribution);
    std::vector<std::string> out;
    for (const std::string_view d : order)
        if (seen.erase(std::string(d)))
            out.emplace_back(d);
    out.insert(out.end(), seen.begin(), seen.end());
    return out;
}

std::vector<int> timed_blocks(const TimingReport& r, Family f) {
    std::set<int> blocks;
    for (const TimingRow& row : r.rows)
        if (in_family(row, f) && row.stage != "cub" && !production_stage(row.stage) &&
            row.block > 1)
            blocks.insert(row.block);
    return {blocks.begin(), blocks.end()};
}

long long default_size(const TimingReport& r, Family f) {
    // The largest size at which the most (stage, data) pairs were timed, counting those timed
    // at several sizes: the naive kernel (one thread) runs only at the smallest, and global
    // atomics stop early on skewed data, where they are slowest.
    using Pair = std::pair<std::string, std::string>;
    std::map<Pair, std::set<long long>> sizes;
    for (const TimingRow& row : r.rows)
        if (in_family(row, f))
            sizes[{row.stage, row.distribution}].insert(row.size);
    long long best = 0;
    std::size_t most = 0;
    for (const long long size : timed_sizes(r, f)) {
        std::size_t pairs = 0;
        for (const auto& [pair, at] : sizes)
            pairs += at.size() > 1 && at.count(size);
        if (pairs >= most) {
            most = pairs;
            best = size;
        }
    }
    return best;
}

Bars stage_bars(const TimingReport& r, Family f, long long size, const std::string& distribution,
                int block) {
    Bars bars;
    bars.roof_gbps = r.copy_gbps;
    const auto here = [&](const TimingRow& row) {
        return in_family(row, f) && row.size == size && row.distribution == distribution;
    };
    for (const TimingRow& row : r.rows)
        if (here(row) && row.stage == "cub")
            bars.cub = &row;
    for (const std::string_view stage : story(f)) {
        StageBar bar;
        bar.stage = std::string(stage);
        const TimingRow* fastest = nullptr;
        const TimingRow* at_block = nullptr;
        std::set<int> blocks;
        for (const TimingRow& row : r.rows) {
            if (!here(row) || row.stage != stage)
                continue;
            blocks.insert(row.block);
            if (!fastest || row.gbps > fastest->gbps)
                fastest = &row;
            if (row.block == block)
                at_block = &row;
        }
        bar.row = blocks.size() > 1 && block > 0 ? at_block : fastest;
        if (!bar.row) {
            std::set<long long> elsewhere;
            for (const TimingRow& row : r.rows)
                if (in_family(row, f) && row.stage == stage && row.distribution == distribution)
                    elsewhere.insert(row.size);
            if (elsewhere.empty())
                bar.note = "not timed";
            else if (elsewhere.size() == 1)
                bar.note = "timed at " + size_text(*elsewhere.begin()) + " only";
            else if (blocks.empty())
                bar.note = "timed up to " + size_text(*elsewhere.rbegin());
            else
                bar.note = "not timed with " + std::to_string(block) + " threads";
        }
        bars.stages.push_back(std::move(bar));
    }
    return bars;
}

std::vector<BlockSeries> block_series(const TimingReport& r, Family f, long long size,
                                      const std::string& distribution) {
    std::vector<BlockSeries> out;
    for (const std::string_view stage : story(f)) {
        BlockSeries s;
        s.stage = std::string(stage);
        for (const TimingRow& row : r.rows)
            if (in_family(row, f) && row.size == size && row.distribution == distribution &&
                row.stage == stage)
                s.points.push_back(&row);
        std::sort(s.points.begin(), s.points.end(),
                  [](const TimingRow* a, const TimingRow* b) { return a->block < b->block; });
        if (s.points.size() > 1)
            out.push_back(std::move(s));
    }
    return out;
}

std::string size_text(long long n) {
    if (n > 0 && std::has_single_bit(static_cast<unsigned long long>(n)))
        return "2^" + std::to_string(std::countr_zero(static_cast<unsigned long long>(n)));
    return std::to_string(n);
}

std::string bytes_text(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4)
        bytes /= 1024, ++u;
    char b[32];
    const bool whole = bytes == std::floor(bytes);
    std::snprintf(b, sizeof b, bytes < 10 && u > 0 && !whole ? "%.1f %s" : "%.0f %s", bytes,
                  units[u]);
    return b;
}

} // namespace pplab::ui
