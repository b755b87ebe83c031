// The CUDA-on-CPU runtime inside the runner: blocks one after another, each CUDA thread a
// Boost.Context fiber, scheduled deterministically (thread order, each running until it
// waits), with barriers, warp rendezvous (shuffles, votes, __syncwarp), watched shared and
// global memory, and what the trace needs observed along the way.
#pragma once

#include "cuda_sim.hpp"
#include "pplab/sim.hpp"
#include "pplab/stats.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pplab::sim {

// How an input read names the register snapshot it starts: the grid-stride round
// (i - global thread id) / (grid * block) + 1, or, for one thread reading everything
// (reduceNaive), the element's position i + 1.
enum class RoundRule { GridStride, PerElement };

struct ShuffleStep {
    std::array<float, 32> in{};    // each lane's value going in
    std::array<float, 32> after{}; // each lane's register after the step
    std::uint32_t lanes = 0;       // the lanes that executed it
    int line = 0;                  // the shuffle's source line
};

struct AtomicRecord {
    int round = 0; // the thread's grid-stride round (0: before its first input read)
    int region = 0;
    long long index = 0;
    double delta = 0; // what was added (counts, sums)
    int block = 0;
    int thread = 0;
};

// What one block did, as the trace needs it.
struct BlockObservation {
    int block = 0;
    // The first shared array, as floats ("?" = NaN where never written): once per barrier
    // interval in which it changed, and once more where a thread wrote a cell a second time
    // within an interval (the clear-root after the last upsweep level).
    std::vector<std::vector<float>> shared;
    // Per snapshot of `shared`: the source lines that touched shared memory in its interval
    // (and the barrier that began it): the lines the window lights for that step.
    std::vector<std::vector<int>> shared_lines;
    std::vector<int> input_lines;  // lines that read the input (the accumulation's rounds)
    std::vector<int> output_lines; // lines that wrote another global buffer (totals, folds)
    std::vector<std::vector<float>> rounds; // per thread: register after each round
    std::vector<float> round_close;         // per thread: the register when accumulation ended
    std::vector<std::vector<ShuffleStep>> shuffles; // per warp, in order
    std::vector<AtomicRecord> atomics;              // on the first shared array and on globals
    std::vector<int> hazard_interval;               // per hazard of this block: its snapshot
    std::vector<std::size_t> hazard_ids;            // per hazard of this block: its index
};

struct Buffer {
    std::string name;
    Elem elem = Elem::Float;
    std::vector<unsigned char> bytes;
    Region region{};
    long long count() const { return region.count; }
    float value(long long i) const; // as a float, whatever the element type
};

// A load or store of the launch's watched buffer (LaunchSpec::watched_region: scan-fast's tile
// descriptors), in the order the simulator ran them, with the bits read or written.
struct WatchedAccess {
    int block = 0;
    bool write = false;
    long long index = 0;
    std::uint64_t bits = 0;
};

struct LaunchSpec {
    const KernelEntry* kernel = nullptr;
    int grid = 1, block = 1, pass = 0;
    std::vector<Arg> args;
    long long dynamic_shared_bytes = 0;
    int input_region = -1; // reads of it start rounds
    RoundRule rounds = RoundRule::GridStride;
    // The order the blocks run in; empty: 0, 1, 2, ... (reduce-atomic's seeded arrivals).
    std::vector<int> block_order;
    // Blocks in flight together (scan-fast's tiles), each going at a pace chosen with
    // schedule_seed; 1: each block runs to its end before the next starts.
    int resident = 1;
    std::uint64_t schedule_seed = 0;
    int watched_region = -1; // a global buffer whose accesses are logged (Runtime::watched)
};

class Runtime {
public:
    Runtime();
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    // Runs every block in order (spec.resident at a time), calling on_block after each. False when
    // a fatal hazard stopped the launch (hazards() says which).
    bool launch(const LaunchSpec& spec,
                const std::function<void(const BlockObservation&)>& on_block);

    const std::vector<Hazard>& hazards() const { return hazards_; }
    std::vector<Hazard>& hazards() { return hazards_; }
    // What the kernel did, counted as it ran, over every launch so far (additions excepted:
    // they are not observed).
    const Counters& counted() const { return counted_; }
    // The most bytes the kernel held from new and malloc at once, over every launch so far.
    long long heap_peak() const;
    // The latest launch's accesses to its watched buffer.
    const std::vector<WatchedAccess>& watched() const { return watched_; }

    struct Impl;

private:
    Impl* impl_;
    std::vector<Hazard> hazards_;
    Counters counted_;
    std::vector<WatchedAccess> watched_;
};

// Where the running kernel was last seen: the source line of its latest access, barrier,
// shuffle, vote or loop round (each loop's condition), whose it was, and the lowest and highest of
// its latest lines (an endless loop's body). Written as the kernel runs; read by the runner's
// time-limit signal handler, so plain words, nothing allocated.
struct LastSeen {
    int line = 0, block = -1, thread = -1, pass = 0;
    int low = 0, high = 0;
};
LastSeen last_seen(); // async-signal-safe

// The kernels the loaded library registered.
const std::vector<KernelEntry>& registered_kernels();

// A thread's own array (`float vals[4]`, indexed directly: no pointer the runtime watches)
// indexed outside its elements, as the compiler's bounds check (-fsanitize=bounds in the
// kernel's library) found it on `line`: `type` as the compiler spells it ("float [4]"),
// `index` when the check knew it. Ends the block with a fatal out-of-bounds hazard; outside a
// running kernel thread (the runner's own code) it prints and aborts.
[[noreturn]] void own_array_overrun(const std::string& type, long long index, bool index_known,
                                    int line);

} // namespace pplab::sim
