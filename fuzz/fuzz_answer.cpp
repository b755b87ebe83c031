// Hand-trace answers (`pplab check --answer`, the window's Hand-trace tab), checked against a
// few of the chapter's traces: an answer that reads is judged level by level, and every
// wrong cell is explained, without any error but InputError.
#include "harness.hpp"

#include "pplab/backend.hpp"
#include "pplab/check.hpp"
#include "pplab/request.hpp"

#include <cstdint>
#include <vector>

using namespace pplab;

namespace {

Trace traced(Algorithm a, std::vector<float> input, int block, Pitfall pitfall = Pitfall::None) {
    Request r;
    r.algorithm = a;
    r.block = block;
    r.input = std::move(input);
    r.bins = 4;
    r.options.pitfall = pitfall;
    r.options.active_lanes = 20;
    return make_cpu_backend()->trace(r);
}

const std::vector<Trace>& traces() {
    static const std::vector<Trace> all = {
        traced(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4),
        traced(Algorithm::ReduceTree, {1, 2, 3, 4, 5, 6, 7, 8}, 4),
        traced(Algorithm::ScanMultiblock, {1, 2, 3, 4, 5, 6, 7, 8}, 4),
        traced(Algorithm::HistPrivatised, {0, 1, 1, 3, 2, 1}, 4),
        traced(Algorithm::ReduceShuffle, std::vector<float>(32, 1.0f), 32, Pitfall::PartialWarp),
    };
    return all;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto answer = fuzz::accepted([&] { return parse_answer(fuzz::text(data, size)); });
    if (!answer)
        return 0;
    fuzz::require(!answer->empty(), "an answer that reads has a level");
    for (const Trace& t : traces()) {
        const auto result = fuzz::accepted([&] { return check_answer(t, *answer); });
        if (!result)
            continue;
        fuzz::require(result->levels.size() == answer->size(), "a verdict per line");
        for (const LevelVerdict& v : result->levels)
            fuzz::require(v.right == v.explanation.empty(), "every wrong level explained");
    }
    return 0;
}
