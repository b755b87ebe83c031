// Serial references ("gold"), written from the chapter's definitions with plain loops and
// nothing from kernels/: what each kernel must leave in its output buffer.
//
// Sums are kept in double. For the small whole numbers of random-int every partial sum is
// exact in fp32 too, so the models must match them exactly; for random floats they are the
// yardstick a relative tolerance is measured against.
#pragma once

#include <cstddef>
#include <vector>

namespace pplab::ref {

// reduce-naive, reduce-full, reduce-atomic: the single sum.
double total(const std::vector<float>& in);

// reduce-naive in the kernel's own order: `sum += in[i]` in fp32, one element at a time.
float serial_fp32_sum(const std::vector<float>& in);

// reduce-tree: block b sums the `block` elements starting at b * block (one per thread).
std::vector<double> block_sums(const std::vector<float>& in, int block);

// reduce-coarsened: block b sums every element i with (i / block) % grid == b, which is
// what the grid-stride loop `i += gridDim.x * blockDim.x` visits.
std::vector<double> grid_stride_block_sums(const std::vector<float>& in, int grid, int block);

// reduce-shuffle: one sum per warp of 32 consecutive elements, warps of every block in order.
std::vector<double> warp_sums(const std::vector<float>& in, int block);

// Scans: y_i = a_0 + ... + a_{i-1} (exclusive, y_0 = 0) or a_0 + ... + a_i (inclusive).
std::vector<double> exclusive_scan(const std::vector<float>& in);
std::vector<double> inclusive_scan(const std::vector<float>& in);

// Histograms: how many elements hold each bin value.
std::vector<double> counts(const std::vector<float>& in, int bins);

// The elements [first, first + count) of `in`, zero past the end: what a block loads.
std::vector<double> tile(const std::vector<float>& in, std::size_t first, std::size_t count);

} // namespace pplab::ref
