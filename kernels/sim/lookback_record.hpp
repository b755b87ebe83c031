// scan-fast's look-back, recorded from a student's kernel as it ran in the simulator: the two
// records per tile of pplab/lookback.hpp (what each tile published and when, what it read of
// each predecessor and when), from the kernel's loads and stores of the tile descriptors.
#pragma once

#include "runtime.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pplab::sim {

struct LookbackRecords {
    std::vector<std::vector<float>> publish; // per tile: kPublishValues values
    std::vector<std::vector<float>> reads;   // per tile: kReadValues per tile of the grid
};

// The records, with the events numbered in the order the simulator ran them as the CUDA
// recorder numbers them (a publish, a lane's first look at a predecessor, the poll that found
// it after polls that found nothing). A descriptor is read as the listing encodes it: the
// status (1 aggregate, 2 inclusive prefix) in the high 32 bits, the value's bits in the low;
// a tile is the descriptor its block publishes first. Empty, with `why`, where the accesses
// do not read that way (another encoding, a block that published nothing).
std::optional<LookbackRecords> lookback_records(const std::vector<WatchedAccess>& log, int grid,
                                                std::string& why);

} // namespace pplab::sim
