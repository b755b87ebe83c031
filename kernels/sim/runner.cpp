// pplab-sim-runner: the child process that runs a student's compiled kernel.
//
//   pplab-sim-runner KERNEL.so REQUEST.json TRACE.bin RESULT.json STOPPED.txt
//
// Loads the kernel (its static initialisers register every __global__ function), makes the
// request's buffers, runs the launches the chapter's algorithm takes (the plan's), and maps what
// the runtime observed onto the plan's frames: the same records the CPU model writes, so the
// trace decodes through the same checks. A frame the kernel never produced stays "?" and a note
// says why; the parent's time and memory limits bound everything here. Stopped at the time limit
// (SIGXCPU, from the parent or from the CPU-time limit) or at the memory limit (an allocation
// failed), it writes where the kernel was last seen to STOPPED.txt ("line block thread pass low
// high") and exits: the parent names the line.
#include "cpu/recorder.hpp"
#include "lookback_record.hpp"
#include "protocol.hpp"
#include "runtime.hpp"
#include "trace/decode.hpp"

#include "pplab/files.hpp"
#include "pplab/io.hpp"
#include "pplab/lookback.hpp"
#include "pplab/rng.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <deque>
#include <limits>
#include <map>
#include <new>
#include <set>
#include <utility>

#if defined(__SANITIZE_ADDRESS__)
#define PPLAB_RUNNER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PPLAB_RUNNER_ASAN 1
#endif
#endif

namespace pplab::sim {

namespace {

using record::Step;
constexpr long long kDeviceHeapBytes = 8ll << 20; // cudaLimitMallocHeapSize's default
constexpr float kUnknown = std::numeric_limits<float>::quiet_NaN();

struct Expected {
    Elem elem;
    bool pointer;
    const char* spelling;
};

std::string spelling(const Param& p) {
    if (p.type == ParamType::Integer)
        return "int";
    if (p.type != ParamType::Pointer)
        return p.elem == Elem::Float ? "float" : "(a type other than int or a pointer)";
    std::string s = p.is_const ? "const " : "";
    switch (p.elem) {
    case Elem::Float:
        return s + "float*";
    case Elem::Int:
        return s + "int*";
    case Elem::UInt:
        return s + "unsigned*";
    case Elem::UChar:
        return s + "unsigned char*";
    case Elem::ULL:
        return s + "unsigned long long*";
    case Elem::Other:
        break;
    }
    return s + "(pointer)";
}

// The shared-memory steps of one block, in the order the kernel takes them.
using StepList = std::vector<std::pair<Step, int>>;

class Session {
public:
    explicit Session(const Request& r) : r_(r), plan_(make_plan(r)) {
        words_.assign(plan_.words, 0);
        for (const Launch& l : plan_.launches)
            prefill(l);
    }

    // Runs the request's launches; the record buffer and the output values go to `recording`.
    RunnerOutput run(Recording& recording);

private:
    // Every record of the launch as "?" until the kernel gives it.
    void prefill(const Launch& l) {
        cpu::Recorder rec(words_, l);
        for (int s = 0; s < l.layout.segments; ++s) {
            const record::Segment& seg = l.layout.seg[s];
            const std::vector<float> unknown(seg.count, kUnknown);
            for (int level = seg.level0; level < seg.level0 + seg.levels; ++level)
                for (int b = 0; b < std::max(seg.blocks, 1); ++b)
                    for (int w = 0; w < std::max(seg.warps, 1); ++w)
                        rec(static_cast<Step>(seg.step), level, seg.blocks > 0 ? b : -1,
                            seg.warps > 0 ? w : -1, unknown);
        }
    }
    void record(const Launch& l, Step step, int level, int block, int warp,
                std::vector<float> values) {
        const int si = l.segment(step);
        if (si < 0)
            return;
        const record::Segment& seg = l.layout.seg[si];
        if (level < seg.level0 || level >= seg.level0 + seg.levels)
            return;
        values.resize(seg.count, kUnknown);
        cpu::Recorder(words_, l)(step, level, block, warp, values);
    }
    // The source lines that did the work of (pass, step, level), for the window to light.
    void light(const Launch& l, Step step, int level, const std::vector<int>& lines) {
        auto& at = step_lines_[{l.pass(), static_cast<int>(step), level}];
        at.insert(lines.begin(), lines.end());
    }
    int levels(const Launch& l, Step step) const {
        const int si = l.segment(step);
        return si < 0 ? 0 : l.layout.seg[si].levels;
    }
    // Said once per kind of departure (the first block that shows it), not once per block.
    void note(const std::string& kind, std::string text) {
        if (noted_.insert(kind).second)
            notes_.push_back(std::move(text));
    }

    const KernelEntry& kernel(const Launch& l, const std::vector<Expected>& expected);
    Buffer& buffer(std::string name, Elem elem, const std::vector<float>& values);
    Buffer& zeroed(std::string name, Elem elem, int elem_size, long long count);
    LaunchSpec launch_spec(const Launch& l, const KernelEntry& k, std::vector<Arg> args, int input,
                           RoundRule rounds) const;
    bool launch(const Launch& l, const KernelEntry& k, std::vector<Arg> args, int input,
                RoundRule rounds, const std::function<void(const BlockObservation&)>& on_block);

