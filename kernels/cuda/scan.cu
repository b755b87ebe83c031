// The chapter's scans, §8.7, and Hillis-Steele for comparison:
//
//   scanBlock         §8.7  Blelloch: upsweep keeps the tree's internal nodes, clear the root,
//                           downsweep passes carries; 2 log2(n) barrier levels, 2n additions
//   scanBlocks        §8.7  "larger arrays": every block scans its tile and writes its total
//   addCarries        §8.7  each block adds the scanned total of the blocks before it
//   scanHillisSteele  beyond the chapter: log2(n) steps of n additions: less depth, more work
//
// Templated on a Recorder like the reductions (see reduce.cu); kernels/cpu/scan.cpp is the
// lockstep model of this file.
#include "cuda/launch.hpp"
#include "cuda/recorder.cuh"

namespace pplab::cuda {

namespace {

// ---- Kernels -------------------------------------------------------------------------------

// Exclusive scan of a BLOCK's data, in place in shared memory. Assumes blockDim.x is a power
// of two. s has blockDim.x + 1 slots: s[n] keeps the block total (the upsweep's root) for the
// block-totals array and for the inclusive shift.
template <class Rec>
__device__ void scanBlock(float* s, bool inclusive, const Rec& rec) {
    const int n = blockDim.x;

    // --- Phase 1: upsweep (tree reduction, storing internal nodes)
    // After level k, s[i] holds the sum of the 2^k elements ending at i.
    int level = 1;
    for (int stride = 1; stride < n; stride <<= 1, ++level) {
        __syncthreads();
        const int t = (threadIdx.x + 1) * 2 * stride - 1; // right child
        if (t < n)
            s[t] += s[t - stride]; // parent = sum
        rec.shared(Step::Upsweep, level, s);
    }

    // --- Phase 2: downsweep (propagate carries back down)
    // The root's carry is the identity: the sum of the (empty) sequence before the array.
    // Thread 0 wrote the root in the last upsweep level, so it may read and clear it now.
    if (threadIdx.x == 0) {
        s[n] = s[n - 1];
        s[n - 1] = 0.0f;
    }
    rec.shared(Step::ClearRoot, 0, s);

    // At each level the pair rooted at right child t (left child t - stride) receives its
    // CARRY: the left child inherits it unchanged; the right child gets carry + left sum.
    level = 1;
    for (int stride = n / 2; stride > 0; stride >>= 1, ++level) {
        __syncthreads();
        const int t = (threadIdx.x + 1) * 2 * stride - 1; // right child
        if (t < n) {
            const float carry = s[t];     // sum before this pair
            s[t] = carry + s[t - stride]; // right child: carry + left sum
            s[t - stride] = carry;        // left child: just the carry
        }
        rec.shared(Step::Downsweep, level, s);
    }
    __syncthreads(); // the last read must not begin before the last write is visible

    if (inclusive) { // shift left by one; the last slot takes the block total
        const float v = threadIdx.x + 1 < n ? s[threadIdx.x + 1] : s[n];
        __syncthreads(); // every thread reads before any thread overwrites
        s[threadIdx.x] = v;
        rec.shared(Step::InclusiveShift, 0, s);
    }
}

// Every block scans its tile of in into out (out has gridDim.x * blockDim.x slots: the last
// tile keeps its padding) and, when totals is given, writes its total.
template <class Rec>
__global__ void scanBlocks(const float* in, float* out, float* totals, int n, bool inclusive,
                           Rec rec) {
    extern __shared__ float s[]; // blockDim.x + 1
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    rec.shared(Step::Load, 0, s);
    scanBlock(s, inclusive, rec);
    out[i] = s[threadIdx.x];
    if (totals != nullptr && threadIdx.x == 0) {
        totals[blockIdx.x] = s[blockDim.x];
        rec.value(Step::BlockTotal, 0, s[blockDim.x]);
    }
}

// carries[b] is the exclusive scan of the block totals: the sum of every block before b.
template <class Rec>
__global__ void addCarries(float* out, const float* carries, Rec rec) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float v = out[i] + carries[blockIdx.x];
    out[i] = v;
    rec.registers(Step::AddCarries, 0, v);
}

// Inclusive scan of one block: at step k thread t >= 2^k adds s[t - 2^k]. Two barriers per
// step: everyone reads the old values before anyone writes new ones.
template <class Rec>
__global__ void scanHillisSteele(const float* in, float* out, int n, Rec rec) {
    extern __shared__ float s[];
    const int t = threadIdx.x;
    s[t] = (t < n) ? in[t] : 0.0f;
    rec.shared(Step::Load, 0, s);
    int level = 1;
    for (int offset = 1; offset < static_cast<int>(blockDim.x); offset <<= 1, ++level) {
        __syncthreads();
        float v = s[t];
        if (t >= offset)
            v += s[t - offset];
        __syncthreads();
        s[t] = v;
        rec.shared(Step::HillisSteele, level, s);
    }
    if (t < n)
        out[t] = s[t];
}

// ---- Launchers -----------------------------------------------------------------------------

struct Recorders {
    const Plan* plan;
    DeviceBuffer<std::uint32_t>* words;

