// Entry point of builds without the window (the GPU machine, minimal installs).
#include "cli.hpp"

int main(int argc, char** argv) {
    return pplab::cli::run(argc, argv, nullptr);
}
