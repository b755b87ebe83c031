#include "pplab/listing.hpp"

#include "pplab/io.hpp"
#include "pplab_kernels_resources.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <stdexcept>

namespace pplab {

namespace {

constexpr std::array<std::string_view, 4> kNotes = {"block-total", "warps", "halving", "arrival"};

bool is_word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool uses_word(std::string_view line, std::string_view word) {
    for (std::size_t at = line.find(word); at != std::string_view::npos;
         at = line.find(word, at + 1)) {
        const bool starts = at == 0 || !is_word_char(line[at - 1]);
        const std::size_t after = at + word.size();
        if (starts && (after == line.size() || !is_word_char(line[after])))
            return true;
    }
    return false;
}

// The text of a line without its comment, so "TILE" in prose does not count as a use.
std::string_view code_of(std::string_view line) {
    return line.substr(0, line.find("//"));
}

std::string trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t'))
        s.remove_suffix(1);
    return std::string(s);
}

// Whether a condition of a tag holds for these options.
bool condition_on(std::string_view id, const Options& o) {
    if (id == "inclusive")
        return o.inclusive;
    if (id == "no-skip-empty")
        return !o.skip_empty;
    try {
        return o.pitfall == find_pitfall(id);
    } catch (const InputError&) {
        throw std::logic_error("a listing names the unknown condition '" + std::string(id) + "'");
    }
}

// One line of a listing file, its tags read.
struct TaggedLine {
    std::string text;
    std::vector<Step> steps;
    std::vector<std::string> only, unless;
    bool added = false;
    std::string note;
};

TaggedLine read_tags(std::string_view raw) {
    TaggedLine out;
    std::string line(raw);
    if (const std::size_t tag = line.rfind("// @"); tag != std::string::npos) {
        const std::string tags = line.substr(tag + 4);
        line.erase(tag);
        for (std::size_t p = 0; p <= tags.size();) {
            const std::size_t comma = std::min(tags.find(',', p), tags.size());
            const std::string token = trim(std::string_view(tags).substr(p, comma - p));
            p = comma + 1;
            if (token.empty())
                continue;
            if (token.rfind("only:", 0) == 0) {
                out.only.push_back(token.substr(5));
            } else if (token.rfind("unless:", 0) == 0) {
                out.unless.push_back(token.substr(7));
            } else if (token == "added") {
                out.added = true;
            } else if (token.rfind("note:", 0) == 0) {
                out.note = token.substr(5);
                if (!is_listing_note(out.note))
                    throw std::logic_error("a listing names the unknown note '" + out.note + "'");
            } else {
                try {
                    out.steps.push_back(find_step(token));
                } catch (const InputError&) {
                    throw std::logic_error("a listing tags a line with '" + token +
                                           "', which is no step, condition or note");
                }
            }
        }
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r'))
        line.pop_back();
    out.text = std::move(line);
    return out;
}

// Calls fn(tagged line, inside a chapter region) for each line of code, and directive(kind,
// argument) for each //@ line.
template <class Line, class Directive>
void for_each_line(std::string_view text, Line line, Directive directive) {
    bool in_region = false;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view raw = text.substr(start, end - start);
        const std::string trimmed = trim(raw);
        if (trimmed.rfind("//@", 0) == 0) {
            const std::string body = trimmed.substr(3);
            const std::size_t space = std::min(body.find(' '), body.size());
            const std::string kind = body.substr(0, space);
            const std::string argument = trim(std::string_view(body).substr(space));
            if (kind == "chapter") {
                if (in_region)
                    throw std::logic_error("a listing opens a chapter region inside another");
                in_region = true;
            } else if (kind == "end-chapter") {
                if (!in_region)
                    throw std::logic_error("a listing closes a chapter region it never opened");
                in_region = false;
            } else if (kind != "about") {
                throw std::logic_error("a listing has the unknown directive //@" + kind);
            }
            directive(kind, argument);
        } else {
            line(read_tags(raw), in_region);
        }
        if (end == text.size())
            break;
        start = end + 1;
    }
    if (in_region)
        throw std::logic_error("a listing leaves a chapter region open");
}

struct Constant {
    std::string_view name;
    std::string value;
    std::string_view why; // the comment beside a #define the listing lacks
    bool derived = false; // defined from TILE where the listing defines it: keep its formula
};

// Sets the launch's value in the listing's own #define of a constant; whether it had one.
bool set_defined_value(Listing& l, const Constant& c) {
    const std::string directive = "#define " + std::string(c.name) + " ";
    bool defined = false;
    for (std::size_t i = 0; i < l.lines.size(); ++i) {
        std::string& line = l.lines[i];
        if (line.rfind(directive, 0) != 0)
            continue;
        defined = true;
        if (c.derived)
            continue;
        // Keep the chapter's comment in its column: replace the value only.
        const std::size_t value_at = directive.size();
        const std::size_t comment = line.find("//", value_at);
        const std::string old_value = trim(std::string_view(line).substr(
            value_at, comment == std::string::npos ? std::string::npos : comment - value_at));
        if (old_value == c.value)
            continue;
        std::string value = c.value;
        if (comment != std::string::npos) {
            value.resize(std::max(comment - value_at, value.size() + 1), ' ');
            line = line.substr(0, value_at) + value + line.substr(comment);
        } else {
            line = line.substr(0, value_at) + value;
        }
        l.origin[i] = LineOrigin::Changed;
    }
    return defined;
}

bool listing_uses(const Listing& l, std::string_view name) {
    return std::any_of(l.lines.begin(), l.lines.end(),
                       [&](const std::string& line) { return uses_word(code_of(line), name); });
}

// Inserts lines on top of the listing, as pplab's changes with no step.
void insert_on_top(Listing& l, const std::vector<std::string>& lines) {
    const auto count = static_cast<std::ptrdiff_t>(lines.size());
    l.lines.insert(l.lines.begin(), lines.begin(), lines.end());
    l.steps.insert(l.steps.begin(), lines.size(), {});
    l.origin.insert(l.origin.begin(), lines.size(), LineOrigin::Changed);
    l.note.insert(l.note.begin(), lines.size(), std::string());
    for (Listing::Removed& r : l.removed)
        r.before += static_cast<std::size_t>(count);
}

int log2_floor(int x) {
    return std::bit_width(static_cast<unsigned>(x)) - 1;
}

const Frame* find_frame(const Trace& t, Step step, int level) {
    for (const Frame& f : t.frames)
        if (f.pass == 0 && f.step == step && f.level == level && f.block <= 0)
            return &f;
    return nullptr;
}

std::string block_total_note(const Trace& t) {
    const int block = t.request.block;
    const int levels = log2_floor(block);
    const Frame* after =
        levels > 0 ? find_frame(t, Step::Downsweep, levels - 1) : find_frame(t, Step::ClearRoot, 0);
    const Frame* root =
        levels > 0 ? find_frame(t, Step::Upsweep, levels - 1) : find_frame(t, Step::Load, 0);
    if (!after || !root)
        return {};
    const auto last = static_cast<std::size_t>(block - 1);
    const std::string slot = "s[" + std::to_string(block - 1) + "]";
    // Where the total is kept, the listing shows the line that keeps it: the multi-block
    // scan's carries need it, and --inclusive's shift; the exclusive scanBlelloch does not.
    const bool kept =
        t.request.algorithm == Algorithm::ScanMultiblock || t.request.options.inclusive;
    return "pplab: after the downsweep " + slot + " holds " + format_value(after->values[last]) +
           ", the sum of the first " + std::to_string(block - 1) +
           " elements, not the block total. The total, " + format_value(root->values[last]) +
           ", was the upsweep's root, which clear-root overwrote" +
           (kept ? "; pplab keeps it in s[" + std::to_string(block) + "] where it is needed."
                 : ".");
}

std::string halving_note(const Request& r) {
    const int block = r.block;
    if (std::has_single_bit(static_cast<unsigned>(block)))
        return {};
    // Which slots reach s[0] through the halving loop.
    std::vector<std::vector<int>> held(static_cast<std::size_t>(block));
    for (int slot = 0; slot < block; ++slot)
        held[static_cast<std::size_t>(slot)] = {slot};
    std::string strides;
    for (int stride = block / 2; stride > 0; stride >>= 1) {
        strides += (strides.empty() ? "" : ", ") + std::to_string(stride);
        for (int slot = 0; slot < stride; ++slot)
            for (const int k : held[static_cast<std::size_t>(slot + stride)])
                held[static_cast<std::size_t>(slot)].push_back(k);
    }
    std::vector<bool> reaches(static_cast<std::size_t>(block), false);
    for (const int k : held[0])
        reaches[static_cast<std::size_t>(k)] = true;
    std::string lost;
    for (int slot = 0; slot < block; ++slot)
        if (!reaches[static_cast<std::size_t>(slot)])
            lost += (lost.empty() ? "s[" : ", s[") + std::to_string(slot) + "]";
    return "pplab: TILE = " + std::to_string(block) + " is not a power of two: stride takes " +
           strides + ", and " + lost + " never reach s[0]";
}

std::string warps_note(const Request& r) {
    const int warps = r.block / kWarpSize;
    if (warps == 8)
        return {};
    return "pplab: TILE = " + std::to_string(r.block) +
           " in this launch: " + std::to_string(warps) + (warps == 1 ? " warp" : " warps") +
           " per block, where the chapter's comments say 8";
}

std::string arrival_note(const Trace& t) {
    if (const std::string by = seeded_order_by(t); !by.empty())
        return "pplab: on " + by + " the blocks arrive in an order chosen with seed " +
               std::to_string(t.request.options.order_seed) + " (--order-seed)";
    return "pplab: on " + t.device + " the blocks arrived in the hardware's order";
}

} // namespace

