// `pplab puzzle`: the chapter's kernels with one part for the student to write.
//
//   pplab puzzle list                      the puzzles in the chapter's order
//   pplab puzzle show ID [--hint] [--out FILE]   statement, hidden tests; the skeleton to FILE
//   pplab puzzle check ID FILE.cu          a verdict per hidden test (exit 0 solved, 1 not yet,
//                                          2 it does not compile or the input is bad)
#include "cli.hpp"

#include "pplab/files.hpp"
#include "pplab/puzzles.hpp"

#include <iostream>
#include <memory>

namespace pplab::cli {

namespace {

struct PuzzleOptions {
    std::string id;
    std::string kernel;
    std::string out;
    bool hint = false;
    bool answer = false;
    bool skeleton = false;
    double timeout = 10.0;
};

int number_of(const sim::Puzzle& p) {
    const auto all = sim::puzzles();
    for (std::size_t k = 0; k < all.size(); ++k)
        if (all[k].id == p.id)
            return static_cast<int>(k) + 1;
    return 0;
}

void list_puzzles() {
    for (const sim::Puzzle& p : sim::puzzles())
        std::cout << number_of(p) << "  " << p.id << std::string(18 - p.id.size(), ' ') << p.section
                  << "  " << p.title << "\n";
}

int show_puzzle(const PuzzleOptions& o) {
    const sim::Puzzle& p = sim::find_puzzle(o.id);
    if (o.skeleton) {
        std::cout << p.skeleton();
        return 0;
    }
    std::cout << "Puzzle " << number_of(p) << ": " << p.title << " (" << p.section << ", "
              << info(p.algorithm).id << ")\n\n"
              << p.statement << "\n\nHidden tests (their values are not shown):\n";
    for (const sim::PuzzleTest& t : p.tests)
        std::cout << "  - " << t.what << "\n";
    if (o.hint || o.answer)
        std::cout << "\nHint: " << p.hint << "\n";
    if (o.answer)
        std::cout << "\nThe lines that do it: " << p.answer << "\n";
    else if (o.hint)
        std::cout << "(pplab puzzle show " << p.id << " --answer gives the lines that do it)\n";
    if (!o.out.empty()) {
        write_new_file(o.out, p.skeleton());
        std::cout << "\nThe skeleton is in " << o.out << ": write your part, then\n  pplab puzzle "
                  << "check " << p.id << " " << o.out << "\n";
    } else {
        std::cout << "\nThe skeleton: pplab puzzle show " << p.id
                  << " --out FILE.cu (or --skeleton to print it)\n";
    }
    return 0;
}

int check_puzzle(const PuzzleOptions& o) {
    const sim::Puzzle& p = sim::find_puzzle(o.id);
    const std::string source = read_text_file(o.kernel);
    sim::Limits limits;
    limits.seconds = o.timeout;
    const sim::PuzzleVerdict v = sim::check_puzzle(p, source, limits);
    if (!v.compiled) {
        for (const sim::CompileError& e : v.errors)
            std::cerr << o.kernel << ":" << e.line << ":" << e.column << ": error: " << e.message
                      << "\n";
        std::cerr << "pplab: the kernel does not compile\n";
        return kExitBadInput;
    }
    if (!v.message.empty())
        throw InputError(v.message);
    std::cout << "Puzzle " << number_of(p) << ", " << p.title << " (" << p.section
              << "): " << v.passed() << " of " << v.tests.size() << " tests pass.\n";
    for (const sim::TestVerdict& t : v.tests) {
        std::cout << (t.passed ? "  pass  " : "  FAIL  ") << t.what << "\n";
        if (!t.passed)
            std::cout << "        " << t.why << "\n";
    }
    if (v.solved())
        std::cout << "Solved: your kernel records every level and leaves every result exactly as "
                     "the chapter's does.\n";
    else
        std::cout << "Not yet. pplab puzzle show " << p.id << " --hint gives a hint.\n";
    return v.solved() ? 0 : kExitWrong;
}

} // namespace

void add_puzzle(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "puzzle", "the chapter's kernels with one part for you to write, checked on hidden tests");
    cmd->require_subcommand(1);
    auto o = std::make_shared<PuzzleOptions>();
    cmd->add_subcommand("list", "the puzzles, in the chapter's order")->callback(list_puzzles);
    auto* show = cmd->add_subcommand("show", "a puzzle's statement and hidden tests");
    show->add_option("id", o->id, "the puzzle (pplab puzzle list)")->required();
    show->add_flag("--hint", o->hint, "give the hint too: the idea, no code");
    show->add_flag("--answer", o->answer, "give the hint and the lines that do it");
    show->add_option("--out", o->out, "write the skeleton to FILE.cu (a new file)");
    show->add_flag("--skeleton", o->skeleton, "print only the skeleton");
    show->callback([o] { show_puzzle(*o); });
    auto* check = cmd->add_subcommand("check", "run FILE.cu over the puzzle's hidden tests");
    check->add_option("id", o->id, "the puzzle (pplab puzzle list)")->required();
    check->add_option("file", o->kernel, "your kernel, FILE.cu")->required();
    check->add_option("--timeout", o->timeout, "seconds each test may run")
        ->check(CLI::Range(0.1, 600.0))
        ->capture_default_str();
    check->callback([o] {
        const int code = check_puzzle(*o);
        if (code != 0)
            throw CLI::RuntimeError(code);
    });
}

} // namespace pplab::cli
