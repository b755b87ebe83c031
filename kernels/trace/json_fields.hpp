// Reading the fields of a JSON file that a user may have edited (a saved trace, saved
// timings): every number is range-checked before it is converted, so no out-of-range value
// reaches a C++ conversion, and every message names the file and the field
// ("the trace file's config.block is 5e+09: it must be a whole number from 1 to 1024").
#pragma once

#include "pplab/numbers.hpp"
#include "pplab/quote.hpp"
#include "pplab/request.hpp"

#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace pplab::json_fields {

inline constexpr std::size_t kNoIndex = static_cast<std::size_t>(-1);

// A field's name for messages, put together only when a message needs it:
// "config.block", "frames[12].level", "frames[3].values[5]", "rows[2].ms".
struct Name {
    std::string_view parent; // "config", "frames", or empty at the top level
    std::size_t index = kNoIndex;
    std::string_view key;
    std::size_t item = kNoIndex;

    std::string str() const {
        // Appended piece by piece: GCC 12's -Wrestrict misreads "[" + to_string(...) at -O2.
        std::string s(parent);
        const auto subscript = [&s](std::size_t i) {
            s.push_back('[');
            s.append(std::to_string(i));
            s.push_back(']');
        };
        if (index != kNoIndex)
            subscript(index);
        if (!key.empty()) {
            if (!s.empty())
                s.push_back('.');
            s.append(key);
        }
        if (item != kNoIndex)
            subscript(item);
        return s;
    }
    Name at(std::size_t i) const {
        Name n = *this;
        n.item = i;
        return n;
    }
};

// A field at the top level of the file.
inline Name top(std::string_view key) {
    return {{}, kNoIndex, key};
}

// What a JSON value is, for a message: its number, or its kind.
template <class Json>
std::string shown(const Json& v) {
    if (v.is_number() || v.is_boolean() || v.is_null())
        return v.dump();
    if (v.is_string())
        return "the text " + quote(v.template get_ref<const typename Json::string_t&>(), 30);
    return v.is_array() ? "a list" : "an object";
}

