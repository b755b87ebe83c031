#include "cli.hpp"

#include <iostream>
#include <memory>

namespace pplab::cli {

void add_list(CLI::App& app) {
    auto* cmd = app.add_subcommand("list", "the algorithm ids, one line each");
    auto verbose = std::make_shared<bool>(false);
    cmd->add_flag("--doc", *verbose, "with each kernel's paragraph on what it fixes and costs");
    cmd->callback([verbose] {
        for (const AlgorithmInfo& a : algorithms()) {
            std::cout << a.id << std::string(a.id.size() < 20 ? 20 - a.id.size() : 1, ' ')
                      << a.section << ": " << a.summary << "\n";
            if (*verbose)
                std::cout << "    " << a.doc << "\n\n";
        }
    });
}

} // namespace pplab::cli
