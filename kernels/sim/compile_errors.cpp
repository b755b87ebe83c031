// The compiler's errors, read back (see compile_errors.hpp).
#include "compile_errors.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <regex>
#include <sstream>

namespace pplab::sim {

namespace {

std::vector<std::string> lines_of(std::string_view source) {
    std::vector<std::string> lines;
    std::istringstream in{std::string(source)};
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// The line as written, "" past the end.
std::string line_at(const std::vector<std::string>& lines, int line) {
    return line >= 1 && line <= static_cast<int>(lines.size())
               ? lines[static_cast<std::size_t>(line - 1)]
               : "";
}

// A line with code on it: not blank, not only a comment.
bool has_code(const std::string& line) {
    const auto first = line.find_first_not_of(" \t\r");
    return first != std::string::npos && line.compare(first, 2, "//") != 0;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// The column in the student's line of column `column` in the compiled line: the pre-processor
// wrote `s.at(19)[i]` for `s[i]` and ptr<const float> for const float*, so the compiler's columns
// run ahead. The two lines are aligned character by character (their longest common
// subsequence); a column on an inserted character, or past the end, is placed just after the
// student's character before it.
int student_column(const std::string& compiled, const std::string& student, int column) {
    const std::size_t a = compiled.size(), b = student.size();
    const auto target = static_cast<std::size_t>(std::max(column, 1) - 1);
    if (a * b > (1u << 22)) // a line of thousands of characters: the column as the compiler says
        return static_cast<int>(std::min(target, b)) + 1;
    // common[i][j]: the longest common subsequence of compiled[i..] and student[j..].
    std::vector<std::vector<std::uint16_t>> common(a + 1, std::vector<std::uint16_t>(b + 1, 0));
    for (std::size_t i = a; i-- > 0;)
        for (std::size_t j = b; j-- > 0;)
            common[i][j] = compiled[i] == student[j]
                               ? static_cast<std::uint16_t>(common[i + 1][j + 1] + 1)
                               : std::max(common[i + 1][j], common[i][j + 1]);
    std::size_t i = 0, j = 0, after = 0; // `after`: the student's column after the last match
    while (i < a && j < b && i <= target) {
        if (compiled[i] == student[j]) {
            if (i == target)
                return static_cast<int>(j) + 1;
            after = j + 1;
            ++i;
            ++j;
        } else if (common[i + 1][j] >= common[i][j + 1]) {
            ++i;
        } else {
            ++j;
        }
    }
    return static_cast<int>(after) + 1;
}

// The compiled line that holds the student's line `line`: the pre-processor's `#line 1
// "kernel.cu"` starts the student's file, the launch's constants defined above it.
std::string compiled_line(const std::vector<std::string>& compiled, int line) {
    for (std::size_t k = 0; k < compiled.size(); ++k)
        if (compiled[k].rfind("#line 1 \"kernel.cu\"", 0) == 0)
            return k + static_cast<std::size_t>(line) < compiled.size()
                       ? compiled[k + static_cast<std::size_t>(line)]
                       : "";
    return "";
}

// The line's code, without a // comment and the blanks after it.
std::string code_of(const std::string& line) {
    std::string code = line.substr(0, line.find("//"));
    code.erase(code.find_last_not_of(" \t\r") + 1);
    return code;
}

// "a ; is missing ...", where: at the end of the line when the compiler's column is past its
// code, else before the character at the column (`}` in `{ out[0] = s[0] }`); a for loop whose
// header has a , where a ; belongs is said so.
std::string missing_semicolon(const std::string& here, int column, const std::string& said) {
    const std::string code = code_of(here);
    static const std::regex for_header(R"(\bfor\s*\()");
    if (said.find("in 'for'") != std::string::npos ||
        (said.find("before ')'") != std::string::npos && std::regex_search(code, for_header)))
        return "a for loop's header has three parts separated by ; (a , joins two into one): "
               "for (int stride = TILE / 2; stride > 0; stride >>= 1) (the compiler says: " +
               said + ")";
    if (column > static_cast<int>(code.size()))
        return "a ; is missing at the end of this line (the compiler says: " + said + ")";
    const auto at = static_cast<std::size_t>(std::max(column, 1) - 1);
    const auto before = code.find_first_not_of(' ', at);
    return "a ; is missing in column " + std::to_string(column) + ", before the " +
           (before != std::string::npos ? "'" + code.substr(before, 1) + "'" : "end") +
           ": each statement ends with one (the compiler says: " + said + ")";
}

// CUDA's names a kernel of the chapter uses, for "did you mean".
std::string closest_cuda_name(std::string_view name) {
    static constexpr std::array<std::string_view, 20> kNames = {
        "__syncthreads",   "__syncwarp",    "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
        "__shfl_xor_sync", "__ballot_sync", "threadIdx",   "blockIdx",       "blockDim",
        "gridDim",         "warpSize",      "atomicAdd",   "atomicCAS",      "atomicMax",
        "atomicMin",       "atomicExch",    "__shared__",  "__device__",     "__global__"};
    std::string best;
    std::size_t best_distance = 3; // farther than two edits is another name
    for (const std::string_view candidate : kNames)
        if (const std::size_t d = edit_distance(name, candidate); d > 0 && d < best_distance) {
            best = candidate;
            best_distance = d;
        }
    return best;
}

// What to add to "'x' was not declared in this scope": a warp primitive CUDA 9 replaced, or
// the CUDA name two edits away; "" when there is nothing to say.
std::string undeclared_hint(const std::string& name) {
    static constexpr std::array<std::string_view, 7> kRemoved = {
        "__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", "__ballot", "__any", "__all"};
    if (std::find(kRemoved.begin(), kRemoved.end(), name) != kRemoved.end())
        return ": CUDA 9 replaced it with " + name +
               "_sync, which takes the lanes' mask first: " + name + "_sync(0xffffffff, ...)";
    const std::string near = closest_cuda_name(name);
    return near.empty() ? "" : ": did you mean " + near + "?";
}

// The simulator's types as the student wrote them: ptr<const float> is const float*, an element
// of watched memory (ref<float>) and a float register (reg) are floats.
std::string as_written(std::string message) {
    static const std::regex pointer(R"((?:(?:::)?pplab::sim::|\b)ptr<([^<>]*)>)");
    static const std::regex element(R"((?:(?:::)?pplab::sim::|\b)ref<([^<>]*)>)");
    static const std::regex own(R"((?:::)?pplab::sim::(reg|uint3)\b)");
    // `s.at(17)`, where pplab wrote each use's line: the student wrote `s`.
    static const std::regex use_line(R"(\.(?:(?:::)?pplab::sim::(?:ptr|ref)<[^<>]*>::)?at\(\d+\))");
    message = std::regex_replace(message, use_line, "");
    message = std::regex_replace(message, pointer, "$1*");
    message = std::regex_replace(message, element, "$1");
    return std::regex_replace(std::regex_replace(message, own, "$1"), std::regex(R"(\breg\b)"),
                              "float");
}

// One error in the chapter's words where it is a mistake students make (true), as_written
// otherwise.
bool in_the_chapters_words(CompileError& e, const std::vector<std::string>& lines) {
    // The compiler quotes names with ‘ ’ in a UTF-8 locale, ' ' in others.
    for (const std::string_view quote : {"‘", "’"})
        for (auto at = e.message.find(quote); at != std::string::npos; at = e.message.find(quote))
            e.message.replace(at, quote.size(), "'");
    const std::string here = line_at(lines, e.line);
    // GCC's words, then clang's (the sanitizers' build, or a host whose compiler is clang).
    static const std::regex semicolon(R"(^expected '([,;])' (or ';' )?before)");
    static const std::regex semicolon_here(
        R"(^expected ';' (at end of declaration|after|in 'for' statement specifier))");
    static const std::regex undeclared(
        R"(^'([A-Za-z_]\w*)' was not declared in this scope$|^use of undeclared identifier '([A-Za-z_]\w*)'(; did you mean '[^']*'\?)?$)");
    static const std::regex constant(R"(not usable in a constant expression|is not a constant)");
    static const std::regex shuffle_call(
        R"(^(?:call of overloaded|no matching function for call to) '(shfl(?:_up|_down|_xor)?)['(])");
    static const std::regex atomic_call(R"(^no matching function for call to '(atomic\w+)['(])");
    static const std::regex number_as_pointer(
        R"(^invalid type argument of unary '\*' \(have '(unsigned )?int'\)|^invalid types '(unsigned )?int\[|^no match for 'operator\[\]' \(operand types are '(unsigned )?int'|^indirection requires pointer operand \('(unsigned )?int' invalid\)|^subscripted value is not an array, pointer, or vector)");
    static const std::regex index_name(R"(\b(threadIdx|blockIdx|blockDim|gridDim)\.[xyz]\b)");
    static const std::regex pointer_cast(
        R"(^(?:invalid cast|cannot cast) from type '(?:::)?pplab::sim::ptr<)");
    static const std::regex size_cast(R"(pplab's simulator casts a pointer only)");
    std::smatch m;
    const auto first_code = here.find_first_not_of(" \t");
    if (std::regex_search(e.message, semicolon) && e.line > 1 && first_code != std::string::npos &&
        static_cast<std::size_t>(e.column) <= first_code + 1) {
        // The compiler stops at the next line's first word: the ; is missing before it.
        int previous = e.line - 1;
        while (previous > 1 && !has_code(line_at(lines, previous)))
            --previous;
        e.message = "a ; is missing at the end of this line (the compiler says, on line " +
                    std::to_string(e.line) + ": " + as_written(e.message) + ")";
        e.line = previous;
        e.column = static_cast<int>(code_of(line_at(lines, previous)).size()) + 1;
    } else if (std::regex_search(e.message, semicolon) ||
               std::regex_search(e.message, semicolon_here)) {
        // The compiler stops where the ; belongs: on this line already (GCC after an expression,
        // clang always).
        e.message = missing_semicolon(here, e.column, as_written(e.message));
    } else if (std::regex_match(e.message, m, undeclared)) {
        const std::string name = m[1].matched ? m[1].str() : m[2].str();
        const std::string hint = undeclared_hint(name);
        if (hint.empty())
            return false;
        e.message = "'" + name + "' was not declared in this scope" + hint;
    } else if (std::regex_search(e.message, m, shuffle_call)) {
        const std::string name = "__" + m[1].str() + "_sync";
        e.message = name + " takes the lanes' mask, a 32-bit value (float, int or unsigned) and " +
                    (m[1] == "shfl" ? "the lane to read" : "the lane distance") + ": " + name +
                    "(0xffffffff, val, " + (m[1] == "shfl" ? "0" : "offset") + ")";
    } else if (std::regex_search(e.message, m, atomic_call)) {
        e.message = m[1].str() +
                    " takes the address of an element of shared or global memory and a value of "
                    "its type: " +
                    m[1].str() + "(&s[i], v)";
    } else if (std::regex_search(e.message, constant) &&
               here.find("__shared__") != std::string::npos) {
        e.message = "a __shared__ array's size must be a constant the compiler knows (TILE, a "
                    "#define, a constexpr int), not a value the kernel is given: for a size "
                    "chosen at the launch write extern __shared__ float s[];";
    } else if (std::regex_search(e.message, number_as_pointer) &&
               std::regex_search(here, m, index_name)) {
        e.message = m[0].str() + " is a number (an index), not a pointer: index an array with " +
                    "it, as in in[" + m[0].str() + "]";
    } else if (std::regex_search(e.message, pointer_cast)) {
        // A form of cast the pre-processor does not turn into one of a watched pointer.
        e.message = "this cast of a pointer is not supported by pplab's simulator in this form: "
                    "write it (T*)p or reinterpret_cast<T*>(p)";
    } else if (std::regex_search(e.message, size_cast)) {
        e.message = "a cast to a pointer of another size ((char*)p of a float* p, a float4*) is "
                    "not supported by pplab's simulator: an index would count other elements; "
                    "cast only between types of one size ((unsigned*) of a float*)";
    } else {
        e.message = as_written(e.message);
        return false;
    }
    return true;
}

} // namespace

// "kernel.cu:12:5: error: 'x' was not declared in this scope" -> line 12, column 5. An error in
// pplab's header follows "kernel.cu:12:5:   required from here": the student's line that led
// there.
std::vector<CompileError> compiler_errors(const std::string& log, std::string_view source,
                                          std::string_view compiled) {
    std::vector<CompileError> errors;
    static const std::regex located(R"(^kernel\.cu:(\d+):(\d+): (?:fatal )?error: (.*)$)");
    static const std::regex from_here(R"(^kernel\.cu:(\d+):(\d+):\s+required from here)");
    static const std::regex elsewhere(R"(^[^:]+:\d+:\d+: (?:fatal )?error: (.*)$)");
    // The student's line that led into pplab's header: GCC says it before the error ("required
    // from here"); clang after it, in a note ("in instantiation of ... requested here"), as
    // both do for one of CUDA's names the header spells as a macro.
    static const std::regex in_macro(
        R"(^kernel\.cu:(\d+):(\d+): note: (?:in expansion of macro|in instantiation of .* requested here))");
    std::istringstream in(log);
    std::string line;
    int required_line = 0, required_column = 0;
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_match(line, m, located)) {
            errors.push_back({std::stoi(m[1]), std::stoi(m[2]), m[3]});
        } else if (std::regex_search(line, m, from_here)) {
            required_line = std::stoi(m[1]);
            required_column = std::stoi(m[2]);
        } else if (std::regex_match(line, m, elsewhere)) {
            errors.push_back({required_line, required_line > 0 ? required_column : 0, m[1]});
            required_line = 0;
        } else if (std::regex_search(line, m, in_macro) && !errors.empty() &&
                   errors.back().line == 0) {
            // An error inside pplab's header (a macro such as __shfl_down_sync, or a template
            // clang instantiated from the student's line): the student's line.
            errors.back().line = std::stoi(m[1]);
            errors.back().column = std::stoi(m[2]);
        }
    }
    if (errors.empty())
        errors.push_back({0, 0, "the kernel does not compile"});
    // One mistake often gives more errors on its line (its consequences): where the first is
    // said in the chapter's words, the others add nothing.
    const std::vector<std::string> lines = lines_of(source);
    const std::vector<std::string> compiled_lines = lines_of(compiled);
    for (CompileError& e : errors)
        if (e.line > 0 && !compiled_lines.empty())
            e.column = student_column(compiled_line(compiled_lines, e.line), line_at(lines, e.line),
                                      e.column);
    std::vector<CompileError> said;
    int explained = -1;
    for (CompileError& e : errors) {
        const int at = e.line;
        if (at == explained)
            continue;
        if (in_the_chapters_words(e, lines))
            explained = at;
        said.push_back(std::move(e));
    }
    return said;
}

} // namespace pplab::sim
