// histogramFast's counting, shared by the product (fast.cu) and the tuning runs (bench/): 32
// copies of every bin interleaved so that lane l always uses copy l, and a 16-byte vector of
// one value counted with one atomic.
#pragma once

namespace pplab::cuda {

inline constexpr int kCopies = 32; // one per lane: bank (bin * 32 + lane) % 32 == lane

__device__ __forceinline__ void count_word(unsigned* s, unsigned word, int lane) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
        atomicAdd(s + ((word >> (8 * k)) & 0xFFu) * kCopies + lane, 1u);
}

__device__ __forceinline__ void count16(unsigned* s, uint4 v, int lane) {
    // Sixteen equal bytes (one-value data, long runs): one atomic instead of sixteen.
    const unsigned b = v.x & 0xFFu;
    const unsigned all = b * 0x01010101u;
    if (v.x == all && v.y == all && v.z == all && v.w == all) {
        atomicAdd(s + b * kCopies + lane, 16u);
        return;
    }
    count_word(s, v.x, lane);
    count_word(s, v.y, lane);
    count_word(s, v.z, lane);
    count_word(s, v.w, lane);
}

} // namespace pplab::cuda
