// The chapter's reductions, §8.2-§8.6, in the order it develops them:
//
//   reduceNaive      §8.2  one thread adds everything: the reference, and one thread of thousands
//   reduceTree       §8.3  shared-memory halving tree: log2(TILE) barriers, idle halves
//   reduceCoarsened  §8.4  grid-stride loop into a register first: fewer blocks, loads in flight
//   reduceShuffle    §8.5  warpReduce: 5 register shuffles per warp, no barrier
//   reduceFull       §8.6  coarsen + shuffle + one barrier + shuffle the warp totals; run twice
//   reduceAtomic     §8.6  "Determinism": block totals combined with atomicAdd in arrival order
//
// Each kernel is a template over a Recorder (recorder.cuh): TraceRecorder for the traced
// run, NullRecorder for the timed one. Shared arrays are dynamic (extern __shared__) so every
// block size works. Grid-stride loops are written as rounds counted grid-wide: every thread
// runs the same number of rounds, so a snapshot can sit between rounds; the additions are the
// chapter's, in the chapter's order. kernels/cpu/reduce.cpp is the lockstep model of this file.
#include "cuda/launch.hpp"
#include "cuda/recorder.cuh"

#include <algorithm>
#include <string>
#include <vector>

namespace pplab::cuda {

namespace {

// ---- Kernels -------------------------------------------------------------------------------

template <class Rec>
__global__ void reduceNaive(const float* in, float* out, int n, Rec rec) {
    if (threadIdx.x == 0) { // ONE thread
        float sum = 0.0f;
        for (int i = 0; i < n; ++i) { // serial, n additions
            sum += in[i];
            rec.value(Step::SerialAdd, i + 1, sum);
        }
        out[0] = sum;
    }
}

// The halving tree of §8.3 over s[0..TILE). Levels count from 0, as the chapter's comments do:
// level k leaves threads < TILE >> (k+1) active.
template <class Rec>
__device__ void tree(float* s, const Rec& rec) {
    const int TILE = blockDim.x;
    int level = 0;
    for (int stride = TILE / 2; stride > 0; stride >>= 1, ++level) {
        __syncthreads(); // make all writes visible
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        rec.shared(Step::TreeLevel, level, s);
    }
}

template <class Rec>
__global__ void reduceTree(const float* in, float* out, int n, Rec rec) {
    extern __shared__ float s[]; // TILE = blockDim.x, a power of two
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    // Load with a boundary guard; out-of-range elements contribute zero.
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    rec.shared(Step::Load, 0, s);
    tree(s, rec);
    if (threadIdx.x == 0) { // thread 0 owns the block's total
        out[blockIdx.x] = s[0];
        rec.value(Step::BlockTotal, 0, s[0]);
    }
}

// Grid-stride accumulation into a register, round by round.
template <class Rec>
__device__ float accumulate(const float* in, int n, const Rec& rec) {
    const int stride = gridDim.x * blockDim.x; // total threads in grid
    float sum = 0.0f;
    int round = 1;
    for (int first = 0; first < n; first += stride, ++round) {
        const int i = first + blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n)
            sum += in[i]; // coalesced within each pass
        rec.registers(Step::Accumulate, round, sum);
    }
    return sum;
}

template <class Rec>
__global__ void reduceCoarsened(const float* in, float* out, int n, Rec rec) {
    extern __shared__ float s[];
    s[threadIdx.x] = accumulate(in, n, rec);
    rec.shared(Step::Load, 0, s);
    tree(s, rec);
    if (threadIdx.x == 0) {
        out[blockIdx.x] = s[0];
        rec.value(Step::BlockTotal, 0, s[0]);
    }
}

// Reduce a warp's 32 lanes to lane 0 using only shuffles: 5 steps. A lane whose source
// lane + offset is outside the warp gets its own value back and adds it to itself; only
// lane 0's result is used. `warp` is the record's warp (-1: the block's final warp).
template <class Rec>
__device__ float warpReduce(float val, const Rec& rec, Step step, int warp) {
    int level = 1;
    for (int offset = 16; offset > 0; offset >>= 1, ++level) {
        val += __shfl_down_sync(0xffffffffu, val, offset);
        rec.lanes(step, level, warp, val);
    }
    return val; // lane 0 now holds the warp total
}

template <class Rec>
__global__ void reduceShuffle(const float* in, float* out, int n, Rec rec) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int warpId = threadIdx.x / 32;
    // All 32 lanes must execute every shuffle, so lanes past n take part with 0.
    float val = (i < n) ? in[i] : 0.0f;
    rec.lanes(Step::Load, 0, warpId, val);
    val = warpReduce(val, rec, Step::Shuffle, warpId);
    if (threadIdx.x % 32 == 0)
        out[blockIdx.x * (blockDim.x / 32) + warpId] = val;
}

// reduceFull's block reduction (§8.6); the block total ends in thread 0. every_lane_writes is
// Exercise 2's mistake: all 32 lanes write s[warpId] and one of the racing writes wins.
template <class Rec>
__device__ float fullBlock(const float* in, int n, float* s, const Rec& rec,
                           bool every_lane_writes = false) {
    const int WARPS = blockDim.x / 32;
    // --- Coarsened accumulation over the grid
    float sum = accumulate(in, n, rec);
    // --- Warp-level reduction: WARPS * 5 shuffle steps, no barriers
    const int lane = threadIdx.x % 32;   // position within my warp
    const int warpId = threadIdx.x / 32; // which warp am I
    sum = warpReduce(sum, rec, Step::Shuffle, warpId);
    // --- One shared-memory round
    if (lane == 0 || every_lane_writes)
        s[warpId] = sum; // each warp writes ONE value
    __syncthreads();     // the ONLY barrier per block
    rec.shared(Step::WarpTotals, 0, s);
    // --- First warp combines the warp totals
    if (warpId == 0) {
        // Lane < WARPS loads a warp total; others load identity (0.0f).
        const float v = (lane < WARPS) ? s[lane] : 0.0f;
        rec.lanes(Step::FinalShuffle, 0, -1, v);
        sum = warpReduce(v, rec, Step::FinalShuffle, -1);
    }
    return sum;
}

