#include "pplab/io.hpp"

#include "pplab/dataflow.hpp"
#include "pplab/plan.hpp"
#include "pplab/stats.hpp"
#include "trace/decode.hpp"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>

namespace pplab {

namespace {

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
    if (r.algorithm == Algorithm::ReduceAtomic && t.backend == "cpu")
        s += ", order seed " + std::to_string(r.options.order_seed);
    if (r.options.pitfall != Pitfall::None)
        s += ", pitfall " + std::string(pitfall_id(r.options.pitfall)) +
             (r.options.pitfall == Pitfall::PartialWarp
                  ? " (" + std::to_string(r.options.active_lanes) + " active lanes)"
                  : std::string());
    return s;
}

// Numbers, or null for an undefined value.
std::vector<float> values_of(const FloatJson& a) {
    std::vector<float> v;
    v.reserve(a.size());
    for (const auto& x : a.get_ref<const FloatJson::array_t&>())
        v.push_back(x.is_null() ? std::numeric_limits<float>::quiet_NaN() : x.get<float>());
    return v;
}

} // namespace

std::string format_value(float v) {
    if (std::isnan(v))
        return "?"; // undefined: no number is invented
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
    for (std::size_t k = 0; k < t.frames.size(); ++k) {
        const Frame& f = t.frames[k];
        o += frame_label(f, parts) + ": " + join(f.values) + "\n";
        if (t.request.algorithm == Algorithm::HistGlobal && f.step == Step::HistAccumulate)
            o += "#   atomics per bin this round: " + join(atomics_per_bin(t, k)) + "\n";
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
    for (std::size_t k = 0; k < t.frames.size(); ++k)
        o += "| " + frame_label(t.frames[k], parts) + " | " + flow.caption(k) + " | `" +
             join(t.frames[k].values) + "` |\n";
    o += "\n*Result:* `" + join(t.result) + "`. *Barriers per block:* " +
         std::to_string(summarize(t).barriers_per_block) + ".\n";
    return o;
}

Trace trace_from_json(std::string_view text) {
    FloatJson j;
    try {
        j = FloatJson::parse(text.begin(), text.end());
    } catch (const std::exception& e) {
        throw InputError(std::string("the trace file is not valid JSON: ") + e.what());
    }
    try {
        if (j.value("format", std::string()) != "pplab-trace")
            throw InputError(
                "the file is JSON but not a pplab trace (no \"format\": \"pplab-trace\")");
        if (j.at("version").get<int>() != kFormatVersion)
            throw InputError("the trace file has format version " +
                             std::to_string(j.at("version").get<int>()) + "; this pplab reads " +
                             std::to_string(kFormatVersion));
        Trace t;
        const auto& c = j.at("config");
        Request& r = t.request;
        r.algorithm = find_algorithm(j.at("algorithm").get<std::string>()).algorithm;
        r.block = c.at("block").get<int>();
        r.grid = c.at("grid").get<int>();
        r.bins = c.at("bins").get<int>();
        r.options.inclusive = c.at("inclusive").get<bool>();
        r.options.skip_empty = c.at("skip_empty").get<bool>();
        r.options.order_seed = c.at("order_seed").get<std::uint64_t>();
        r.options.pitfall = find_pitfall(c.value("pitfall", std::string("none")));
        r.options.active_lanes = c.value("active_lanes", kWarpSize);
        r.input = j.at("input").get<std::vector<float>>();
        t.backend = j.at("backend").get<std::string>();
        t.device = j.at("device").get<std::string>();
        for (const auto& jf : j.at("frames")) {
            Frame f;
            f.step = find_step(jf.at("step").get<std::string>());
            f.pass = jf.at("pass").get<int>();
            f.level = jf.at("level").get<int>();
            f.block = jf.at("block").get<int>();
            f.warp = jf.at("warp").get<int>();
            f.buffer = find_buffer(jf.at("buffer").get<std::string>());
            f.values = values_of(jf.at("values"));
            t.frames.push_back(std::move(f));
        }
        t.result = values_of(j.at("result"));
        // A file may have been edited by hand: everything downstream relies on its shape.
        if (!(normalize(r) == r))
            throw InputError("the trace file's config is not one pplab would run as written "
                             "(a default left unfilled, or an option that does not apply)");
        check_frames(make_plan(r), t.frames);
        if (t.result.size() != result_size(r))
            throw InputError("the trace file's result has " + std::to_string(t.result.size()) +
                             " values; its request leaves " + std::to_string(result_size(r)));
        return t;
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        throw InputError(std::string("the trace file is missing a field or has one of the wrong "
                                     "type: ") +
                         e.what());
    }
}

} // namespace pplab
