#include "fixtures.hpp"

#include "pplab/backend.hpp"

namespace pplab::test {

std::vector<float> seq(int n) {
    std::vector<float> v(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        v[static_cast<std::size_t>(i)] = static_cast<float>(i + 1);
    return v;
}

Request request(Algorithm a, std::vector<float> input, int block, int bins) {
    Request r;
    r.algorithm = a;
    r.block = block;
    r.bins = bins;
    r.options.order_seed = 7;
    r.input = std::move(input);
    return r;
}

std::unique_ptr<scene::Model> trace(const Request& r) {
    return std::make_unique<scene::Model>(make_cpu_backend()->trace(r));
}

std::vector<Case> view_cases() {
    const std::vector<float> bins = generate(Generator::Skewed, 300, 3, 16);
    return {
        {"reduce-naive", request(Algorithm::ReduceNaive, seq(16), 0)},
        {"reduce-tree", request(Algorithm::ReduceTree, seq(16), 8)},
        {"reduce-coarsened", request(Algorithm::ReduceCoarsened, seq(40), 8)},
        {"reduce-shuffle",
         request(Algorithm::ReduceShuffle, generate(Generator::RandomInt, 64, 1, 0), 32)},
        {"reduce-full",
         request(Algorithm::ReduceFull, generate(Generator::RandomInt, 300, 1, 0), 64)},
        {"reduce-atomic",
         request(Algorithm::ReduceAtomic, generate(Generator::RandomInt, 600, 1, 0), 64)},
        {"scan-blelloch", request(Algorithm::ScanBlelloch, seq(8), 8)},
        {"scan-multiblock", request(Algorithm::ScanMultiblock, seq(10), 4)},
        {"scan-hillis-steele", request(Algorithm::ScanHillisSteele, seq(8), 8)},
        {"hist-global", request(Algorithm::HistGlobal, bins, 64, 16)},
        {"hist-privatised", request(Algorithm::HistPrivatised, bins, 64, 16)},
        {"hist-per-warp", request(Algorithm::HistPerWarp, bins, 64, 16)},
    };
}

} // namespace pplab::test
