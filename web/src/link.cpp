#include "link.hpp"

#include "pplab/request.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <functional>
#include <map>

namespace pplab::web {

namespace {

// "%2C" -> ",", "+" -> " ": what a browser does to a query's characters.
std::string decoded(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        int hex = 0;
        if (c == '%' && i + 2 < text.size() &&
            std::from_chars(text.data() + i + 1, text.data() + i + 3, hex, 16).ptr ==
                text.data() + i + 3) {
            out += static_cast<char>(hex);
            i += 2;
        } else {
            out += c == '+' ? ' ' : c;
        }
    }
    return out;
}

template <typename Number>
Number whole_number(const std::string& name, const std::string& text, Number low, Number high) {
    Number v{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
        throw InputError("the address's " + name + "=" + text + " is not a whole number");
    if (v < low || v > high)
        throw InputError("the address's " + name + "=" + text + " is out of range: " + name +
                         " is " + std::to_string(low) + " to " + std::to_string(high));
    return v;
}

bool yes_no(const std::string& name, const std::string& text) {
    if (text.empty() || text == "1" || text == "true" || text == "yes")
        return true;
    if (text == "0" || text == "false" || text == "no")
        return false;
    throw InputError("the address's " + name + "=" + text + " is neither true nor false");
}

using Reader = std::function<void(Link&, const std::string& name, const std::string& value)>;

// Each parameter and what it sets; limits as the command line's and the window's.
const std::map<std::string, Reader, std::less<>>& readers() {
    static const std::map<std::string, Reader, std::less<>> table = {
        {"algo",
         [](Link& l, const std::string&, const std::string& v) {
             l.settings = ui::switch_algorithm(l.settings, find_algorithm(v).algorithm);
         }},
        {"input",
         [](Link& l, const std::string&, const std::string& v) {
             l.settings.input = ui::InputMode::List;
             l.settings.list = v; // read by the tracer, with the window's messages
         }},
        {"n",
         [](Link& l, const std::string& k, const std::string& v) {
             l.settings.input = ui::InputMode::Generator;
             l.settings.n = whole_number(k, v, 1, ui::kMaxN);
         }},
        {"gen",
         [](Link& l, const std::string&, const std::string& v) {
             l.settings.input = ui::InputMode::Generator;
             l.settings.generator = find_generator(v);
         }},
        {"seed",
         [](Link& l, const std::string& k, const std::string& v) {
             l.settings.seed = whole_number<std::uint64_t>(k, v, 0, UINT64_MAX);
         }},
        {"block",
         [](Link& l, const std::string& k, const std::string& v) {
             l.settings.block = whole_number(k, v, 1, kMaxBlock);
         }},
        {"grid", [](Link& l, const std::string& k,
                    const std::string& v) { l.settings.grid = whole_number(k, v, 1, 65535); }},
        {"bins", [](Link& l, const std::string& k,
                    const std::string& v) { l.settings.bins = whole_number(k, v, 1, 65536); }},
        {"inclusive", [](Link& l, const std::string& k,
                         const std::string& v) { l.settings.inclusive = yes_no(k, v); }},
        {"no-skip-empty", [](Link& l, const std::string& k,
                             const std::string& v) { l.settings.skip_empty = !yes_no(k, v); }},
        {"order-seed",
         [](Link& l, const std::string& k, const std::string& v) {
             l.settings.order_seed = whole_number<std::uint64_t>(k, v, 0, UINT64_MAX);
         }},
        {"pitfall", [](Link& l, const std::string&,
                       const std::string& v) { l.settings.pitfall = find_pitfall(v); }},
        {"active-lanes",
         [](Link& l, const std::string& k, const std::string& v) {
             l.settings.active_lanes = whole_number(k, v, 1, kWarpSize);
         }},
        {"step", [](Link& l, const std::string& k,
                    const std::string& v) { l.step = whole_number(k, v, 1, INT32_MAX); }},
        {"shown-block", [](Link& l, const std::string& k,
                           const std::string& v) { l.shown_block = whole_number(k, v, 0, 65535); }},
        {"size",
         [](Link& l, const std::string&, const std::string& v) {
             const std::size_t x = v.find_first_of("xX");
             if (x == std::string::npos)
                 throw InputError("the address's size=" + v +
                                  " is not WIDTHxHEIGHT in pixels, e.g. 1600x1000");
             // Each side named in the words of the whole ("size=9000 is out of range" said
             // neither which side nor the value asked for).
             const auto side = [&](const std::string& text, const char* which) {
                 try {
                     return whole_number("size", text, 64, 8192);
                 } catch (const InputError&) {
                     throw InputError("the address's size=" + v + " has a " + which + " of " +
                                      text + ": each side is 64 to 8192 pixels");
                 }
             };
             l.width = side(v.substr(0, x), "width");
             l.height = side(v.substr(x + 1), "height");
         }},
        {"view",
         [](Link& l, const std::string&, const std::string& v) {
             if (v != "window" && v != "picture")
                 throw InputError("the address's view=" + v + " is neither window nor picture");
             l.picture = v == "picture";
         }},
        {"width", [](Link& l, const std::string& k,
                     const std::string& v) { l.width = whole_number(k, v, 64, 8192); }},
        {"height", [](Link& l, const std::string& k,
                      const std::string& v) { l.height = whole_number(k, v, 64, 8192); }},
        {"theme",
         [](Link& l, const std::string&, const std::string& v) {
             if (v != "light" && v != "dark")
                 throw InputError("the address's theme=" + v + " is neither light nor dark");
             l.theme = v == "dark" ? scene::Theme::Dark : scene::Theme::Light;
         }},
        {"camera",
         [](Link& l, const std::string&, const std::string& v) {
             if (v != "follow" && v != "fit")
                 throw InputError("the address's camera=" + v + " is neither follow nor fit");
             l.fit = v == "fit";
         }},
        {"tab",
         [](Link& l, const std::string&, const std::string& v) {
             if (v != "source" && v != "classroom" && v != "your-kernel")
                 throw InputError("the address's tab=" + v +
                                  " is none of source, classroom and your-kernel");
             l.tab = v == "classroom"     ? Tab::Classroom
                     : v == "your-kernel" ? Tab::YourKernel
                                          : Tab::Source;
         }},
        {"scale",
         [](Link& l, const std::string& k, const std::string& v) {
             l.scale_percent = whole_number(k, v, 75, 300); // the window's own range
         }},
    };
    return table;
}

} // namespace

Link read_link(std::string_view query, const ui::Settings& defaults) {
    Link link;
    link.settings = defaults;
    if (query.starts_with('?'))
        query.remove_prefix(1);
    // The algorithm first, whatever the order: switching it resets what it does not take.
    std::vector<std::pair<std::string, std::string>> params;
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view part = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        if (part.empty())
            continue;
        const std::size_t eq = part.find('=');
        std::pair<std::string, std::string> p{
            decoded(part.substr(0, eq)),
            eq == std::string_view::npos ? std::string() : decoded(part.substr(eq + 1))};
        if (p.first == "algo")
            params.insert(params.begin(), std::move(p));
        else
            params.push_back(std::move(p));
    }
    // A picture starts where `pplab render` starts (the chapter's block of 256, 256 bins), not
    // where the window does (a block of 8, 16 bins): a link without them drew another picture.
    const bool picture = std::any_of(params.begin(), params.end(), [](const auto& p) {
        return p.first == "view" && p.second == "picture";
    });
    if (picture) {
        link.settings.block = 0; // the algorithm's default, as the command line's
        link.settings.bins = 256;
    }
    const auto& table = readers();
    for (const auto& [name, value] : params) {
        const auto reader = table.find(name);
        if (name == "frame") { // the issue's own example: the transport counts steps
            link.errors.push_back("the address asks for 'frame': a link names a step as the "
                                  "window's transport counts them, step=" +
                                  (value.empty() ? std::string("N") : value));
            continue;
        }
        if (reader == table.end()) {
            std::string known;
            for (const auto& entry : table)
                known += (known.empty() ? "" : ", ") + entry.first;
            link.errors.push_back("the address asks for '" + name +
                                  "', which the page does not know; it reads " + known);
            continue;
        }
        try {
            reader->second(link, name, value);
        } catch (const InputError& e) {
            link.errors.push_back(e.what());
        }
    }
    return link;
}

} // namespace pplab::web
