// What the controls edit: an algorithm, its launch and its input, as the user typed them.
// Turning them into a Request (which may fail with an InputError) happens on the tracing
// thread, so a slow file or a large input never blocks the window.
#pragma once

#include "pplab/request.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pplab::ui {

enum class InputMode { Generator, List, File };

struct Settings {
    Algorithm algorithm = Algorithm::ReduceTree;
    int block = 8; // 0: the algorithm's default
    int grid = 0;  // 0: the algorithm's default
    int n = 32;
    InputMode input = InputMode::Generator;
    Generator generator = Generator::RandomInt;
    std::uint64_t seed = 1;
    std::string list = "1, 2, 3, 4";
    std::string file;
    int bins = 16;
    bool inclusive = false;
    bool skip_empty = true;
    std::uint64_t order_seed = 1;
    Pitfall pitfall = Pitfall::None; // the chapter's mistake shown in this kernel, if any
    int active_lanes = kWarpSize;    // Pitfall::PartialWarp: lanes that call warpReduce
    std::string backend = "auto";

    bool operator==(const Settings&) const = default;

    // Throws InputError for anything the kernel or the trace cannot take.
    Request request() const;
};

inline constexpr int kMaxN = 65536; // the window's limit: a heat strip still draws it

// Block sizes the algorithm's kernel accepts (0, "the default", first); with the
// non-power-of-two pitfall, sizes the halving tree does not expect as well.
std::vector<int> block_choices(Algorithm a, Pitfall p = Pitfall::None);
// Generators that make sense for the family (histograms want bin numbers).
std::vector<Generator> generator_choices(Algorithm a);

// The settings moved to another algorithm: the block size and the generator changed only
// where the new kernel cannot take them; a pitfall of the old kernel is dropped.
Settings switch_algorithm(Settings s, Algorithm a);

// The settings that ask for this (normalized) request again: the input typed out as a list,
// bit for bit. A saved trace opened in the window shows its request in the controls.
Settings settings_for(const Request& r, Settings keep = {});

} // namespace pplab::ui
