#include "cli.hpp"

#include "pplab/files.hpp"

#include "pplab/backend.hpp"
#include "pplab/io.hpp"
#include "pplab/timing.hpp"

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
    double trace_ms = 0; // backend trace: launch, copy back, decode, canonicalise
    double json_ms = 0;  // trace + to_json
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
    for (const AlgorithmInfo& a : algorithms()) {
        if (a.production)
            continue; // timed by `pplab bench`; scan-fast is traced at classroom sizes only
        for (int size : sizes) {
            // A single-block scan holds at most one block: it is measured at 1024 instead.
            const int n = a.single_block ? std::min(size, kMaxBlock) : size;
            if (a.single_block && size != sizes.front() && n == std::min(sizes.front(), kMaxBlock))
                continue;
            Request r;
            r.algorithm = a.algorithm;
            r.block =
                a.single_block ? static_cast<int>(std::bit_ceil(static_cast<unsigned>(n))) : block;
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
    }
    return rows;
}

std::vector<Family> parse_families(const std::string& text) {
    std::vector<Family> out;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        if (part == "reduce")
            out.push_back(Family::Reduce);
        else if (part == "scan")
            out.push_back(Family::Scan);
        else if (part == "histogram")
            out.push_back(Family::Histogram);
        else
            throw InputError("unknown family '" + part + "': choose reduce, scan, histogram");
    }
    return out;
}

std::string capture_report(Backend& backend, int runs, std::string& json) {
    const auto rows = measure_capture(backend, {4096, 65536}, 256, runs);
    std::ostringstream table, js;
    table << "trace capture on " << backend.device() << " (median of " << runs
          << " runs after a warm-up; block 256)\n";
    table << "algorithm              n   trace ms  trace+json ms\n";
    js << "{\"what\": \"capture\", \"backend\": \"" << backend.name() << "\", \"device\": \""
       << backend.device() << "\", \"runs\": " << runs << ", \"rows\": [";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        char line[160];
        std::snprintf(line, sizeof line, "%-20s %6d %10.3f %14.3f\n", rows[i].algorithm.c_str(),
                      rows[i].n, rows[i].trace_ms, rows[i].json_ms);
        table << line;
        js << (i ? ", " : "") << "{\"algorithm\": \"" << rows[i].algorithm
           << "\", \"n\": " << rows[i].n << ", \"trace_ms\": " << rows[i].trace_ms
           << ", \"trace_json_ms\": " << rows[i].json_ms << "}";
    }
    js << "]}\n";
    json = js.str();
    return table.str();
}

// The table on standard output and, with --json FILE, the figures in FILE: both or neither
// (the file is moved into place only once the table has been written).
void write_both(const std::string& table, const std::string& path, const std::string& json) {
    Outputs out;
    if (!path.empty())
        out.add_file(path, json);
    print(table);
    out.commit();
}

} // namespace

void add_bench(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "bench", "time every stage beside CUB and the copy bandwidth (GPU); --capture times "
                 "trace capture; --show prints saved figures");
    struct Args {
        bool capture = false;
        std::string backend = "auto";
        int runs = 20;
        int warmups = 3;
        std::string json;
        std::string show;
        std::string families = "reduce,scan,histogram";
        int min_log2 = 20;
        int max_log2 = 28;
        std::vector<int> blocks{64, 128, 256, 512, 1024};
        std::vector<std::string> stages;
        std::string image;
    };
    auto a = std::make_shared<Args>();
    auto* capture =
        cmd->add_flag("--capture", a->capture,
                      "time trace capture end to end for every algorithm (n = 4096 and 65536)");
    auto* backend = cmd->add_option("--backend", a->backend, "with --capture: auto, cpu or cuda")
                        ->capture_default_str();
    auto* runs =
        cmd->add_option("--runs", a->runs, "timed runs per figure (the median is reported)")
            ->check(CLI::Range(1, 1000))
            ->capture_default_str();
    auto* warmups =
        cmd->add_option("--warmups", a->warmups, "untimed runs first")->check(CLI::Range(0, 100));
    auto* families =
        cmd->add_option("--families", a->families, "reduce,scan,histogram")->capture_default_str();
    auto* min_log2 =
        cmd->add_option("--min-log2", a->min_log2, "smallest size, 2^k elements (bytes)")
            ->capture_default_str();
    auto* max_log2 =
        cmd->add_option("--max-log2", a->max_log2, "largest size")->capture_default_str();
    auto* blocks = cmd->add_option("--blocks", a->blocks, "block sizes of the textbook stages")
                       ->delimiter(',');
    auto* stages =
        cmd->add_option("--stages", a->stages,
                        "only these stages (algorithm ids, reduce-fast, scan-fast, hist-fast, cub)")
            ->delimiter(',');
    auto* image =
        cmd->add_option("--image", a->image, "a picture whose bytes make an extra histogram input");
    auto* json = cmd->add_option("--json", a->json, "also write the figures to FILE as JSON");
    auto* show =
        cmd->add_option("--show", a->show, "print the figures saved in FILE (no GPU needed)");
    // What each way of running reads; anything else given beside it would be ignored.
    for (CLI::Option* o : {capture, backend, runs, warmups, families, min_log2, max_log2, blocks,
                           stages, image, json})
        show->excludes(o);
    for (CLI::Option* o : {warmups, families, min_log2, max_log2, blocks, stages, image})
        capture->excludes(o);
    backend->needs(capture);
    cmd->callback([a] {
        if (!a->show.empty()) {
            print(timing_to_table(timing_from_json(read_text_file(a->show))));
            return;
        }
        if (a->capture) {
            BackendChoice choice = choose_backend(a->backend);
            if (!choice.note.empty())
                std::cerr << "note: " << choice.note << "\n";
            std::string figures;
            const std::string table = capture_report(*choice.backend, a->runs, figures);
            write_both(table, a->json, figures);
            return;
        }
        TimingOptions o;
        o.families = parse_families(a->families);
        if (!a->image.empty() &&
            std::find(o.families.begin(), o.families.end(), Family::Histogram) == o.families.end())
            throw InputError("--image makes a histogram input: add histogram to --families, or "
                             "leave --image out");
        o.min_log2 = a->min_log2;
        o.max_log2 = a->max_log2;
        o.blocks = a->blocks;
        o.runs = a->runs;
        o.warmups = a->warmups;
        o.stages = a->stages;
        o.image = a->image;
        o.progress = [](double done, const std::string& what) {
            std::cerr << "\r[" << static_cast<int>(done * 100) << "%] " << what << "          "
                      << std::flush;
        };
        const TimingReport report = measure_kernels(o);
        std::cerr << "\n";
        write_both(timing_to_table(report), a->json, a->json.empty() ? "" : timing_to_json(report));
    });
}

} // namespace pplab::cli
