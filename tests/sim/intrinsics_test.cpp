// CUDA's integer and bit-cast intrinsics as the simulator's header gives them, against values
// worked out by hand from CUDA's definitions (CUDA Math API: __ffs is the 1-based position of
// the least significant set bit, 0 for 0; __clz counts zeros from the most significant bit).
#include <gtest/gtest.h>

#include <climits>
#include <cmath>

// Last: the header spells CUDA's names as macros (printf, threadIdx), which gtest must not see.
#include "sim/cuda_sim.hpp"

namespace {

TEST(Intrinsics, BitCastsKeepTheBits) {
    EXPECT_EQ(__float_as_uint(1.0f), 0x3f800000u);  // exponent 127, mantissa 0
    EXPECT_EQ(__float_as_uint(-2.0f), 0xc0000000u); // sign, exponent 128
    EXPECT_EQ(__float_as_uint(0.0f), 0u);
    EXPECT_EQ(__float_as_int(-0.0f), INT_MIN);                     // the sign bit alone
    EXPECT_EQ(__uint_as_float(0x40490fdbu), 3.14159274101257324f); // pi rounded to float
    EXPECT_EQ(__uint_as_float(0x7f800000u), INFINITY);
    EXPECT_TRUE(std::isnan(__uint_as_float(0x7fc00000u)));
    EXPECT_EQ(__int_as_float(0x3f000000), 0.5f);
    EXPECT_EQ(__double_as_longlong(1.0), 0x3ff0000000000000ll);
    EXPECT_EQ(__longlong_as_double(0x4000000000000000ll), 2.0);
}

TEST(Intrinsics, FfsIsTheOneBasedLowestSetBit) {
    EXPECT_EQ(__ffs(0), 0);
    EXPECT_EQ(__ffs(1), 1);
    EXPECT_EQ(__ffs(12), 3);   // 0b1100
    EXPECT_EQ(__ffs(0xa8), 4); // 0b10101000
    EXPECT_EQ(__ffs(-1), 1);
    EXPECT_EQ(__ffs(INT_MIN), 32); // bit 31 alone
    EXPECT_EQ(__ffsll(0), 0);
    EXPECT_EQ(__ffsll(1ll << 40), 41);
    EXPECT_EQ(__ffsll(LLONG_MIN), 64);
}

TEST(Intrinsics, PopcCountsSetBits) {
    EXPECT_EQ(__popc(0u), 0);
    EXPECT_EQ(__popc(0xa8u), 3);
    EXPECT_EQ(__popc(0xffffffffu), 32);
    EXPECT_EQ(__popcll(0xffffffffffffffffull), 64);
    EXPECT_EQ(__popcll(0x8000000000000001ull), 2);
}

TEST(Intrinsics, ClzCountsLeadingZeros) {
    EXPECT_EQ(__clz(0), 32);
    EXPECT_EQ(__clz(1), 31);
    EXPECT_EQ(__clz(0x00010000), 15);
    EXPECT_EQ(__clz(-1), 0);
    EXPECT_EQ(__clzll(0), 64);
    EXPECT_EQ(__clzll(1), 63);
}

TEST(Intrinsics, BrevReversesTheBits) {
    EXPECT_EQ(__brev(1u), 0x80000000u);
    EXPECT_EQ(__brev(0xfu), 0xf0000000u);
    EXPECT_EQ(__brev(0x12345678u), 0x1e6a2c48u);
}

} // namespace
