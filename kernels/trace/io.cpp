#include "pplab/io.hpp"
#include "pplab/lookback.hpp"

#include "pplab/dataflow.hpp"
#include "pplab/numbers.hpp"
#include "pplab/plan.hpp"
#include "pplab/stats.hpp"
#include "trace/decode.hpp"
#include "trace/json_fields.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <utility>

namespace pplab {

namespace {

using json_fields::kNoIndex;
using json_fields::Name;
using json_fields::Reader;
using json_fields::top;

// JSON read with float numbers: the lexer then converts with strtof, so every value written
// by format_value reads back to the same float, bit for bit.
using FloatJson = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t,
                                       std::uint64_t, float>;

// 2: tree levels (tree-level, upsweep, downsweep) count from 0, as the chapter's comments do.
constexpr int kFormatVersion = 2;

std::string join(const std::vector<float>& v, const char* sep = " ") {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i)
            s += sep;
        s += format_value(v[i]);
    }
    return s;
}

std::string json_string(std::string_view s) {
    std::string o = "\"";
    for (const char c : s) {
        switch (c) {
        case '"':
            o += "\\\"";
            break;
        case '\\':
            o += "\\\\";
            break;
        case '\n':
            o += "\\n";
            break;
        case '\t':
            o += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                o += buf;
            } else {
                o += c;
            }
        }
    }
    return o + "\"";
}

// A JSON reader takes "-0" for the integer 0 and loses the sign, so negative zero is
// written "-0.0": the file then reads back bit for bit.
std::string json_floats(const std::vector<float>& v) {
    std::string s(1, '[');
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i)
            s += ", ";
        // An undefined value (a pitfall's) is NaN in memory, null in the file.
        s += std::isnan(v[i])                     ? "null"
             : v[i] == 0.0f && std::signbit(v[i]) ? "-0.0"
                                                  : format_value(v[i]);
    }
    s += ']';
    return s;
}

// Atomics per bin in a round of hist-global: the growth of each bin since the last round.
std::vector<float> atomics_per_bin(const Trace& t, std::size_t index) {
    const Frame& f = t.frames[index];
    std::vector<float> d = f.values;
    if (index > 0 && t.frames[index - 1].step == Step::HistAccumulate)
        for (std::size_t b = 0; b < d.size(); ++b)
            d[b] -= t.frames[index - 1].values[b];
    return d;
}

std::string config_line(const Trace& t) {
    const Request& r = t.request;
    std::string s = "n " + std::to_string(r.n()) + ", block " + std::to_string(r.block) +
                    ", grid " + std::to_string(r.grid);
    if (info(r.algorithm).family == Family::Histogram)
        s += ", bins " + std::to_string(r.bins) +
             (r.options.skip_empty ? ", empty bins skipped" : ", empty bins folded too");
    if (info(r.algorithm).family == Family::Scan)
        s += r.options.inclusive ? ", inclusive" : ", exclusive";
    if (r.algorithm == Algorithm::ScanFast)
        s += ", tiles of " + std::to_string(lookback_tile_size(r));
    if (has_schedule(r.algorithm) && !seeded_order_by(t).empty())
        s += ", order seed " + std::to_string(r.options.order_seed);
    if (r.options.pitfall != Pitfall::None)
        s += ", pitfall " + std::string(pitfall_id(r.options.pitfall)) +
             (r.options.pitfall == Pitfall::PartialWarp
                  ? " (" + std::to_string(r.options.active_lanes) + " active lanes)"
                  : std::string());
    return s;
}

// ---- Reading a trace back --------------------------------------------------------------

// A name looked up in pplab's lists (an algorithm, a step), with the field named when it is
// not one of them.
template <class Find>
auto known(const Reader& in, const Name& name, Find find) {
    try {
        return find();
    } catch (const InputError& e) {
        const std::string why = e.what();
        if (why.rfind(in.file(), 0) == 0)
            throw; // already names the field
        in.fail(name, "is not one pplab knows: " + why);
    }
}

std::vector<float> floats(const Reader& in, const FloatJson& v, const Name& name, bool allow_null) {
    const auto& list = in.list(v, name);
    std::vector<float> out;
    out.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i)
        out.push_back(in.single(list[i], name.at(i), allow_null));
    return out;
}

