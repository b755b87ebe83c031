#include "pplab/timing.hpp"

#include "pplab/quote.hpp"
#include "trace/json_fields.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <sstream>

namespace pplab {

namespace {

constexpr int kTimingFormatVersion = 1;

using json_fields::kNoIndex;
using json_fields::Name;
using json_fields::Reader;

using json_fields::top;

TimingRow read_row(const Reader& in, const nlohmann::json& t, std::size_t k) {
    const auto name = [&](std::string_view key) { return Name{"rows", k, key}; };
    const auto field = [&](std::string_view key) -> const nlohmann::json& {
        return in.member(t, name(key));
    };
    TimingRow row;
    row.family = in.text(field("family"), name("family"), 32);
    if (row.family != "reduce" && row.family != "scan" && row.family != "histogram" &&
        row.family != "copy")
        in.fail(name("family"),
                "is " + quote(row.family) + ": it must be reduce, scan, histogram or copy");
    row.stage = in.text(field("stage"), name("stage"), 64);
    row.distribution = in.text(field("distribution"), name("distribution"), 64);
    // Up to 2^40 elements: far past any device's memory, and the 2^k labels stay exact.
    row.size = in.whole(field("size"), name("size"), 1, 1LL << 40);
    row.block = in.whole_int(field("block"), name("block"), 0, kMaxBlock);
    row.grid = in.whole_int(field("grid"), name("grid"), 0, std::numeric_limits<int>::max());
    row.ms = in.real(field("ms"), name("ms"), 0, 1e9);
    if (!(row.ms > 0))
        in.fail(name("ms"), "is 0: a timing row needs a time");
    row.bytes = in.real(field("bytes"), name("bytes"), 0, 1e18);
    row.gbps = in.real(field("gbps"), name("gbps"), 0, 1e9);
    row.pct_copy = in.real(field("pct_copy"), name("pct_copy"), 0, 1e9);
    row.vs_cub = in.real(field("vs_cub"), name("vs_cub"), 0, 1e9);
    row.validated = in.flag(field("validated"), name("validated"));
    return row;
}

// printf into a string of whatever length the values need.
[[gnu::format(printf, 1, 2)]] std::string printed(const char* format, ...) {
    std::va_list args, again;
    va_start(args, format);
    va_copy(again, args);
    const int length = std::vsnprintf(nullptr, 0, format, args);
    va_end(args);
    std::string out(static_cast<std::size_t>(std::max(length, 0)), '\0');
    std::vsnprintf(out.data(), out.size() + 1, format, again);
    va_end(again);
    return out;
}

std::string size_text(const TimingRow& r) {
    const int k = static_cast<int>(std::lround(std::log2(static_cast<double>(r.size))));
    if (r.size > 0 && (1LL << k) == r.size)
        return "2^" + std::to_string(k);
    return std::to_string(r.size);
}

} // namespace

std::string timing_to_json(const TimingReport& r) {
    nlohmann::ordered_json j;
    j["format"] = "pplab-timing";
    j["version"] = kTimingFormatVersion;
    j["device"] = r.device;
    j["date"] = r.date;
    j["sms"] = r.sms;
    j["l2_mib"] = r.l2_mib;
    j["runs"] = r.runs;
    j["warmups"] = r.warmups;
    j["copy_gbps"] = r.copy_gbps;
    j["method"] = "CUDA events around each run; median of the timed runs after warm-ups; inputs "
                  "rotate through four L2s of memory; bytes that must move: reduce n*4, scan "
                  "2*n*4, histogram n; CUB and cudaMemcpy timed in the same run";
    j["notes"] = r.notes;
    auto& rows = j["rows"] = nlohmann::ordered_json::array();
    for (const TimingRow& t : r.rows)
        rows.push_back({{"family", t.family},
                        {"stage", t.stage},
                        {"distribution", t.distribution},
                        {"size", t.size},
                        {"block", t.block},
                        {"grid", t.grid},
                        {"ms", t.ms},
                        {"bytes", t.bytes},
                        {"gbps", t.gbps},
                        {"pct_copy", t.pct_copy},
                        {"vs_cub", t.vs_cub},
                        {"validated", t.validated}});
    return j.dump(1) + "\n";
}

TimingReport timing_from_json(std::string_view text) {
    const Reader in("the timing file");
    const nlohmann::json j = json_fields::parse<nlohmann::json>(text, in);
    if (!j.is_object() || !j.contains("format") || j["format"] != "pplab-timing")
        throw InputError(
            "the file is JSON but not pplab timings (no \"format\": \"pplab-timing\")");
    const auto field = [&](std::string_view key) -> const nlohmann::json& {
        return in.member(j, top(key));
    };
    const int version =
        in.whole_int(field("version"), top("version"), 0, std::numeric_limits<int>::max());
    if (version != kTimingFormatVersion)
        throw InputError("the timing file has format version " + std::to_string(version) +
                         "; this pplab reads " + std::to_string(kTimingFormatVersion));
    TimingReport r;
    r.device = in.text(field("device"), top("device"), 256);
    r.date = in.text(field("date"), top("date"), 64);
    r.sms = in.whole_int(field("sms"), top("sms"), 1, 100000);
    r.l2_mib = in.real(field("l2_mib"), top("l2_mib"), 0, 1e6);
    r.runs = in.whole_int(field("runs"), top("runs"), 1, 1000000);
    r.warmups = in.whole_int(field("warmups"), top("warmups"), 0, 1000000);
    r.copy_gbps = in.real(field("copy_gbps"), top("copy_gbps"), 0, 1e9);
    const auto& notes = in.list(field("notes"), top("notes"));
    for (std::size_t i = 0; i < notes.size(); ++i)
        r.notes.push_back(in.text(notes[i], top("notes").at(i), 4096));
    const auto& rows = in.list(field("rows"), top("rows"));
    for (std::size_t k = 0; k < rows.size(); ++k)
        r.rows.push_back(read_row(in, rows[k], k));
    return r;
}

std::string timing_to_table(const TimingReport& r) {
    std::ostringstream o;
    // Names come from a file: escaped, and as long as they are (no fixed-size buffer).
    o << printed("%s, %d SMs, %.0f MiB L2, %s. Median of %d runs after %d warm-ups.\n"
                 "Copy roof (cudaMemcpy device to device, read + write, this run): %.0f GB/s\n",
                 printable(r.device).c_str(), r.sms, r.l2_mib, printable(r.date).c_str(), r.runs,
                 r.warmups, r.copy_gbps);
    std::string family, distribution;
    long long size = -1;
    for (const TimingRow& t : r.rows) {
        if (t.family == "copy")
            continue;
        if (t.family != family || t.distribution != distribution) {
            family = t.family;
            distribution = t.distribution;
            size = -1;
            o << "\n"
              << family << (distribution.empty() ? "" : " (" + printable(distribution) + " data)")
              << (family == "reduce" ? ", f32: bytes = n x 4"
                  : family == "scan" ? ", f32 exclusive: bytes = n x 4 read + n x 4 written"
                                     : ", 8-bit, 256 bins: bytes = n")
              << "\n";
            o << "  size   stage                     block    grid        ms     GB/s  %copy  "
                 "xCUB\n";
        }
        if (t.size != size && size >= 0)
            o << "\n";
        size = t.size;
        const std::string ratio = t.vs_cub > 0 ? printed("%5.2f", t.vs_cub) : std::string();
        o << printed("  %-6s %-24s %6s %7s %9.4f %8.0f %5.0f%% %5s\n", size_text(t).c_str(),
                     printable(t.stage).c_str(), t.block ? std::to_string(t.block).c_str() : "-",
                     t.grid ? std::to_string(t.grid).c_str() : "-", t.ms, t.gbps, t.pct_copy,
                     ratio.c_str());
    }
    if (!r.notes.empty()) {
        o << "\nNotes:\n";
        for (const std::string& n : r.notes)
            o << "  - " << printable(n) << "\n";
    }
    return o.str();
}

} // namespace pplab
