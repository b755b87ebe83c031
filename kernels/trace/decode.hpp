// Trace buffer -> frames. Shared by the CPU model and the CUDA back end, so both produce
// their Trace through the same checks.
#pragma once

#include "pplab/plan.hpp"
#include "pplab/trace.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace pplab {

// Reads every record the plan promises, in the plan's order, which is the canonical order.
// A record that is missing, out of place or of the wrong size is a bug in whoever wrote the
// buffer: std::runtime_error naming the kernel and the record.
std::vector<Frame> decode(const Plan& plan, std::span<const std::uint32_t> words);

// Checks that frames have exactly the shape the plan records (a trace read from a file).
// Throws InputError naming the first frame that does not fit.
void check_frames(const Plan& plan, const std::vector<Frame>& frames);

// A buffer the size of the plan, every word poisoned so that an unwritten record is caught.
std::vector<std::uint32_t> poisoned_buffer(const Plan& plan);
inline constexpr std::uint32_t kPoison = 0xDEADBEEFu;

} // namespace pplab
