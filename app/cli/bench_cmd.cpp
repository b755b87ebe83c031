#include "cli.hpp"

#include "pplab/backend.hpp"
#include "pplab/io.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

namespace pplab::cli {

namespace {

struct CaptureRow {
    std::string algorithm;
    int n = 0;
    double trace_ms = 0;    // backend trace: launch, copy back, decode, canonicalise
    double json_ms = 0;     // trace + to_json
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// Trace capture end to end, per algorithm, after a warm-up: the figure the GUI's re-trace
// latency depends on. Wall-clock medians; nothing here is asserted anywhere.
std::vector<CaptureRow> measure_capture(Backend& backend, const std::vector<int>& sizes, int block,
                                        int runs) {
    using clock = std::chrono::steady_clock;
    std::vector<CaptureRow> rows;
    for (const AlgorithmInfo& a : algorithms())
        for (int size : sizes) {
            // A single-block scan holds at most one block: it is measured at 1024 instead.
            const int n = a.single_block ? std::min(size, kMaxBlock) : size;
            if (a.single_block && size != sizes.front() && n == std::min(sizes.front(), kMaxBlock))
                continue;
            Request r;
            r.algorithm = a.algorithm;
            r.block = a.single_block ? static_cast<int>(std::bit_ceil(static_cast<unsigned>(n))) : block;
            r.input = generate(a.family == Family::Histogram ? Generator::UniformBytes
                                                             : Generator::RandomFloat,
                               n, 1, a.family == Family::Histogram ? 256 : 0);
            r.options.order_seed = 1;
            backend.trace(r); // warm-up: module load, allocations
            std::vector<double> trace_ms, json_ms;
            for (int k = 0; k < runs; ++k) {
                const auto t0 = clock::now();
                const Trace t = backend.trace(r);
                const auto t1 = clock::now();
                const std::string json = to_json(t);
                const auto t2 = clock::now();
                trace_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
                json_ms.push_back(std::chrono::duration<double, std::milli>(t2 - t0).count());
            }
            rows.push_back({std::string(a.id), n, median(trace_ms), median(json_ms)});
        }
    return rows;
}

} // namespace

void add_bench(CLI::App& app) {
    auto* cmd = app.add_subcommand("bench", "measure: trace capture (--capture), or the kernels "
                                            "against CUB and the copy bandwidth (GPU)");
    auto capture = std::make_shared<bool>(false);
    auto backend = std::make_shared<std::string>("auto");
    auto runs = std::make_shared<int>(20);
    auto json = std::make_shared<std::string>();
    cmd->add_flag("--capture", *capture,
                  "time trace capture end to end for every algorithm at n = 4096 and 65536, block 256");
    cmd->add_option("--backend", *backend, "auto, cpu or cuda")->capture_default_str();
    cmd->add_option("--runs", *runs, "timed runs per figure (the median is reported)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    cmd->add_option("--json", *json, "also write the figures to FILE as JSON");
    cmd->callback([=] {
        BackendChoice choice = choose_backend(*backend);
        if (!choice.note.empty())
            std::cerr << "note: " << choice.note << "\n";
        if (!*capture)
            throw InputError("kernel timing needs the CUDA back end, which this build lacks; "
                             "`pplab bench --capture` times trace capture on the CPU model");
        const auto rows = measure_capture(*choice.backend, {4096, 65536}, 256, *runs);
        std::ostringstream table, js;
        table << "trace capture on " << choice.backend->device() << " (median of " << *runs
              << " runs after a warm-up; block 256)\n";
        table << "algorithm              n   trace ms  trace+json ms\n";
        js << "{\"what\": \"capture\", \"backend\": \"" << choice.backend->name()
           << "\", \"device\": \"" << choice.backend->device() << "\", \"runs\": " << *runs
           << ", \"rows\": [";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            char line[160];
            std::snprintf(line, sizeof line, "%-20s %6d %10.3f %14.3f\n", rows[i].algorithm.c_str(),
                          rows[i].n, rows[i].trace_ms, rows[i].json_ms);
            table << line;
            js << (i ? ", " : "") << "{\"algorithm\": \"" << rows[i].algorithm << "\", \"n\": "
               << rows[i].n << ", \"trace_ms\": " << rows[i].trace_ms
               << ", \"trace_json_ms\": " << rows[i].json_ms << "}";
        }
        js << "]}\n";
        std::cout << table.str();
        if (!json->empty())
            write_output(*json, js.str());
    });
}

} // namespace pplab::cli
