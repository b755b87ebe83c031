// `pplab run`: a student's kernel (the chapter's listing, edited), compiled and run through
// pplab's CUDA-on-CPU simulator in a child process; its trace printed like `pplab trace`'s,
// its hazards and, with --check, the first place it departs from the chapter's kernel; then,
// with nvcc and a GPU (--backend auto or cuda), on the device: its output compared, its time.
#include "cli.hpp"
#include "run_gpu.hpp"

#include "pplab/backend.hpp"
#include "pplab/files.hpp"
#include "pplab/io.hpp"
#include "pplab/listing.hpp"
#include "pplab/sim.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <memory>

namespace pplab::cli {

namespace {

struct RunOptions {
    std::string kernel;
    std::string format = "text";
    std::string out = "-";
    bool check = false;
    double timeout = 10.0;
    GpuRunOptions gpu;
    bool timing_asked = false; // --time-n or --runs given
};

void print_hazards(const sim::RunResult& res, const std::string& file) {
    for (const sim::Hazard& h : res.hazards) {
        std::cerr << file << ":" << h.line << ": " << sim::hazard_id(h.kind) << ": " << h.message;
        if (h.count > 1)
            std::cerr << " (" << h.count << " times)";
        std::cerr << "\n";
    }
    for (const std::string& n : res.notes)
        std::cerr << "note: " << n << "\n";
    if (!res.printed.empty())
        std::cerr << "the kernel printed:\n" << res.printed;
}

// The comparison with the chapter's kernel, in the --format asked for.
std::string check_text(const sim::Difference& d, std::size_t hazards, const std::string& format) {
    std::string said = sim::describe(d);
    if (hazards > 0)
        said += "\nYour kernel also has " + std::to_string(hazards) + " hazard" +
                (hazards == 1 ? "" : "s") +
                " (above): what CUDA leaves undefined may give other values on a GPU.";
    if (format == "markdown")
        return "## Your kernel and the chapter's\n\n" + said + "\n";
    if (format != "json")
        return said + "\n";
    nlohmann::json j;
    j["status"] = "ran"; // as a run that did not run says why (sim::to_json)
    j["same"] = d.same;
    j["levels"] = d.frames;
    j["levels_differing"] = d.frames_differing;
    if (d.frame >= 0)
        j["first_difference"] = {{"level", d.label},
                                 {"cell", d.cell_name},
                                 {"expected", d.expected},
                                 {"got", d.got},
                                 {"explanation", d.explanation}};
    j["result_differs"] = d.result_differs;
    if (d.result_index >= 0)
        j["first_result_difference"] = {
            {"index", d.result_index}, {"expected", d.result_expected}, {"got", d.result_got}};
    j["hazards"] = hazards;
    j["said"] = said;
    return j.dump(2) + "\n";
}

// A run that stopped, for --format json (the run's JSON, its "status" and "errors" or fatal
// hazard saying why) or markdown (a short section); nothing more for text, whose words went to
// standard error. Written where the answer would have gone.
void write_stopped(const sim::RunResult& res, const RunOptions& run) {
    if (run.format == "json") {
        write_output(run.out, sim::to_json(res));
        return;
    }
    if (run.format != "markdown")
        return;
    const bool compile = res.status == sim::RunResult::Status::CompileFailed;
    std::string md = compile ? "## Your kernel does not compile\n\n" : "## Your kernel stopped\n\n";
    for (const sim::CompileError& e : res.errors)
        md += "- line " + std::to_string(e.line) + ", column " + std::to_string(e.column) + ": " +
              e.message + "\n";
    for (const sim::Hazard& h : res.hazards)
        if (h.fatal)
            md += "- line " + std::to_string(h.line) + ": " + std::string(sim::hazard_id(h.kind)) +
                  ": " + h.message + "\n";
    if (!compile && std::none_of(res.hazards.begin(), res.hazards.end(),
                                 [](const sim::Hazard& h) { return h.fatal; }))
        md += "- " +
              (res.stopped_line > 0 ? "line " + std::to_string(res.stopped_line) + ": " : "") +
              res.message + "\n";
    write_output(run.out, md);
}

int run_student(const RequestOptions& opts, const RunOptions& run) {
    const Request r = opts.build();
    const std::string source = read_text_file(run.kernel);
    if (opts.backend != "auto" && opts.backend != "cpu" && opts.backend != "cuda")
        throw InputError("unknown backend '" + opts.backend + "': choose auto, cpu or cuda");
    // What cannot be done is said before anything runs or is written.
    if (opts.backend == "cpu" && run.timing_asked)
        throw InputError("--time-n and --runs time your kernel on the GPU: they do nothing with "
                         "--backend cpu");
    const std::string no_gpu = opts.backend == "cpu" ? "" : sim::gpu_missing(r.algorithm);
    if (opts.backend == "cuda" && !no_gpu.empty())
        throw InputError("--backend cuda: " + no_gpu);
    sim::Limits limits;
    limits.seconds = run.timeout;
    const sim::RunResult res = sim::run_kernel(r, source, limits);
    if (res.status == sim::RunResult::Status::CompileFailed) {
        for (const sim::CompileError& e : res.errors)
            std::cerr << run.kernel << ":" << e.line << ":" << e.column << ": error: " << e.message
                      << "\n";
        std::cerr << "pplab: the kernel does not compile\n";
        write_stopped(res, run);
        return kExitBadInput;
    }
    print_hazards(res, run.kernel);
    if (!res.ok()) {
        // A fault at a hazard was printed with it, above: said once.
        const bool printed = std::any_of(res.hazards.begin(), res.hazards.end(),
                                         [](const sim::Hazard& h) { return h.fatal; });
        if (res.stopped_line > 0)
            std::cerr << run.kernel << ":" << res.stopped_line << ": "
                      << (res.status == sim::RunResult::Status::TimedOut ? "time" : "memory")
                      << " limit: " << res.message << "\n";
        else if (printed)
            std::cerr << "pplab: the run stopped at the fault above\n";
        else
            std::cerr << "pplab: " << res.message << "\n";
        if (opts.backend == "cuda")
            std::cerr << "pplab: not run on the GPU: the simulator runs a kernel first, and it "
                         "stopped there\n";
        write_stopped(res, run);
        return kExitBadInput;
    }
    std::string text;
    int code = 0;
    if (!run.check) {
        text = run.format == "json"       ? sim::to_json(res)
               : run.format == "markdown" ? to_markdown(res.trace)
                                          : to_text(res.trace);
        code = res.hazards.empty() ? 0 : kExitWrong;
    } else {
        const Trace chapter = make_cpu_backend()->trace(res.trace.request);
        const sim::Difference d = sim::first_difference(res.trace, chapter);
        text = check_text(d, res.hazards.size(), run.format);
        code = d.same && res.hazards.empty() ? 0 : kExitWrong;
    }
    // A file is written once the whole command has done its part (the GPU's run too): a run
    // that fails there leaves no file behind. Standard output is read as it comes.
    const bool to_file = !run.out.empty() && run.out != "-";
    if (!to_file)
        write_output(run.out, text);
    int device = 0;
    if (opts.backend != "cpu" && no_gpu.empty())
        device = run_on_device(opts, run.gpu, res.trace.request, res, source, run.kernel);
    else if (opts.backend == "auto" && run.timing_asked)
        std::cerr << "note: not timed on the GPU: " << no_gpu << "\n";
    if (to_file) {
        if (device == kExitBadInput) {
            std::cerr << "pplab: " << run.out << " not written: the run on the GPU failed\n";
            return device;
        }
        write_output(run.out, text);
    }
    return device != 0 ? device : code;
}

} // namespace

void add_run(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "run", "run YOUR kernel (the chapter's listing, edited) on the CPU, traced like the "
               "chapter's; --check compares it with the chapter's kernel");
    auto opts = std::make_shared<RequestOptions>();
    auto run = std::make_shared<RunOptions>();
    cmd->add_option("--kernel", run->kernel, "FILE.cu holding your kernel")->required();
    opts->add_to(*cmd);
    cmd->add_option("--format", run->format, "text, json or markdown")
        ->check(CLI::IsMember({"text", "json", "markdown"}))
        ->capture_default_str();
    cmd->add_option("--out", run->out, "write to FILE instead of standard output");
    cmd->add_flag("--check", run->check,
                  "compare with the chapter's kernel level by level; exit 1 if they differ");
    cmd->add_option("--timeout", run->timeout, "seconds the kernel may run")
        ->check(CLI::Range(0.1, 600.0))
        ->capture_default_str();
    cmd->add_option("--time-n", run->gpu.time_n,
                    "with a GPU: time your kernel at N elements (up to 2^28) beside the "
                    "chapter's kernel and CUB")
        ->check(CLI::Range(1LL, 1LL << 28));
    cmd->add_option("--runs", run->gpu.runs, "timed runs on the GPU (the median is reported)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    cmd->callback([cmd, opts, run] {
        run->timing_asked = cmd->count("--time-n") + cmd->count("--runs") > 0;
        const int code = run_student(*opts, *run);
        if (code != 0)
            throw CLI::RuntimeError(code);
    });
}

