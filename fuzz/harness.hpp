// What the harnesses share: the input as text, and a promise checked (a broken one stops the
// fuzzer with the input that broke it, as a crash would).
#pragma once

#include "pplab/request.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

namespace pplab::fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

inline void require(bool promise, const char* what) {
    if (!promise) {
        std::fprintf(stderr, "broken promise: %s\n", what);
        std::abort();
    }
}

// What `parse()` returns, or nothing when it refuses the input as a user would see it (an
// InputError). Any other exception escapes and is a finding.
template <class Parse>
auto accepted(Parse&& parse) -> std::optional<decltype(parse())> {
    try {
        return parse();
    } catch (const InputError&) {
        return std::nullopt;
    }
}

} // namespace pplab::fuzz
