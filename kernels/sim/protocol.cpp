#include "protocol.hpp"

#include "pplab/io.hpp"
#include "pplab/quote.hpp"
#include "pplab/trace.hpp"
#include "trace/json_fields.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

namespace pplab::sim {

namespace {

using Json = nlohmann::json;

constexpr std::array<std::string_view, 6> kHazardIds = {
    "race",          "divergent-barrier",  "bad-shuffle-mask",
    "out-of-bounds", "uninitialised-read", "fault"};

HazardKind find_hazard(std::string_view id) {
    for (std::size_t k = 0; k < kHazardIds.size(); ++k)
        if (kHazardIds[k] == id)
            return static_cast<HazardKind>(k);
    throw InputError("unknown hazard kind " + quote(id));
}

Hazard read_hazard(const json_fields::Reader& in, const Json& jh, std::size_t k) {
    constexpr long long kLong = std::numeric_limits<long long>::max();
    constexpr int kInt = std::numeric_limits<int>::max();
    const auto name = [&](std::string_view key) { return json_fields::Name{"hazards", k, key}; };
    const auto field = [&](std::string_view key) -> const Json& {
        return in.member(jh, name(key));
    };
    Hazard h;
    const std::string kind = in.text(field("kind"), name("kind"), 64);
    try {
        h.kind = find_hazard(kind);
    } catch (const InputError& e) {
        in.fail(name("kind"), std::string("is not one pplab knows: ") + e.what());
    }
    h.line = in.whole_int(field("line"), name("line"), 0, kInt);
    h.other_line = in.whole_int(field("other_line"), name("other_line"), 0, kInt);
    h.pass = in.whole_int(field("pass"), name("pass"), 0, kInt);
    h.block = in.whole_int(field("block"), name("block"), -1, kInt);
    const auto& threads = in.list(field("threads"), name("threads"));
    for (std::size_t t = 0; t < threads.size(); ++t)
        h.threads.push_back(in.whole_int(threads[t], name("threads").at(t), 0, kMaxBlock - 1));
    h.array = in.text(field("array"), name("array"), 256);
    if (jh.is_object() && jh.contains("memory")) // answers written before it had one
        h.memory = in.text(field("memory"), name("memory"), 16);
    h.index = in.whole(field("index"), name("index"), -kLong, kLong);
    h.address = in.whole(field("address"), name("address"), -kLong, kLong);
    h.frame = in.whole_int(field("frame"), name("frame"), -1, kInt);
    h.fatal = in.flag(field("fatal"), name("fatal"));
    h.count = in.whole_int(field("count"), name("count"), 1, kInt);
    h.message = in.text(field("message"), name("message"), 4096);
    return h;
}

} // namespace

std::string_view hazard_id(HazardKind k) {
    return kHazardIds[static_cast<std::size_t>(k)];
}

std::string listing_kernel(Algorithm a, const std::string& plan_kernel) {
    return a == Algorithm::ScanBlelloch ? std::string("scanBlelloch") : plan_kernel;
}

std::string request_to_json(const Request& r) {
    Json j;
    j["algorithm"] = std::string(info(r.algorithm).id);
    j["block"] = r.block;
    j["grid"] = r.grid;
    j["bins"] = r.bins;
    j["inclusive"] = r.options.inclusive;
    j["skip_empty"] = r.options.skip_empty;
    j["order_seed"] = r.options.order_seed;
    j["pitfall"] = std::string(pitfall_id(r.options.pitfall));
    j["active_lanes"] = r.options.active_lanes;
    // Bit patterns, so every float (and -0) crosses exactly.
    std::vector<std::uint32_t> bits(r.input.size());
    std::memcpy(bits.data(), r.input.data(), bits.size() * sizeof(float));
    j["input_bits"] = bits;
    return j.dump();
}

Request request_from_json(std::string_view text) {
    try {
        const Json j = Json::parse(text.begin(), text.end());
        Request r;
        r.algorithm = find_algorithm(j.at("algorithm").get<std::string>()).algorithm;
        r.block = j.at("block").get<int>();
        r.grid = j.at("grid").get<int>();
        r.bins = j.at("bins").get<int>();
        r.options.inclusive = j.at("inclusive").get<bool>();
        r.options.skip_empty = j.at("skip_empty").get<bool>();
        r.options.order_seed = j.at("order_seed").get<std::uint64_t>();
        r.options.pitfall = find_pitfall(j.at("pitfall").get<std::string>());
        r.options.active_lanes = j.at("active_lanes").get<int>();
        const auto bits = j.at("input_bits").get<std::vector<std::uint32_t>>();
        r.input.resize(bits.size());
        std::memcpy(r.input.data(), bits.data(), bits.size() * sizeof(float));
        return r;
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        throw InputError(std::string("the runner's request is not readable: ") + e.what());
    }
}

namespace {

Json hazard_to_json(const Hazard& h) {
    return {{"kind", std::string(hazard_id(h.kind))},
            {"line", h.line},
            {"other_line", h.other_line},
            {"pass", h.pass},
            {"block", h.block},
            {"threads", h.threads},
            {"array", h.array},
            {"memory", h.memory},
            {"index", h.index},
            {"address", h.address},
            {"frame", h.frame},
            {"fatal", h.fatal},
            {"count", h.count},
            {"message", h.message}};
}

} // namespace

std::string_view status_id(RunResult::Status s) {
    using S = RunResult::Status;
    switch (s) {
    case S::Ran:
        return "ran";
    case S::CompileFailed:
        return "compile-failed";
    case S::Faulted:
        return "faulted";
    case S::TimedOut:
        return "timed-out";
    case S::OutOfMemory:
        return "out-of-memory";
    case S::Crashed:
        return "crashed";
    case S::Cancelled:
        return "cancelled";
    }
    return "ran";
}

std::string to_json(const RunResult& r) {
    std::string text = pplab::to_json(r.trace);
    text.erase(text.find_last_of('}')); // the object stays open for the run's fields
    while (!text.empty() && text.back() == '\n')
        text.pop_back();
    // Whether it ran, and if not why: the compiler's errors by line, or the message of the
    // fault or limit that stopped it (its hazard is in "hazards", "fatal": true).
    Json errors = Json::array();
    for (const CompileError& e : r.errors)
        errors.push_back({{"line", e.line}, {"column", e.column}, {"message", e.message}});
    text += ",\n  \"status\": " + Json(std::string(status_id(r.status))).dump() + ",\n";
    text += "  \"message\": " + Json(r.message).dump() + ",\n";
    text += "  \"stopped_line\": " + std::to_string(r.stopped_line) + ",\n";
    text += "  \"errors\": [";
    for (std::size_t k = 0; k < errors.size(); ++k)
        text += (k ? ",\n    " : "\n    ") + errors[k].dump();
    text += errors.empty() ? "],\n" : "\n  ],\n";
    text += "  \"hazards\": [";
    for (std::size_t k = 0; k < r.hazards.size(); ++k)
        text += (k ? ",\n    " : "\n    ") + hazard_to_json(r.hazards[k]).dump();
    text += r.hazards.empty() ? "],\n" : "\n  ],\n";
    text += "  \"notes\": " + Json(r.notes).dump() + ",\n";
    Json counted = Json::object();
    for (const auto& [name, id, field] : counter_fields())
        if (field != &Counters::additions)
            counted[std::string(id)] = r.counted.*field;
    return text + "  \"counted\": " + counted.dump() + "\n}\n";
}

std::string output_to_json(const RunnerOutput& o) {
    Json j;
    j["faulted"] = o.faulted;
    j["notes"] = o.notes;
    j["error"] = o.error;
    Json hazards = Json::array();
    for (const Hazard& h : o.hazards)
        hazards.push_back(hazard_to_json(h));
    j["hazards"] = hazards;
    Json counted = Json::object();
    for (const auto& [name, id, field] : counter_fields())
        counted[std::string(id)] = o.counted.*field;
    j["counted"] = counted;
    // Consecutive levels of one step that light the same lines are one entry of `levels`
    // levels: reduceNaive's 65536 additions are one entry, not 65536.
    Json lines = Json::array();
    for (std::size_t k = 0; k < o.step_lines.size();) {
        const StepLines& first = o.step_lines[k];
        std::size_t end = k + 1;
        while (end < o.step_lines.size() && o.step_lines[end].pass == first.pass &&
               o.step_lines[end].step == first.step &&
               o.step_lines[end].level == first.level + static_cast<int>(end - k) &&
               o.step_lines[end].lines == first.lines)
            ++end;
        lines.push_back({{"pass", first.pass},
                         {"step", std::string(step_id(first.step))},
                         {"level", first.level},
                         {"levels", end - k},
                         {"lines", first.lines}});
        k = end;
    }
    j["step_lines"] = lines;
    return j.dump();
}

// The child's answer is read as any file a user hands pplab is: the student's kernel runs in
// that process and may have written anything into it. Every number is range-checked before it
// is converted, and the message names the field.
RunnerOutput output_from_json(std::string_view text, std::uint64_t max_steps) {
    using json_fields::Name;
    using json_fields::top;
    constexpr int kInt = std::numeric_limits<int>::max();
    constexpr long long kCount = std::numeric_limits<std::int64_t>::max();
    const json_fields::Reader in("the runner's answer");
    const Json j = json_fields::parse<Json>(text, in);
    const auto field = [&](std::string_view key) -> const Json& { return in.member(j, top(key)); };
    RunnerOutput o;
    o.faulted = in.flag(field("faulted"), top("faulted"));
    const Json& counted = field("counted");
    for (const auto& [name, id, member] : counter_fields())
        o.counted.*member = in.whole(in.member(counted, Name{"counted", json_fields::kNoIndex, id}),
                                     Name{"counted", json_fields::kNoIndex, id}, 0, kCount);
    const auto& step_lines = in.list(field("step_lines"), top("step_lines"));
    std::uint64_t steps = 0;
    for (std::size_t k = 0; k < step_lines.size(); ++k) {
        const auto name = [&](std::string_view key) { return Name{"step_lines", k, key}; };
        const auto at = [&](std::string_view key) -> const Json& {
            return in.member(step_lines[k], name(key));
        };
        StepLines l;
        l.pass = in.whole_int(at("pass"), name("pass"), 0, kInt);
        const std::string step = in.text(at("step"), name("step"), 64);
        try {
            l.step = find_step(step);
        } catch (const InputError& e) {
            in.fail(name("step"), std::string("is not one pplab knows: ") + e.what());
        }
        l.level = in.whole_int(at("level"), name("level"), -1, kInt);
        const int levels =
            in.whole_int(at("levels"), name("levels"), 1, kInt - std::max(l.level, 0));
        // Expanded, the entries can never outnumber the trace's steps.
        if ((steps += static_cast<std::uint64_t>(levels)) > max_steps)
            in.fail(name("levels"),
                    "names more steps than the trace has (" + std::to_string(max_steps) + ")");
        const auto& lines = in.list(at("lines"), name("lines"));
        for (std::size_t t = 0; t < lines.size(); ++t)
            l.lines.push_back(in.whole_int(lines[t], name("lines").at(t), 0, kInt));
        for (int v = 0; v < levels; ++v, ++l.level)
            o.step_lines.push_back(l);
    }
    const auto& notes = in.list(field("notes"), top("notes"));
    for (std::size_t k = 0; k < notes.size(); ++k)
        o.notes.push_back(in.text(notes[k], top("notes").at(k), 4096));
    o.error = in.text(field("error"), top("error"), 4096);
    const auto& hazards = in.list(field("hazards"), top("hazards"));
    for (std::size_t k = 0; k < hazards.size(); ++k)
        o.hazards.push_back(read_hazard(in, hazards[k], k));
    return o;
}

namespace {
constexpr char kMagic[8] = {'p', 'p', 'l', 'a', 'b', 'r', 'e', 'c'};
constexpr std::uint32_t kVersion = 1;
} // namespace

// magic, version, word count, result count (u64 each after the magic), words, result floats.
std::string recording_to_bytes(const Recording& r) {
    const std::uint64_t head[3] = {kVersion, r.words.size(), r.result.size()};
    std::string bytes(kMagic, sizeof kMagic);
    bytes.append(reinterpret_cast<const char*>(head), sizeof head);
    bytes.append(reinterpret_cast<const char*>(r.words.data()), r.words.size() * 4);
    bytes.append(reinterpret_cast<const char*>(r.result.data()), r.result.size() * 4);
    return bytes;
}

Recording recording_from_bytes(std::string_view bytes) {
    std::uint64_t head[3] = {};
    if (bytes.size() < sizeof kMagic + sizeof head ||
        std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        throw InputError("the runner's recording is not readable (no header)");
    std::memcpy(head, bytes.data() + sizeof kMagic, sizeof head);
    const std::uint64_t body = bytes.size() - sizeof kMagic - sizeof head;
    if (head[0] != kVersion || head[1] > body / 4 || head[2] > body / 4 ||
        (head[1] + head[2]) * 4 != body)
        throw InputError("the runner's recording is not readable (its sizes do not add up)");
    Recording r;
    r.words.resize(head[1]);
    r.result.resize(head[2]);
    const char* at = bytes.data() + sizeof kMagic + sizeof head;
    std::memcpy(r.words.data(), at, r.words.size() * 4);
    std::memcpy(r.result.data(), at + r.words.size() * 4, r.result.size() * 4);
    return r;
}

} // namespace pplab::sim
