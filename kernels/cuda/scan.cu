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
// of two. s has blockDim.x + 1 slots: with keep_total, s[n] keeps the block total (the upsweep's
// root) for the block-totals array and for the inclusive shift, the one line the listings add to
// the chapter's scanBlock.
template <class Rec>
__device__ void scanBlock(float* s, bool inclusive, bool keep_total, const Rec& rec) {
    const int n = blockDim.x;

    // --- Phase 1: upsweep (tree reduction, storing internal nodes)
    // After level k (from 0, as the chapter counts), s[i] holds the sum of the 2^(k+1)
    // elements ending at i.
    int level = 0;
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
        if (keep_total)
            s[n] = s[n - 1];
        s[n - 1] = 0.0f;
    }
    rec.shared(Step::ClearRoot, 0, s);

    // At each level the pair rooted at right child t (left child t - stride) receives its
    // CARRY: the left child inherits it unchanged; the right child gets carry + left sum.
    level = 0;
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
                           bool keep_total, Rec rec) {
    extern __shared__ float s[]; // blockDim.x + 1
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    rec.shared(Step::Load, 0, s);
    scanBlock(s, inclusive, keep_total, rec);
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

// Inclusive scan of a block's s[0..blockDim.x): at step k thread t >= 2^k adds s[t - 2^k].
// Two barriers per step: everyone reads the old values before anyone writes new ones.
template <class Rec>
__device__ void hillisSteeleBlock(float* s, const Rec& rec) {
    const int t = threadIdx.x;
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
}

template <class Rec>
__global__ void scanHillisSteele(const float* in, float* out, int n, Rec rec) {
    extern __shared__ float s[];
    const int t = threadIdx.x;
    s[t] = (t < n) ? in[t] : 0.0f;
    rec.shared(Step::Load, 0, s);
    hillisSteeleBlock(s, rec);
    if (t < n)
        out[t] = s[t];
}

// scanBlocks with Hillis-Steele block scans (timed, for comparing work with Blelloch at the
// same sizes): the inclusive block scan is shifted right into an exclusive one.
__global__ void scanBlocksHillisSteele(const float* in, float* out, float* totals, int n) {
    extern __shared__ float s[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    hillisSteeleBlock(s, NullRecorder{});
    __syncthreads();
    out[i] = threadIdx.x > 0 ? s[threadIdx.x - 1] : 0.0f;
    if (totals != nullptr && threadIdx.x == 0)
        totals[blockIdx.x] = s[blockDim.x - 1];
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

struct ScanLaunch {
    const ScanWorkspace& ws;
    const Recorders& recs;
    // scanBlocks keeps every block's total (the multi-block scan); scanBlelloch only for the
    // inclusive shift. The name is the listing's, for messages.
    bool multiblock;
    bool hillis_steele;
    bool sync; // tracing: synchronise and name the kernel after each launch
    cudaStream_t stream;

    void checked(const char* kernel) const {
        if (sync)
            check_launch(kernel);
    }

    // Scans level k of the recursion into out (padded to whole tiles): block scans, then,
    // with more than one block, the scan of the totals and the carries added back.
    void level(const float* in, float* out, std::size_t k, bool inclusive) const {
        const ScanLevel& lv = ws.levels()[k];
        const int block_dim = ws.block();
        const std::size_t tile = sizeof(float) * static_cast<std::size_t>(block_dim + 1);
        float* totals = lv.grid > 1 ? ws.totals(k) : nullptr;
        if (hillis_steele) {
            scanBlocksHillisSteele<<<lv.grid, block_dim, tile, stream>>>(in, out, totals, lv.n);
        } else {
            recs.with(lv.scan_pass, [&](const auto& rec) {
                scanBlocks<<<lv.grid, block_dim, tile, stream>>>(in, out, totals, lv.n, inclusive,
                                                                 multiblock || inclusive, rec);
            });
        }
        checked(multiblock ? "scanBlocks" : "scanBlelloch");
        if (lv.grid == 1)
            return;
        level(totals, ws.carries(k), k + 1, false);
        recs.with(lv.carry_pass, [&](const auto& rec) {
            addCarries<<<lv.grid, block_dim, 0, stream>>>(out, ws.carries(k), rec);
        });
        checked("addCarries");
    }
};

} // namespace

ScanWorkspace::ScanWorkspace(int n, int block) : block_(block), levels_(scan_levels(n, block)) {
    for (std::size_t k = 0; k + 1 < levels_.size(); ++k) {
        totals_.emplace_back(static_cast<std::size_t>(levels_[k].grid));
        carries_.emplace_back(static_cast<std::size_t>(levels_[k + 1].grid) * block);
    }
}

void scan_untraced(const float* in, float* out, int n, bool hillis_steele, bool inclusive,
                   const ScanWorkspace& ws, cudaStream_t stream) {
    if (ws.levels().front().n != n)
        throw std::logic_error("scan workspace sized for another n");
    const Recorders none{nullptr, nullptr};
    ScanLaunch{ws, none, true, hillis_steele, false, stream}.level(in, out, 0, inclusive);
}

// ---- Dispatch ------------------------------------------------------------------------------

std::vector<float> scan(const Request& r, const Plan* plan, DeviceBuffer<std::uint32_t>* words) {
    const int n = r.n(), block_dim = r.block;
    const Recorders recs{plan, words};
    DeviceBuffer<float> in(r.input);
    std::vector<float> result;
    if (r.algorithm == Algorithm::ScanHillisSteele) {
        DeviceBuffer<float> out(static_cast<std::size_t>(n));
        recs.with(0, [&](const auto& rec) {
            scanHillisSteele<<<1, block_dim, sizeof(float) * static_cast<std::size_t>(block_dim)>>>(
                in.data(), out.data(), n, rec);
        });
        check_launch("scanHillisSteele");
        result = out.to_host();
    } else {
        const ScanWorkspace ws(n, block_dim);
        DeviceBuffer<float> out(static_cast<std::size_t>(ws.levels().front().grid) * block_dim);
        ScanLaunch{ws, recs, r.algorithm == Algorithm::ScanMultiblock, false, true, nullptr}.level(
            in.data(), out.data(), 0, r.options.inclusive);
        result = out.to_host();
    }
    result.resize(static_cast<std::size_t>(n));
    return result;
}

} // namespace pplab::cuda
