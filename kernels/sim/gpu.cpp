// A student's file on the GPU (pplab run --backend cuda): nvcc compiles it beside
// gpu_driver.cu into a program that pplab runs in a child process. The driver knows nothing of
// the chapter: the launches come in a spec written here, the chapter's launch sequence for the
// request (the simulator's runner makes the same one), with buffers named by their roles.
#include "child.hpp"
#include "gpu_spec.hpp"
#include "protocol.hpp"

#include "pplab/files.hpp"
#include "pplab/plan.hpp"
#include "pplab/sim.hpp"
#include "pplab_sim_resources.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>
#include <sstream>

namespace pplab::sim {

namespace fs = std::filesystem;

namespace {

constexpr double kNvccSeconds = 300.0; // nvcc takes seconds, more on a loaded machine

std::string_view driver_text() {
    const auto* r = sim_files::find("pplab_gpu_driver.cu");
    if (!r)
        throw std::logic_error("the build lost pplab_gpu_driver.cu");
    return r->text();
}

// The chapter's kernel the algorithm launches, as the listing names it: the plan's for a small
// launch of the same shape (the runner finds the student's kernels the same way).
std::string kernel_name(const Request& r) {
    Request tiny = r;
    tiny.input = {0.0f};
    tiny.grid = 0;
    return listing_kernel(r.algorithm, make_plan(normalize(tiny)).launches.front().kernel);
}

// nvcc's "kernel.cu(12): error: identifier "x" is undefined" -> line 12.
std::vector<CompileError> nvcc_errors(const std::string& log) {
    std::vector<CompileError> errors;
    static const std::regex located(R"(kernel\.cu\((\d+)\): (?:catastrophic )?error: (.*)$)");
    std::istringstream in(log);
    std::string line;
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_search(line, m, located))
            errors.push_back({std::stoi(m[1]), 0, m[2]});
    }
    if (errors.empty()) // an error outside the student's file: its first line says why
        errors.push_back({0, 0, log.substr(0, log.find('\n'))});
    return errors;
}

// The student's file as nvcc compiles it: the launch's constants it uses without defining them.
std::vector<std::string> constant_defines(std::string_view source, const Request& r) {
    std::vector<std::string> d;
    const Preprocessed pre = preprocess(source);
    if (!pre.ok)
        return d;
    for (const std::string& name : pre.rewritten.launch_constants) {
        const int value = name == "TILE" ? r.block : name == "WARPS" ? r.block / kWarpSize : r.bins;
        d.push_back("-D" + name + "=" + std::to_string(value));
    }
    return d;
}

// Compiles the program unless the cache has it; its path, or empty (`g` says why).
fs::path compile_for_gpu(const std::string& nvcc, std::string_view source,
                         const std::vector<std::string>& defines, const GpuOptions& o, GpuRun& g) {
    std::string flags;
    for (const std::string& d : defines)
        flags += d + " ";
    const fs::path folder = fs::path(cache_folder()) / "gpu";
    const std::string key =
        hex_hash(std::string(driver_text()) + std::string(source) + flags + o.arch + nvcc);
    const fs::path dir = folder / ("g-" + key);
    const fs::path exe = dir / "pplab-gpu";
    if (fs::exists(exe))
        return exe;
    fs::create_directories(dir);
    const std::string mine = std::to_string(::getpid());
    const RunFolder work(folder);
    write_atomically(work / "kernel.cu", source);
    write_atomically(work / "driver.cu", driver_text());
    std::vector<std::string> argv{nvcc,
                                  "-O3",
                                  "-std=c++17",
                                  "-arch=" + o.arch,
                                  "-lineinfo",
                                  "-I",
                                  (fs::path(work / "kernel.cu")).parent_path().string()};
    argv.insert(argv.end(), defines.begin(), defines.end());
    const std::string part = exe.string() + "." + mine + ".part";
    argv.insert(argv.end(), {"-o", part, work / "driver.cu"});
    const auto start = std::chrono::steady_clock::now();
    const ChildExit e = run_child(argv, work / "nvcc.txt", kNvccSeconds, 0, o.cancel);
    g.compile_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (e.exited && e.code == 0) {
        move_into_place(part, exe.string());
        return exe;
    }
    std::error_code ec;
    fs::remove(part, ec);
    g.status = e.timed_out ? GpuRun::Status::TimedOut : GpuRun::Status::CompileFailed;
    g.errors = e.timed_out ? std::vector<CompileError>{{0, 0, "nvcc took too long"}}
                           : nvcc_errors(read_all(work / "nvcc.txt"));
    g.message = "nvcc: " +
                (g.errors.front().line > 0 ? "line " + std::to_string(g.errors.front().line) + ": "
                                           : std::string()) +
                g.errors.front().message;
    return {};
}