bool Listing::runs(std::size_t line, Step s) const {
    return line < steps.size() &&
           std::find(steps[line].begin(), steps[line].end(), s) != steps[line].end();
}

std::string Listing::source() const {
    std::string out;
    for (const std::string& line : lines)
        out += line + "\n";
    return out;
}

Listing parse_listing(std::string_view text, const Options& options) {
    Listing out;
    for_each_line(
        text,
        [&](TaggedLine line, bool in_region) {
            const bool only_on = std::all_of(line.only.begin(), line.only.end(),
                                             [&](auto& c) { return condition_on(c, options); });
            const bool removed = std::any_of(line.unless.begin(), line.unless.end(),
                                             [&](auto& c) { return condition_on(c, options); });
            if (!only_on)
                return;
            if (removed) {
                out.removed.push_back({out.lines.size(), std::move(line.text)});
                return;
            }
            out.origin.push_back(line.added || !line.only.empty() ? LineOrigin::Changed
                                 : in_region                      ? LineOrigin::Chapter
                                                                  : LineOrigin::Pplab);
            out.lines.push_back(std::move(line.text));
            out.steps.push_back(std::move(line.steps));
            out.note.push_back(std::move(line.note));
        },
        [&](const std::string& kind, const std::string& argument) {
            if (kind == "about")
                out.about += (out.about.empty() ? "" : " ") + argument;
        });
    while (!out.lines.empty() && out.lines.back().empty()) {
        out.lines.pop_back();
        out.steps.pop_back();
        out.origin.pop_back();
        out.note.pop_back();
    }
    return out;
}