void add_listing(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "listing", "the chapter's listing of an algorithm as this launch runs it (TILE, WARPS, "
                   "BINS set to its values): the file your kernel starts from");
    auto opts = std::make_shared<RequestOptions>();
    auto out = std::make_shared<std::string>();
    opts->add_to(*cmd, false);
    cmd->add_option("--out", *out, "write it to FILE, a new file (never one already there)");
    cmd->callback([opts, out] {
        // The listing depends on the launch, not on the values: without an input, a block's worth.
        if (opts->input.empty() && opts->input_file.empty() && opts->n == 0)
            opts->n = opts->block > 0 ? opts->block : 256;
        const Algorithm a = find_algorithm(opts->algo).algorithm;
        if (!info(a).traced)
            throw InputError(opts->algo +
                             " is a production kernel (kernels/cuda/fast.cu), timed by `pplab "
                             "bench`: there is no listing to start from. The chapter's stages "
                             "have theirs: `pplab list` names them");
        opts->refuse_run_options("listing");
        const Request r = opts->build();
        const std::string text = source_with_launch_notes(listing(r), r);
        if (out->empty()) {
            print(text);
            return;
        }
        write_new_file(*out, text);
        std::cout << "The listing is in " << *out << ": edit it, then\n  pplab run --kernel "
                  << *out << " --algo " << opts->algo << " --check  (with the same options)\n";
    });
}

} // namespace pplab::cli
