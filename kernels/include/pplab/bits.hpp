// A float's 32 bits as an unsigned integer: for comparing results bit for bit and showing a
// float's sign, exponent and mantissa. std::bit_cast where the library has it; the page's
// libc++ 13 (emscripten 3.1.6) does not, and memcpy gives the same bits.
#pragma once

#include <cstdint>
#include <cstring>
#if __has_include(<bit>)
#include <bit>
#endif

namespace pplab {

inline std::uint32_t bits_of(float v) {
#if defined(__cpp_lib_bit_cast)
    return std::bit_cast<std::uint32_t>(v);
#else
    std::uint32_t u = 0;
    std::memcpy(&u, &v, sizeof u);
    return u;
#endif
}

} // namespace pplab
