#include "pplab/quote.hpp"

#include <cstdint>
#include <cstdio>

namespace pplab {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

// The length of the valid UTF-8 sequence at the start of `s` and its code point, or 0 when
// the first byte does not start one (a stray continuation byte, an overlong form, a
// surrogate, a sequence cut short).
std::size_t utf8_sequence(std::string_view s, char32_t& code) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char lead = byte(0);
    std::size_t length = 0;
    char32_t min = 0;
    if (lead < 0x80) {
        code = lead;
        return 1;
    }
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
        code = lead & 0x1Fu;
        min = 0x80;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        code = lead & 0x0Fu;
        min = 0x800;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        code = lead & 0x07u;
        min = 0x10000;
    } else {
        return 0;
    }
    if (s.size() < length)
        return 0;
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(i) & 0xC0u) != 0x80u)
            return 0;
        code = (code << 6) | (byte(i) & 0x3Fu);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
        return 0;
    return length;
}

// Code points a terminal acts on or that reorder what is shown: C0 and C1 controls, DEL,
// the byte order mark, line and paragraph separators, bidirectional embeddings and isolates.
bool needs_escape(char32_t c) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xFEFF || c == 0x2028 || c == 0x2029 ||
           (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

std::string escape(char32_t c) {
    switch (c) {
    case '\n':
        return "\\n";
    case '\r':
        return "\\r";
    case '\t':
        return "\\t";
    case 0:
        return "\\0";
    default:
        break;
    }
    char buf[16];
    if (c < 0x100)
        std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
    else
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
    return buf;
}

// Appends `text` escaped; stops after `max_chars` characters and says how much was left out.
void append_escaped(std::string& out, std::string_view text, std::size_t max_chars) {
    std::size_t chars = 0;
    std::size_t p = 0;
    while (p < text.size()) {
        if (chars == max_chars) {
            out += "... (" + std::to_string(text.size()) + " bytes in all)";
            return;
        }
        char32_t code = 0;
        const std::size_t length = utf8_sequence(text.substr(p), code);
        if (length == 0) {
            out += escape(static_cast<unsigned char>(text[p])); // a byte that is not UTF-8
            p += 1;
        } else {
            if (needs_escape(code))
                out += escape(code);
            else
                out.append(text.substr(p, length));
            p += length;
        }
        ++chars;
    }
}

} // namespace

std::string quote(std::string_view text, std::size_t max_chars) {
    std::string out = "'";
    append_escaped(out, text, max_chars);
    return out + "'";
}

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    append_escaped(out, text, text.size());
    return out;
}

std::string_view without_bom(std::string_view text) {
    return text.substr(0, kBom.size()) == kBom ? text.substr(kBom.size()) : text;
}

} // namespace pplab
