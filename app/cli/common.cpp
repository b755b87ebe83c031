#include "cli.hpp"

#include "pplab/files.hpp"
#include "pplab/quote.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <random>

namespace pplab::cli {

void RequestOptions::add_to(CLI::App& cmd, bool with_backend) {
    cmd.add_option("--algo", algo, "algorithm id (see `pplab list`)")->required();
    given_.input = cmd.add_option("--input", input, "the input as a list, e.g. 1,2,3,4");
    given_.file = cmd.add_option("--input-file", input_file,
                                 "read the input list from a file (at most 64 MiB)");
    given_.n = cmd.add_option("--n", n, "generate n elements (with --gen and --seed)");
    given_.input->excludes(given_.file)->excludes(given_.n);
    given_.file->excludes(given_.n);
    given_.gen =
        cmd.add_option("--gen", gen,
                       "with --n: seq, ones, random-int, random-float, uniform-bytes, one-bin, "
                       "skewed, sparse")
            ->capture_default_str();
    given_.seed =
        cmd.add_option("--seed", seed, "with --n: the generator's seed")->capture_default_str();
    // 0 is what an absent option leaves, so an explicit 0 is refused here rather than
    // silently replaced by the default.
    cmd.add_option("--block", block, "threads per block (default: the chapter's 256)")
        ->check(CLI::Range(1, kMaxBlock));
    cmd.add_option("--grid", grid, "blocks (default: ELEMS_PER_THREAD = 4 elements per thread)")
        ->check(CLI::Range(1, 65535));
    given_.bins = cmd.add_option("--bins", bins, "histograms: bins")->capture_default_str();
    given_.inclusive =
        cmd.add_flag("--inclusive", inclusive, "scans: inclusive instead of exclusive");
    given_.no_skip_empty =
        cmd.add_flag("--no-skip-empty", no_skip_empty,
                     "hist-privatised, hist-per-warp: fold every bin, empty or not (Exercise 4)");
    given_.order_seed = cmd.add_option(
        "--order-seed", order_seed,
        "on the CPU model and pplab's simulator: the seed of reduce-atomic's arrival order or of "
        "scan-fast's schedule (default: a new one each run)");
    cmd.add_option("--pitfall", pitfall,
                   "show a mistake: non-power-of-two (reduce-tree), every-lane-writes "
                   "(reduce-full, Exercise 2), partial-warp (reduce-shuffle), no-final-sync "
                   "(scan-blelloch)")
        ->capture_default_str();
    given_.active_lanes =
        cmd.add_option("--active-lanes", active_lanes,
                       "with --pitfall partial-warp: how many lanes call warpReduce")
            ->capture_default_str();
    if (with_backend)
        given_.backend =
            cmd.add_option("--backend", backend, "auto, cpu or cuda")->capture_default_str();
}

namespace {

bool given(const CLI::Option* option) {
    return option && option->count() > 0;
}

} // namespace

std::vector<float> RequestOptions::input_values(bool histogram) const {
    if ((given(given_.gen) || given(given_.seed)) && !given(given_.n))
        throw InputError("--gen and --seed make an input of --n N elements; give --n, or "
                         "leave them out");
    if (given(given_.input))
        return parse_list(input);
    if (given(given_.file))
        return parse_list(read_text_file(input_file));
    if (n < 1)
        throw InputError("give the input: --input 1,2,3,4, --input-file FILE, or --n N "
                         "(n must be at least 1)");
    if (n > kMaxTraceN)
        throw InputError("n = " + std::to_string(n) + " is too large for a trace: at most " +
                         std::to_string(kMaxTraceN) + " elements");
    const Generator g = find_generator(gen);
    if (given(given_.seed) && (g == Generator::Seq || g == Generator::Ones))
        throw InputError("--gen " + std::string(generator_id(g)) +
                         " makes the same input for every seed: leave --seed out");
    return generate(g, n, seed, histogram ? bins : 0);
}

// An option the request cannot use is an error, never silently dropped.
void RequestOptions::check_options_apply(const Request& r) const {
    const AlgorithmInfo& a = info(r.algorithm);
    const std::string id(a.id);
    if (given(given_.bins) && a.family != Family::Histogram)
        throw InputError("--bins is for the histograms; " + id + " has no bins");
    if (given(given_.inclusive) && a.family != Family::Scan)
        throw InputError("--inclusive is for the scans; " + id + " is not one");
    if (given(given_.inclusive) && r.algorithm == Algorithm::ScanFast)
        throw InputError("scan-fast scans exclusively: leave --inclusive out");
    if (given(given_.no_skip_empty) && r.algorithm != Algorithm::HistPrivatised &&
        r.algorithm != Algorithm::HistPerWarp)
        throw InputError("--no-skip-empty changes the fold of hist-privatised and hist-per-warp; " +
                         id + " has no such choice");
    if (given(given_.order_seed) && !has_schedule(r.algorithm))
        throw InputError("--order-seed sets the CPU model's order of the blocks (reduce-atomic's "
                         "arrival order, scan-fast's schedule of publishes and look-backs); " +
                         id + " runs in one order only");
    if (given(given_.order_seed) && backend == "cuda")
        throw InputError("--order-seed sets the CPU model's order; on a GPU the hardware decides "
                         "it: use --backend cpu, or leave --order-seed out");
    if (given(given_.active_lanes) && r.options.pitfall != Pitfall::PartialWarp)
        throw InputError("--active-lanes goes with --pitfall partial-warp (the lanes that call "
                         "warpReduce)");
}

void RequestOptions::refuse_run_options(const std::string& command) const {
    if (given(given_.order_seed))
        throw InputError("--order-seed chooses the order a run's blocks arrive in; `pplab " +
                         command + "` runs nothing: give it to `pplab run` or `pplab trace`");
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
    r.options.order_seed = given(given_.order_seed) ? order_seed : std::random_device{}();
    check_options_apply(r);
    r.input = input_values(info(r.algorithm).family == Family::Histogram);
    return normalize_trace(std::move(r));
}

std::string RequestOptions::backend_choice() const {
    return given(given_.order_seed) && backend == "auto" ? "cpu" : backend;
}

void print(std::string_view text) {
    std::cout.flush();
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
        throw InputError(std::string("cannot write to standard output: ") + std::strerror(errno));
}

void write_output(const std::string& path, const std::string& text) {
    if (path.empty() || path == "-") {
        print(text);
        return;
    }
    write_atomically(path, text);
}

namespace {

// What went wrong, on one line whatever the message holds (a path, a token from a file).
int report(const std::string& what) {
    std::cerr << "pplab: " << printable(what) << "\n";
    return kExitBadInput;
}

// Output that never reached standard output (`> /dev/full`, a closed pipe) is a failure too.
int finish(int code) {
    std::cout.flush();
    if (std::fflush(stdout) != 0)
        return report(std::string("cannot write to standard output: ") + std::strerror(errno));
    if (std::ferror(stdout) || !std::cout)
        return report("cannot write to standard output");
    return code;
}

} // namespace

int run(int argc, char** argv, int (*window)()) {
    CLI::App app{"Parallel Patterns Lab: the chapter's reduction, scan and histogram kernels, "
                 "traced step by step",
                 "pplab"};
    app.set_version_flag("--version", "pplab 0.1.0");
    add_list(app);
    add_trace(app);
    add_check(app);
    add_listing(app);
    add_run(app);
    add_puzzle(app);
#if defined(PPLAB_HAVE_GUI)
    add_render(app);
#endif
    add_bench(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return finish(app.exit(e));
    } catch (const CLI::RuntimeError& e) { // a command's own exit code
        return finish(e.get_exit_code());
    } catch (const CLI::ExtrasError&) {
        // CLI11 lists the arguments it did not expect last one first ("cpu --backend json
        // --format"): said in the order they were typed, with the command that refused them.
        std::string rest, command = "pplab";
        for (const CLI::App* sub = &app; !sub->get_subcommands().empty();) {
            sub = sub->get_subcommands().front();
            command += " " + sub->get_name();
        }
        for (const std::string& a : app.remaining(true))
            rest += (rest.empty() ? "" : " ") + a;
        return report("`" + command + "` does not take " + rest + " (`" + command +
                      " --help` lists what it takes)");
    } catch (const CLI::ParseError& e) {
        return report(e.what());
    } catch (const InputError& e) {
        return report(e.what());
    } catch (const std::exception& e) { // a CUDA error or a bug: said plainly, never a crash
        return report(std::string("error: ") + e.what());
    }
    if (app.get_subcommands().empty()) {
        if (window)
            return window();
        std::cout << app.help();
        std::cout << "\n(This build has no window: it was built without GLFW and Dear ImGui.)\n";
    }
    return finish(0);
}

} // namespace pplab::cli