Request read_request(const Reader& in, const FloatJson& j) {
    const FloatJson& c = in.member(j, top("config"));
    const auto config = [](std::string_view key) { return Name{"config", kNoIndex, key}; };
    const auto field = [&](std::string_view key) -> const FloatJson& {
        return in.member(c, config(key));
    };
    Request r;
    r.algorithm = known(in, top("algorithm"), [&] {
        return find_algorithm(in.text(in.member(j, top("algorithm")), top("algorithm"), 64))
            .algorithm;
    });
    const int n = in.whole_int(field("n"), config("n"), 1, kMaxTraceN);
    r.block = in.whole_int(field("block"), config("block"), 1, kMaxBlock);
    r.grid = in.whole_int(field("grid"), config("grid"), 1, kMaxTraceN);
    r.bins = in.whole_int(field("bins"), config("bins"), 0, kMaxTraceN);
    r.options.inclusive = in.flag(field("inclusive"), config("inclusive"));
    r.options.skip_empty = in.flag(field("skip_empty"), config("skip_empty"));
    r.options.order_seed = in.seed(field("order_seed"), config("order_seed"));
    // Files written before the pitfalls existed have neither field.
    if (c.is_object() && c.contains("pitfall"))
        r.options.pitfall = known(in, config("pitfall"), [&] {
            return find_pitfall(in.text(field("pitfall"), config("pitfall"), 64));
        });
    if (c.is_object() && c.contains("active_lanes"))
        r.options.active_lanes =
            in.whole_int(field("active_lanes"), config("active_lanes"), 1, kWarpSize);
    r.input = floats(in, in.member(j, top("input")), top("input"), false);
    if (r.n() != n)
        throw InputError("the trace file's config.n is " + std::to_string(n) +
                         ", but its input holds " + std::to_string(r.n()) + " values");
    return r;
}

Frame read_frame(const Reader& in, const FloatJson& jf, std::size_t k) {
    const auto name = [&](std::string_view key) { return Name{"frames", k, key}; };
    const auto field = [&](std::string_view key) -> const FloatJson& {
        return in.member(jf, name(key));
    };
    Frame f;
    f.step = known(in, name("step"),
                   [&] { return find_step(in.text(field("step"), name("step"), 64)); });
    f.pass = in.whole_int(field("pass"), name("pass"), 0, kMaxTraceN);
    f.level = in.whole_int(field("level"), name("level"), 0, kMaxTraceN);
    f.block = in.whole_int(field("block"), name("block"), -1, kMaxTraceN);
    f.warp = in.whole_int(field("warp"), name("warp"), -1, kMaxBlock / kWarpSize);
    f.buffer = known(in, name("buffer"),
                     [&] { return find_buffer(in.text(field("buffer"), name("buffer"), 64)); });
    f.values = floats(in, field("values"), name("values"), true);
    return f;
}

// Which cells the request's pitfall may leave undefined on some device: those its Dataflow
// marks undefined or raced, and every cell computed from one of them (a GPU keeps one racing
// write and computes on; the CPU model records "?" from there on).
std::vector<std::vector<bool>> may_be_undefined(const Trace& t) {
    const Dataflow flow(t);
    std::map<std::pair<int, int>, std::size_t> block_totals; // (pass, block) -> frame
    std::vector<std::vector<bool>> taint(t.frames.size());
    for (std::size_t k = 0; k < t.frames.size(); ++k) {
        const Frame& f = t.frames[k];
        if (f.step == Step::BlockTotal)
            block_totals[{f.pass, f.block}] = k;
        const auto tainted = [&](const CellRef& ref) {
            std::size_t frame = static_cast<std::size_t>(ref.frame);
            std::size_t cell = static_cast<std::size_t>(ref.cell);
            if (ref.frame == CellRef::kInput) { // the launch's input: the block totals before
                const auto total = block_totals.find({f.pass - 1, ref.cell});
                if (total == block_totals.end())
                    return false; // the request's own numbers
                frame = total->second;
                cell = 0;
            }
            return frame < k && cell < taint[frame].size() && taint[frame][cell];
        };
        const std::vector<CellWrite> writes = flow.writes(k);
        taint[k].resize(writes.size());
        for (std::size_t c = 0; c < writes.size(); ++c)
            taint[k][c] = writes[c].undefined || writes[c].race ||
                          std::any_of(writes[c].from.begin(), writes[c].from.end(), tainted);
    }
    return taint;
}

