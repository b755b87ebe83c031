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
            for (i_ = 0; i_ < toks_.size(); ++i_)
                note_constants(toks_[i_]);
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
    // it (`s[TILE // size`).
    std::string one_line(std::size_t first, std::size_t last) const {
        std::string s;
        for (std::size_t k = first; k <= last; ++k) {
            if (toks_[k].kind == Kind::Directive)
                fail(toks_[k].line, toks_[k].column,
                     "a # directive inside a declaration is not supported by pplab's "
                     "simulator");
            if (!s.empty()) // appended apart: GCC 12's -Wrestrict misfires on "" + std::string
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
                static const std::regex number(R"(^\s+\(?\s*(\d+)\s*\)?\s*(//.*)?$)");
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

    void step() {
        if (const auto mark = going_round_.find(i_); mark != going_round_.end()) {
            copy_to(toks_[i_].begin);
            out_.append(mark->second);
            going_round_.erase(mark);
        }
        const Token& t = toks_[i_];
        if (t.kind == Kind::Directive || t.kind != Kind::Ident) {
            punctuation(t);
            ++i_;
            return;
        }
        if (t.text == "__shared__" || (t.text == "extern" && is(i_ + 1, "__shared__"))) {
            shared_declaration();
            return;
        }
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
        if (!member && tracked_.count(std::string(t.text)) && !is(i_ + 1, "(")) {
            replace(i_, i_, std::string(t.text) + ".at(" + std::to_string(t.line) + ")");
        }
        ++i_;
    }

    void punctuation(const Token& t) {
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
                going_round_[k] = "(" + marker + ", true)";
                return;
            }
        }
        if (k >= toks_.size() ||
            (is_ident(k) && (is_builtin_type(toks_[k].text) || is_qualifier(toks_[k].text) ||
                             toks_[k].text == "auto")))
            return;
        going_round_[k] = marker + ", ";
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
                tracked_.insert(std::string(toks_[name].text));
            i_ = name + 1;
            return true;
        }
        if (type_first == type_last && toks_[type_first].text == "float" && is_ident(k) &&
            !is(k + 1, "(") && !is(k + 1, "[")) {
            replace(i_, type_last, quals + post_quals + "::pplab::sim::reg");
            i_ = type_last + 1;
            return true;
        }
        return false;
    }

    // `__shared__ T name[N];` and `extern __shared__ T name[];`
    void shared_declaration() {
        const Token& first = toks_[i_];
        const bool is_extern = first.text == "extern";
        std::size_t k = i_ + (is_extern ? 2 : 1);
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
        const std::string type = one_line(type_first, k - 1);
        const std::string name(toks_[k].text);
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
            int nesting = 0;
            std::size_t close = end;
            for (; close < toks_.size(); ++close) {
                if (is(close, "["))
                    ++nesting;
                else if (is(close, "]") && --nesting == 0)
                    break;
            }
            if (close >= toks_.size())
                fail(line, first.column, "this __shared__ array's [ is never closed");
            count = close > end + 1 ? one_line(end + 1, close - 1) : "";
            end = close + 1;
            if (is(end, "["))
                fail(toks_[end].line, toks_[end].column,
                     "two-dimensional __shared__ arrays are not supported by pplab's simulator: "
                     "use one dimension, s[row * WIDTH + col]");
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
                      "\", " + elem + ", (" + count + "), " + where + ")";
        const bool scalar = count == "1" && is(k + 1, ";");
        std::string text =
            "::pplab::sim::ptr<" + type + "> " + name + "(" + region + ", 0, " + where + ")";
        if (scalar) // `__shared__ float total;` reads and writes element 0
            text = "::pplab::sim::ref<" + type + "> " + name + " = ::pplab::sim::ptr<" + type +
                   ">(" + region + ", 0, " + where + ")[0]";
        replace(i_, end - 1, text);
        tracked_.insert(name);
        i_ = end;
    }

    std::string_view src_;
    const std::vector<Token>& toks_;
    std::size_t i_ = 0;
    std::string out_;
    std::size_t copied_ = 0;
    int depth_ = 0;
    int sites_ = 0;
    std::set<std::string> tracked_;
    std::map<std::size_t, std::string> going_round_; // token -> the loop marker written before it
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
