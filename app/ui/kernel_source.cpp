#include "kernel_source.hpp"

#include "pplab_ui_resources.hpp"

#include <algorithm>
#include <stdexcept>

namespace pplab::ui {

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
    const auto* r = resources::find(name);
    if (!r)
        throw std::logic_error("the kernel listing " + name + " was not embedded");
    return parse_listing(r->text());
}

} // namespace pplab::ui
