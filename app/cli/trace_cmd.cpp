#include "cli.hpp"

#include "pplab/backend.hpp"
#include "pplab/files.hpp"
#include "pplab/io.hpp"

#include <iostream>
#include <memory>

namespace pplab::cli {

void add_trace(CLI::App& app) {
    auto* cmd = app.add_subcommand("trace", "run an algorithm and print every level it records");
    auto opts = std::make_shared<RequestOptions>();
    auto format = std::make_shared<std::string>("text");
    auto out = std::make_shared<std::string>("-");
    opts->add_to(*cmd);
    cmd->add_option("--format", *format, "text, json or markdown")
        ->check(CLI::IsMember({"text", "json", "markdown"}))
        ->capture_default_str();
    cmd->add_option("--out", *out, "write to FILE instead of standard output");
    cmd->callback([opts, format, out] {
        const Request r = opts->build(); // every check before any note
        if (*out != "-")
            check_output_file(*out);
        BackendChoice choice = choose_backend(opts->backend_choice());
        if (!choice.note.empty())
            std::cerr << "note: " << choice.note << "\n";
        const Trace t = choice.backend->trace(r);
        if (!choice.backend->last_note().empty())
            std::cerr << "note: " << choice.backend->last_note() << "\n";
        const std::string text = *format == "json"       ? to_json(t)
                                 : *format == "markdown" ? to_markdown(t)
                                                         : to_text(t);
        write_output(*out, text);
    });
}

} // namespace pplab::cli
