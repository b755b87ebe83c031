#include "pplab/classroom.hpp"

#include "pplab/bits.hpp"
#include "pplab/stats.hpp"

#include <bit>
#include <cstdint>
#include <set>

namespace pplab {

namespace {

int barriers_of(Algorithm a, int tile) {
    Request r;
    r.algorithm = a;
    r.block = tile;
    r.input = std::vector<float>(static_cast<std::size_t>(tile), 1.0f); // one block
    return summarize(make_cpu_backend()->trace(r)).barriers_per_block;
}

} // namespace

BarrierCounts exercise1_barriers(int tile) {
    if (tile < kWarpSize || tile > kMaxBlock || !std::has_single_bit(static_cast<unsigned>(tile)))
        throw InputError("Exercise 1 compares TILEs that are powers of two from 32 to 1024");
    return {tile, barriers_of(Algorithm::ReduceTree, tile),
            barriers_of(Algorithm::ReduceFull, tile)};
}

FoldAtomics exercise4_fold_atomics(Generator data, int n, int bins, int block) {
    Request r;
    r.algorithm = Algorithm::HistPrivatised;
    r.block = block;
    r.bins = bins;
    r.input = generate(data, n, 4, bins);
    FoldAtomics f;
    f.data = std::string(generator_id(data));
    // The privatised kernel's only global atomics are the fold's.
    f.with_skip = summarize(make_cpu_backend()->trace(r)).total.global_atomics;
    r.options.skip_empty = false;
    f.without_skip = summarize(make_cpu_backend()->trace(r)).total.global_atomics;
    return f;
}

RepeatedRuns run_repeatedly(Backend& backend, Request r, int times) {
    if (times < 1 || times > 1000)
        throw InputError("run it 1 to 1000 times");
    RepeatedRuns out;
    std::set<std::uint32_t> patterns;
    for (int k = 0; k < times; ++k) {
        r.options.order_seed = static_cast<std::uint64_t>(k + 1);
        const std::vector<float> result = backend.run(r);
        if (result.size() != 1)
            throw InputError("run it again with a reduction to a single sum (reduce-atomic, "
                             "reduce-full, reduce-naive or reduce-fast)");
        out.sums.push_back(result[0]);
        patterns.insert(bits_of(result[0]));
    }
    out.distinct = static_cast<int>(patterns.size());
    return out;
}

std::string float_bits(float v) {
    const std::uint32_t u = bits_of(v);
    std::string s;
    for (int b = 31; b >= 0; --b) {
        s += ((u >> b) & 1u) ? '1' : '0';
        if (b == 31 || b == 23)
            s += ' ';
    }
    return s;
}

} // namespace pplab