    // Per family.
    bool reduce();
    bool reduce_full_pass(const Launch& l, Buffer& in, Buffer& out);
    bool reduce_atomic(const Launch& l, Buffer& in);
    bool scan();
    bool scan_fast();
    bool scan_blocks(const Launch& l, Buffer& in, Buffer& out, Buffer* totals, bool inclusive);
    bool add_carries(const Launch& l, Buffer& out, Buffer& carries);
    bool histogram();

    // Observation -> frames.
    void shared_frames(const Launch& l, const BlockObservation& o, const StepList& steps);
    void register_rounds(const Launch& l, const BlockObservation& o, Step step);
    void lanes(const Launch& l, const BlockObservation& o, int warp, int first, Step load,
               Step step, int count);
    void place_hazards(const Launch& l, const BlockObservation& o, const StepList& steps);

    const Request& r_;
    Plan plan_;
    std::vector<std::uint32_t> words_;
    Runtime rt_;
    std::deque<Buffer> buffers_;
    std::vector<std::string> notes_;
    std::set<std::string> noted_;
    // Where each hazard is drawn: (pass, step, level, block), found among the frames at the end.
    std::map<std::size_t, std::tuple<int, Step, int, int>> hazard_frames_;
    std::map<std::tuple<int, int, int>, std::set<int>> step_lines_;
    std::vector<float> result_;
};

const KernelEntry& Session::kernel(const Launch& l, const std::vector<Expected>& expected) {
    const std::string name = listing_kernel(r_.algorithm, l.kernel);
    const KernelEntry* found = nullptr;
    for (const KernelEntry& e : registered_kernels())
        if (name == e.name)
            found = &e;
    std::string want = name + "(";
    for (std::size_t k = 0; k < expected.size(); ++k)
        want += (k ? ", " : "") + std::string(expected[k].spelling);
    want += ")";
    if (!found)
        throw InputError("the file has no kernel " + name + ": " +
                         std::string(info(r_.algorithm).id) + " launches __global__ void " + want +
                         ", as the chapter's listing names it");
    bool fits = found->params == static_cast<int>(expected.size());
    for (int k = 0; fits && k < found->params; ++k) {
        const Param& p = found->param[k];
        const Expected& e = expected[static_cast<std::size_t>(k)];
        fits = e.pointer ? p.type == ParamType::Pointer && p.elem == e.elem
                         : p.type == ParamType::Integer;
    }
    if (!fits) {
        std::string have;
        for (int k = 0; k < found->params; ++k)
            have += (k ? ", " : "") + spelling(found->param[k]);
        throw InputError(name + " must take (" + want.substr(name.size() + 1) +
                         " as the chapter's listing does; yours takes (" + have + ")");
    }
    return *found;
}

Buffer& Session::buffer(std::string name, Elem elem, const std::vector<float>& values) {
    Buffer& b = buffers_.emplace_back();
    b.name = std::move(name);
    b.elem = elem;
    const int size = elem == Elem::UChar ? 1 : 4;
    b.bytes.assign(values.size() * static_cast<std::size_t>(size), 0);
    for (std::size_t i = 0; i < values.size(); ++i) {
        unsigned char* at = b.bytes.data() + i * static_cast<std::size_t>(size);
        if (elem == Elem::Float)
            std::memcpy(at, &values[i], 4);
        else if (elem == Elem::Int) {
            const int v = static_cast<int>(values[i]);
            std::memcpy(at, &v, 4);
        } else {
            *at = static_cast<unsigned char>(values[i]);
        }
    }
    b.region.base = b.bytes.data();
    b.region.count = static_cast<long long>(values.size());
    b.region.elem_size = size;
    b.region.elem = elem;
    b.region.space = Space::Global;
    b.region.name = b.name.c_str();
    b.region.id = static_cast<int>(buffers_.size());
    return b;
}

// A buffer of `count` elements of `elem_size` bytes, all bits 0 (scan-fast's descriptors).
Buffer& Session::zeroed(std::string name, Elem elem, int elem_size, long long count) {
    Buffer& b = buffer(std::move(name), elem, {});
    b.bytes.assign(static_cast<std::size_t>(count * elem_size), 0);
    b.region.base = b.bytes.data();
    b.region.count = count;
    b.region.elem_size = elem_size;
    return b;
}

LaunchSpec Session::launch_spec(const Launch& l, const KernelEntry& k, std::vector<Arg> args,
                                int input, RoundRule rounds) const {
    LaunchSpec spec;
    spec.kernel = &k;
    spec.grid = l.grid;
    spec.block = l.block;
    spec.pass = l.pass();
    spec.args = std::move(args);
    spec.dynamic_shared_bytes = shared_bytes(r_);
    spec.input_region = input;
    spec.rounds = rounds;
    return spec;
}

bool Session::launch(const Launch& l, const KernelEntry& k, std::vector<Arg> args, int input,
                     RoundRule rounds,
                     const std::function<void(const BlockObservation&)>& on_block) {
    return rt_.launch(launch_spec(l, k, std::move(args), input, rounds), on_block);
}

void Session::shared_frames(const Launch& l, const BlockObservation& o, const StepList& steps) {
    const std::size_t n = std::min(o.shared.size(), steps.size());
    for (std::size_t k = 0; k < n; ++k) {
        const auto [step, level] = steps[k];
        const int si = l.segment(step);
        const int warps = si < 0 ? 0 : l.layout.seg[si].warps;
        if (k < o.shared_lines.size())
            light(l, step, level, o.shared_lines[k]);
        if (warps == 0) {
            record(l, step, level, o.block, -1, o.shared[k]);
            continue;
        }
        // One private copy per warp, one after the other (histogramPerWarp's s_hist).
        const std::size_t per = o.shared[k].size() / static_cast<std::size_t>(warps);
        for (int w = 0; w < warps; ++w) {
            const auto first = o.shared[k].begin() + static_cast<long long>(w * per);
            record(l, step, level, o.block, w, std::vector<float>(first, first + per));
        }
    }
    if (o.shared.size() != steps.size())
        note("steps " + l.kernel,
             "block " + std::to_string(o.block) + " of " + l.kernel + " changed its first " +
                 "__shared__ array in " + std::to_string(o.shared.size()) +
                 (o.shared.size() == 1 ? " step" : " steps") +
                 " between barriers where the chapter's kernel takes " +
                 std::to_string(steps.size()) + ": the steps it did not take are shown as ?");
    if (!o.shared.empty()) {
        const int si = l.segment(steps.front().first);
        const std::size_t want =
            si < 0 ? 0
                   : l.layout.seg[si].count *
                         static_cast<std::size_t>(std::max(l.layout.seg[si].warps, 1));
        // A larger array is recorded as the CUDA recorder records it: its first `want` slots
        // (the scans keep the block total in one slot past the tile).
        if (o.shared.front().size() < want)
            note("size " + l.kernel, "the first __shared__ array of " + l.kernel + " holds " +
                                         std::to_string(o.shared.front().size()) +
                                         " values; the chapter's holds " + std::to_string(want));
    }
    place_hazards(l, o, steps);
}

void Session::place_hazards(const Launch& l, const BlockObservation& o, const StepList& steps) {
    for (std::size_t k = 0; k < o.hazard_interval.size(); ++k) {
        if (steps.empty())
            continue;
        const std::size_t at =
            std::min(static_cast<std::size_t>(o.hazard_interval[k]), steps.size() - 1);
        hazard_frames_[o.hazard_ids[k]] = {l.pass(), steps[at].first, steps[at].second, o.block};
    }
}

// Each thread's register after each round: from the reads of the input that start rounds.
void Session::register_rounds(const Launch& l, const BlockObservation& o, Step step) {
    const int count = levels(l, step);
    const bool one_thread = step == Step::SerialAdd;
    for (int k = 1; k <= count; ++k) {
        std::vector<float> v(one_thread ? 1 : o.rounds.size());
        for (std::size_t t = 0; t < v.size(); ++t) {
            const auto& rounds = o.rounds[t];
            v[t] =
                static_cast<std::size_t>(k - 1) < rounds.size() ? rounds[k - 1] : o.round_close[t];
        }
        record(l, step, k, o.block, -1, std::move(v));
        light(l, step, k, o.input_lines);
    }
}

// A warp's lanes: before its shuffle `first` (the load), and after each of `count` shuffles.
void Session::lanes(const Launch& l, const BlockObservation& o, int warp, int first, Step load,
                    Step step, int count) {
    const auto& steps = o.shuffles[static_cast<std::size_t>(warp)];
    const int rec_warp =
        l.segment(step) >= 0 && l.layout.seg[l.segment(step)].warps > 0 ? warp : -1;
    if (static_cast<int>(steps.size()) < first + count)
        note("shuffles " + l.kernel + std::to_string(first),
             "warp " + std::to_string(warp) + " of block " + std::to_string(o.block) + " of " +
                 l.kernel + " ran " +
                 std::to_string(std::max(0, static_cast<int>(steps.size()) - first)) +
                 " shuffle steps where the chapter's kernel runs " + std::to_string(count) +
                 ": the missing ones are shown as ?");
    if (static_cast<int>(steps.size()) > first)
        light(l, load, 0,
              load == Step::Load ? o.input_lines
                                 : std::vector<int>{steps[static_cast<std::size_t>(first)].line});
    if (static_cast<int>(steps.size()) > first)
        record(l, load, 0, o.block, rec_warp,
               {steps[static_cast<std::size_t>(first)].in.begin(),
                steps[static_cast<std::size_t>(first)].in.end()});
    for (int k = 1; k <= count && first + k - 1 < static_cast<int>(steps.size()); ++k) {
        const auto& s = steps[static_cast<std::size_t>(first + k - 1)];
        record(l, step, k, o.block, rec_warp, {s.after.begin(), s.after.end()});
        light(l, step, k, {s.line});
    }
}

// ---- Reductions -------------------------------------------------------------------------------

constexpr Expected kInFloat{Elem::Float, true, "const float* in"};
constexpr Expected kOutFloat{Elem::Float, true, "float* out"};
constexpr Expected kN{Elem::Other, false, "int n"};

StepList tree_steps(const Launch& l) {
    StepList steps{{Step::Load, 0}};
    if (l.segment(Step::TreeLevel) < 0)
        return steps;
    const auto& seg = l.layout.seg[l.segment(Step::TreeLevel)];
    for (int k = seg.level0; k < seg.level0 + seg.levels; ++k)
        steps.push_back({Step::TreeLevel, k});
    return steps;
}

bool Session::reduce_full_pass(const Launch& l, Buffer& in, Buffer& out) {
    const KernelEntry& k = kernel(l, {kInFloat, kOutFloat, kN});
    const StepList steps{{Step::WarpTotals, 0}};
    return launch(l, k, {{&in.region, 0}, {&out.region, 0}, {nullptr, in.count()}}, in.region.id,
                  RoundRule::GridStride, [&](const BlockObservation& o) {
                      register_rounds(l, o, Step::Accumulate);
                      for (int w = 0; w < l.block / kWarpSize; ++w)
                          lanes(l, o, w, 0, Step::Shuffle, Step::Shuffle, 5);
                      lanes(l, o, 0, 5, Step::FinalShuffle, Step::FinalShuffle, 5);
                      shared_frames(l, o, steps);
                      record(l, Step::BlockTotal, 0, o.block, -1, {out.value(o.block)});
                      light(l, Step::BlockTotal, 0, o.output_lines);
                  });
}

// §8.6 "Determinism": the blocks run in the seeded arrival order the CPU model uses (the
// order a GPU's scheduler happens to pick), so each atomicAdd on `out` arrives as it does there.
bool Session::reduce_atomic(const Launch& l, Buffer& in) {
    Buffer& out = buffer("out", Elem::Float, {0.0f});
    const KernelEntry& k = kernel(l, {kInFloat, kOutFloat, kN});
    LaunchSpec spec = launch_spec(l, k, {{&in.region, 0}, {&out.region, 0}, {nullptr, in.count()}},
                                  in.region.id, RoundRule::GridStride);
    spec.block_order = arrival_order(l.grid, r_.options.order_seed);
    int arrived = 0;
    const bool ok = rt_.launch(spec, [&](const BlockObservation& o) {
        float total = 0.0f;
        int adds = 0;
        for (const AtomicRecord& at : o.atomics)
            if (at.region == out.region.id) {
                total += static_cast<float>(at.delta);
                ++adds;
            }
        if (adds != 1)
            note("atomics per block", "block " + std::to_string(o.block) + " added " +
                                          std::to_string(adds) +
                                          " values into out where the chapter's kernel adds its "
                                          "block total once (thread 0's atomicAdd)");
        const float block_total = adds == 1 ? total : kUnknown;
        record(l, Step::BlockTotal, 0, o.block, -1, {block_total});
        record(l, Step::AtomicAdd, ++arrived, o.block, -1, {block_total, out.value(0)});
        light(l, Step::BlockTotal, 0, o.output_lines);
        light(l, Step::AtomicAdd, arrived, o.output_lines);
        place_hazards(l, o, {{Step::BlockTotal, 0}});
    });
    result_ = {out.value(0)};
    return ok;
}

bool Session::reduce() {
    const Launch& l = plan_.launches.front();
    Buffer& in = buffer("in", Elem::Float, r_.input);
    if (r_.algorithm == Algorithm::ReduceFull) {
        Buffer& partial = buffer(plan_.launches.size() > 1 ? "partial" : "out", Elem::Float,
                                 std::vector<float>(static_cast<std::size_t>(l.grid), 0.0f));
        if (!reduce_full_pass(l, in, partial))
            return false;
        if (plan_.launches.size() == 1) {
            result_ = {partial.value(0)};
            return true;
        }
        Buffer& out = buffer("out", Elem::Float, {0.0f});
        const bool ok = reduce_full_pass(plan_.launches[1], partial, out);
        result_ = {out.value(0)};
        return ok;
    }
    if (r_.algorithm == Algorithm::ReduceAtomic)
        return reduce_atomic(l, in);
    Buffer& out = buffer("out", Elem::Float, std::vector<float>(result_size(r_), 0.0f));
    const KernelEntry& k = kernel(l, {kInFloat, kOutFloat, kN});
    const Algorithm a = r_.algorithm;
    const bool ok =
        launch(l, k, {{&in.region, 0}, {&out.region, 0}, {nullptr, in.count()}}, in.region.id,
               a == Algorithm::ReduceNaive ? RoundRule::PerElement : RoundRule::GridStride,
               [&](const BlockObservation& o) {
                   if (a == Algorithm::ReduceNaive) {
                       register_rounds(l, o, Step::SerialAdd);
                       place_hazards(l, o, {{Step::SerialAdd, 1}});
                       return;
                   }
                   if (a == Algorithm::ReduceShuffle) {
                       for (int w = 0; w < l.block / kWarpSize; ++w)
                           lanes(l, o, w, 0, Step::Load, Step::Shuffle, 5);
                       place_hazards(l, o, {{Step::Load, 0}});
                       return;
                   }
                   if (a == Algorithm::ReduceCoarsened)
                       register_rounds(l, o, Step::Accumulate);
                   shared_frames(l, o, tree_steps(l));
                   record(l, Step::BlockTotal, 0, o.block, -1, {out.value(o.block)});
                   light(l, Step::BlockTotal, 0, o.output_lines);
               });
    result_.resize(result_size(r_));
    for (std::size_t i = 0; i < result_.size(); ++i)
        result_[i] = out.value(static_cast<long long>(i));
    return ok;
}

// ---- Scans ------------------------------------------------------------------------------------

StepList scan_steps(const Launch& l) {
    StepList steps{{Step::Load, 0}};
    const auto add = [&](Step s) {
        const int si = l.segment(s);
        if (si < 0)
            return;
        const auto& seg = l.layout.seg[si];
        for (int k = seg.level0; k < seg.level0 + seg.levels; ++k)
            steps.push_back({s, k});
    };
    add(Step::Upsweep);
    add(Step::ClearRoot);
    add(Step::Downsweep);
    add(Step::InclusiveShift);
    add(Step::HillisSteele);
    return steps;
}

// With totals: scanBlocks, whose flag says whether this level shifts (the user's array with
// --inclusive); the block totals' levels are exclusive, as the carries need.
bool Session::scan_blocks(const Launch& l, Buffer& in, Buffer& out, Buffer* totals,
                          bool inclusive) {
    std::vector<Expected> expected{kInFloat, kOutFloat};
    std::vector<Arg> args{{&in.region, 0}, {&out.region, 0}};
    if (totals) {
        expected.push_back({Elem::Float, true, "float* totals"});
        args.push_back({&totals->region, 0});
    }
    expected.push_back(kN);
    args.push_back({nullptr, l.n});
    if (totals) {
        expected.push_back({Elem::Other, false, "bool inclusive"});
        args.push_back({nullptr, inclusive ? 1 : 0});
    }
    const KernelEntry& k = kernel(l, expected);
    return launch(l, k, std::move(args), in.region.id, RoundRule::GridStride,
                  [&](const BlockObservation& o) {
                      shared_frames(l, o, scan_steps(l));
                      if (totals)
                          record(l, Step::BlockTotal, 0, o.block, -1, {totals->value(o.block)});
                      light(l, Step::BlockTotal, 0, o.output_lines);
                  });
}

bool Session::add_carries(const Launch& l, Buffer& out, Buffer& carries) {
    const KernelEntry& k =
        kernel(l, {{Elem::Float, true, "float* out"}, {Elem::Float, true, "const float* carries"}});
    return launch(l, k, {{&out.region, 0}, {&carries.region, 0}}, -1, RoundRule::GridStride,
                  [&](const BlockObservation& o) {
                      std::vector<float> slice(static_cast<std::size_t>(l.block));
                      for (int t = 0; t < l.block; ++t)
                          slice[static_cast<std::size_t>(t)] =
                              out.value(static_cast<long long>(o.block) * l.block + t);
                      record(l, Step::AddCarries, 0, o.block, -1, std::move(slice));
                      light(l, Step::AddCarries, 0, o.output_lines);
                      place_hazards(l, o, {{Step::AddCarries, 0}});
                  });
}

// scan-fast: one launch; each block takes its tile from next_tile and publishes into desc (one
// 64-bit word per tile), as the production driver sets them up (both zeroed). As many blocks as
// the CPU model keeps tiles in flight run together, at paces the seed chooses, so a look-back
// meets predecessors that have published nothing yet, or only their aggregate. The two records
// per tile come from the kernel's own loads and stores of desc, in the order they ran
// (lookback_record.hpp); the schedule is the simulator's, not the CPU model's, so the output is
// what the chapter's comparison holds to, and check_lookback what the records are held to.
bool Session::scan_fast() {
    const Launch& l = plan_.launches.front();
    Buffer& in = buffer("in", Elem::Float, r_.input);
    Buffer& out =
        buffer("out", Elem::Float, std::vector<float>(static_cast<std::size_t>(r_.n()), 0.0f));
    Buffer& desc = zeroed("desc", Elem::ULL, 8, l.grid);
    Buffer& next_tile = zeroed("next_tile", Elem::UInt, 4, 1);
    const KernelEntry& k = kernel(l, {kInFloat,
                                      kOutFloat,
                                      kN,
                                      {Elem::ULL, true, "unsigned long long* desc"},
                                      {Elem::UInt, true, "unsigned* next_tile"}});
    LaunchSpec spec = launch_spec(l, k,
                                  {{&in.region, 0},
                                   {&out.region, 0},
                                   {nullptr, in.count()},
                                   {&desc.region, 0},
                                   {&next_tile.region, 0}},
                                  in.region.id, RoundRule::GridStride);
    spec.resident = kLookbackResident;
    spec.schedule_seed = r_.options.order_seed;
    spec.watched_region = desc.region.id;
    const bool ok = rt_.launch(spec, [&](const BlockObservation& o) {
        light(l, Step::TilePublish, 0, o.output_lines);
        place_hazards(l, o, {{Step::TilePublish, 0}});
    });
    std::string why;
    const std::optional<LookbackRecords> records =
        ok ? lookback_records(rt_.watched(), l.grid, why) : std::nullopt;
    if (records) {
        for (int tile = 0; tile < l.grid; ++tile) {
            record(l, Step::TilePublish, 0, tile, -1,
                   records->publish[static_cast<std::size_t>(tile)]);
            record(l, Step::LookBack, 0, tile, -1, records->reads[static_cast<std::size_t>(tile)]);
        }
    }
    note("look-back record",
         "pplab's simulator ran your tiles " + std::to_string(kLookbackResident) +
             " at a time, each at its own pace (seed " + std::to_string(r_.options.order_seed) +
             ")" +
             (records ? "; the look-back is recorded from your kernel's loads and stores of desc, "
                        "in the order they ran"
              : ok    ? "; who read what in the look-back is not recorded (shown as ?): " + why
                      : ""));
    for (int i = 0; i < r_.n(); ++i)
        result_.push_back(out.value(i));
    return ok;
}

bool Session::scan() {
    const int n = r_.n(), block = r_.block;
    if (r_.algorithm == Algorithm::ScanFast)
        return scan_fast();
    if (r_.algorithm != Algorithm::ScanMultiblock) {
        Buffer& in = buffer("in", Elem::Float, r_.input);
        Buffer& out =
            buffer("out", Elem::Float, std::vector<float>(static_cast<std::size_t>(n), 0.0f));
        const bool ok = scan_blocks(plan_.launches.front(), in, out, nullptr, false);
        for (int i = 0; i < n; ++i)
            result_.push_back(out.value(i));
        return ok;
    }
    // The host side of §8.7's larger arrays, as the chapter's driver recurses.
    const auto levels = scan_levels(n, block);
    std::vector<Buffer*> outs, totals;
    Buffer* in = &buffer("in", Elem::Float, r_.input);
    for (const ScanLevel& lv : levels) {
        const auto padded = static_cast<std::size_t>(lv.grid) * static_cast<std::size_t>(block);
        outs.push_back(&buffer("out", Elem::Float, std::vector<float>(padded, 0.0f)));
        // The last level's one block still gets a totals buffer: scanBlocks always writes one.
        totals.push_back(&buffer("totals", Elem::Float,
                                 std::vector<float>(static_cast<std::size_t>(lv.grid), 0.0f)));
        if (!scan_blocks(plan_.launches[static_cast<std::size_t>(lv.scan_pass)], *in, *outs.back(),
                         totals.back(), r_.options.inclusive && outs.size() == 1))
            return false;
        in = totals.back();
    }
    for (std::size_t k = levels.size(); k-- > 0;)
        if (levels[k].carry_pass >= 0 &&
            !add_carries(plan_.launches[static_cast<std::size_t>(levels[k].carry_pass)], *outs[k],
                         *outs[k + 1]))
            return false;
    for (int i = 0; i < n; ++i)
        result_.push_back(outs.front()->value(i));
    return true;
}

// ---- Histograms -------------------------------------------------------------------------------

bool Session::histogram() {
    const Launch& l = plan_.launches.front();
    const int bins = r_.bins, rounds = plan_.rounds;
    const int warps = r_.algorithm == Algorithm::HistPerWarp ? l.block / kWarpSize : 1;
    Buffer& data = buffer("data", Elem::UChar, r_.input);
    Buffer& hist =
        buffer("g_hist", Elem::Int, std::vector<float>(static_cast<std::size_t>(bins), 0.0f));
    const KernelEntry& k = kernel(
        l,
        {{Elem::UChar, true, "const unsigned char* data"}, {Elem::Int, true, "int* g_hist"}, kN});
    std::vector<AtomicRecord> global_atomics;
    const Algorithm a = r_.algorithm;
    const bool ok = launch(
        l, k, {{&data.region, 0}, {&hist.region, 0}, {nullptr, data.count()}}, data.region.id,
        RoundRule::GridStride, [&](const BlockObservation& o) {
            for (const AtomicRecord& at : o.atomics)
                if (at.region == hist.region.id)
                    global_atomics.push_back(at);
            for (int round = 1; round <= rounds; ++round) {
                light(l, Step::HistAccumulate, round, o.input_lines);
                if (a == Algorithm::HistGlobal)
                    light(l, Step::HistAccumulate, round, o.output_lines);
                else if (o.shared_lines.size() > 1)
                    light(l, Step::HistAccumulate, round, o.shared_lines[1]);
            }
            if (a == Algorithm::HistGlobal) {
                place_hazards(l, o, {{Step::HistAccumulate, 1}});
                return;
            }
            StepList steps{{Step::HistZero, 0}, {Step::HistAccumulate, rounds}};
            if (a == Algorithm::HistPerWarp)
                steps.push_back({Step::HistMerge, 0});
            shared_frames(l, o, steps);
            // The rounds have no barrier between them: replayed from the
            // atomics, each tagged with the round of the element its thread had
            // read. Counted without them (`s_hist[bin]++`), nothing tells the
            // rounds apart: each but the last is "?", the last s_hist[] as the
            // barrier after them found it (a replay of no atomics drew every
            // round empty, and --check said the kernel counted nothing).
            const bool replayed = std::any_of(o.atomics.begin(), o.atomics.end(),
                                              [](const AtomicRecord& at) { return at.region < 0; });
            const bool counted = o.shared.size() > 1 && o.shared[1] != o.shared[0];
            if (!replayed && counted && rounds > 1)
                note("plain counts", "your kernel counted into shared memory without atomicAdd: "
                                     "nothing orders the threads' counts, so the rounds cannot "
                                     "be told apart; each round but the last shows ?, the last "
                                     "shows the counts at the barrier after them");
            if (!o.shared.empty()) {
                for (int round = 1; round <= rounds; ++round) {
                    std::vector<float> s = o.shared.front();
                    if (!replayed && counted)
                        s = round == rounds ? o.shared[1] : std::vector<float>(s.size(), kUnknown);
                    for (const AtomicRecord& at : o.atomics)
                        if (at.region < 0 && at.round <= round &&
                            at.index < static_cast<long long>(s.size()))
                            s[static_cast<std::size_t>(at.index)] += static_cast<float>(at.delta);
                    for (int w = 0; w < warps; ++w) {
                        const auto first = s.begin() + static_cast<long long>(w) * bins;
                        const bool whole = first + bins <= s.end();
                        record(l, Step::HistAccumulate, round, o.block,
                               a == Algorithm::HistPerWarp ? w : -1,
                               whole ? std::vector<float>(first, first + bins)
                                     : std::vector<float>{});
                    }
                }
            }
            std::vector<float> g(static_cast<std::size_t>(bins));
            for (int b = 0; b < bins; ++b)
                g[static_cast<std::size_t>(b)] = hist.value(b);
            record(l, Step::HistFold, 0, o.block, -1, std::move(g));
            light(l, Step::HistFold, 0, o.output_lines);
            place_hazards(l, o, steps);
        });
    if (a == Algorithm::HistGlobal)
        for (int round = 1; round <= rounds; ++round) {
            std::vector<float> g(static_cast<std::size_t>(bins), 0.0f);
            for (const AtomicRecord& at : global_atomics)
                if (at.round <= round && at.index < bins)
                    g[static_cast<std::size_t>(at.index)] += static_cast<float>(at.delta);
            record(l, Step::HistAccumulate, round, -1, -1, std::move(g));
        }
    for (int b = 0; b < bins; ++b)
        result_.push_back(hist.value(b));
    return ok;
}

RunnerOutput Session::run(Recording& recording) {
    RunnerOutput out;
    bool ok = true;
    switch (info(r_.algorithm).family) {
    case Family::Reduce:
        ok = reduce();
        break;
    case Family::Scan:
        ok = scan();
        break;
    case Family::Histogram:
        ok = histogram();
        break;
    }
    result_.resize(result_size(r_), kUnknown);
    out.hazards = rt_.hazards();
    out.counted = rt_.counted();
    for (const auto& [key, lines] : step_lines_) {
        const auto [pass, step, level] = key;
        out.step_lines.push_back(
            {pass, static_cast<Step>(step), level, std::vector<int>(lines.begin(), lines.end())});
    }
    if (!hazard_frames_.empty()) {
        // Where each hazard is drawn: its frame's index in the canonical order.
        const std::vector<Frame> frames = decode(plan_, words_);
        for (const auto& [index, key] : hazard_frames_) {
            const auto [pass, step, level, block] = key;
            for (std::size_t f = 0; f < frames.size(); ++f) {
                const Frame& fr = frames[f];
                if (fr.pass == pass && fr.step == step && fr.level == level &&
                    (fr.block == block || fr.block == -1)) {
                    out.hazards[index].frame = static_cast<int>(f);
                    break;
                }
            }
        }
    }
    // CUDA's device heap holds 8 MiB unless the host raises it; past that new and malloc give
    // nullptr on a GPU, where pplab, bounded only by the run's memory limit, went on.
    if (const long long peak = rt_.heap_peak(); peak > kDeviceHeapBytes)
        note("heap", "your kernel held " + std::to_string(peak >> 20) +
                         " MiB from new and malloc at once; a GPU's device heap holds 8 MiB "
                         "unless the host raises cudaLimitMallocHeapSize, and there new and "
                         "malloc would give nullptr");
    // After a fault the steps not taken say nothing more than the hazard that stopped them.
    if (ok)
        out.notes = notes_;
    out.faulted = !ok;
    recording.words = std::move(words_);
    recording.result = std::move(result_);
    return out;
}

// Where STOPPED.txt goes: set before the kernel runs, read by the handler (no allocation there).
const char* g_stopped_path = nullptr;

// Appends `v` in decimal and a separator: snprintf is not async-signal-safe.
char* put_number(char* at, int v, char separator) {
    char digits[12];
    int n = 0;
    unsigned u = v < 0 ? 0u - static_cast<unsigned>(v) : static_cast<unsigned>(v);
    do {
        digits[n++] = static_cast<char>('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0)
        *at++ = '-';
    while (n > 0)
        *at++ = digits[--n];
    *at++ = separator;
    return at;
}

[[noreturn]] void report_and_exit(int code) {
    const LastSeen w = last_seen();
    char text[96];
    char* at = text;
    at = put_number(at, w.line, ' ');
    at = put_number(at, w.block, ' ');
    at = put_number(at, w.thread, ' ');
    at = put_number(at, w.pass, ' ');
    at = put_number(at, w.low, ' ');
    at = put_number(at, w.high, '\n');
    const int fd = ::open(g_stopped_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
        [[maybe_unused]] const auto written =
            ::write(fd, text, static_cast<std::size_t>(at - text));
        ::close(fd);
    }
    ::_exit(code);
}

extern "C" void stopped_at_time_limit(int) {
    report_and_exit(kStoppedExit);
}

// A crash (a recursion past a thread's stack into the guard page below it, a division by zero,
// a failed assert): said like the time limit, with the line the kernel was last seen at. The
// handler runs on a stack of its own, the fiber's being spent. An AddressSanitizer build keeps its
// own handler, which says more.
extern "C" void crashed(int sig) {
    report_and_exit(sig == SIGFPE                                       ? kDivideExit
                    : sig == SIGABRT || sig == SIGILL || sig == SIGTRAP ? kAbortExit
                                                                        : kCrashExit);
}
void say_where_on_crash() {
#if !defined(PPLAB_RUNNER_ASAN)
    static char stack[64 * 1024];
    stack_t alternate{};
    alternate.ss_sp = stack;
    alternate.ss_size = sizeof stack;
    ::sigaltstack(&alternate, nullptr);
    struct sigaction on_crash {};
    on_crash.sa_handler = crashed;
    on_crash.sa_flags = SA_ONSTACK;
    sigemptyset(&on_crash.sa_mask);
    for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL, SIGTRAP})
        ::sigaction(sig, &on_crash, nullptr);
#endif
}

// operator new found no memory under the limit: said like the time limit, with the line.
void out_of_memory() {
    report_and_exit(kMemoryExit);
}

} // namespace

} // namespace pplab::sim

