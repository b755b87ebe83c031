#include "cli.hpp"

#include "pplab/files.hpp"

#include "pplab/backend.hpp"
#include "pplab/check.hpp"
#include "pplab/io.hpp"

#include <iostream>
#include <memory>

namespace pplab::cli {

void add_check(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "check", "check a hand-trace: each level right or wrong, and the first mistake explained");
    auto opts = std::make_shared<RequestOptions>();
    auto answer = std::make_shared<std::string>();
    opts->add_to(*cmd, false);
    cmd->add_option("--answer", *answer,
                    "FILE with one level per line, as `pplab trace` prints them (labels optional)")
        ->required();
    cmd->callback([opts, answer] {
        const Request r = opts->build();
        const std::vector<AnswerLine> lines = parse_answer(read_text_file(*answer));
        // The CPU model records exactly what the GPU does; a check never needs a device.
        const Trace t = make_cpu_backend()->trace(r);
        const CheckResult result = check_answer(t, lines);
        std::string out;
        if (!result.alignment.empty())
            out += result.alignment + "\n";
        for (const LevelVerdict& v : result.levels) {
            out += (v.right ? "right  " : "WRONG  ") + v.label;
            if (!v.right) {
                const std::size_t cells = t.frames[static_cast<std::size_t>(v.frame)].values.size();
                out += "  (" + std::to_string(v.wrong_cells.size()) + " of " +
                       std::to_string(cells) + (cells == 1 ? " cell" : " cells") + " wrong)";
            }
            out += "\n";
        }
        out += result.summary() + "\n";
        const int first = result.first_wrong();
        if (first < 0) {
            print(out);
            return;
        }
        const LevelVerdict& wrong = result.levels[static_cast<std::size_t>(first)];
        out += "\nFirst mistake, line " + std::to_string(wrong.line_number) + ": " +
               wrong.explanation + "\n";
        print(out);
        throw CLI::RuntimeError(kExitWrong);
    });
}

} // namespace pplab::cli
