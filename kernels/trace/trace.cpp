#include "pplab/trace.hpp"
#include "pplab/quote.hpp"

#include <array>
#include <cstring>
#include <string>

namespace pplab {

namespace {

// Indexed by the enum's value; the record format fixes the values.
constexpr std::array<std::string_view, record::kStepCount> kStepIds{
    "serial-add",      "load",        "accumulate",    "tree-level",
    "shuffle",         "warp-totals", "final-shuffle", "block-total",
    "atomic-add",      "upsweep",     "clear-root",    "downsweep",
    "inclusive-shift", "add-carries", "hillis-steele", "hist-zero",
    "hist-accumulate", "hist-merge",  "hist-fold",     "tile-publish",
    "look-back"};

constexpr std::array<std::string_view, record::kBufferCount> kBufferIds{
    "shared", "registers", "lanes", "private-hist", "global"};

} // namespace

std::string_view step_id(Step s) {
    return kStepIds.at(static_cast<std::size_t>(s));
}
std::string_view buffer_id(Buffer b) {
    return kBufferIds.at(static_cast<std::size_t>(b));
}

Step find_step(std::string_view id) {
    for (std::size_t i = 0; i < kStepIds.size(); ++i)
        if (kStepIds[i] == id)
            return static_cast<Step>(i);
    throw InputError("unknown step " + quote(id));
}

Buffer find_buffer(std::string_view id) {
    for (std::size_t i = 0; i < kBufferIds.size(); ++i)
        if (kBufferIds[i] == id)
            return static_cast<Buffer>(i);
    throw InputError("unknown buffer " + quote(id));
}

bool Frame::operator==(const Frame& o) const {
    return step == o.step && pass == o.pass && level == o.level && block == o.block &&
           warp == o.warp && buffer == o.buffer && values.size() == o.values.size() &&
           (values.empty() ||
            std::memcmp(values.data(), o.values.data(), values.size() * sizeof(float)) == 0);
}

bool Trace::same_recording(const Trace& o) const {
    return request == o.request && frames == o.frames && result.size() == o.result.size() &&
           (result.empty() ||
            std::memcmp(result.data(), o.result.data(), result.size() * sizeof(float)) == 0);
}

std::string seeded_order_by(const Trace& t) {
    return t.backend == "cpu" ? "the CPU model" : t.backend == "sim" ? "the simulator" : "";
}

bool step_has_levels(Step s) {
    switch (s) {
    case Step::SerialAdd:
    case Step::Accumulate:
    case Step::TreeLevel:
    case Step::Shuffle:
    case Step::FinalShuffle:
    case Step::AtomicAdd:
    case Step::Upsweep:
    case Step::Downsweep:
    case Step::HillisSteele:
    case Step::HistAccumulate:
        return true;
    default:
        return false;
    }
}

LabelParts label_parts(const Trace& t) {
    LabelParts p;
    if (t.frames.empty())
        return p;
    const Frame& f0 = t.frames.front();
    for (const Frame& f : t.frames) {
        p.pass |= f.pass != f0.pass;
        p.block |= f.block != f0.block;
        p.warp |= f.warp != f0.warp;
    }
    return p;
}

std::string frame_label(const Frame& f, LabelParts parts) {
    std::string s;
    const auto add = [&s](const std::string& part) {
        if (!s.empty())
            s += ' ';
        s += part;
    };
    if (parts.pass)
        add("pass " + std::to_string(f.pass));
    if (parts.block && f.block >= 0)
        add("block " + std::to_string(f.block));
    if (parts.warp && f.warp >= 0)
        add("warp " + std::to_string(f.warp));
    add(std::string(step_id(f.step)));
    if (step_has_levels(f.step))
        add(std::to_string(f.level));
    return s;
}

} // namespace pplab
