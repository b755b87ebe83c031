#include "settings.hpp"
#include "pplab/files.hpp"

#include "pplab/io.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace pplab::ui {

namespace {} // namespace

Request Settings::request() const {
    Request r;
    r.algorithm = algorithm;
    r.block = block;
    r.grid = grid;
    r.bins = bins;
    r.options.inclusive = inclusive;
    r.options.skip_empty = skip_empty;
    r.options.order_seed = order_seed;
    r.options.pitfall = pitfall;
    r.options.active_lanes = active_lanes;
    const bool histogram = info(algorithm).family == Family::Histogram;
    switch (input) {
    case InputMode::Generator:
        if (n < 1 || n > kMaxN)
            throw InputError("n must be between 1 and " + std::to_string(kMaxN));
        r.input = generate(generator, n, seed, histogram ? bins : 0);
        break;
    case InputMode::List:
        r.input = parse_list(list);
        break;
    case InputMode::File:
        if (file.empty())
            throw InputError("type the path of a file holding the input list");
        r.input = parse_list(read_text_file(file));
        break;
    }
    if (r.input.empty())
        throw InputError("the input is empty");
    if (r.n() > kMaxN)
        throw InputError("the input has " + std::to_string(r.n()) +
                         " elements; the window shows at most " + std::to_string(kMaxN));
    return normalize_trace(std::move(r));
}

std::vector<int> block_choices(Algorithm a, Pitfall p) {
    const AlgorithmInfo& i = info(a);
    std::vector<int> out = {0};
    // The pitfall's sizes: every small one (a tree a class can follow), then a few larger.
    const bool any = p == Pitfall::NonPowerOfTwo && pitfall_algorithm(p) == a;
    for (int b = 1; b <= kMaxBlock; ++b) {
        const bool pow2 = (b & (b - 1)) == 0;
        if (any && (b <= 32 || pow2 || b % 32 == 0)) {
            out.push_back(b);
            continue;
        }
        if (i.warp_multiple_block && b % kWarpSize != 0)
            continue;
        if (i.power_of_two_block && !pow2)
            continue;
        if (!i.power_of_two_block && !i.warp_multiple_block && !pow2)
            continue; // any size works; powers of two keep the list short
        if (a == Algorithm::ScanMultiblock && b < 2)
            continue;
        out.push_back(b);
    }
    return out;
}

std::vector<Generator> generator_choices(Algorithm a) {
    if (info(a).family == Family::Histogram)
        return {Generator::UniformBytes, Generator::Skewed, Generator::OneBin, Generator::Sparse,
                Generator::RandomInt};
    return {Generator::RandomInt, Generator::Seq, Generator::Ones, Generator::RandomFloat};
}

Settings switch_algorithm(Settings s, Algorithm a) {
    const Algorithm before = s.algorithm;
    s.algorithm = a;
    if (s.pitfall != Pitfall::None && pitfall_algorithm(s.pitfall) != a)
        s.pitfall = Pitfall::None;
    const std::vector<int> blocks = block_choices(a, s.pitfall);
    if (std::find(blocks.begin(), blocks.end(), s.block) == blocks.end()) {
        // The nearest size the kernel takes, rounding up (warp kernels need 32 at least).
        const auto up = std::lower_bound(blocks.begin() + 1, blocks.end(), s.block);
        s.block = up != blocks.end() ? *up : blocks.back();
    }
    const std::vector<Generator> gens = generator_choices(a);
    if (std::find(gens.begin(), gens.end(), s.generator) == gens.end())
        s.generator = gens.front();
    if (!info(a).grid_stride || !info(before).grid_stride)
        s.grid = 0;
    if (info(a).single_block && !info(before).single_block)
        s.block = 0; // one block holds the whole input: its size follows n
    if (a == Algorithm::ScanFast && before != a) { // eight tiles: a look-back has something to find
        const int tile = 4 * (s.block > 0 ? s.block : kFastBlock);
        s.n = std::max(s.n, 8 * tile);
    }
    return s;
}

Settings settings_for(const Request& r, Settings keep) {
    Settings s = std::move(keep);
    const AlgorithmInfo& i = info(r.algorithm);
    s.algorithm = r.algorithm;
    s.block = r.block;
    s.grid = i.grid_stride ? r.grid : 0;
    s.n = r.n();
    s.input = InputMode::List;
    s.list.clear();
    for (const float v : r.input)
        s.list += (s.list.empty() ? "" : ", ") + format_value(v);
    if (i.family == Family::Histogram)
        s.bins = r.bins;
    s.inclusive = r.options.inclusive;
    s.skip_empty = r.options.skip_empty;
    if (has_schedule(r.algorithm))
        s.order_seed = r.options.order_seed;
    s.pitfall = r.options.pitfall;
    s.active_lanes = r.options.active_lanes;
    return s;
}

} // namespace pplab::ui
