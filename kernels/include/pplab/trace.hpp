// The trace: a canonical list of snapshots that every view, writer and checker reads.
#pragma once

#include "pplab/record.hpp"
#include "pplab/request.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pplab {

using record::Buffer;
using record::Step;

std::string_view step_id(Step s);     // "tree-level", "upsweep", ...
std::string_view buffer_id(Buffer b); // "shared", "lanes", ...
Step find_step(std::string_view id);  // throws InputError
Buffer find_buffer(std::string_view id);

// One named buffer after one step. Which threads were active and which cell fed which are
// not stored: they follow from (step, level, request) and are derived in dataflow.hpp.
struct Frame {
    Step step = Step::Load;
    int pass = 0; // launch index: 0 for the main kernel, then combining / carry passes
    int level = 0;
    int block = -1; // -1: the whole grid
    int warp = -1;  // -1: not per warp
    Buffer buffer = Buffer::Shared;
    std::vector<float> values;

    // Bit-exact: the CPU model and the GPU must agree to the last bit (and -0 != +0).
    bool operator==(const Frame& o) const;
};

struct Trace {
    Request request;     // normalized: every default filled in
    std::string backend; // "cpu", "cuda" or "sim" (a student's kernel on pplab's simulator)
    std::string device;  // "CPU lockstep model" or the GPU's name
    std::vector<Frame>
        frames; // canonical order: (pass, step order in the kernel, level, block, warp)
    std::vector<float> result; // what the kernel left in its output buffer

    // Same recording, whoever produced it: request, frames and result, bit for bit.
    bool same_recording(const Trace& o) const;
};

// Who chose the order of reduce-atomic's arrivals and scan-fast's tiles, where a seed did (the
// CPU model, pplab's simulator of a student's kernel): "the CPU model", "the simulator"; empty
// for a GPU, whose hardware chose.
std::string seeded_order_by(const Trace& t);

// A frame's label as the text format prints it and as hand-traces may name it:
// "upsweep 1", "block 1 tree-level 2", "block 0 warp 2 shuffle 1", "pass 1 block-total".
// Parts that never vary within the trace are left out, so labels stay short.
struct LabelParts {
    bool pass = false, block = false, warp = false;
};
LabelParts label_parts(const Trace& t);
std::string frame_label(const Frame& f, LabelParts parts);

// Whether a step has numbered levels or happens once (clear-root). Tree levels (tree-level,
// upsweep, downsweep) count from 0 as the chapter's comments do; shuffles, rounds, additions
// and Hillis-Steele steps count from 1 ("the first of five shuffles").
bool step_has_levels(Step s);

} // namespace pplab