// The input as the device buffer holds it: floats, or the histogram's bytes.
std::string input_bytes(const Request& r) {
    std::string bytes;
    if (info(r.algorithm).family == Family::Histogram) {
        for (const float v : r.input)
            bytes.push_back(static_cast<char>(static_cast<unsigned char>(v)));
        return bytes;
    }
    bytes.resize(r.input.size() * sizeof(float));
    std::memcpy(bytes.data(), r.input.data(), bytes.size());
    return bytes;
}

void read_outcome(const RunFolder& run, const ChildExit& e, const Spec& spec, GpuRun& g) {
    const std::string said = read_all(run / "said.txt");
    if (e.exited && e.code == 3) {
        g.status = GpuRun::Status::Skipped;
        g.message = "no CUDA device answers on this machine";
        return;
    }
    if (e.timed_out || !e.exited || e.code != 0) {
        g.status = e.timed_out ? GpuRun::Status::TimedOut : GpuRun::Status::Failed;
        g.message = e.timed_out
                        ? "your kernel did not finish on the GPU in time"
                        : "on the GPU: " + said.substr(said.rfind('\n', said.size() - 2) + 1);
        return;
    }
    std::istringstream lines(said);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("device ", 0) == 0)
            g.device = line.substr(7);
        else if (line.rfind("ms ", 0) == 0)
            g.ms = std::stod(line.substr(3));
    }
    const std::string out = read_all(run / "output.bin");
    if (out.size() < spec.output_count * 4) {
        g.status = GpuRun::Status::Failed;
        g.message = "the GPU program wrote no output";
        return;
    }
    g.result.resize(spec.output_count);
    for (std::size_t k = 0; k < spec.output_count; ++k) {
        if (spec.int_output) {
            int v = 0;
            std::memcpy(&v, out.data() + 4 * k, 4);
            g.result[k] = static_cast<float>(v);
        } else {
            std::memcpy(&g.result[k], out.data() + 4 * k, 4);
        }
    }
    g.bytes = spec.bytes;
    g.status = GpuRun::Status::Ran;
}

// The NVIDIA driver's device nodes (a container with a GPU has them too): without them there
// is no device to run on, and nvcc's minutes are not spent.
bool device_present() {
    std::error_code ec;
    return fs::exists("/dev/nvidiactl", ec) || fs::exists("/dev/nvidia0", ec);
}

} // namespace

// The launch sequence, as the runner runs it on the simulator (runner.cpp).
Spec spec_for(const Request& r, int grid, const GpuOptions& o) {
    const Algorithm a = r.algorithm;
    const long long n = r.n();
    const int block = r.block;
    const int shared = shared_bytes(r);
    const auto launch = [&](const char* shape, long long g, const std::string& args) {
        return "launch " + std::string(shape) + " " + std::to_string(g) + " " +
               std::to_string(block) + " " + std::to_string(shared) + " " + args + "\n";
    };
    const auto buffer = [](const std::string& name, long long bytes, bool input = false) {
        return "buffer " + name + " " + std::to_string(bytes) + (input ? " input" : "") + "\n";
    };
    Spec s;
    s.text = "runs " + std::to_string(o.runs) + "\nwarmups " + std::to_string(o.warmups) + "\n";
    const Family family = info(a).family;
    s.bytes = family == Family::Reduce ? 4.0 * n : family == Family::Scan ? 8.0 * n : 1.0 * n;
    if (family == Family::Histogram) {
        s.defines = {"-DPPLAB_HISTOGRAM", "-DPPLAB_KERNEL=" + kernel_name(r)};
        s.int_output = true;
        s.output_count = static_cast<std::size_t>(r.bins);
        s.text += buffer("data", n, true) + buffer("g_hist", 4LL * r.bins) + "zero g_hist\n" +
                  launch("hist", grid, "data g_hist " + std::to_string(n)) + "output g_hist\n";
        return s;
    }
    s.text += buffer("in", 4 * n, true);
    if (a == Algorithm::ScanMultiblock) {
        s.defines = {"-DPPLAB_MULTIBLOCK"};
        const std::vector<ScanLevel> levels = scan_levels(static_cast<int>(n), block);
        std::string in = "in";
        for (std::size_t k = 0; k < levels.size(); ++k) {
            const std::string out = "out" + std::to_string(k),
                              totals = "totals" + std::to_string(k);
            s.text +=
                buffer(out, 4LL * levels[k].grid * block) + buffer(totals, 4LL * levels[k].grid);
            // The flag: the user's array shifts with --inclusive; the totals scan exclusive.
            const bool inclusive = k == 0 && r.options.inclusive;
            s.text += launch("scan-blocks", levels[k].grid,
                             in + " " + out + " " + totals + " " + std::to_string(levels[k].n) +
                                 (inclusive ? " 1" : " 0"));
            in = totals;
        }
        for (std::size_t k = levels.size(); k-- > 0;)
            if (levels[k].carry_pass >= 0)
                s.text += launch("add-carries", levels[k].grid,
                                 "out" + std::to_string(k) + " out" + std::to_string(k + 1));
        s.output_count = static_cast<std::size_t>(n);
        s.text += "output out0\n";
        return s;
    }
    s.defines = {"-DPPLAB_KERNEL=" + kernel_name(r)};
    const std::string shape = family == Family::Scan ? "scan" : "reduce";
    Request sized = r;
    sized.grid = grid;
    s.output_count = result_size(sized);
    if (a == Algorithm::ReduceFull && grid > 1) { // a second launch reduces the block totals
        s.text += buffer("partial", 4LL * grid) + buffer("out", 4) +
                  launch("reduce", grid, "in partial " + std::to_string(n)) +
                  launch("reduce", 1, "partial out " + std::to_string(grid));
    } else {
        // Only the atomic reduction adds into out[0]: the others write every element of it, and
        // a clear in the timed runs (a launch of its own, a third of the time at 2^20) would
        // time what the chapter's kernel, timed by pplab bench beside it, does not do.
        s.text += buffer("out", 4LL * static_cast<long long>(s.output_count)) +
                  (a == Algorithm::ReduceAtomic ? "zero out\n" : "") +
                  launch(shape.c_str(), grid, "in out " + std::to_string(n));
    }
    s.text += "output out\n";
    return s;
}

