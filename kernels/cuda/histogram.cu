// The chapter's histograms, §8.8:
//
//   histogramGlobal      naive (Chapter 5): one global atomicAdd per element; contended bins
//                        serialise
//   histogramPrivatised  §8.8: a private histogram per block in shared memory, where atomics
//                        are about ten times cheaper, folded into global memory once
//   histogramPerWarp     §8.8's next-level fix: a private copy per warp, so skewed data
//                        contends within a warp only; the copies are merged, then folded
//
// Input is one bin number per element: unsigned char (the chapter's bytes) when the bins fit
// in 256, unsigned short above. Templated on a Recorder like the reductions (see reduce.cu);
// the traced histograms synchronise the whole grid (cooperative launch) so that global bins
// after a round, and after each block's fold in block order, are states the GPU really passes
// through. kernels/cpu/histogram.cpp is the lockstep model of this file.
#include "cuda/launch.hpp"
#include "cuda/recorder.cuh"

#include <cstdint>

namespace pplab::cuda {

namespace {

// ---- Kernels -------------------------------------------------------------------------------

template <class T, class Rec>
__global__ void histogramGlobal(const T* data, int* g_hist, int n, Rec rec) {
    const int stride = gridDim.x * blockDim.x;
    int round = 1;
    for (int first = 0; first < n; first += stride, ++round) {
        const int i = first + blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n)
            atomicAdd(&g_hist[data[i]], 1); // contended bins serialise here
        rec.grid_array(Step::HistAccumulate, round, g_hist);
    }
}

template <class T, class Rec>
__global__ void histogramPrivatised(const T* data, int* g_hist, int n, int bins, bool skip_empty,
                                    Rec rec) {
    // Private histogram for THIS block, in shared memory.
    extern __shared__ int s_hist[];

    // Initialise the private histogram (all threads help; one barrier).
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        s_hist[b] = 0;
    __syncthreads(); // all bins zeroed before any thread counts
    rec.shared(Step::HistZero, 0, s_hist);

    // Accumulate. Shared-memory atomics are fast; contention is spread across the bins.
    const int stride = gridDim.x * blockDim.x;
    int round = 1;
    for (int first = 0; first < n; first += stride, ++round) {
        const int i = first + blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n)
            atomicAdd(&s_hist[data[i]], 1);
        rec.shared(Step::HistAccumulate, round, s_hist);
    }

    __syncthreads(); // all counts complete before folding

    // Fold: one thread per bin adds this block's count to global memory.
    rec.in_block_order([&] {
        for (int b = threadIdx.x; b < bins; b += blockDim.x)
            if (!skip_empty || s_hist[b] != 0) // skip empty bins: less global traffic
                atomicAdd(&g_hist[b], s_hist[b]);
        rec.block_global(Step::HistFold, 0, g_hist);
    });
}

template <class T, class Rec>
__global__ void histogramPerWarp(const T* data, int* g_hist, int n, int bins, bool skip_empty,
                                 Rec rec) {
    // WARPS private copies, one after the other: warp w counts into s_hist[w * bins + bin].
    extern __shared__ int s_hist[];
    const int WARPS = blockDim.x / 32;
    const int warpId = threadIdx.x / 32;

    for (int b = threadIdx.x; b < WARPS * bins; b += blockDim.x)
        s_hist[b] = 0;
    __syncthreads();
    rec.shared(Step::HistZero, 0, s_hist);

    // Same-bin atomics now contend only among the 32 lanes of one warp.
    int* mine = s_hist + warpId * bins;
    const int stride = gridDim.x * blockDim.x;
    int round = 1;
    for (int first = 0; first < n; first += stride, ++round) {
        const int i = first + blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n)
            atomicAdd(&mine[data[i]], 1);
        rec.shared(Step::HistAccumulate, round, s_hist);
    }

    __syncthreads(); // all counts complete before merging

    // Merge: one thread per bin sums the warps' copies into warp 0's copy. Each thread
    // touches only its own bins, so no barrier is needed before its fold.
    for (int b = threadIdx.x; b < bins; b += blockDim.x) {
        int sum = s_hist[b];
        for (int w = 1; w < WARPS; ++w)
            sum += s_hist[w * bins + b];
        s_hist[b] = sum;
    }
    rec.shared(Step::HistMerge, 0, s_hist);

    rec.in_block_order([&] {
        for (int b = threadIdx.x; b < bins; b += blockDim.x)
            if (!skip_empty || s_hist[b] != 0)
                atomicAdd(&g_hist[b], s_hist[b]);
        rec.block_global(Step::HistFold, 0, g_hist);
    });
}

// ---- Launchers -----------------------------------------------------------------------------