std::vector<ChapterRegion> chapter_regions(std::string_view text) {
    std::vector<ChapterRegion> out;
    for_each_line(
        text,
        [&](const TaggedLine& line, bool in_region) {
            if (in_region && !line.added && line.only.empty())
                out.back().lines.push_back(line.text);
        },
        [&](const std::string& kind, const std::string& argument) {
            if (kind != "chapter")
                return;
            ChapterRegion r;
            const std::size_t space = std::min(argument.find(' '), argument.size());
            r.snippet = argument.substr(0, space);
            const std::string rest = trim(std::string_view(argument).substr(space));
            if (!rest.empty() && rest != "part")
                throw std::logic_error("a chapter region is whole or 'part', not '" + rest + "'");
            r.whole = rest.empty();
            out.push_back(std::move(r));
        });
    return out;
}

std::string_view listing_text(Algorithm a) {
    const std::string name = std::string(info(a).id) + ".cu";
    const auto* r = listings::find(name);
    if (!r)
        throw std::logic_error("the kernel listing " + name + " was not embedded");
    return r->text();
}

Listing listing(Algorithm a) {
    return parse_listing(listing_text(a));
}

Listing listing(const Request& r) {
    Listing out = parse_listing(listing_text(r.algorithm), r.options);
    const std::array<Constant, 4> constants{{
        {"TILE", std::to_string(r.block), "threads per block in this launch"},
        {"WARPS", std::to_string(r.block / kWarpSize), "warps per block", true},
        {"BINS", std::to_string(r.bins), "bins in this launch"},
        {"ACTIVE_LANES", std::to_string(r.options.active_lanes),
         "lanes of each warp that call warpReduce"},
    }};
    std::vector<std::string> missing;
    for (const Constant& c : constants)
        if (!set_defined_value(out, c) && listing_uses(out, c.name))
            missing.push_back("#define " + std::string(c.name) + " " + c.value +
                              "   // pplab: " + std::string(c.why));
    if (!missing.empty())
        insert_on_top(out, missing);
    return out;
}

std::string launch_note(std::string_view id, const Request& r) {
    if (id == "halving")
        return halving_note(r);
    if (id == "warps")
        return warps_note(r);
    return {};
}

std::string source_with_launch_notes(const Listing& l, const Request& r) {
    std::string out;
    for (std::size_t i = 0; i < l.lines.size(); ++i) {
        // Above its line, at its indent: never between a loop's header and its body.
        const std::string note =
            i < l.note.size() && !l.note[i].empty() ? launch_note(l.note[i], r) : "";
        if (!note.empty())
            out += l.lines[i].substr(0, l.lines[i].find_first_not_of(' ')) + "// " + note + "\n";
        out += l.lines[i] + "\n";
    }
    return out;
}

bool is_listing_note(std::string_view id) {
    return std::find(kNotes.begin(), kNotes.end(), id) != kNotes.end();
}

std::string listing_note(std::string_view id, const Trace& t) {
    if (id == "block-total")
        return block_total_note(t);
    if (const std::string note = launch_note(id, t.request); !note.empty())
        return note;
    if (id == "halving" || id == "warps")
        return {};
    if (id == "arrival")
        return arrival_note(t);
    throw std::logic_error("no listing note is called '" + std::string(id) + "'");
}

} // namespace pplab