template <class Rec>
__global__ void reduceFull(const float* in, float* out, int n, Rec rec,
                           bool every_lane_writes = false) {
    extern __shared__ float s[]; // one slot per warp
    const float sum = fullBlock(in, n, s, rec, every_lane_writes);
    if (threadIdx.x == 0) {
        out[blockIdx.x] = sum; // block total
        rec.value(Step::BlockTotal, 0, sum);
    }
}

// reduceFull's block reduction, then one atomicAdd per block into the single result. Blocks
// arrive in the order the hardware runs them; float addition is not associative, so the
// last bits of the sum depend on that order. The block's own steps are reduceFull's and are
// not recorded here.
template <class Rec>
__global__ void reduceAtomic(const float* in, float* out, int n, Rec rec) {
    extern __shared__ float s[];
    const float sum = fullBlock(in, n, s, NullRecorder{});
    if (threadIdx.x == 0) {
        rec.value(Step::BlockTotal, 0, sum);
        rec.atomic_add(out, sum);
    }
}

// ---- Launchers -----------------------------------------------------------------------------

// Launches one kernel; the caller checks (traces synchronise, timing loops do not).
template <class Rec>
void launch_reduce(Algorithm a, int grid, int block, const float* in, int n, float* out,
                   const Rec& rec, cudaStream_t stream, bool every_lane_writes = false) {
    const std::size_t warp_slots = sizeof(float) * static_cast<std::size_t>(block / 32);
    const std::size_t tile = sizeof(float) * static_cast<std::size_t>(block);
    switch (a) {
    case Algorithm::ReduceNaive:
        reduceNaive<<<1, block, 0, stream>>>(in, out, n, rec);
        break;
    case Algorithm::ReduceTree:
        reduceTree<<<grid, block, tile, stream>>>(in, out, n, rec);
        break;
    case Algorithm::ReduceCoarsened:
        reduceCoarsened<<<grid, block, tile, stream>>>(in, out, n, rec);
        break;
    case Algorithm::ReduceShuffle:
        reduceShuffle<<<grid, block, 0, stream>>>(in, out, n, rec);
        break;
    case Algorithm::ReduceFull:
        reduceFull<<<grid, block, warp_slots, stream>>>(in, out, n, rec, every_lane_writes);
        break;
    case Algorithm::ReduceAtomic:
        reduceAtomic<<<grid, block, warp_slots, stream>>>(in, out, n, rec);
        break;
    default:
        throw std::logic_error("not a textbook reduction");
    }
}

} // namespace

const char* kernel_name(Algorithm a) {
    // The listing's __global__ kernel (the first, for scanBlocks + addCarries): a test holds the
    // titles to the listings.
    static const auto names = [] {
        std::vector<std::string> out(algorithms().size());
        for (const AlgorithmInfo& i : algorithms())
            out.at(static_cast<std::size_t>(i.algorithm)) = i.title.substr(0, i.title.find(' '));
        return out;
    }();
    return names.at(static_cast<std::size_t>(a)).c_str();
}

void reduce_untraced(Algorithm a, const float* in, float* out, int n, int grid, int block,
                     cudaStream_t stream) {
    launch_reduce(a, grid, block, in, n, out, NullRecorder{}, stream);
}

// ---- Dispatch ------------------------------------------------------------------------------

std::vector<float> reduce(const Request& r, const Plan* plan, DeviceBuffer<std::uint32_t>* words) {
    const int n = r.n();
    DeviceBuffer<float> in(r.input);
    const std::size_t out_size = std::max(result_size(r), static_cast<std::size_t>(r.grid));
    DeviceBuffer<float> out(out_size, 0.0f);
    DeviceBuffer<unsigned long long> arrivals(1, 0ull);
    const bool race = r.options.pitfall == Pitfall::EveryLaneWrites;
    const auto run = [&](int pass, int grid, const float* src, int count, float* dst) {
        if (plan) {
            TraceRecorder rec;
            rec.words = words->data();
            rec.layout = plan->launches.at(static_cast<std::size_t>(pass)).layout;
            rec.arrivals = arrivals.data();
            launch_reduce(r.algorithm, grid, r.block, src, count, dst, rec, nullptr, race);
        } else {
            launch_reduce(r.algorithm, grid, r.block, src, count, dst, NullRecorder{}, nullptr,
                          race);
        }
        check_launch(kernel_name(r.algorithm));
    };
    run(0, r.grid, in.data(), n, out.data());
    if (r.algorithm == Algorithm::ReduceFull && r.grid > 1) {
        // The second pass: one block reduces the block totals to the single sum.
        DeviceBuffer<float> total(1, 0.0f);
        run(1, 1, out.data(), r.grid, total.data());
        return total.to_host();
    }
    std::vector<float> result = out.to_host();
    result.resize(result_size(r));
    return result;
}

} // namespace pplab::cuda
