// The source pre-processor: a student's CUDA file -> C++ that compiles against cuda_sim.hpp.
//
// It works on tokens, not on a parse tree: the chapter's kernels declare their memory in a few
// plain forms (`__shared__ T s[N];`, `extern __shared__ T s[];`, `T* name` parameters and
// locals, `float name`), and a rewrite of exactly those forms keeps every other character where
// it was. Replacements never add or remove a line, so with one `#line` the compiler's messages
// name the student's lines.
#include "pplab/sim.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace pplab::sim {

namespace {

enum class Kind { Ident, Number, Text, Punct, Directive };

struct Token {
    Kind kind;
    std::size_t begin, end; // [begin, end) in the source
    int line, column;
    std::string_view text;
};

struct LexError {
    int line, column;
    std::string message;
};

// Splits the source into tokens; comments and white space are left between them.
class Lexer {
public:
    explicit Lexer(std::string_view src) : src_(src) {}

    bool run(std::vector<Token>& out, LexError& error) {
        bool line_start = true;
        while (pos_ < src_.size()) {
            const char c = src_[pos_];
            if (c == '\n') {
                advance(1);
                line_start = true;
                continue;
            }
            if (std::isspace(static_cast<unsigned char>(c))) {
                advance(1);
                continue;
            }
            if (c == '/' && peek(1) == '/') {
                while (pos_ < src_.size() && src_[pos_] != '\n')
                    advance(1);
                continue;
            }
            if (c == '/' && peek(1) == '*') {
                const int l = line_, col = column_;
                const auto close = src_.find("*/", pos_ + 2);
                if (close == std::string_view::npos) {
                    error = {l, col, "this comment is never closed with */"};
                    return false;
                }
                advance(close + 2 - pos_);
                continue;
            }
            const std::size_t begin = pos_;
            const int l = line_, col = column_;
            Kind kind = Kind::Punct;
            if (c == '#' && line_start) {
                kind = Kind::Directive;
                while (pos_ < src_.size() && src_[pos_] != '\n')
                    advance(src_[pos_] == '\\' && peek(1) == '\n' ? 2 : 1);
            } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
                kind = Kind::Ident;
                while (pos_ < src_.size() &&
                       (std::isalnum(static_cast<unsigned char>(src_[pos_])) || src_[pos_] == '_'))
                    advance(1);
            } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                       (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
                kind = Kind::Number;
                while (pos_ < src_.size()) {
                    const char d = src_[pos_];
                    // A number at the very start of the file has nothing before it.
                    const char prev = pos_ > begin ? src_[pos_ - 1] : '\0';
                    if (std::isalnum(static_cast<unsigned char>(d)) || d == '.' || d == '\'' ||
                        ((d == '+' || d == '-') &&
                         (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P')))
                        advance(1);
                    else
                        break;
                }
            } else if (c == '"' || c == '\'') {
                kind = Kind::Text;
                advance(1);
                while (pos_ < src_.size() && src_[pos_] != c && src_[pos_] != '\n')
                    advance(src_[pos_] == '\\' && pos_ + 1 < src_.size() ? 2 : 1);
                if (pos_ >= src_.size() || src_[pos_] != c) {
                    error = {l, col,
                             c == '"' ? "this string is never closed with \""
                                      : "this character literal is never closed with '"};
                    return false;
                }
                advance(1);
            } else if ((c == ':' && peek(1) == ':') || (c == '-' && peek(1) == '>')) {
                advance(2);
            } else {
                advance(1);
            }
            out.push_back({kind, begin, pos_, l, col, src_.substr(begin, pos_ - begin)});
            line_start = false;
        }
        return true;
    }

private:
    char peek(std::size_t k) const { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; }
    void advance(std::size_t k) {
        for (std::size_t i = 0; i < k && pos_ < src_.size(); ++i, ++pos_) {
            if (src_[pos_] == '\n') {
                ++line_;
                column_ = 1;
            } else {
                ++column_;
            }
        }
    }

    std::string_view src_;
    std::size_t pos_ = 0;
    int line_ = 1, column_ = 1;
};

constexpr std::array<std::string_view, 3> kLaunchConstants = {"TILE", "WARPS", "BINS"};

bool is_builtin_type(std::string_view t) {
    static constexpr std::array<std::string_view, 11> kTypes = {
        "void",  "bool",   "char",   "short",    "int",  "long",
        "float", "double", "signed", "unsigned", "uint3"};
    return std::find(kTypes.begin(), kTypes.end(), t) != kTypes.end();
}
bool is_qualifier(std::string_view t) {
    return t == "const" || t == "volatile";
}
bool is_restrict(std::string_view t) {
    return t == "__restrict__" || t == "__restrict";
}
bool is_specifier(std::string_view t) {
    return t == "__device__" || t == "__global__" || t == "__host__" || t == "inline" ||
           t == "static" || t == "__forceinline__" || t == "__noinline__";
}

// The rewrite itself: one pass over the tokens, copying the source between them.
class Rewriter {
public:
    Rewriter(std::string_view src, const std::vector<Token>& toks) : src_(src), toks_(toks) {}

    Preprocessed run() {
        Preprocessed p;
        try {
            for (i_ = 0; i_ < toks_.size(); ++i_) {
                note_constants(toks_[i_]);
                note_unsupported(toks_[i_]);
            }
            for (i_ = 0; i_ < toks_.size();)
                step();
            copy_to(src_.size());
            if (kernels_.empty())
                fail(last_line(), 1,
                     "no __global__ function: the file must hold the kernel, e.g. "
                     "__global__ void reduceTree(const float* in, float* out, int n)");
        } catch (const SourceError& e) {
            p.error = e;
            return p;
        }
        p.ok = true;
        p.rewritten.kernels = kernels_;
        p.rewritten.defined_constants = defined_values_;
        for (const std::string_view name : kLaunchConstants)
            if (constant_uses_.count(std::string(name)) &&
                !constant_defined_.count(std::string(name)))
                p.rewritten.launch_constants.emplace_back(name);
        p.rewritten.text = "#include \"pplab_cuda_sim.hpp\"\n#line 1 \"kernel.cu\"\n" + out_;
        if (!out_.empty() && out_.back() != '\n')
            p.rewritten.text += '\n';
        p.rewritten.text += "#line 1 \"pplab-kernel-registration\"\n";
        for (std::size_t k = 0; k < kernels_.size(); ++k)
            p.rewritten.text += "static const ::pplab::sim::Registered pplab_sim_kernel_" +
                                std::to_string(k) + "{\"" + kernels_[k] + "\", &" + kernels_[k] +
                                "};\n";
        return p;
    }

private:
    [[noreturn]] void fail(int line, int column, std::string message) const {
        throw SourceError{line, column, std::move(message)};
    }
    int last_line() const { return toks_.empty() ? 1 : toks_.back().line; }
    const Token* at(std::size_t k) const { return k < toks_.size() ? &toks_[k] : nullptr; }
    bool is(std::size_t k, std::string_view text) const {
        return k < toks_.size() && toks_[k].text == text;
    }
    bool is_ident(std::size_t k) const { return k < toks_.size() && toks_[k].kind == Kind::Ident; }

    // Copies the source up to `pos` (the text and comments between tokens).
    void copy_to(std::size_t pos) {
        if (pos > copied_)
            out_.append(src_.substr(copied_, pos - copied_));
        copied_ = std::max(copied_, pos);
    }
    // Replaces tokens [first, last] with `text`, keeping the newlines they spanned.
    void replace(std::size_t first, std::size_t last, std::string_view text) {
        copy_to(toks_[first].begin);
        out_.append(text);
        const auto span = src_.substr(toks_[first].begin, toks_[last].end - toks_[first].begin);
        out_.append(static_cast<std::size_t>(std::count(span.begin(), span.end(), '\n')), '\n');
        copied_ = toks_[last].end;
    }
    // The tokens from first to last on one line, comments left out: text copied into a
    // replacement (a type, an array's size) must not add a line, nor comment out the rest of
    // it (`s[TILE // size`). Tokens the student wrote touching stay touching: the lexer gives
    // `<<` as two `<`, and `1 < < 10` is no shift.
    std::string one_line(std::size_t first, std::size_t last) const {
        std::string s;
        for (std::size_t k = first; k <= last; ++k) {
            if (toks_[k].kind == Kind::Directive)
                fail(toks_[k].line, toks_[k].column,
                     "a # directive inside a declaration is not supported by pplab's "
                     "simulator");
            // appended apart: GCC 12's -Wrestrict misfires on "" + std::string
            if (!s.empty() && toks_[k].begin != toks_[k - 1].end)
                s += ' ';
            s += toks_[k].text;
        }
        return s;
    }

    // The previous significant token (directives do not count).
    const Token* previous() const {
        for (std::size_t k = i_; k-- > 0;)
            if (toks_[k].kind != Kind::Directive)
                return &toks_[k];
        return nullptr;
    }
    // Where a declaration may begin: the start of a statement, or of a parameter.
    bool declaration_context(bool& statement_start) const {
        const Token* p = previous();
        statement_start = !p || p->text == ";" || p->text == "{" || p->text == "}" ||
                          (p->text == ":" && p->kind == Kind::Punct);
        if (statement_start)
            return true;
        if (p->text == "(" || p->text == ",")
            return true;
        return depth_ == 0 && is_specifier(p->text);
    }

    // Which launch constants the file uses, and which it defines (#define) or declares itself.
    void note_constants(const Token& t) {
        if (t.kind == Kind::Directive) {
            static const std::regex define(R"(^#\s*define\s+([A-Za-z_]\w*))");
            std::smatch m;
            const std::string text(t.text);
            std::string body = text;
            if (std::regex_search(text, m, define)) {
                constant_defined_.insert(m[1]);
                body = m.suffix();
                // At most 18 digits: a long long holds them (a longer one is the compiler's to
                // refuse; std::stoll threw on 26 of them, found by fuzzing).
                static const std::regex number(R"(^\s+\(?\s*(\d{1,18})\s*\)?\s*(//.*)?$)");
                std::smatch value;
                const bool launch = std::find(kLaunchConstants.begin(), kLaunchConstants.end(),
                                              m[1].str()) != kLaunchConstants.end();
                if (launch && std::regex_match(body, value, number))
                    defined_values_.emplace_back(m[1], std::stoll(value[1]));
            }
            static const std::regex word(R"([A-Za-z_]\w*)");
            for (auto it = std::sregex_iterator(body.begin(), body.end(), word);
                 it != std::sregex_iterator(); ++it)
                constant_uses_.insert(it->str());
            return;
        }
        if (t.kind != Kind::Ident || std::find(kLaunchConstants.begin(), kLaunchConstants.end(),
                                               t.text) == kLaunchConstants.end())
            return;
        const Token* p = previous();
        const bool declared = (p && (is_builtin_type(p->text) || p->text == "constexpr" ||
                                     p->text == "const" || p->text == "enum")) ||
                              (is(i_ + 1, "=") && !is(i_ + 2, "="));
        (declared ? constant_defined_ : constant_uses_).insert(std::string(t.text));
    }

    // Structs (refused in shared memory) and CUDA's vector types, which pplab's header lacks.
    void note_unsupported(const Token& t) {
        if ((t.text == "struct" || t.text == "class") && is_ident(i_ + 1))
            structs_.insert(std::string(toks_[i_ + 1].text));
        static const std::regex vector_type(
            R"(^(make_)?(float|int|uint|double|char|uchar|short|long)[1-4]$)");
        if (t.kind == Kind::Ident && std::isdigit(static_cast<unsigned char>(t.text.back())) &&
            std::regex_match(t.text.begin(), t.text.end(), vector_type))
            fail(t.line, t.column,
                 std::string(t.text) +
                     " is not supported by pplab's simulator: read the elements one by one "
                     "(in[2 * i] and in[2 * i + 1], not a float2)");
        // A whole program pasted in: pplab launches the kernel itself.
        static constexpr std::array<std::string_view, 9> kHostCalls = {
            "cudaMalloc",       "cudaMallocManaged", "cudaMemcpy",
            "cudaMemset",       "cudaFree",          "cudaDeviceSynchronize",
            "cudaGetLastError", "cudaEventCreate",   "cudaSetDevice"};
        const bool launch = t.text == "<" && is(i_ + 1, "<") && is(i_ + 2, "<");
        const bool host_main = t.text == "main" && is(i_ + 1, "(") && i_ > 0 && is(i_ - 1, "int");
        if (launch || host_main ||
            std::find(kHostCalls.begin(), kHostCalls.end(), t.text) != kHostCalls.end())
            fail(t.line, t.column,
                 std::string(launch ? "a launch (<<<...>>>)" : t.text) +
                     " is host code: pplab launches your kernel itself, with this run's n, block "
                     "and grid, so the file holds the kernel (and its __device__ functions) "
                     "only");
    }

    // `#include <cuda_runtime.h>` and CUDA's other headers: pplab's header gives their names, so
    // the line is left empty (the GPU run compiles the file as written). Cooperative groups are
    // CUDA's alone.
    bool cuda_include(const Token& t) {
        static const std::regex include(R"(^#\s*include\s*[<"]([^>"]+)[>"])");
        static const std::regex cuda_header(
            R"(^(cuda|cuda_runtime|cuda_runtime_api|device_launch_parameters|device_functions|device_atomic_functions|cuda_device_runtime_api|sm_\d+_(atomic_functions|intrinsics))\.h$)");
        std::match_results<std::string_view::const_iterator> m;
        if (!std::regex_search(t.text.begin(), t.text.end(), m, include))
            return false;
        const std::string header = m[1];
        if (header.rfind("cooperative_groups", 0) == 0)
            fail(t.line, t.column,
                 "cooperative groups are not supported by pplab's simulator: use __syncthreads(), "
                 "__syncwarp() and the __shfl_*_sync functions");
        if (!std::regex_match(header, cuda_header))
            return false;
        replace(i_, i_, "");
        ++i_;
        return true;
    }

    void step() {
        if (const auto mark = insert_before_.find(i_); mark != insert_before_.end()) {
            copy_to(toks_[i_].begin);
            out_.append(mark->second);
            insert_before_.erase(mark);
        }
        if (const auto swap = replace_at_.find(i_); swap != replace_at_.end()) {
            const std::size_t last = swap->second.first;
            replace(i_, last, swap->second.second);
            replace_at_.erase(swap);
            i_ = last + 1;
            return;
        }
        const Token& t = toks_[i_];
        if (t.kind == Kind::Directive && cuda_include(t))
            return;
        if (heap_form(t))
            return;
        if (t.kind == Kind::Directive || t.kind != Kind::Ident) {
            punctuation(t);
            ++i_;
            return;
        }
        if (t.text == "__shared__" ||
            ((t.text == "extern" || t.text == "volatile") && is(i_ + 1, "__shared__"))) {
            shared_declaration();
            return;
        }
        if (t.text == "__device__" && depth_ == 0 && device_variable())
            return;
        if (t.text == "__global__") {
            note_kernel();
        }
        if ((t.text == "for" || t.text == "while") && is(i_ + 1, "("))
            mark_loop(t);
        if (t.text == "template" && depth_ == 0) {
            for (std::size_t k = i_; k < toks_.size() && !is(k, "{") && !is(k, ";"); ++k)
                if (is(k, "__global__"))
                    fail(t.line, t.column,
                         "template kernels are not supported: write the kernel for float "
                         "(or int) as the chapter does");
        }
        bool statement_start = false;
        if (declaration_context(statement_start) && declaration(statement_start))
            return;
        const Token* p = previous();
        const bool member = p && (p->text == "." || p->text == "->" || p->text == "::");
        const std::string name(t.text);
        const Use* found = nullptr; // a local's use, else a __device__ variable's
        if (const auto local = tracked_.find(name); local != tracked_.end())
            found = &local->second;
        else if (const auto global = device_variables_.find(name);
                 global != device_variables_.end())
            found = &global->second;
        if (!member && found && !is(i_ + 1, "(")) {
            const std::string where = std::to_string(t.line);
            std::string use = *found == Use::Pointer ? name + ".at(" + where + ")"
                              : *found == Use::Unwritten
                                  ? "::pplab::sim::at(" + name + ", " + where + ")"
                                  : name;
            if (*found != Use::Pointer && ternary_operand())
                use = "::pplab::sim::plain(" + use + ")";
            if (use != name)
                replace(i_, i_, use);
        }
        ++i_;
    }

    // A name standing alone as an operand of ?: (`c ? sum : 0.0f`, `c ? 0.0f : sum`). A float
    // register converts to float and a float to a register, so such a ?: would have no one
    // type: the register is given as its value.
    bool ternary_operand() const {
        const Token* p = previous();
        if (!p || p->kind != Kind::Punct)
            return false;
        if (p->text == "?")
            return is(i_ + 1, ":");
        const auto ends = [&](std::string_view e) { return is(i_ + 1, e); };
        return p->text == ":" && p == &toks_[else_colon_] &&
               (ends(")") || ends(";") || ends(",") || ends("]") || ends("}") || ends(":"));
    }

    // ---- the device heap: new, delete, malloc, free -------------------------------------------

    // The first token after a type written from `k` (`unsigned int`, `std::uint32_t`): k when
    // there is none.
    std::size_t type_end(std::size_t k) const {
        while (is_ident(k) || (is(k, "::") && is_ident(k + 1)))
            ++k;
        return k;
    }
    // The bracket closing the one at `open`.
    std::size_t matching(std::size_t open) const {
        const std::string_view o = toks_[open].text, c = o == "[" ? "]" : o == "(" ? ")" : "}";
        int nesting = 0;
        for (std::size_t k = open; k < toks_.size(); ++k)
            if (toks_[k].text == o)
                ++nesting;
            else if (toks_[k].text == c && --nesting == 0)
                return k;
        fail(toks_[open].line, toks_[open].column,
             "this " + std::string(o) + " is never closed with " + std::string(c));
    }
    // `p = new ...`: "p", the name the memory goes by in messages ("" when it has none).
    std::string assigned_name(std::size_t first) const {
        return first >= 2 && is(first - 1, "=") && is_ident(first - 2)
                   ? std::string(toks_[first - 2].text)
                   : "";
    }

    // The `;`, `,` or unmatched closing bracket that ends the expression starting at `k`.
    std::size_t expression_end(std::size_t k) const {
        for (int nesting = 0; k < toks_.size(); ++k) {
            if (is(k, "(") || is(k, "[") || is(k, "{"))
                ++nesting;
            else if ((is(k, ")") || is(k, "]") || is(k, "}")) && --nesting < 0)
                break;
            else if (nesting == 0 && (is(k, ";") || is(k, ",")))
                break;
        }
        return k;
    }

    bool heap_form(const Token& t) {
        if (t.text == "(" || t.text == "static_cast" || t.text == "reinterpret_cast" ||
            t.text == "const_cast")
            return malloc_with_cast() || pointer_cast();
        const Token* p = previous();
        if (t.kind != Kind::Ident || (p && (p->text == "." || p->text == "->" || p->text == "::")))
            return false;
        if (t.text == "new") {
            new_expression();
            return true;
        }
        if (t.text == "delete") {
            delete_expression();
            return true;
        }
        if (t.text == "malloc" && is(i_ + 1, "("))
            fail(t.line, t.column,
                 "malloc needs the pointer's type, as in CUDA C++: "
                 "`float* p = (float*)malloc(n * sizeof(float));`");
        if (t.text == "free" && is(i_ + 1, "(")) {
            replace(i_, i_ + 1,
                    "::pplab::sim::heap_delete(" + std::to_string(t.line) +
                        ", ::pplab::sim::Taken::Malloc, ");
            i_ += 2;
            return true;
        }
        return false;
    }

    // `(float*)malloc(`, `static_cast<float*>(malloc(`: the cast gives the elements' type.
    bool malloc_with_cast() {
        const bool named = toks_[i_].text != "(";
        std::size_t k = i_ + 1;
        if (named && !is(k++, "<"))
            return false;
        const std::size_t type_first = k;
        k = type_end(k);
        if (k == type_first || !is(k, "*") || toks_[k - 1].text == "void")
            return false;
        const std::size_t type_last = k - 1;
        if (!is(++k, named ? ">" : ")"))
            return false;
        if (named && !is(++k, "("))
            return false;
        if (!is(++k, "malloc") || !is(k + 1, "("))
            return false;
        const std::string call = "::pplab::sim::heap_malloc<" + one_line(type_first, type_last) +
                                 ">(" + std::to_string(toks_[k].line) + ", \"" + assigned_name(i_) +
                                 "\", ";
        replace(i_, k + 1, named ? "(" + call : call);
        i_ = k + 2;
        return true;
    }

    // A cast to a pointer type, `(volatile unsigned long long*)(desc + tile)` or
    // `reinterpret_cast<unsigned*>(out)`: a watched pointer is no raw pointer, so the cast is to
    // the watched pointer of that type (cuda_sim.hpp's ptr says which casts it takes).
    bool pointer_cast() {
        const bool named = toks_[i_].text != "(";
        const Token* p = previous();
        // `sizeof(float*)`, a prototype's `f(float*)`: a type in brackets, no cast.
        if (!named && p && p->kind == Kind::Ident && p->text != "return")
            return false;
        std::size_t k = i_ + 1;
        if (named && !is(k++, "<"))
            return false;
        const std::size_t type_first = k;
        k = type_end(k);
        if (k == type_first || !is(k, "*") || toks_[k - 1].text == "void")
            return false;
        const std::size_t type_last = k - 1;
        std::string post;
        while (is_ident(k + 1) &&
               (is_qualifier(toks_[k + 1].text) || is_restrict(toks_[k + 1].text)))
            if (is_qualifier(toks_[++k].text))
                post += " " + std::string(toks_[k].text);
        const std::size_t close = k + 1;
        if (!is(close, named ? ">" : ")"))
            return false;
        const Token* operand = at(close + 1);
        if (!operand || !(named ? operand->text == "("
                                : operand->kind == Kind::Ident || operand->kind == Kind::Number ||
                                      operand->text == "(" || operand->text == "&"))
            return false;
        const std::string watched =
            "::pplab::sim::ptr<" + one_line(type_first, type_last) + post + ">";
        replace(i_, close, named ? "static_cast<" + watched + ">" : "(" + watched + ")");
        i_ = close + 1;
        return true;
    }

    // `new T[n]`, `new T[n]()`, `new T`, `new T()`, `new T(v)`.
    void new_expression() {
        const Token& t = toks_[i_];
        const std::string head = "::pplab::sim::heap_new";
        const std::string where = std::to_string(t.line) + ", \"" + assigned_name(i_) + "\"";
        const std::size_t k = type_end(i_ + 1);
        if (k == i_ + 1)
            fail(t.line, t.column,
                 "write new with a type, `new float[n]`: placement new is not supported by "
                 "pplab's simulator");
        const std::string type = one_line(i_ + 1, k - 1);
        if (is(k, "*"))
            fail(toks_[k].line, toks_[k].column,
                 "pointers to pointers are not supported by pplab's simulator");
        if (is(k, "{"))
            fail(toks_[k].line, toks_[k].column,
                 "write new float[n], then give the elements their values: an initialiser in "
                 "braces after new is not supported by pplab's simulator");
        if (is(k, "[")) {
            const std::size_t close = matching(k);
            if (close == k + 1)
                fail(toks_[k].line, toks_[k].column,
                     "new " + type + "[] needs the number of elements: new " + type + "[n]");
            if (is(close + 1, "[") || is(close + 1, "{"))
                fail(toks_[close + 1].line, toks_[close + 1].column,
                     "write new " + type +
                         "[n] alone: a second size, or an initialiser in braces, is not "
                         "supported by pplab's simulator");
            replace(i_, k, head + "<" + type + ">(" + where + ", (");
            const bool zeroed = is(close + 1, "(") && is(close + 2, ")");
            replace_at_[close] = {zeroed ? close + 2 : close, zeroed ? "), true)" : "))"};
            i_ = k + 1;
            return;
        }
        const std::string one = head + "_one<" + type + ">(" + where;
        if (is(k, "(") && is(k + 1, ")")) {
            replace(i_, k + 1, one + ", " + type + "{})");
            i_ = k + 2;
        } else if (is(k, "(")) {
            replace(i_, k, one + ", ");
            i_ = k + 1;
        } else {
            replace(i_, k - 1, one + ")");
            i_ = k;
        }
    }

    // `delete[] p;` and `delete p;`: the runtime checks that new gave it, and how.
    void delete_expression() {
        const Token& t = toks_[i_];
        const bool array = is(i_ + 1, "[") && is(i_ + 2, "]");
        const std::size_t last = array ? i_ + 2 : i_;
        const std::size_t end = expression_end(last + 1);
        if (end >= toks_.size() || end == last + 1)
            fail(t.line, t.column, "delete needs the pointer it gives back: `delete[] p;`");
        replace(i_, last,
                "::pplab::sim::heap_delete(" + std::to_string(t.line) +
                    ", ::pplab::sim::Taken::" + (array ? "NewArray" : "NewOne") + ", ");
        insert_before_[end] += ")";
        i_ = last + 1;
    }

    // ---- variables whose type is not written out ------------------------------------------

    // `auto x = e;` copies e's value (an element of shared memory read once, not a watch on
    // it); `auto* p` is a watched pointer's copy, `auto& x` a name for an element. Each use of
    // them learns its line.
    bool auto_declaration(std::size_t k, bool qualified) {
        std::size_t name = k + 1;
        const bool star = is(name, "*"), amp = is(name, "&");
        if (star || amp || is(name, "&&"))
            ++name;
        if (!is_ident(name) || !(is(name + 1, "=") || is(name + 1, ":") || is(name + 1, ";")))
            return false;
        if (star)
            replace(i_, k + 1, "auto");
        else if (amp && !qualified)
            replace(k, k + 1, "auto&&");
        if (!star && !amp && !is(name - 1, "&&") && is(name + 1, "=")) {
            const std::size_t end = expression_end(name + 2);
            replace(name, name + 1, std::string(toks_[name].text) + " = ::pplab::sim::value(");
            insert_before_[end] += ")";
        }
        tracked_[std::string(toks_[name].text)] = Use::Unwritten;
        i_ = is(name + 1, "=") && !star && !amp ? name + 2 : name + 1;
        return true;
    }

    // `float& x = s[i]` and a helper's `float& a`: an element of watched memory is no float
    // in memory, so the reference becomes `auto&&` (a kernel's own parameters cannot be).
    bool reference_declaration(std::size_t k) {
        const Token* after = at(k + 2);
        if (!is_ident(k + 1) || !after ||
            !(after->text == "=" || after->text == "," || after->text == ")"))
            return false;
        if (kernel_signature_)
            fail(toks_[k].line, toks_[k].column,
                 "a kernel's parameters cannot be references: pass a pointer (float* out)");
        replace(i_, k, "auto&&");
        tracked_[std::string(toks_[k + 1].text)] = Use::Unwritten;
        i_ = k + 2;
        return true;
    }

    void punctuation(const Token& t) {
        if (t.text == "{" || t.text == ";")
            kernel_signature_ = false;
        if (t.text == "?") {
            ++ternaries_;
        } else if (t.text == ":" && ternaries_ > 0) {
            --ternaries_;
            else_colon_ = i_;
        } else if (t.text == ";" || t.text == "{" || t.text == "}") {
            ternaries_ = 0;
        }
        if (t.text == "{") {
            ++depth_;
        } else if (t.text == "}") {
            if (--depth_ <= 0) {
                depth_ = 0;
                tracked_.clear();
            }
        } else if (t.text == ";" && depth_ == 0) {
            tracked_.clear(); // a prototype's parameters name nothing after it
        }
    }

    void note_kernel() {
        std::size_t k = i_ + 1;
        while (k < toks_.size() && toks_[k].kind == Kind::Ident && !is(k + 1, "("))
            ++k; // void, __launch_bounds__ ...
        if (is(k, "__launch_bounds__")) {
            while (k < toks_.size() && !is(k, ")"))
                ++k;
            ++k;
        }
        if (is_ident(k) && is(k + 1, "(")) {
            kernel_signature_ = true;
            const std::string name(toks_[k].text);
            if (std::find(kernels_.begin(), kernels_.end(), name) == kernels_.end())
                kernels_.push_back(name);
        }
    }

    // Each loop's condition first says where the kernel is (`while (going_round(7), i < n)`),
    // so an endless loop that touches no memory, barrier or shuffle is still placed by the time
    // limit. It is written on the loop's own line and adds no line; the runtime only notes the
    // line, so traces do not change. A condition that declares a variable, and a range-for,
    // have no place for it and are left as they are.
    void mark_loop(const Token& loop) {
        const std::string marker = "::pplab::sim::going_round(" + std::to_string(loop.line) + ")";
        std::size_t k = i_ + 2; // the condition's first token (`while`)
        if (loop.text == "for") {
            int nesting = 0;
            for (; k < toks_.size(); ++k) {
                if (is(k, "(") || is(k, "[") || is(k, "{"))
                    ++nesting;
                else if ((is(k, ")") || is(k, "]") || is(k, "}")) && --nesting < 0)
                    return; // no `;` at the top: a range-for
                else if (nesting == 0 && is(k, ";"))
                    break;
            }
            ++k;
            if (is(k, ";")) { // `for (;;)`: the marker is the whole condition
                insert_before_[k] += "(" + marker + ", true)";
                return;
            }
        }
        if (k >= toks_.size() ||
            (is_ident(k) && (is_builtin_type(toks_[k].text) || is_qualifier(toks_[k].text) ||
                             toks_[k].text == "auto")))
            return;
        insert_before_[k] += marker + ", ";
    }

    // [const] TYPE [const] * [const|__restrict__] NAME, or [const] float NAME: the declarations
    // of memory the runtime must watch. Returns false (and consumes nothing) for anything else.
    bool declaration(bool statement_start) {
        std::size_t k = i_;
        std::string quals;
        while (k < toks_.size() && (is_qualifier(toks_[k].text))) {
            quals += std::string(toks_[k].text) + " ";
            ++k;
        }
        const std::size_t type_first = k;
        if (!is_ident(k))
            return false;
        if (toks_[k].text == "auto")
            return auto_declaration(k, !quals.empty());
        if (is_builtin_type(toks_[k].text)) {
            while (is_ident(k + 1) && is_builtin_type(toks_[k + 1].text))
                ++k;
        } else if (!(statement_start || depth_ == 0)) {
            return false; // `a, b * c)` is a product, not a parameter
        } else if (is_qualifier(toks_[k].text) || is_specifier(toks_[k].text) ||
                   toks_[k].text == "return" || toks_[k].text == "extern") {
            return false;
        }
        const std::size_t type_last = k;
        ++k;
        std::string post_quals;
        while (k < toks_.size() && is_qualifier(toks_[k].text)) {
            post_quals += std::string(toks_[k].text) + " ";
            ++k;
        }
        const std::string type = quals + post_quals + one_line(type_first, type_last);
        if (is(k, "&") && quals.empty() && post_quals.empty())
            return reference_declaration(k);
        if (is_builtin_type(toks_[type_first].text) && is_ident(k))
            tracked_.erase(std::string(toks_[k].text)); // `int p` hides a watched `p`
        if (is(k, "*")) {
            std::size_t name = k + 1;
            while (name < toks_.size() &&
                   (is_qualifier(toks_[name].text) || is_restrict(toks_[name].text)))
                ++name;
            if (is(name, "*"))
                fail(toks_[name].line, toks_[name].column,
                     "pointers to pointers are not supported by pplab's simulator");
            if (!is_ident(name))
                return false;
            const Token* after = at(name + 1);
            if (!after || !(after->text == "=" || after->text == ";" || after->text == "," ||
                            after->text == ")" || after->text == "(" || after->text == "["))
                return false;
            if (toks_[type_first].text == "void")
                fail(toks_[type_first].line, toks_[type_first].column,
                     "void* is not supported by pplab's simulator: give the pointer its type");
            if (after->text == "[")
                fail(after->line, after->column,
                     "arrays of pointers are not supported by pplab's simulator");
            replace(i_, name, "::pplab::sim::ptr<" + type + "> " + std::string(toks_[name].text));
            if (after->text != "(")
                tracked_[std::string(toks_[name].text)] = Use::Pointer;
            i_ = name + 1;
            return true;
        }
        if (type_first == type_last && toks_[type_first].text == "float" && is_ident(k) &&
            !is(k + 1, "(") && !is(k + 1, "[")) {
            replace(i_, type_last, quals + post_quals + "::pplab::sim::reg");
            // Declared without a value: named, so a read before any value is said there.
            if (is(k + 1, ";") || is(k + 1, ","))
                replace(k, k,
                        std::string(toks_[k].text) + "{::pplab::sim::Undefined{\"" +
                            std::string(toks_[k].text) + "\", " + std::to_string(toks_[k].line) +
                            "}}");
            tracked_[std::string(toks_[k].text)] = Use::Register;
            i_ = type_last + 1;
            return true;
        }
        return false;
    }

    // The size of a declared array, between the `[` at `open` and its `]` ("" for `[]`), into
    // `count`; returns the token after the `]`. One dimension only.
    std::size_t array_extent(std::size_t open, const Token& first, const std::string& what,
                             std::string& count) const {
        int nesting = 0;
        std::size_t close = open;
        for (; close < toks_.size(); ++close) {
            if (is(close, "["))
                ++nesting;
            else if (is(close, "]") && --nesting == 0)
                break;
        }
        if (close >= toks_.size())
            fail(first.line, first.column, "this " + what + " array's [ is never closed");
        count = close > open + 1 ? one_line(open + 1, close - 1) : "";
        if (is(close + 1, "["))
            fail(toks_[close + 1].line, toks_[close + 1].column,
                 "two-dimensional " + what +
                     " arrays are not supported by pplab's simulator: use one dimension, " +
                     (what == "__shared__" ? "s" : "a") + "[row * WIDTH + col]");
        return close + 1;
    }

    // `__device__ T name;`, `__device__ T name = v;`, `__device__ T name[N] = {...};` at file
    // scope: the file's own storage, watched as a global buffer (races, the flags that order
    // blocks, bounds) and kept over the whole run, as a GPU keeps it. False for a function.
    bool device_variable() {
        const Token& first = toks_[i_];
        std::size_t k = i_ + 1;
        std::string type;
        for (; is_ident(k) && !is(k + 1, "[") && !is(k + 1, ";") && !is(k + 1, "=") &&
               !is(k + 1, ",") && !is(k + 1, "(");
             ++k)
            if (!is_specifier(toks_[k].text))
                type += (type.empty() ? "" : " ") + std::string(toks_[k].text);
        if (!is_ident(k) || is(k + 1, "(") || type.empty())
            return false; // a __device__ function, or a pointer left to the compiler
        const std::string name(toks_[k].text);
        std::size_t end = k + 1;
        std::string count = "1", init;
        if (is(end, "["))
            end = array_extent(end, first, "__device__", count);
        if (is(end, "=")) {
            std::size_t last = end + 1;
            int nesting = 0;
            for (; last < toks_.size() && !(nesting == 0 && (is(last, ";") || is(last, ",")));
                 ++last)
                nesting += is(last, "{") ? 1 : is(last, "}") && nesting > 0 ? -1 : 0;
            if (last >= toks_.size() || last == end + 1)
                fail(toks_[end].line, toks_[end].column,
                     "give the __device__ variable " + name + " its value and end with ;");
            init = " = " + (is(end + 1, "{") ? "" : std::string("{")) +
                   one_line(end + 1, last - 1) + (is(end + 1, "{") ? "" : "}");
            end = last;
        }
        if (!is(end, ";"))
            fail(toks_[k].line, toks_[k].column,
                 "declare one __device__ variable per statement, ending with ;");
        if (count.empty() && init.empty())
            fail(toks_[k].line, toks_[k].column,
                 "a __device__ array needs a size: `__device__ float totals[64];`");
        const std::string where = std::to_string(first.line), storage = "pplab_device_" + name;
        const std::string region = "::pplab::sim::device_variable(\"" + name +
                                   "\", ::pplab::sim::elem_of<" + type + ">(), sizeof(" + type +
                                   "), " + storage + ", sizeof(" + storage + ") / sizeof(" +
                                   storage + "[0]))";
        std::string text =
            "static ::std::remove_cv_t<" + type + "> " + storage + "[" + count + "]" + init + "; ";
        if (count == "1" && !is(k + 1, "["))
            text += "::pplab::sim::ref<" + type + "> " + name + " = ::pplab::sim::ptr<" + type +
                    ">(" + region + ", 0, " + where + ")[0];";
        else
            text +=
                "::pplab::sim::ptr<" + type + "> " + name + "(" + region + ", 0, " + where + ");";
        replace(i_, end, text);
        device_variables_[name] = Use::Pointer;
        i_ = end + 1;
        return true;
    }

    // `__shared__ T name[N];` and `extern __shared__ T name[];`; `volatile __shared__ T name;`
    // is `__shared__ volatile T name;` (a flag the block's threads spin on).
    void shared_declaration() {
        const Token& first = toks_[i_];
        const bool is_extern = first.text == "extern";
        const bool is_volatile = first.text == "volatile";
        std::size_t k = i_ + (is_extern || is_volatile ? 2 : 1);
        while (is(k, "__align__")) { // __align__(16)
            while (k < toks_.size() && !is(k, ")"))
                ++k;
            ++k;
        }
        const std::size_t type_first = k;
        while (is_ident(k) && !is(k + 1, "[") && !is(k + 1, ";") && !is(k + 1, "="))
            ++k;
        if (!is_ident(k) || k == type_first)
            fail(first.line, first.column,
                 "write a __shared__ declaration as `__shared__ float s[TILE];` (a type, a "
                 "name and a size)");
        const std::string type =
            (is_volatile ? std::string("volatile ") : std::string()) + one_line(type_first, k - 1);
        const std::string name(toks_[k].text);
        for (std::size_t t = type_first; t < k; ++t)
            if (structs_.count(toks_[t].text))
                fail(first.line, first.column,
                     "a __shared__ array of a struct (" + std::string(toks_[t].text) +
                         ") is not supported by pplab's simulator: declare one __shared__ array "
                         "per field");
        const int line = first.line;
        std::size_t end = k + 1;
        std::string count;
        if (is(end, ";")) {
            if (is_extern)
                fail(line, first.column, "an extern __shared__ array is written `name[]`");
            count = "1";
        } else if (is(end, "=")) {
            fail(toks_[end].line, toks_[end].column,
                 "a __shared__ variable cannot be initialised where it is declared: assign it "
                 "in the kernel, then __syncthreads()");
        } else {
            end = array_extent(end, first, "__shared__", count);
            if (is(end, "="))
                fail(toks_[end].line, toks_[end].column,
                     "a __shared__ array cannot be given values where it is declared: set them in "
                     "the kernel (every thread helps), then __syncthreads()");
            if (is_extern != count.empty())
                fail(line, first.column,
                     is_extern ? "an extern __shared__ array takes its size from the launch: "
                                 "write `extern __shared__ float s[];`"
                               : "a __shared__ array needs a size: `__shared__ float s[TILE];`");
        }
        if (!is(end, ";"))
            fail(toks_[k].line, toks_[k].column,
                 "declare one __shared__ array per statement, ending with ;");
        const std::string where = std::to_string(line);
        const std::string elem = "::pplab::sim::elem_of<" + type + ">(), sizeof(" + type + ")";
        std::string region =
            is_extern
                ? "::pplab::sim::dynamic_shared(\"" + name + "\", " + elem + ", " + where + ")"
                : "::pplab::sim::shared_array(" + std::to_string(++sites_) + ", \"" + name +
                      "\", " + elem + ", ::std::integral_constant<long long, (" + count +
                      ")>::value, " + where + ")";
        const bool scalar = count == "1" && is(k + 1, ";");
        std::string text =
            "::pplab::sim::ptr<" + type + "> " + name + "(" + region + ", 0, " + where + ")";
        if (scalar) // `__shared__ float total;` reads and writes element 0
            text = "::pplab::sim::ref<" + type + "> " + name + " = ::pplab::sim::ptr<" + type +
                   ">(" + region + ", 0, " + where + ")[0]";
        replace(i_, end - 1, text);
        tracked_[name] = Use::Pointer;
        i_ = end;
    }

    std::string_view src_;
    const std::vector<Token>& toks_;
    std::size_t i_ = 0;
    std::string out_;
    std::size_t copied_ = 0;
    int depth_ = 0;
    int sites_ = 0;
    // The variables in scope whose uses are rewritten: a pointer or array (`name.at(line)`), one
    // whose type is not written (`auto`, a reference: `::pplab::sim::at(name, line)`), a float
    // register (only as a ?: operand, `::pplab::sim::plain(name)`).
    enum class Use { Pointer, Unwritten, Register };
    std::map<std::string, Use> tracked_;
    std::map<std::string, Use> device_variables_; // file scope: for the whole file
    int ternaries_ = 0;          // `?`s of this statement whose `:` is still to come
    std::size_t else_colon_ = 0; // the `:` that closed the latest of them
    std::set<std::string, std::less<>> structs_;
    bool kernel_signature_ = false; // between a __global__ function's name and its body
    // token -> text written before it (loop markers, the `)` closing a delete)
    std::map<std::size_t, std::string> insert_before_;
    // token -> (the last token it replaces, the text replacing them) (the `]` of a new[])
    std::map<std::size_t, std::pair<std::size_t, std::string>> replace_at_;
    std::vector<std::string> kernels_;
    std::set<std::string> constant_uses_, constant_defined_;
    std::vector<std::pair<std::string, long long>> defined_values_;
};

} // namespace

Preprocessed preprocess(std::string_view source) {
    std::vector<Token> tokens;
    LexError lex{};
    Preprocessed p;
    if (!Lexer(source).run(tokens, lex)) {
        p.error = {lex.line, lex.column, lex.message};
        return p;
    }
    return Rewriter(source, tokens).run();
}

} // namespace pplab::sim
