#include "trace/decode.hpp"

#include <cstring>
#include <set>
#include <stdexcept>
#include <string>

namespace pplab {

namespace {

[[noreturn]] void bad_record(const Launch& l, const record::Segment& s, int level, int block,
                             int warp, const std::string& what) {
    throw std::runtime_error(
        "trace record of kernel " + l.kernel + " (pass " + std::to_string(l.pass()) + ", " +
        std::string(step_id(static_cast<Step>(s.step))) + " level " + std::to_string(level) +
        ", block " + std::to_string(block) + ", warp " + std::to_string(warp) + ") " + what);
}

} // namespace

std::vector<std::uint32_t> poisoned_buffer(const Plan& plan) {
    return std::vector<std::uint32_t>(plan.words, kPoison);
}

namespace {

// Calls fn(launch, segment, level, block, warp) for every record the plan promises, in the
// plan's (canonical) order.
template <class Fn>
void for_each_record(const Plan& plan, Fn fn) {
    for (const Launch& l : plan.launches)
        for (int si = 0; si < l.layout.segments; ++si) {
            const record::Segment& s = l.layout.seg[si];
            const int nb = s.blocks > 0 ? s.blocks : 1;
            const int nw = s.warps > 0 ? s.warps : 1;
            for (int level = s.level0; level < s.level0 + s.levels; ++level)
                for (int b = 0; b < nb; ++b)
                    for (int w = 0; w < nw; ++w)
                        fn(l, s, level, b, w);
        }
}

} // namespace

std::vector<Frame> decode(const Plan& plan, std::span<const std::uint32_t> words) {
    if (words.size() < plan.words)
        throw std::runtime_error("trace buffer holds " + std::to_string(words.size()) +
                                 " words; the plan needs " + std::to_string(plan.words));
    std::vector<Frame> frames;
    for_each_record(plan, [&](const Launch& l, const record::Segment& s, int level, int b, int w) {
        const std::uint64_t at = record::record_offset(s, level, b, w);
        record::Header h;
        std::memcpy(&h, words.data() + at, sizeof h);
        const int want_block = s.blocks > 0 ? b : h.block;
        const int want_warp = s.warps > 0 ? w : -1;
        if (h.magic != record::kMagic)
            bad_record(l, s, level, b, w, "was never written");
        if (h.version != record::kVersion)
            bad_record(l, s, level, b, w, "has format version " + std::to_string(h.version));
        if (h.step != s.step || h.buffer != s.buffer || h.pass != l.pass() || h.level != level ||
            h.block != want_block || h.warp != want_warp || h.count != s.count)
            bad_record(l, s, level, b, w,
                       "holds the header of another record (step " + std::to_string(h.step) +
                           ", level " + std::to_string(h.level) + ", block " +
                           std::to_string(h.block) + ", warp " + std::to_string(h.warp) + ")");
        if (s.blocks == 0 && (h.block < -1 || h.block >= l.grid))
            bad_record(l, s, level, b, w, "names block " + std::to_string(h.block));
        Frame f;
        f.step = static_cast<Step>(h.step);
        f.buffer = static_cast<Buffer>(h.buffer);
        f.pass = h.pass;
        f.level = h.level;
        f.block = h.block;
        f.warp = h.warp;
        f.values.resize(h.count);
        std::memcpy(f.values.data(), words.data() + at + record::kHeaderWords,
                    h.count * sizeof(float));
        frames.push_back(std::move(f));
    });
    return frames;
}

void check_frames(const Plan& plan, const std::vector<Frame>& frames) {
    std::size_t k = 0;
    std::set<std::pair<int, int>> arrived; // (pass, block) of the atomicAdds seen so far
    for_each_record(plan, [&](const Launch& l, const record::Segment& s, int level, int b, int w) {
        const std::string want = std::string(step_id(static_cast<Step>(s.step))) + " level " +
                                 std::to_string(level) + " of pass " + std::to_string(l.pass());
        if (k >= frames.size())
            throw InputError("the trace has " + std::to_string(frames.size()) +
                             " frames; its request records more (next: " + want + ")");
        const Frame& f = frames[k];
        // A record whose block is not an index holds -1 (the whole grid) or, for an
        // atomicAdd, the block that arrived: every block of the grid exactly once.
        const bool arrival = s.blocks == 0 && static_cast<Step>(s.step) == Step::AtomicAdd &&
                             f.step == Step::AtomicAdd;
        if (arrival && (f.block < 0 || f.block >= l.grid))
            throw InputError("frame " + std::to_string(k) + " of the trace (" + want +
                             ") says block " + std::to_string(f.block) +
                             " arrived; the grid has blocks 0 to " + std::to_string(l.grid - 1));
        if (arrival && !arrived.emplace(l.pass(), f.block).second)
            throw InputError("frame " + std::to_string(k) + " of the trace (" + want +
                             ") says block " + std::to_string(f.block) +
                             " arrived, but it arrived already: each block adds its total once");
        const bool block_ok = s.blocks > 0 ? f.block == b : arrival || f.block == -1;
        if (static_cast<std::uint8_t>(f.step) != s.step ||
            static_cast<std::uint8_t>(f.buffer) != s.buffer || f.pass != l.pass() ||
            f.level != level || !block_ok || f.warp != (s.warps > 0 ? w : -1) ||
            f.values.size() != s.count)
            throw InputError("frame " + std::to_string(k) +
                             " of the trace does not match its "
                             "request: expected " +
                             want + " with " + std::to_string(s.count) + " values");
        ++k;
    });
    if (k != frames.size())
        throw InputError("the trace has " + std::to_string(frames.size()) +
                         " frames; its request records " + std::to_string(k));
}

} // namespace pplab