// An undefined value (null in the file) only where the request's pitfall may leave one. A
// student's kernel run by the simulator (backend "sim") may leave any value undefined: its
// races and the levels it never wrote are recorded as "?".
void check_undefined(const Trace& t) {
    if (t.backend == "sim")
        return;
    const auto undefined = [](const std::vector<float>& v) {
        return std::any_of(v.begin(), v.end(), [](float x) { return std::isnan(x); });
    };
    const bool in_frames = std::any_of(t.frames.begin(), t.frames.end(),
                                       [&](const Frame& f) { return undefined(f.values); });
    if (!in_frames && !undefined(t.result))
        return;
    const Pitfall pitfall = t.request.options.pitfall;
    if (pitfall == Pitfall::None)
        throw InputError("the trace file holds null (undefined) values, but its request has no "
                         "pitfall: without one, every value the kernel writes is defined");
    const std::vector<std::vector<bool>> allowed = may_be_undefined(t);
    if (undefined(t.result) && std::none_of(allowed.begin(), allowed.end(), [](const auto& v) {
            return std::find(v.begin(), v.end(), true) != v.end();
        }))
        throw InputError("the trace file's result is null, but the pitfall " +
                         std::string(pitfall_id(pitfall)) + " leaves every value defined here");
    const LabelParts parts = label_parts(t);
    for (std::size_t k = 0; k < t.frames.size(); ++k)
        for (std::size_t c = 0; c < t.frames[k].values.size(); ++c)
            if (std::isnan(t.frames[k].values[c]) && !allowed[k][c])
                throw InputError("the trace file's frames[" + std::to_string(k) + "].values[" +
                                 std::to_string(c) + "] (" + frame_label(t.frames[k], parts) +
                                 ") is null, but the pitfall " + std::string(pitfall_id(pitfall)) +
                                 " leaves that value defined");
}

} // namespace

std::string format_value(float v) {
    if (std::isnan(v))
        return "?"; // undefined: no number is invented
    // Whole numbers past 2^24 are written out in full: the shortest text that reads back
    // ("123456790" for 123456792) is not the number the float holds, and a hand-trace copied
    // from it would be refused as a whole number fp32 cannot hold. Below 2^53 a double holds
    // them exactly, and printf writes them the same with any standard library.
    if (std::fabs(v) >= kFloatExactIntegers && std::fabs(v) < 9.007199254740992e15) {
        char whole[32];
        std::snprintf(whole, sizeof whole, "%.0f", static_cast<double>(v));
        return whole;
    }
#if defined(__cpp_lib_to_chars)
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
#else
    return shortest_float_text(v);
#endif
}

namespace {

// A decimal d.ddd x 10^exponent, the digits without the point.
struct Decimal {
    std::string digits;
    int exponent = 0;
};

// The `count` significant digits nearest |v|, as printf rounds them.
Decimal nearest_digits(float v, int count) {
    char text[48];
    std::snprintf(text, sizeof text, "%.*e", count - 1, static_cast<double>(std::fabs(v)));
    Decimal d;
    const char* e = std::strchr(text, 'e');
    for (const char* c = text; c != e; ++c)
        if (*c != '.')
            d.digits += *c;
    d.exponent = std::atoi(e + 1);
    return d;
}

// The decimal one unit in the last digit above (+1) or below (-1), with as many digits.
Decimal neighbour(Decimal d, int direction) {
    std::string& s = d.digits;
    int i = static_cast<int>(s.size()) - 1;
    for (; i >= 0; --i) { // carry or borrow
        const int digit = s[static_cast<std::size_t>(i)] - '0' + direction;
        if (digit >= 0 && digit <= 9) {
            s[static_cast<std::size_t>(i)] = static_cast<char>('0' + digit);
            break;
        }
        s[static_cast<std::size_t>(i)] = direction > 0 ? '0' : '9';
    }
    if (i < 0 && direction > 0) { // 999 + 1 = 1000: one digit more, so shift it
        s.insert(s.begin(), '1');
        s.pop_back();
        ++d.exponent;
    } else if (s[0] == '0') { // 100 - 1 = 099: the digits move up, one more 9 below
        s.erase(s.begin());
        s.push_back('9');
        --d.exponent;
    }
    return d;
}

bool reads_back(const Decimal& d, float v) {
    const std::string text =
        d.digits + "e" + std::to_string(d.exponent - (static_cast<int>(d.digits.size()) - 1));
    return d.digits.find_first_not_of('0') != std::string::npos &&
           std::strtof(text.c_str(), nullptr) == std::fabs(v);
}

std::string fixed_style(const Decimal& d, float v) {
    const int count = static_cast<int>(d.digits.size());
    if (d.exponent >= count - 1) {
        // A whole number: every text of it has as many characters, and to_chars writes the
        // nearest, which is the float's own value (67108872, not 67108870).
        char whole[48];
        std::snprintf(whole, sizeof whole, "%.0f", static_cast<double>(std::fabs(v)));
        return whole;
    }
    if (d.exponent >= 0)
        return d.digits.substr(0, static_cast<std::size_t>(d.exponent + 1)) + "." +
               d.digits.substr(static_cast<std::size_t>(d.exponent + 1));
    return "0." + std::string(static_cast<std::size_t>(-d.exponent - 1), '0') + d.digits;
}

std::string scientific_style(const Decimal& d) {
    std::string s = d.digits.substr(0, 1);
    if (d.digits.size() > 1)
        s += "." + d.digits.substr(1);
    char exponent[16];
    std::snprintf(exponent, sizeof exponent, "e%c%02d", d.exponent < 0 ? '-' : '+',
                  std::abs(d.exponent));
    return s + exponent;
}

} // namespace

