// Device trace record format, shared by the CUDA kernels, the CPU models and the decoder.
//
// A launch writes fixed-size records into one flat buffer of 32-bit words. The host computes,
// before any launch, how many records each launch writes and where each goes (LaunchLayout);
// a kernel writes a record at offset f(segment, level, block, warp) and never anywhere else,
// so there are no atomics and no overflow by construction. This header must stay plain C++
// that both g++ and nvcc accept: POD types, no std containers.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define PPLAB_HD __host__ __device__
#else
#define PPLAB_HD
#endif

namespace pplab::record {

// "PPLB" in little-endian ASCII; a record slot without it was never written.
inline constexpr std::uint32_t kMagic = 0x424C5050u;
// Bump when Header, Segment or the meaning of a field changes.
inline constexpr std::uint16_t kVersion = 1;

// What happened just before the snapshot. Values are part of the format: append only.
enum class Step : std::uint8_t {
    SerialAdd = 0,       // reduce-naive: thread 0 added one more element
    Load = 1,            // the block's shared array (or a warp's lanes) after the load
    Accumulate = 2,      // each thread's register sum after one grid-stride round
    TreeLevel = 3,       // shared array after one level of the halving tree
    Shuffle = 4,         // a warp's lanes after one __shfl_down_sync step
    WarpTotals = 5,      // s[WARPS] after the one barrier of reduceFull
    FinalShuffle = 6,    // the first warp's lanes while it combines the warp totals
    BlockTotal = 7,      // what the block wrote to out[blockIdx.x]
    AtomicAdd = 8,       // one block's atomicAdd into the single sum, in arrival order
    Upsweep = 9,         // Blelloch: shared array after one upsweep level
    ClearRoot = 10,      // Blelloch: after s[n-1] = 0
    Downsweep = 11,      // Blelloch: shared array after one downsweep level
    InclusiveShift = 12, // exclusive result shifted left by one, the block total last
    AddCarries = 13,     // multi-block scan: a block's slice after adding its carry
    HillisSteele = 14,   // shared array after one step of the inclusive Hillis-Steele scan
    HistZero = 15,       // private histogram(s) after zeroing
    HistAccumulate = 16, // histogram after one grid-stride round of atomics
    HistMerge = 17,      // per-warp histograms summed into one per block
    HistFold = 18,       // global bins after one block's fold
    TilePublish = 19,    // scan-fast: a tile's aggregate, carry and inclusive prefix, ticketed
    LookBack = 20,       // scan-fast: what a tile found at each predecessor it read
};
inline constexpr int kStepCount = 21;

// Which memory the values come from.
enum class Buffer : std::uint8_t {
    Shared = 0,      // a block's shared array
    Registers = 1,   // one register per thread of a block (or thread 0's running sum)
    Lanes = 2,       // the 32 lanes of one warp
    PrivateHist = 3, // a block's (or a warp's) private histogram in shared memory
    Global = 4,      // global memory: block totals, output slices, global bins
};
inline constexpr int kBufferCount = 5;

// One record's header; `count` 32-bit float values follow it.
struct Header {
    std::uint32_t magic;
    std::uint16_t version;
    std::uint8_t step;   // Step
    std::uint8_t buffer; // Buffer
    std::int32_t pass;   // launch index within the request
    std::int32_t level;
    std::int32_t block; // -1: the whole grid
    std::int32_t warp;  // -1: not a per-warp record
    std::uint32_t count;
};
static_assert(sizeof(Header) == 28, "record header layout is part of the format");
static_assert(sizeof(Header) % sizeof(std::uint32_t) == 0, "records are whole words");
inline constexpr std::uint32_t kHeaderWords = sizeof(Header) / sizeof(std::uint32_t);

// A rectangle of records: levels x blocks x warps, each with `count` values.
// blocks == 0 (warps == 0) means one record whose block (warp) field is not an index:
// the kernel writes -1 or, for AtomicAdd, the block that arrived.
struct Segment {
    std::uint64_t base; // word offset of the first record
    std::uint32_t count;
    std::int32_t level0;
    std::int32_t levels;
    std::int32_t blocks;
    std::int32_t warps;
    std::uint8_t step;
    std::uint8_t buffer;
    std::uint8_t pad[2];
};
static_assert(sizeof(Segment) == 32, "segment layout is passed to kernels by value");

inline constexpr int kMaxSegments = 8;

// The records one launch writes. Passed by value as a kernel parameter.
struct LaunchLayout {
    Segment seg[kMaxSegments];
    std::int32_t segments;
    std::int32_t pass;
};
static_assert(sizeof(LaunchLayout) <= 512, "kernel parameter space is small");

PPLAB_HD inline std::uint32_t record_words(const Segment& s) {
    return kHeaderWords + s.count;
}

// Word offset of the record (level, block, warp) of segment s. Arguments outside the
// segment's rectangle are a bug in the caller; the decoder catches any such record.
PPLAB_HD inline std::uint64_t record_offset(const Segment& s, int level, int block, int warp) {
    const std::uint64_t b = s.blocks > 0 ? static_cast<std::uint64_t>(block) : 0u;
    const std::uint64_t w = s.warps > 0 ? static_cast<std::uint64_t>(warp) : 0u;
    const std::uint64_t nb = s.blocks > 0 ? static_cast<std::uint64_t>(s.blocks) : 1u;
    const std::uint64_t nw = s.warps > 0 ? static_cast<std::uint64_t>(s.warps) : 1u;
    const std::uint64_t index = (static_cast<std::uint64_t>(level - s.level0) * nb + b) * nw + w;
    return s.base + index * record_words(s);
}

PPLAB_HD inline std::uint64_t segment_words(const Segment& s) {
    const std::uint64_t nb = s.blocks > 0 ? static_cast<std::uint64_t>(s.blocks) : 1u;
    const std::uint64_t nw = s.warps > 0 ? static_cast<std::uint64_t>(s.warps) : 1u;
    return static_cast<std::uint64_t>(s.levels) * nb * nw * record_words(s);
}

PPLAB_HD inline Header make_header(const Segment& s, int pass, int level, int block, int warp) {
    Header h{};
    h.magic = kMagic;
    h.version = kVersion;
    h.step = s.step;
    h.buffer = s.buffer;
    h.pass = pass;
    h.level = level;
    h.block = block;
    h.warp = warp;
    h.count = s.count;
    return h;
}

} // namespace pplab::record
