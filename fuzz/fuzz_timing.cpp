// Saved timings (`pplab bench --json`, opened by `bench --show` and the Timing panel): a file
// that reads prints as a table and writes back to JSON that reads the same.
#include "harness.hpp"

#include "pplab/timing.hpp"

#include <cstdint>

using namespace pplab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto read = fuzz::accepted([&] { return timing_from_json(fuzz::text(data, size)); });
    if (!read)
        return 0;
    const TimingReport& r = *read;
    timing_to_table(r);
    const TimingReport again = timing_from_json(timing_to_json(r));
    fuzz::require(again.device == r.device && again.sms == r.sms && again.runs == r.runs &&
                      again.notes == r.notes && again.rows.size() == r.rows.size(),
                  "timings written back read the same");
    for (std::size_t i = 0; i < r.rows.size(); ++i)
        fuzz::require(again.rows[i].stage == r.rows[i].stage &&
                          again.rows[i].size == r.rows[i].size && again.rows[i].ms == r.rows[i].ms,
                      "a timing row written back reads the same");
    return 0;
}