// Reads fields of one file, naming it in messages ("the trace file").
class Reader {
public:
    explicit Reader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const Name& name, const std::string& why) const {
        throw InputError(file_ + "'s " + name.str() + " " + why);
    }

    template <class Json>
    const Json& member(const Json& object, const Name& name) const {
        if (!object.is_object())
            throw InputError(
                file_ + "'s " +
                (name.parent.empty() ? "top level" : Name{name.parent, name.index, {}}.str()) +
                " is " + shown(object) + ", not an object");
        const auto it = object.find(name.key);
        if (it == object.end())
            throw InputError(file_ + " has no " + name.str());
        return *it;
    }

    template <class Json>
    long long whole(const Json& v, const Name& name, long long lo, long long hi) const {
        bool in_range = false;
        long long value = 0;
        if (v.is_number_unsigned()) {
            const auto u = v.template get<std::uint64_t>();
            in_range = u <= static_cast<std::uint64_t>(hi);
            value = in_range ? static_cast<long long>(u) : 0;
            in_range = in_range && value >= lo;
        } else if (v.is_number_integer()) {
            value = v.template get<std::int64_t>();
            in_range = value >= lo && value <= hi;
        } else if (v.is_number_float()) {
            const double d = static_cast<double>(v.template get<typename Json::number_float_t>());
            in_range = std::isfinite(d) && d == std::trunc(d) && d >= static_cast<double>(lo) &&
                       d <= static_cast<double>(hi);
            value = in_range ? static_cast<long long>(d) : 0;
        }
        if (!in_range)
            fail(name, "is " + shown(v) + ": it must be a whole number from " + std::to_string(lo) +
                           " to " + std::to_string(hi));
        return value;
    }

    template <class Json>
    int whole_int(const Json& v, const Name& name, int lo, int hi) const {
        return static_cast<int>(whole(v, name, lo, hi));
    }

    template <class Json>
    std::uint64_t seed(const Json& v, const Name& name) const {
        if (v.is_number_unsigned())
            return v.template get<std::uint64_t>();
        if (v.is_number_integer() && v.template get<std::int64_t>() >= 0)
            return static_cast<std::uint64_t>(v.template get<std::int64_t>());
        fail(name, "is " + shown(v) + ": it must be a whole number from 0 to 2^64 - 1");
    }

    template <class Json>
    double real(const Json& v, const Name& name, double lo, double hi) const {
        const double d =
            v.is_number() ? static_cast<double>(v.template get<double>()) : std::nan("");
        if (!(d >= lo && d <= hi))
            fail(name, "is " + shown(v) + ": it must be a number from " + number_text(lo) + " to " +
                           number_text(hi));
        return d;
    }

    // A value of a trace: fp32, or (where `allow_null`) null for a value the code leaves
    // undefined, read as NaN.
    template <class Json>
    float single(const Json& v, const Name& name, bool allow_null) const {
        if (v.is_null() && allow_null)
            return std::numeric_limits<float>::quiet_NaN();
        if (v.is_number_float()) {
            const double d = static_cast<double>(v.template get<typename Json::number_float_t>());
            if (std::fabs(d) <= std::numeric_limits<float>::max())
                return static_cast<float>(d);
            fail(name, "is " + shown(v) + ": too large for a float");
        }
        if (v.is_number_integer()) {
            // Whole numbers with at most 24 significant bits are exactly a float.
            const bool negative = !v.is_number_unsigned() && v.template get<std::int64_t>() < 0;
            const std::uint64_t magnitude =
                negative
                    ? std::uint64_t{0} - static_cast<std::uint64_t>(v.template get<std::int64_t>())
                    : v.template get<std::uint64_t>();
            if (magnitude == 0 || (magnitude >> std::countr_zero(magnitude)) < (1u << 24))
                return negative ? -static_cast<float>(magnitude) : static_cast<float>(magnitude);
            fail(name, "is " + shown(v) +
                           ", a whole number fp32 cannot hold: above 2^24 = 16777216 not every "
                           "one is a float");
        }
        fail(name, "is " + shown(v) + ": it must be a number" +
                       (allow_null ? " (or null for a value the code leaves undefined)" : ""));
    }

    template <class Json>
    std::string text(const Json& v, const Name& name, std::size_t max_bytes) const {
        if (!v.is_string())
            fail(name, "is " + shown(v) + ": it must be text");
        const auto& s = v.template get_ref<const typename Json::string_t&>();
        if (s.size() > max_bytes)
            fail(name, "is " + std::to_string(s.size()) + " bytes of text: at most " +
                           std::to_string(max_bytes) + " are expected");
        return s;
    }

    template <class Json>
    bool flag(const Json& v, const Name& name) const {
        if (!v.is_boolean())
            fail(name, "is " + shown(v) + ": it must be true or false");
        return v.template get<bool>();
    }

    template <class Json>
    const typename Json::array_t& list(const Json& v, const Name& name) const {
        if (!v.is_array())
            fail(name, "is " + shown(v) + ": it must be a list");
        return v.template get_ref<const typename Json::array_t&>();
    }

    const std::string& file() const { return file_; }

private:
    static std::string number_text(double d) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", d);
        return buf;
    }
    std::string file_;
};

// Parses `text`, saying what is wrong in the reader's words: "the trace file is not valid
// JSON: syntax error at line 3, column 7 ...", or names a number too large for its type.
template <class Json>
Json parse(std::string_view text, const Reader& reader) {
    try {
        return Json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::out_of_range& e) { // 406: a number past the type's range
        constexpr bool single = sizeof(typename Json::number_float_t) == sizeof(float);
        throw InputError(reader.file() + " holds a number too large for a " +
                         (single ? "float" : "double") + ": " +
                         printable(e.what() + std::string_view(e.what()).find("] ") + 2));
    } catch (const nlohmann::json::exception& e) {
        std::string why = e.what();
        // "[json.exception.parse_error.101] parse error at ...": the bracket is for programmers.
        if (const auto close = why.find("] ");
            why.rfind("[json.exception.", 0) == 0 && close != std::string::npos)
            why.erase(0, close + 2);
        throw InputError(reader.file() + " is not valid JSON: " + printable(why));
    }
}

// The numbers of a JSON text written with a fraction or an exponent, checked as a float
// would read them (float_from_text): a value that underflows to 0 or lands on another whole
// number is named with its line, before any is converted.
void check_float_texts(std::string_view text, const Reader& reader);

} // namespace pplab::json_fields
