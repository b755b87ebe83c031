#include "cli.hpp"
int main(int argc, char** argv) { return pplab::cli::run(argc, argv, nullptr); }
