// Every traced algorithm x input sizes x block sizes (and the pitfalls, the inclusive scan and
// the empty-bin skip), traced by the CPU model and written as `pplab trace --format json`
// writes it. Built natively and for the page: the two outputs must be equal byte for byte,
// which holds the WebAssembly build to the same fp32 operations, the same order and the same
// number formatting as the desktop. A request the kernel refuses writes its message instead.
#include "pplab/backend.hpp"
#include "pplab/io.hpp"
#include "pplab/request.hpp"

#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace pplab;

std::string label(const Request& r, std::string_view gen) {
    return std::string(info(r.algorithm).id) + " n=" + std::to_string(r.n()) +
           " block=" + std::to_string(r.block) + " grid=" + std::to_string(r.grid) +
           " gen=" + std::string(gen) + " pitfall=" + std::string(pitfall_id(r.options.pitfall)) +
           (r.options.inclusive ? " inclusive" : "") + (r.options.skip_empty ? "" : " no-skip");
}

void emit(std::ostream& to, Backend& cpu, Request r, std::string_view gen) {
    std::string out = "=== " + label(r, gen) + "\n";
    try {
        out += to_json(cpu.trace(normalize_trace(std::move(r))));
    } catch (const std::exception& e) { // refused: the message is part of what must match
        out += std::string("refused: ") + e.what() + "\n";
    }
    to << out;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: pplab_trace_matrix OUT_FILE\n");
        return 2;
    }
    std::ofstream to(argv[1], std::ios::binary);
    const auto cpu = make_cpu_backend();
    const int sizes[] = {1, 5, 32, 100, 257, 1000};
    const int blocks[] = {0, 8, 32, 64, 256};
    for (const AlgorithmInfo& a : algorithms()) {
        if (!a.traced)
            continue;
        const bool histogram = a.family == Family::Histogram;
        const std::vector<Generator> gens =
            histogram ? std::vector{Generator::UniformBytes, Generator::Skewed}
                      : std::vector{Generator::RandomFloat, Generator::RandomInt};
        for (const int n : sizes)
            for (const int block : blocks)
                for (const Generator g : gens) {
                    Request r;
                    r.algorithm = a.algorithm;
                    r.block = block;
                    r.bins = histogram ? 16 : 256;
                    r.options.order_seed = 3;
                    r.input = generate(g, n, 7, histogram ? r.bins : 0);
                    emit(to, *cpu, r, generator_id(g));
                    if (a.algorithm == Algorithm::ScanBlelloch ||
                        a.algorithm == Algorithm::ScanMultiblock)
                        r.options.inclusive = true, emit(to, *cpu, r, generator_id(g));
                    if (histogram)
                        r.options.skip_empty = false, emit(to, *cpu, r, generator_id(g));
                }
    }
    // The chapter's mistakes, each on the kernel it belongs to.
    for (int p = 1; p < kPitfallCount; ++p) {
        Request r;
        r.options.pitfall = static_cast<Pitfall>(p);
        r.algorithm = pitfall_algorithm(r.options.pitfall);
        r.block = r.options.pitfall == Pitfall::NonPowerOfTwo ? 6 : 64;
        r.options.active_lanes = 20;
        r.input = generate(Generator::RandomFloat, 256, 11, 0);
        emit(to, *cpu, r, "random-float");
    }
    to.close();
    return to ? 0 : 1;
}
