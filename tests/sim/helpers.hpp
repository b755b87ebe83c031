// Shared by the simulator's tests: requests, the chapter's listing as the editor shows it.
#pragma once

#include "pplab/files.hpp"
#include "pplab/listing.hpp"
#include "pplab/sim.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

// An AddressSanitizer build: the runner keeps ASan's own crash handler (it says more), so the
// tests of the simulator's own crash messages are skipped there.
#if defined(__SANITIZE_ADDRESS__)
#define PPLAB_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PPLAB_TEST_ASAN 1
#endif
#endif

namespace pplab::simtest {

inline std::string listing_text(const Request& r) {
    std::string text;
    for (const std::string& line : listing(normalize_trace(r)).lines)
        text += line + "\n";
    return text;
}

inline Request request(Algorithm a, std::vector<float> input, int block = 0) {
    Request r;
    r.algorithm = a;
    r.block = block;
    r.options.order_seed = 7;
    r.input = std::move(input);
    return r;
}

// Every hazard, one per line, for failure messages.
inline std::string hazards_text(const sim::RunResult& res) {
    std::string s = res.message + "\n";
    for (const auto& h : res.hazards)
        s += std::string(sim::hazard_id(h.kind)) + " line " + std::to_string(h.line) + ": " +
             h.message + "\n";
    for (const auto& n : res.notes)
        s += "note: " + n + "\n";
    for (const auto& e : res.errors)
        s += "error line " + std::to_string(e.line) + ": " + e.message + "\n";
    return s;
}

// A puzzle's skeleton with its "// Your code here" comment replaced by the code in
// tests/sim/puzzles/NAME.cu (a reference solution, or NAME-wrong.cu, a wrong one).
inline std::string puzzle_solution(const std::string& skeleton, const std::string& name) {
    const std::string part =
        read_text_file(std::string(PPLAB_SIM_KERNELS) + "/../puzzles/" + name + ".cu");
    const std::size_t from = skeleton.rfind('\n', skeleton.find("// Your code here")) + 1;
    std::size_t to = from;
    while (to < skeleton.size() && skeleton.find_first_not_of(' ', to) != std::string::npos &&
           skeleton.compare(skeleton.find_first_not_of(' ', to), 2, "//") == 0)
        to = skeleton.find('\n', to) + 1;
    return skeleton.substr(0, from) + part + skeleton.substr(to);
}

// The kernels under tests/sim/kernels/forms: forms of CUDA C++ students write that the simulator
// runs, each computing reduceTree (the file names, sorted).
inline std::vector<std::string> working_forms() {
    std::vector<std::string> files;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::string(PPLAB_SIM_KERNELS) + "/forms"))
        if (entry.path().extension() == ".cu")
            files.push_back(entry.path().filename().string());
    std::sort(files.begin(), files.end());
    return files;
}

inline std::string counters_text(const Counters& c) {
    return "barriers " + std::to_string(c.barriers) + ", shared reads " +
           std::to_string(c.shared_reads) + ", shared writes " + std::to_string(c.shared_writes) +
           ", shuffles " + std::to_string(c.shuffles) + ", shared atomics " +
           std::to_string(c.shared_atomics) + ", global atomics " +
           std::to_string(c.global_atomics) + ", global reads " + std::to_string(c.global_reads) +
           ", global writes " + std::to_string(c.global_writes) + "\n";
}

} // namespace pplab::simtest