std::string shortest_float_text(float v) {
    const std::string sign = std::signbit(v) ? "-" : "";
    if (std::isinf(v))
        return sign + "inf";
    if (v == 0)
        return sign + "0";
    // The fewest digits that read back; at a power of two the float's neighbours are not
    // equally far, so the nearest decimal may miss where the next one over reads back.
    Decimal shortest;
    for (int count = 1; count <= 9 && shortest.digits.empty(); ++count) {
        const Decimal nearest = nearest_digits(v, count);
        for (const Decimal& d : {nearest, neighbour(nearest, +1), neighbour(nearest, -1)})
            if (reads_back(d, v)) {
                shortest = d;
                break;
            }
    }
    while (shortest.digits.size() > 1 && shortest.digits.back() == '0')
        shortest.digits.pop_back();
    const std::string fixed = fixed_style(shortest, v), scientific = scientific_style(shortest);
    return sign + (scientific.size() < fixed.size() ? scientific : fixed);
}

std::string to_text(const Trace& t) {
    const auto& i = info(t.request.algorithm);
    std::string o;
    o += "# pplab trace: " + std::string(i.id) + " (" + std::string(i.title) + ", " +
         std::string(i.section) + ")\n";
    o += "# backend: " + t.backend + " (" + t.device + ")\n";
    o += "# config: " + config_line(t) + "\n";
    o += "# input: " + join(t.request.input) + "\n";
    const LabelParts parts = label_parts(t);
    // scan-fast's records are tickets, polls and states beside the values: said in words.
    std::optional<Dataflow> flow;
    if (t.request.algorithm == Algorithm::ScanFast)
        flow.emplace(t);
    for (std::size_t k = 0; k < t.frames.size(); ++k) {
        const Frame& f = t.frames[k];
        o += frame_label(f, parts) + ": " + join(f.values) + "\n";
        if (t.request.algorithm == Algorithm::HistGlobal && f.step == Step::HistAccumulate)
            o += "#   atomics per bin this round: " + join(atomics_per_bin(t, k)) + "\n";
        if (flow)
            o += "#   " + flow->caption_details(k) + "\n";
    }
    o += "# result: " + join(t.result) + "\n";
    o += "# barriers per block: " + std::to_string(summarize(t).barriers_per_block) + "\n";
    return o;
}