// A runner built with the sanitizers (the sanitize and fuzz presets) has the sanitizer's own
// handlers linked in: there they report an overrun themselves (the tests skip it).
#if !defined(PPLAB_RUNNER_ASAN)
// The kernel's library is built with -fsanitize=bounds: the compiler checks each index of an
// array whose extent it knows (a thread's own `float vals[4]`, which no watched pointer sees)
// and calls these on an index outside it. They are the runner's, not the sanitizer library's
// (the executable's exported names come first when the library is loaded), so the overrun is a
// hazard at its line rather than a report on stderr. The layouts are the sanitizer's calling
// convention (GCC and Clang alike): a source location, the array's type, the index's type; the
// index itself inline where it fits in a word.
namespace {

struct UbsanLocation {
    const char* file;
    std::uint32_t line, column;
};
struct UbsanType {
    std::uint16_t kind, info; // kind 0: an integer; info: log2(bits) << 1 | signed
    char name[1];
};
struct UbsanOutOfBounds {
    UbsanLocation where;
    const UbsanType* array;
    const UbsanType* index;
};

[[noreturn]] void overrun(const void* data, std::uintptr_t value) {
    const auto* d = static_cast<const UbsanOutOfBounds*>(data);
    std::string type = d->array->name;
    if (type.size() >= 2 && type.front() == '\'' && type.back() == '\'')
        type = type.substr(1, type.size() - 2);
    const unsigned bits = d->index->kind == 0 ? 1u << (d->index->info >> 1) : 0;
    const bool known = bits > 0 && bits <= 64;
    long long index = static_cast<long long>(value);
    if (known && (d->index->info & 1) && bits < 64) // sign-extend a narrower signed index
        index = static_cast<long long>(value << (64 - bits)) >> (64 - bits);
    // A check in pplab's own header (not the student's kernel.cu) is the runtime's bug: said
    // as such by own_array_overrun's abort.
    const std::string_view file = d->where.file ? d->where.file : "";
    const bool kernels = file.size() >= 9 && file.substr(file.size() - 9) == "kernel.cu";
    pplab::sim::own_array_overrun(type, index, known,
                                  kernels ? static_cast<int>(d->where.line) : 0);
}

} // namespace

