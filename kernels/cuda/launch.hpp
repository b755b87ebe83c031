// Host side of the CUDA back end: errors, device buffers and the per-family entry points.
// Plain C++ over the CUDA runtime API, so .cu and .cpp files can both include it.
#pragma once

#include "pplab/plan.hpp"
#include "pplab/request.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pplab::cuda {

// A CUDA call or kernel failed. The message names the kernel (or call) and the CUDA error.
class CudaError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline void check(cudaError_t e, const std::string& what) {
    if (e != cudaSuccess)
        throw CudaError(what + " failed: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) +
                        ")");
}

// After a launch on the tracing path: launch errors and execution errors, named.
inline void check_launch(const char* kernel) {
    check(cudaGetLastError(), std::string("launching kernel ") + kernel);
    check(cudaDeviceSynchronize(), std::string("kernel ") + kernel);
}

template <class T>
class DeviceBuffer {
public:
    explicit DeviceBuffer(std::size_t count) : count_(count) {
        if (count_ > 0)
            check(cudaMalloc(reinterpret_cast<void**>(&ptr_), bytes()), "cudaMalloc");
    }
    DeviceBuffer(std::size_t count, T fill) : DeviceBuffer(count) {
        const std::vector<T> host(count, fill);
        upload(host);
    }
    explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept : count_(o.count_), ptr_(o.ptr_) {
        o.count_ = 0;
        o.ptr_ = nullptr;
    }
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        std::swap(count_, o.count_);
        std::swap(ptr_, o.ptr_);
        return *this;
    }
    ~DeviceBuffer() {
        if (ptr_)
            cudaFree(ptr_);
    }

    T* data() const { return ptr_; }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

    void upload(const std::vector<T>& host) {
        if (!host.empty())
            check(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
                  "cudaMemcpy to the device");
    }
    std::vector<T> to_host() const {
        std::vector<T> host(count_);
        if (count_ > 0)
            check(cudaMemcpy(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost),
                  "cudaMemcpy to the host");
        return host;
    }

private:
    std::size_t count_ = 0;
    T* ptr_ = nullptr;
};

// Each family runs its kernels for a normalized request. With a plan, the traced kernels
// record into `words` (sized by the plan); without, the uninstrumented kernels run. Both
// return what the kernels leave in their output buffer (Trace::result).
std::vector<float> reduce(const Request& r, const Plan* plan, DeviceBuffer<std::uint32_t>* words);
std::vector<float> scan(const Request& r, const Plan* plan, DeviceBuffer<std::uint32_t>* words);
std::vector<float> histogram(const Request& r, const Plan* plan,
                             DeviceBuffer<std::uint32_t>* words);

// The production kernels (fast.cu) for a request: their output.
std::vector<float> fast(const Request& r);

// The chapter's name of an algorithm's (main) kernel, for messages.
const char* kernel_name(Algorithm a);

// The uninstrumented kernels, launched on a stream without synchronising: for timing loops.
// reduce: `out` holds one value per block (reduceShuffle: per warp); reduceFull's second pass
// is a second call with grid 1 over the block totals.
void reduce_untraced(Algorithm a, const float* in, float* out, int n, int grid, int block,
                     cudaStream_t stream);

// Buffers for the multi-block scan's recursion (block totals and carries at every level),
// allocated once so that timed runs allocate nothing.
class ScanWorkspace {
public:
    ScanWorkspace(int n, int block);
    const std::vector<ScanLevel>& levels() const { return levels_; }
    float* totals(std::size_t level) const { return totals_[level].data(); }
    float* carries(std::size_t level) const { return carries_[level].data(); }
    int block() const { return block_; }

private:
    int block_ = 0;
    std::vector<ScanLevel> levels_;
    std::vector<DeviceBuffer<float>> totals_, carries_;
};

// Multi-block exclusive scan of n elements into out (padded to whole blocks) with Blelloch
// block scans (scanBlocks) or Hillis-Steele block scans, totals scanned recursively, carries
// added back.
void scan_untraced(const float* in, float* out, int n, bool hillis_steele, bool inclusive,
                   const ScanWorkspace& ws, cudaStream_t stream);

// histogramGlobal / Privatised / PerWarp on 8-bit input; g_hist must be zeroed by the caller.
void histogram_untraced(Algorithm a, const unsigned char* data, int* g_hist, int n, int bins,
                        int grid, int block, bool skip_empty, cudaStream_t stream);

// The grid a cooperative (grid-synchronising) traced kernel may have on this device.
int max_resident_blocks(const void* kernel, int block, std::size_t shared_bytes);

} // namespace pplab::cuda
