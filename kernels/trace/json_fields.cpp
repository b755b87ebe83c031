#include "trace/json_fields.hpp"

namespace pplab::json_fields {

namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

bool in_number(char c) {
    return is_digit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

} // namespace

void check_float_texts(std::string_view text, const Reader& reader) {
    std::size_t line = 1;
    for (std::size_t p = 0; p < text.size(); ++p) {
        const char c = text[p];
        if (c == '\n') {
            ++line;
        } else if (c == '"') { // a string: skipped, escapes and all
            for (++p; p < text.size() && text[p] != '"'; ++p)
                if (text[p] == '\\')
                    ++p;
        } else if (c == '-' || is_digit(c)) {
            std::size_t end = p;
            bool fraction = false;
            for (; end < text.size() && in_number(text[end]); ++end)
                fraction = fraction || text[end] == '.' || text[end] == 'e' || text[end] == 'E';
            const std::string_view number = text.substr(p, end - p);
            if (fraction) {
                const FloatText f = float_from_text(number);
                if (!f.problem.empty())
                    throw InputError(reader.file() + ", line " + std::to_string(line) + ": " +
                                     quote(number) + " " + f.problem);
            }
            p = end - 1;
        }
    }
}

} // namespace pplab::json_fields
