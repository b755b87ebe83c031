// Launchers of the production kernels (fast.cu). Each owns the small device state its kernel
// keeps between launches (block totals, tile descriptors), so timing loops allocate nothing.
#pragma once

#include <cuda_runtime_api.h>

#include "pplab/request.hpp"

#include <cstddef>

namespace pplab::cuda {

// One launch: grid sized to the SMs; the last block to finish adds the block totals.
class FastReduce {
public:
    // min_loads: 16-byte loads per thread at least, before the grid grows (small inputs).
    explicit FastReduce(int min_loads = kFastReduceMinLoads);
    ~FastReduce();
    FastReduce(const FastReduce&) = delete;
    FastReduce& operator=(const FastReduce&) = delete;
    // grid 0: sized to the device (resident blocks, at least eight float4 per thread).
    void launch(const float* in, float* out, int n, int grid = 0,
                cudaStream_t stream = nullptr) const;

private:
    int min_loads_ = 4;
    int grid_ = 0;
    float* partials_ = nullptr;
    unsigned* finished_ = nullptr;
};

// From this many elements, on sm_90 and later, FastScan runs scanRing (scan_ring.cuh): 90% of
// the copy rate at 2^28 where scanFast reaches 81%; below 2^24 scanFast is faster (a persistent
// grid has too few tiles in flight there). bench/NOTES.md, issue 14.
inline constexpr int kScanRingFrom = 1 << 24;

// Single-pass exclusive scan with decoupled look-back, for up to max_n elements. A tile is
// rounds x 128 elements per warp of the 256-thread block (4, 8 or 16; 16 measured fastest);
// from ring_from elements (on a device that has bulk copies) the warp-specialised ring.
class FastScan {
public:
    explicit FastScan(int max_n, int rounds = kScanFastTile / (kFastBlock * 4),
                      int ring_from = kScanRingFrom);
    ~FastScan();
    FastScan(const FastScan&) = delete;
    FastScan& operator=(const FastScan&) = delete;
    void launch(const float* in, float* out, int n, cudaStream_t stream = nullptr);

private:
    int max_n_ = 0;
    int rounds_ = 16;
    int ring_from_ = kScanRingFrom; // INT_MAX where the device has no bulk copies
    int ring_grid_ = 0;             // one persistent block per SM
    unsigned long long* descriptors_ = nullptr;
    unsigned long long* tiles_ = nullptr;
    unsigned long long tile_base_ = 0;
    unsigned epoch_ = 0;
};

// 8-bit histogram into `bins` (<= 256) bins; writes every bin of g_hist itself. One launch:
// the last block to finish moves the blocks' sums into g_hist (one_launch false: a memset of
// g_hist, then the count, as the histogram was timed before; bench/NOTES.md, issue 14). Like
// FastReduce, one launch at a time per object: the sums and the ticket are its state.
class FastHistogram {
public:
    explicit FastHistogram(int bins, bool one_launch = true);
    ~FastHistogram();
    FastHistogram(const FastHistogram&) = delete;
    FastHistogram& operator=(const FastHistogram&) = delete;
    // grid 0: as many blocks as reside (fewer for small inputs).
    void launch(const unsigned char* data, unsigned* g_hist, long long n, int grid = 0,
                cudaStream_t stream = nullptr) const;

private:
    int bins_ = 0;
    bool one_launch_ = true;
    int grid_ = 0;
    std::size_t smem_ = 0;
    unsigned* pending_ = nullptr;  // the blocks' sums, zero between launches
    unsigned* finished_ = nullptr; // blocks done: the last one writes g_hist
};

} // namespace pplab::cuda