// Launches one kernel; the caller checks (traces synchronise, timing loops do not).
template <class T, class Rec>
void launch_histogram(Algorithm a, const T* data, int* g_hist, int n, int bins, int grid, int block,
                      bool skip, const Rec& rec, cudaStream_t stream) {
    const std::size_t smem = sizeof(int) * static_cast<std::size_t>(bins) *
                             (a == Algorithm::HistPerWarp ? static_cast<std::size_t>(block / 32)
                              : a == Algorithm::HistPrivatised ? 1u
                                                               : 0u);
    const void* kernel = nullptr;
    const char* name = nullptr;
    switch (a) {
    case Algorithm::HistGlobal:
        kernel = reinterpret_cast<const void*>(&histogramGlobal<T, Rec>);
        name = "histogramGlobal";
        break;
    case Algorithm::HistPrivatised:
        kernel = reinterpret_cast<const void*>(&histogramPrivatised<T, Rec>);
        name = "histogramPrivatised";
        break;
    case Algorithm::HistPerWarp:
        kernel = reinterpret_cast<const void*>(&histogramPerWarp<T, Rec>);
        name = "histogramPerWarp";
        break;
    default:
        throw std::logic_error("not a histogram");
    }
    if constexpr (Rec::kGridSync) {
        // Grid-wide barriers need every block resident at once.
        const int most = max_resident_blocks(kernel, block, smem);
        if (grid > most)
            throw InputError(
                "the traced " + std::string(name) + " synchronises the whole grid, so " +
                "all its blocks must be resident at once: this GPU holds " + std::to_string(most) +
                " blocks of " + std::to_string(block) + " threads, and the grid has " +
                std::to_string(grid) + "; choose a smaller --grid");
        Rec copy = rec;
        int n_arg = n, k_arg = bins;
        bool skip_arg = skip;
        void* args_global[] = {&data, &g_hist, &n_arg, &copy};
        void* args_private[] = {&data, &g_hist, &n_arg, &k_arg, &skip_arg, &copy};
        check(cudaLaunchCooperativeKernel(kernel, grid, block,
                                          a == Algorithm::HistGlobal ? args_global : args_private,
                                          smem, stream),
              std::string("launching kernel ") + name);
    } else {
        switch (a) {
        case Algorithm::HistGlobal:
            histogramGlobal<<<grid, block, 0, stream>>>(data, g_hist, n, rec);
            break;
        case Algorithm::HistPrivatised:
            histogramPrivatised<<<grid, block, smem, stream>>>(data, g_hist, n, bins, skip, rec);
            break;
        default:
            histogramPerWarp<<<grid, block, smem, stream>>>(data, g_hist, n, bins, skip, rec);
            break;
        }
    }
}

template <class T>
std::vector<float> run(const Request& r, const Plan* plan, DeviceBuffer<std::uint32_t>* words) {
    std::vector<T> bins_in(r.input.size());
    for (std::size_t i = 0; i < bins_in.size(); ++i)
        bins_in[i] = static_cast<T>(r.input[i]);
    DeviceBuffer<T> data(bins_in);
    DeviceBuffer<int> g_hist(static_cast<std::size_t>(r.bins), 0);
    if (plan) {
        TraceRecorder rec;
        rec.words = words->data();
        rec.layout = plan->launches.front().layout;
        launch_histogram(r.algorithm, data.data(), g_hist.data(), r.n(), r.bins, r.grid, r.block,
                         r.options.skip_empty, rec, nullptr);
    } else {
        launch_histogram(r.algorithm, data.data(), g_hist.data(), r.n(), r.bins, r.grid, r.block,
                         r.options.skip_empty, NullRecorder{}, nullptr);
    }
    check_launch(kernel_name(r.algorithm));
    const std::vector<int> counts = g_hist.to_host();
    return {counts.begin(), counts.end()};
}

} // namespace

// ---- Dispatch ------------------------------------------------------------------------------

std::vector<float> histogram(const Request& r, const Plan* plan,
                             DeviceBuffer<std::uint32_t>* words) {
    return r.bins <= 256 ? run<std::uint8_t>(r, plan, words) : run<std::uint16_t>(r, plan, words);
}

void histogram_untraced(Algorithm a, const unsigned char* data, int* g_hist, int n, int bins,
                        int grid, int block, bool skip_empty, cudaStream_t stream) {
    launch_histogram(a, data, g_hist, n, bins, grid, block, skip_empty, NullRecorder{}, stream);
}

int max_resident_blocks(const void* kernel, int block, std::size_t shared_bytes) {
    int device = 0, sms = 0, per_sm = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
          "cudaDeviceGetAttribute");
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, shared_bytes),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    return sms * per_sm;
}

} // namespace pplab::cuda
