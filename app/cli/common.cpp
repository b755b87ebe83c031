#include "cli.hpp"

#include "pplab/files.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

namespace pplab::cli {

void RequestOptions::add_to(CLI::App& cmd, bool with_backend) {
    cmd.add_option("--algo", algo, "algorithm id (see `pplab list`)")->required();
    auto* in = cmd.add_option("--input", input, "the input as a list, e.g. 1,2,3,4");
    auto* file = cmd.add_option("--input-file", input_file, "read the input list from a file");
    auto* nopt = cmd.add_option("--n", n, "generate n elements (with --gen and --seed)");
    in->excludes(file)->excludes(nopt);
    file->excludes(nopt);
    cmd.add_option("--gen", gen,
                   "generator: seq, ones, random-int, random-float, uniform-bytes, one-bin, skewed")
        ->capture_default_str();
    cmd.add_option("--seed", seed, "generator seed")->capture_default_str();
    // 0 is what an absent option leaves, so an explicit 0 is refused here rather than
    // silently replaced by the default.
    cmd.add_option("--block", block, "threads per block (default: the chapter's 256)")
        ->check(CLI::Range(1, kMaxBlock));
    cmd.add_option("--grid", grid, "blocks (default: ELEMS_PER_THREAD = 4 elements per thread)")
        ->check(CLI::Range(1, 65535));
    cmd.add_option("--bins", bins, "histogram bins")->capture_default_str();
    cmd.add_flag("--inclusive", inclusive, "scans: inclusive instead of exclusive");
    cmd.add_flag("--no-skip-empty", no_skip_empty,
                 "histograms: fold every bin, empty or not (Exercise 4)");
    cmd.add_option("--order-seed", order_seed,
                   "reduce-atomic on the CPU model: the seed of the blocks' arrival order "
                   "(default: a new one each run)")
        ->each([this](const std::string&) { order_seed_given = true; });
    cmd.add_option("--pitfall", pitfall,
                   "show a mistake: non-power-of-two (reduce-tree), every-lane-writes "
                   "(reduce-full, Exercise 2), partial-warp (reduce-shuffle), no-final-sync "
                   "(scan-blelloch)")
        ->capture_default_str();
    cmd.add_option("--active-lanes", active_lanes,
                   "with --pitfall partial-warp: how many lanes call warpReduce")
        ->capture_default_str();
    if (with_backend)
        cmd.add_option("--backend", backend, "auto, cpu or cuda")->capture_default_str();
}

Request RequestOptions::build() const {
    Request r;
    r.algorithm = find_algorithm(algo).algorithm;
    r.block = block;
    r.grid = grid;
    r.bins = bins;
    if (block < 0 || block > kMaxBlock)
        throw InputError("block size " + std::to_string(block) +
                         " is out of range: a block has 1 to 1024 threads");
    r.options.inclusive = inclusive;
    r.options.skip_empty = !no_skip_empty;
    r.options.pitfall = find_pitfall(pitfall);
    r.options.active_lanes = active_lanes;
    r.options.order_seed = order_seed_given ? order_seed : std::random_device{}();
    const bool histogram = info(r.algorithm).family == Family::Histogram;
    if (!input.empty()) {
        r.input = parse_list(input);
    } else if (!input_file.empty()) {
        r.input = parse_list(read_text_file(input_file));
    } else {
        if (n < 1)
            throw InputError("give the input: --input 1,2,3,4, --input-file FILE, or --n N "
                             "(n must be at least 1)");
        if (n > kMaxTraceN)
            throw InputError("n = " + std::to_string(n) + " is too large for a trace: at most " +
                             std::to_string(kMaxTraceN) + " elements");
        r.input = generate(find_generator(gen), n, seed, histogram ? bins : 0);
    }
    return r;
}

void write_output(const std::string& path, const std::string& text) {
    if (path.empty() || path == "-") {
        std::cout << text;
        std::cout.flush();
        return;
    }
    write_atomically(path, text);
}

int run(int argc, char** argv, int (*window)()) {
    CLI::App app{"Parallel Patterns Lab: the chapter's reduction, scan and histogram kernels, "
                 "traced step by step",
                 "pplab"};
    app.set_version_flag("--version", "pplab 0.1.0");
    add_list(app);
    add_trace(app);
    add_check(app);
    add_run(app);
    add_puzzle(app);
#if defined(PPLAB_HAVE_GUI)
    add_render(app);
#endif
    add_bench(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e);
    } catch (const CLI::RuntimeError& e) { // a command's own exit code
        return e.get_exit_code();
    } catch (const CLI::ParseError& e) {
        std::cerr << "pplab: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const InputError& e) {
        std::cerr << "pplab: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::exception& e) { // a CUDA error or a bug: said plainly, never a crash
        std::cerr << "pplab: error: " << e.what() << "\n";
        return kExitBadInput;
    }
    if (app.get_subcommands().empty()) {
        if (window)
            return window();
        std::cout << app.help();
        std::cout << "\n(This build has no window: it was built without GLFW and Dear ImGui.)\n";
        return 0;
    }
    return 0;
}

} // namespace pplab::cli