    template <class Fn>
    void with(int pass, Fn fn) const {
        if (!plan) {
            fn(NullRecorder{});
            return;
        }
        TraceRecorder rec;
        rec.words = words->data();
        rec.layout = plan->launches.at(static_cast<std::size_t>(pass)).layout;
        fn(rec);
    }
};

// Scans level k of the recursion in place of `out` (padded to whole tiles): block scans,
// then, with more than one block, the scan of the totals and the carries added back.
void scan_level(const float* in, float* out, const std::vector<ScanLevel>& levels,
                std::size_t k, int B, bool inclusive, const Recorders& recs) {
    const ScanLevel& lv = levels[k];
    const std::size_t tile = sizeof(float) * static_cast<std::size_t>(B + 1);
    if (lv.grid == 1) {
        recs.with(lv.scan_pass, [&](const auto& rec) {
            scanBlocks<<<1, B, tile>>>(in, out, nullptr, lv.n, inclusive, rec);
        });
        check_launch("scanBlocks");
        return;
    }
    DeviceBuffer<float> totals(static_cast<std::size_t>(lv.grid));
    recs.with(lv.scan_pass, [&](const auto& rec) {
        scanBlocks<<<lv.grid, B, tile>>>(in, out, totals.data(), lv.n, inclusive, rec);
    });
    check_launch("scanBlocks");
    const ScanLevel& next = levels[k + 1];
    DeviceBuffer<float> carries(static_cast<std::size_t>(next.grid) * B);
    scan_level(totals.data(), carries.data(), levels, k + 1, B, false, recs);
    recs.with(lv.carry_pass, [&](const auto& rec) {
        addCarries<<<lv.grid, B>>>(out, carries.data(), rec);
    });
    check_launch("addCarries");
}

} // namespace

// ---- Dispatch ------------------------------------------------------------------------------

std::vector<float> scan(const Request& r, const Plan* plan, DeviceBuffer<std::uint32_t>* words) {
    const int n = r.n(), B = r.block;
    const Recorders recs{plan, words};
    DeviceBuffer<float> in(r.input);
    std::vector<float> result;
    if (r.algorithm == Algorithm::ScanHillisSteele) {
        DeviceBuffer<float> out(static_cast<std::size_t>(n));
        recs.with(0, [&](const auto& rec) {
            scanHillisSteele<<<1, B, sizeof(float) * static_cast<std::size_t>(B)>>>(
                in.data(), out.data(), n, rec);
        });
        check_launch("scanHillisSteele");
        result = out.to_host();
    } else {
        const std::vector<ScanLevel> levels = scan_levels(n, B);
        DeviceBuffer<float> out(static_cast<std::size_t>(levels.front().grid) * B);
        scan_level(in.data(), out.data(), levels, 0, B, r.options.inclusive, recs);
        result = out.to_host();
    }
    result.resize(static_cast<std::size_t>(n));
    return result;
}

} // namespace pplab::cuda
