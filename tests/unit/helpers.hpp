// Small helpers the unit tests share: building a request, tracing it on the CPU model, and
// reading the InputError a request or an answer is refused with.
#pragma once

#include "pplab/backend.hpp"
#include "pplab/request.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace pplab::test {

// A request for `a` over `input` in blocks of `block` threads (0: the algorithm's default).
inline Request request(Algorithm a, std::vector<float> input, int block = 0) {
    Request r;
    r.algorithm = a;
    r.block = block;
    r.input = std::move(input);
    return r;
}

// The same request launched with `grid` blocks (0: the algorithm's default).
inline Request with_grid(Request r, int grid) {
    r.grid = grid;
    return r;
}

// n elements of 1.0f: an input whose every partial sum is exact.
inline std::vector<float> ones(int n) {
    return std::vector<float>(static_cast<std::size_t>(n), 1.0f);
}

// The CPU model's trace of a request.
inline Trace trace(const Request& r) {
    return make_cpu_backend()->trace(r);
}

// The message of the InputError that f() throws, or "" when it throws none.
template <class F>
std::string input_error(F&& f) {
    try {
        std::forward<F>(f)();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

// The message of the InputError that normalize throws, or "" when it accepts the request.
inline std::string rejection(const Request& r) {
    return input_error([&] { normalize(r); });
}

// Whether `text` contains `part`: for messages and captions that must name something.
inline bool mentions(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace pplab::test