std::string to_json(const Trace& t) {
    const Request& r = t.request;
    const Summary s = summarize(t);
    std::ostringstream o;
    o << "{\n";
    o << "  \"format\": \"pplab-trace\",\n  \"version\": " << kFormatVersion << ",\n";
    o << "  \"algorithm\": " << json_string(info(r.algorithm).id) << ",\n";
    o << "  \"backend\": " << json_string(t.backend) << ",\n";
    o << "  \"device\": " << json_string(t.device) << ",\n";
    o << "  \"config\": {\"n\": " << r.n() << ", \"block\": " << r.block << ", \"grid\": " << r.grid
      << ", \"bins\": " << r.bins << ", \"inclusive\": " << (r.options.inclusive ? "true" : "false")
      << ", \"skip_empty\": " << (r.options.skip_empty ? "true" : "false")
      << ", \"order_seed\": " << r.options.order_seed
      << ", \"pitfall\": " << json_string(pitfall_id(r.options.pitfall))
      << ", \"active_lanes\": " << r.options.active_lanes << "},\n";
    o << "  \"input\": " << json_floats(r.input) << ",\n";
    o << "  \"frames\": [";
    for (std::size_t k = 0; k < t.frames.size(); ++k) {
        const Frame& f = t.frames[k];
        o << (k ? ",\n    " : "\n    ") << "{\"step\": " << json_string(step_id(f.step))
          << ", \"pass\": " << f.pass << ", \"level\": " << f.level << ", \"block\": " << f.block
          << ", \"warp\": " << f.warp << ", \"buffer\": " << json_string(buffer_id(f.buffer))
          << ", \"values\": " << json_floats(f.values) << "}";
    }
    o << (t.frames.empty() ? "],\n" : "\n  ],\n");
    o << "  \"result\": " << json_floats(t.result) << ",\n";
    const Counters& c = s.total;
    o << "  \"stats\": {\"barriers_per_block\": " << s.barriers_per_block
      << ", \"barriers\": " << c.barriers << ", \"shared_reads\": " << c.shared_reads
      << ", \"shared_writes\": " << c.shared_writes << ", \"shuffles\": " << c.shuffles
      << ", \"shared_atomics\": " << c.shared_atomics
      << ", \"global_atomics\": " << c.global_atomics << ", \"global_reads\": " << c.global_reads
      << ", \"global_writes\": " << c.global_writes << ", \"additions\": " << c.additions << "}\n";
    o << "}\n";
    return o.str();
}

std::string to_markdown(const Trace& t) {
    const auto& i = info(t.request.algorithm);
    const Dataflow flow(t);
    const LabelParts parts = label_parts(t);
    std::string o;
    o += "## " + std::string(i.id) + ": `" + std::string(i.title) + "` (" + std::string(i.section) +
         ")\n\n";
    o += std::string(i.doc) + "\n\n";
    o += "*Backend:* " + t.backend + " (" + t.device + "). *Config:* " + config_line(t) + ".\n\n";
    o += "*Input:* `" + join(t.request.input) + "`\n\n";
    o += "| frame | what happens | values |\n|---|---|---|\n";
    for (std::size_t k = 0; k < t.frames.size(); ++k) {
        const std::string details = flow.caption_details(k); // what the window's caption leaves out
        o += "| " + frame_label(t.frames[k], parts) + " | " + flow.caption(k) +
             (details.empty() ? "" : " — " + details) + " | `" + join(t.frames[k].values) + "` |\n";
    }
    o += "\n*Result:* `" + join(t.result) + "`. *Barriers per block:* " +
         std::to_string(summarize(t).barriers_per_block) + ".\n";
    return o;
}

Trace trace_from_json(std::string_view text) {
    const Reader in("the trace file");
    json_fields::check_float_texts(text, in);
    const FloatJson j = json_fields::parse<FloatJson>(text, in);
    if (!j.is_object() || !j.contains("format") || j["format"] != "pplab-trace")
        throw InputError("the file is JSON but not a pplab trace (no \"format\": \"pplab-trace\")");
    const int version = in.whole_int(in.member(j, top("version")), top("version"), 0,
                                     std::numeric_limits<int>::max());
    if (version != kFormatVersion)
        throw InputError("the trace file has format version " + std::to_string(version) +
                         "; this pplab reads " + std::to_string(kFormatVersion));
    Trace t;
    t.request = read_request(in, j);
    const Request& r = t.request;
    t.backend = in.text(in.member(j, top("backend")), top("backend"), 32);
    t.device = in.text(in.member(j, top("device")), top("device"), 256);
    const auto& frames = in.list(in.member(j, top("frames")), top("frames"));
    t.frames.reserve(frames.size());
    for (std::size_t k = 0; k < frames.size(); ++k)
        t.frames.push_back(read_frame(in, frames[k], k));
    t.result = floats(in, in.member(j, top("result")), top("result"), true);
    // A file may have been edited by hand: everything downstream relies on its shape.
    if (!(normalize_trace(r) == r))
        throw InputError("the trace file's config is not one pplab would run as written "
                         "(a default left unfilled, or an option that does not apply)");
    check_frames(make_plan(r), t.frames);
    if (t.result.size() != result_size(r))
        throw InputError("the trace file's result has " + std::to_string(t.result.size()) +
                         " values; its request leaves " + std::to_string(result_size(r)));
    check_undefined(t);
    return t;
}

} // namespace pplab
