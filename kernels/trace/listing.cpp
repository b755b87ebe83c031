#include "pplab/listing.hpp"

#include "pplab_kernels_resources.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

namespace pplab {

bool Listing::runs(std::size_t line, Step s) const {
    return line < steps.size() &&
           std::find(steps[line].begin(), steps[line].end(), s) != steps[line].end();
}

Listing parse_listing(std::string_view text) {
    Listing out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string line(text.substr(start, end - start));
        std::vector<Step> steps;
        if (const std::size_t tag = line.rfind("// @"); tag != std::string::npos) {
            std::string ids = line.substr(tag + 4);
            line.erase(tag);
            for (std::size_t p = 0; p <= ids.size();) {
                const std::size_t comma = std::min(ids.find(',', p), ids.size());
                std::string id = ids.substr(p, comma - p);
                id.erase(std::remove(id.begin(), id.end(), ' '), id.end());
                if (!id.empty())
                    steps.push_back(find_step(id));
                p = comma + 1;
            }
        }
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r'))
            line.pop_back();
        out.lines.push_back(std::move(line));
        out.steps.push_back(std::move(steps));
        if (end == text.size())
            break;
        start = end + 1;
    }
    while (!out.lines.empty() && out.lines.back().empty()) {
        out.lines.pop_back();
        out.steps.pop_back();
    }
    return out;
}

Listing listing(Algorithm a) {
    const std::string name = std::string(info(a).id) + ".cu";
    const auto* r = listings::find(name);
    if (!r)
        throw std::logic_error("the kernel listing " + name + " was not embedded");
    return parse_listing(r->text());
}

namespace {

bool is_word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool uses_word(const std::string& line, std::string_view word) {
    for (std::size_t at = line.find(word); at != std::string::npos; at = line.find(word, at + 1)) {
        const bool starts = at == 0 || !is_word_char(line[at - 1]);
        const std::size_t after = at + word.size();
        if (starts && (after == line.size() || !is_word_char(line[after])))
            return true;
    }
    return false;
}

// The text of a line without its comment, so "TILE" in prose does not count as a use.
std::string code_of(const std::string& line) {
    return line.substr(0, line.find("//"));
}

struct Constant {
    std::string_view name;
    std::string value;
    std::string_view why; // the comment beside a #define the listing lacks
    bool derived = false; // defined from TILE where the listing defines it: keep its formula
};

} // namespace

Listing listing(const Request& r) {
    Listing out = listing(r.algorithm);
    const std::array<Constant, 3> constants{{
        {"TILE", std::to_string(r.block), "threads per block in this launch"},
        {"WARPS", std::to_string(r.block / kWarpSize), "warps per block", true},
        {"BINS", std::to_string(r.bins), "bins in this launch"},
    }};
    std::vector<std::string> missing;
    for (const Constant& c : constants) {
        const std::string directive = "#define " + std::string(c.name) + " ";
        bool used = false;
        bool defined = false;
        for (std::string& line : out.lines) {
            if (line.rfind(directive, 0) == 0) {
                defined = true;
                if (c.derived)
                    continue;
                // Keep the chapter's comment in its column: replace the value only.
                const std::size_t value_at = directive.size();
                const std::size_t comment = line.find("//", value_at);
                std::string value = c.value;
                if (comment != std::string::npos) {
                    const std::size_t room = comment - value_at;
                    value.resize(std::max(room, value.size() + 1), ' ');
                    line = line.substr(0, value_at) + value + line.substr(comment);
                } else {
                    line = line.substr(0, value_at) + value;
                }
            } else if (uses_word(code_of(line), c.name)) {
                used = true;
            }
        }
        if (used && !defined)
            missing.push_back(directive + c.value + "   // " + std::string(c.why));
    }
    if (missing.empty())
        return out;
    // Above the first line of code, below the listing's opening comment.
    std::size_t at = 0;
    while (at < out.lines.size() && out.lines[at].rfind("//", 0) == 0)
        ++at;
    missing.push_back("");
    out.lines.insert(out.lines.begin() + static_cast<std::ptrdiff_t>(at), missing.begin(),
                     missing.end());
    out.steps.insert(out.steps.begin() + static_cast<std::ptrdiff_t>(at), missing.size(), {});
    return out;
}

} // namespace pplab
