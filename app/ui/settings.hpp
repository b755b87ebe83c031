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
    std::string backend = "auto";

    bool operator==(const Settings&) const = default;

    // Throws InputError for anything the kernel or the trace cannot take.
    Request request() const;
};

inline constexpr int kMaxN = 65536; // the window's limit: a heat strip still draws it

// Block sizes the algorithm's kernel accepts (0, "the default", first).
std::vector<int> block_choices(Algorithm a);
// Generators that make sense for the family (histograms want bin numbers).
std::vector<Generator> generator_choices(Algorithm a);

// The settings moved to another algorithm: the block size and the generator changed only
// where the new kernel cannot take them.
Settings switch_algorithm(Settings s, Algorithm a);

} // namespace pplab::ui