std::string nvcc_path(std::string& why) {
    std::vector<fs::path> places;
    if (const char* env = std::getenv("PPLAB_NVCC"); env && *env)
        places.emplace_back(env);
    if (const char* path = std::getenv("PATH"))
        for (std::istringstream dirs(path); !dirs.eof();) {
            std::string dir;
            std::getline(dirs, dir, ':');
            if (!dir.empty())
                places.push_back(fs::path(dir) / "nvcc");
        }
    places.emplace_back("/usr/local/cuda/bin/nvcc");
    for (const fs::path& p : places)
        if (::access(p.c_str(), X_OK) == 0)
            return p.string();
    why = "no nvcc: CUDA's compiler is not on the PATH (nor in /usr/local/cuda/bin)";
    return {};
}

std::string gpu_missing() {
    std::string why;
    if (nvcc_path(why).empty())
        return why;
    return device_present() ? "" : "no NVIDIA GPU on this machine (no /dev/nvidiactl)";
}

std::string gpu_missing(Algorithm a) {
    return a == Algorithm::ScanFast ? "scan-fast's listing runs on the simulator only; `pplab "
                                      "bench` times the production scan on the GPU"
                                    : gpu_missing();
}

GpuRun run_on_gpu(const Request& request, std::string_view source, const GpuOptions& o) {
    GpuRun g;
    const Algorithm a = request.algorithm;
    if (!info(a).traced)
        throw InputError(std::string(info(a).id) + " is pplab's production kernel, not one a "
                                                   "student writes");
    const std::string nvcc = nvcc_path(g.message);
    if (nvcc.empty())
        return g;
    if (!o.compile_only) {
        if (g.message = gpu_missing(); !g.message.empty())
            return g;
    }
    // A trace's size is checked by normalize(); a timing size may be larger, with its block
    // already checked on the traced request.
    const Request r = request.block > 0 ? request : normalize(request);
    const int grid = r.grid > 0 ? r.grid : natural_grid(a, r.n(), r.block);
    const Spec spec = spec_for(r, grid, o);
    std::vector<std::string> defines = spec.defines;
    for (const std::string& d : constant_defines(source, r))
        defines.push_back(d);
    try {
        const fs::path exe = compile_for_gpu(nvcc, source, defines, o, g);
        if (exe.empty())
            return g;
        if (o.compile_only) {
            g.status = GpuRun::Status::Compiled;
            return g;
        }
        const RunFolder run(fs::path(cache_folder()) / "gpu");
        write_atomically(run / "spec.txt", spec.text);
        write_atomically(run / "input.bin", input_bytes(r));
        const ChildExit e =
            run_child({exe.string(), run / "spec.txt", run / "input.bin", run / "output.bin"},
                      run / "said.txt", o.seconds, 0, o.cancel);
        read_outcome(run, e, spec, g);
    } catch (const fs::filesystem_error& e) {
        throw InputError(std::string("pplab's kernel cache is not usable: ") + e.what());
    }
    return g;
}

} // namespace pplab::sim
