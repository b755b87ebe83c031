// CPU lockstep models of the scans (§8.7, and Hillis-Steele for comparison), step for step
// as kernels/cuda/scan.cu performs them.
#include "cpu/recorder.hpp"

#include <vector>

namespace pplab::cpu {

namespace {

using record::Step;

struct ScanOut {
    std::vector<float> padded; // grid * block values: every block writes its whole tile
    std::vector<float> totals; // one per block
};

// scanBlock (§8.7) for one block's tile in s; returns the block total (the upsweep's root).
float scan_block(std::vector<float>& s, int block, bool inclusive, Recorder& rec) {
    const int block_dim = static_cast<int>(s.size());
    rec(Step::Load, 0, block, -1, s);
    int level = 0;
    for (int stride = 1; stride < block_dim; stride <<= 1, ++level) {
        // Writes of one level are disjoint, so a sequential loop over t is the lockstep.
        for (int t = 2 * stride - 1; t < block_dim; t += 2 * stride)
            s[t] += s[t - stride]; // parent = sum
        rec(Step::Upsweep, level, block, -1, s);
    }
    const float total = s[block_dim - 1];
    s[block_dim - 1] = 0.0f; // the root's carry: the sum of the empty sequence before the array
    rec(Step::ClearRoot, 0, block, -1, s);
    level = 0;
    for (int stride = block_dim / 2; stride > 0; stride >>= 1, ++level) {
        for (int t = 2 * stride - 1; t < block_dim; t += 2 * stride) {
            const float carry = s[t];     // sum before this pair
            s[t] = carry + s[t - stride]; // right child: carry + left sum
            s[t - stride] = carry;        // left child: just the carry
        }
        rec(Step::Downsweep, level, block, -1, s);
    }
    if (inclusive) { // shift left by one; the last slot gets the block total
        std::vector<float> shifted(block_dim);
        for (int t = 0; t < block_dim; ++t)
            shifted[t] = t + 1 < block_dim ? s[t + 1] : total;
        s = std::move(shifted);
        rec(Step::InclusiveShift, 0, block, -1, s);
    }
    return total;
}

// scanBlocks: every block scans its tile of `in` and writes its total.
ScanOut scan_blocks(const std::vector<float>& in, const Launch& l, bool inclusive,
                    std::vector<std::uint32_t>& words) {
    Recorder rec(words, l);
    const int block_dim = l.block, n = static_cast<int>(in.size());
    const bool totals = l.segment(Step::BlockTotal) >= 0;
    ScanOut out{std::vector<float>(static_cast<std::size_t>(l.grid) * block_dim),
                std::vector<float>(l.grid)};
    for (int b = 0; b < l.grid; ++b) {
        std::vector<float> s(block_dim);
        for (int t = 0; t < block_dim; ++t) {
            const long long i = static_cast<long long>(b) * block_dim + t;
            s[t] = i < n ? in[static_cast<std::size_t>(i)] : 0.0f;
        }
        out.totals[b] = scan_block(s, b, inclusive, rec);
        std::copy(s.begin(), s.end(), out.padded.begin() + static_cast<long long>(b) * block_dim);
        if (totals)
            rec(Step::BlockTotal, 0, b, -1, std::span(&out.totals[b], 1));
    }
    return out;
}

// Scans `in` at recursion level k of scan_levels: block scans, then (when there is more
// than one block) the scan of the block totals one level down and the carries added back.
std::vector<float> scan_level(const std::vector<float>& in, const std::vector<ScanLevel>& levels,
                              std::size_t k, bool inclusive, const Plan& plan,
                              std::vector<std::uint32_t>& words) {
    const ScanLevel& lv = levels[k];
    ScanOut o = scan_blocks(in, plan.launches[lv.scan_pass], inclusive, words);
    if (lv.grid == 1)
        return o.padded;
    const std::vector<float> carries = scan_level(o.totals, levels, k + 1, false, plan, words);
    const Launch& add = plan.launches[lv.carry_pass];
    Recorder rec(words, add);
    const int block_dim = add.block;
    for (int b = 0; b < add.grid; ++b) {
        const auto first = o.padded.begin() + static_cast<long long>(b) * block_dim;
        for (int t = 0; t < block_dim; ++t)
            first[t] += carries[b];
        rec(Step::AddCarries, 0, b, -1, std::span(&*first, static_cast<std::size_t>(block_dim)));
    }
    return o.padded;
}

} // namespace

std::vector<float> run_scan(const Request& r, const Plan& plan, std::vector<std::uint32_t>& words) {
    const int n = r.n(), block_dim = r.block;
    std::vector<float> out;
    switch (r.algorithm) {
    case Algorithm::ScanBlelloch:
        out = scan_blocks(r.input, plan.launches.front(), r.options.inclusive, words).padded;
        break;
    case Algorithm::ScanMultiblock:
        out = scan_level(r.input, scan_levels(n, block_dim), 0, r.options.inclusive, plan, words);
        break;
    case Algorithm::ScanHillisSteele: {
        Recorder rec(words, plan.launches.front());
        std::vector<float> s(block_dim, 0.0f);
        std::copy(r.input.begin(), r.input.end(), s.begin());
        rec(Step::Load, 0, 0, -1, s);
        int level = 1;
        for (int offset = 1; offset < block_dim; offset <<= 1, ++level) {
            std::vector<float> next = s; // every thread reads before any writes (two barriers)
            for (int t = offset; t < block_dim; ++t)
                next[t] = s[t] + s[t - offset];
            s = std::move(next);
            rec(Step::HillisSteele, level, 0, -1, s);
        }
        out = std::move(s);
        break;
    }
    default:
        throw std::logic_error("run_scan called for another family");
    }
    out.resize(static_cast<std::size_t>(n));
    return out;
}

} // namespace pplab::cpu