extern "C" {
[[gnu::visibility("default")]] void __ubsan_handle_out_of_bounds(void* data, std::uintptr_t index) {
    overrun(data, index);
}
[[gnu::visibility("default")]] void __ubsan_handle_out_of_bounds_abort(void* data,
                                                                       std::uintptr_t index) {
    overrun(data, index);
}
}
#endif // PPLAB_RUNNER_ASAN

int main(int argc, char** argv) {
    using namespace pplab;
    if (argc != 6) {
        std::fprintf(stderr, "usage: pplab-sim-runner KERNEL.so REQUEST.json TRACE.bin "
                             "RESULT.json STOPPED.txt\n");
        return 2;
    }
    sim::g_stopped_path = argv[5];
    std::signal(SIGXCPU, sim::stopped_at_time_limit);
    sim::say_where_on_crash();
    std::set_new_handler(sim::out_of_memory);
    sim::RunnerOutput out;
    sim::Recording recording;
    try {
        const Request r = normalize_trace(sim::request_from_json(read_text_file(argv[2])));
        if (!::dlopen(argv[1], RTLD_NOW | RTLD_LOCAL)) {
            const std::string why = ::dlerror();
            // Its file-scope arrays are mapped as it loads (`__device__ float x[1ull << 34]`):
            // past the run's memory limit the loader says only "failed to map segment".
            if (why.find("failed to map segment") != std::string::npos) {
                rlimit limit{};
                const bool limited =
                    ::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
                throw InputError(
                    "the kernel's __device__ and __constant__ arrays do not fit in the memory "
                    "the simulator gives a run" +
                    (limited ? " (" + std::to_string(limit.rlim_cur >> 20) + " MiB for everything)"
                             : std::string()) +
                    ": make them smaller");
            }
            throw InputError("the compiled kernel does not load: " + why);
        }
        out = sim::Session(r).run(recording);
    } catch (const std::bad_alloc&) { // a fiber's stack not mapped: the memory limit too
        sim::report_and_exit(sim::kMemoryExit);
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    try {
        // The recording first: RESULT.json appearing says that everything is there.
        if (out.error.empty())
            write_atomically(argv[3], sim::recording_to_bytes(recording));
        write_atomically(argv[4], sim::output_to_json(out));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pplab-sim-runner: %s\n", e.what());
        return 2;
    }
    return 0;
}
