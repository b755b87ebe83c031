#include "pplab/timing.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <sstream>

namespace pplab {

namespace {

constexpr int kTimingFormatVersion = 1;

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
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text.begin(), text.end());
    } catch (const std::exception& e) {
        throw InputError(std::string("the timing file is not valid JSON: ") + e.what());
    }
    try {
        if (j.value("format", std::string()) != "pplab-timing")
            throw InputError(
                "the file is JSON but not pplab timings (no \"format\": \"pplab-timing\")");
        if (j.at("version").get<int>() != kTimingFormatVersion)
            throw InputError("the timing file has format version " +
                             std::to_string(j.at("version").get<int>()));
        TimingReport r;
        r.device = j.at("device").get<std::string>();
        r.date = j.at("date").get<std::string>();
        r.sms = j.at("sms").get<int>();
        r.l2_mib = j.at("l2_mib").get<double>();
        r.runs = j.at("runs").get<int>();
        r.warmups = j.at("warmups").get<int>();
        r.copy_gbps = j.at("copy_gbps").get<double>();
        r.notes = j.at("notes").get<std::vector<std::string>>();
        for (const auto& t : j.at("rows")) {
            TimingRow row;
            row.family = t.at("family").get<std::string>();
            row.stage = t.at("stage").get<std::string>();
            row.distribution = t.at("distribution").get<std::string>();
            row.size = t.at("size").get<long long>();
            row.block = t.at("block").get<int>();
            row.grid = t.at("grid").get<int>();
            row.ms = t.at("ms").get<double>();
            row.bytes = t.at("bytes").get<double>();
            row.gbps = t.at("gbps").get<double>();
            row.pct_copy = t.at("pct_copy").get<double>();
            row.vs_cub = t.at("vs_cub").get<double>();
            row.validated = t.at("validated").get<bool>();
            if (!(row.ms > 0) || row.size <= 0)
                throw InputError("a timing row has no time or no size");
            r.rows.push_back(std::move(row));
        }
        return r;
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        throw InputError(std::string("the timing file is missing a field or has one of the wrong "
                                     "type: ") +
                         e.what());
    }
}

std::string timing_to_table(const TimingReport& r) {
    std::ostringstream o;
    char line[200];
    std::snprintf(line, sizeof line,
                  "%s, %d SMs, %.0f MiB L2, %s. Median of %d runs after %d warm-ups.\n"
                  "Copy roof (cudaMemcpy device to device, read + write, this run): %.0f GB/s\n",
                  r.device.c_str(), r.sms, r.l2_mib, r.date.c_str(), r.runs, r.warmups,
                  r.copy_gbps);
    o << line;
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
              << family << (distribution.empty() ? "" : " (" + distribution + " data)")
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
        char ratio[16] = "";
        if (t.vs_cub > 0)
            std::snprintf(ratio, sizeof ratio, "%5.2f", t.vs_cub);
        std::snprintf(
            line, sizeof line, "  %-6s %-24s %6s %7s %9.4f %8.0f %5.0f%% %5s\n",
            size_text(t).c_str(), t.stage.c_str(), t.block ? std::to_string(t.block).c_str() : "-",
            t.grid ? std::to_string(t.grid).c_str() : "-", t.ms, t.gbps, t.pct_copy, ratio);
        o << line;
    }
    if (!r.notes.empty()) {
        o << "\nNotes:\n";
        for (const std::string& n : r.notes)
            o << "  - " << n << "\n";
    }
    return o.str();
}

} // namespace pplab
