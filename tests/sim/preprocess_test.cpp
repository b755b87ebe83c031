// The source pre-processor as a pure function: what it rewrites, that it keeps every line where
// it was, and the located errors it gives for what the simulator cannot run.
#include "pplab/sim.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace pplab {
namespace {

std::string body(const sim::Preprocessed& p) {
    // The text between the prelude's `#line 1 "kernel.cu"` and the registration.
    const std::string& t = p.rewritten.text;
    const auto from = t.find("#line 1 \"kernel.cu\"\n") + 20;
    return t.substr(from, t.find("#line 1 \"pplab-kernel-registration\"") - from);
}

TEST(Preprocess, WatchesSharedArraysPointersAndFloatRegisters) {
    const std::string src = "__global__ void k(const float* in, float* out, int n)\n"
                            "{\n"
                            "    __shared__ float s[TILE];\n"
                            "    float sum = in[threadIdx.x];\n"
                            "    s[threadIdx.x] = sum;\n"
                            "    out[0] = s[0] * 2.0f;\n"
                            "}\n";
    const sim::Preprocessed p = sim::preprocess(src);
    ASSERT_TRUE(p.ok) << p.error.message;
    EXPECT_EQ(p.rewritten.kernels, std::vector<std::string>{"k"});
    const std::string b = body(p);
    EXPECT_EQ(std::count(b.begin(), b.end(), '\n'), std::count(src.begin(), src.end(), '\n'))
        << "lines stay where they were";
    EXPECT_NE(b.find("::pplab::sim::ptr<const float> in"), std::string::npos) << b;
    EXPECT_NE(b.find("::pplab::sim::ptr<float> s(::pplab::sim::shared_array(1, \"s\""),
              std::string::npos)
        << b;
    EXPECT_NE(b.find("::pplab::sim::reg sum = in.at(4)[threadIdx.x]"), std::string::npos) << b;
    EXPECT_NE(b.find("s.at(5)[threadIdx.x] = sum"), std::string::npos) << b;
    EXPECT_NE(b.find("out.at(6)[0] = s.at(6)[0] * 2.0f"), std::string::npos) << b;
    EXPECT_NE(p.rewritten.text.find("pplab_sim_kernel_0{\"k\", &k}"), std::string::npos);
}

// A float declared without a value is named with its line (a read before any value is a hazard
// there); one declared with a value, or with {}, is not; in `float a, b;` the first is named.
TEST(Preprocess, NamesFloatsDeclaredWithoutAValue) {
    const std::string src = "__global__ void k(const float* in, float* out, int n)\n"
                            "{\n"
                            "    float sum;\n"
                            "    float given = 1.0f;\n"
                            "    float braced{};\n"
                            "    float a, b;\n"
                            "    out[0] = sum + given + braced + a + b;\n"
                            "}\n";
    const sim::Preprocessed p = sim::preprocess(src);
    ASSERT_TRUE(p.ok) << p.error.message;
    const std::string b = body(p);
    EXPECT_EQ(std::count(b.begin(), b.end(), '\n'), std::count(src.begin(), src.end(), '\n'));
    EXPECT_NE(b.find("::pplab::sim::reg sum{::pplab::sim::Undefined{\"sum\", 3}};"),
              std::string::npos)
        << b;
    EXPECT_NE(b.find("::pplab::sim::reg given = 1.0f;"), std::string::npos) << b;
    EXPECT_NE(b.find("::pplab::sim::reg braced{};"), std::string::npos) << b;
    EXPECT_NE(b.find("::pplab::sim::reg a{::pplab::sim::Undefined{\"a\", 6}}, b;"),
              std::string::npos)
        << b;
}

TEST(Preprocess, LeavesProductsCastsAndFunctionNamesAlone) {
    const std::string src = "__device__ float twice(float v) { return v * 2.0f; }\n"
                            "__global__ void k(float* out, int n)\n"
                            "{\n"
                            "    const int a = n * n;\n"
                            "    out[a] = (float)a + twice(static_cast<float>(n));\n"
                            "}\n";
    const sim::Preprocessed p = sim::preprocess(src);
    ASSERT_TRUE(p.ok) << p.error.message;
    const std::string b = body(p);
    EXPECT_NE(b.find("__device__ float twice(::pplab::sim::reg v)"), std::string::npos) << b;
    EXPECT_NE(b.find("const int a = n * n;"), std::string::npos) << b;
    EXPECT_NE(b.find("(float)a + twice(static_cast<float>(n))"), std::string::npos) << b;
}

// A cast to a pointer type (scan-fast's publish) becomes a cast to the watched pointer of that
// type; a pointer type in brackets that is no cast (sizeof, a prototype) is left alone.
TEST(Preprocess, CastsToPointersAreToWatchedPointers) {
    const std::string src = "__device__ void f(float*);\n"
                            "__global__ void k(unsigned long long* desc, float* out, int n)\n"
                            "{\n"
                            "    *(volatile unsigned long long*)(desc + n) = 1ull;\n"
                            "    unsigned* bits = reinterpret_cast<unsigned*>(out);\n"
                            "    out[0] = (float)sizeof(float*) + (float)bits[0];\n"
                            "}\n";
    const sim::Preprocessed p = sim::preprocess(src);
    ASSERT_TRUE(p.ok) << p.error.message;
    const std::string b = body(p);
    EXPECT_NE(b.find("*(::pplab::sim::ptr<volatile unsigned long long>)(desc.at(4) + n)"),
              std::string::npos)
        << b;
    EXPECT_NE(b.find("static_cast<::pplab::sim::ptr<unsigned>>(out.at(5))"), std::string::npos)
        << b;
    EXPECT_NE(b.find("(float)sizeof(float*)"), std::string::npos) << b;
    EXPECT_NE(b.find("__device__ void f(float*);"), std::string::npos) << b;
}

TEST(Preprocess, ExternSharedAndCommentsAndStrings) {
    const std::string src = "// __shared__ float fake[4];\n"
                            "__global__ void k(int* out)\n"
                            "{\n"
                            "    extern __shared__ int s[];\n"
                            "    /* s[0] */ s[0] = 1; printf(\"s[0]\");\n"
                            "}\n";
    const sim::Preprocessed p = sim::preprocess(src);
    ASSERT_TRUE(p.ok) << p.error.message;
    const std::string b = body(p);
    EXPECT_NE(b.find("// __shared__ float fake[4];"), std::string::npos) << b;
    EXPECT_NE(b.find("::pplab::sim::dynamic_shared(\"s\""), std::string::npos) << b;
    EXPECT_NE(b.find("/* s[0] */ s.at(5)[0] = 1; printf(\"s[0]\")"), std::string::npos) << b;
}

// `volatile __shared__ int flag;` is `__shared__ volatile int flag;`: the qualifier is the
// element's (left before the rewrite it made the watched element itself volatile, which does
// not compile).
TEST(Preprocess, VolatileBeforeSharedQualifiesTheElement) {
    const std::string src = "__global__ void k(int* out)\n"
                            "{\n"
                            "    volatile __shared__ int flag;\n"
                            "    flag = 1;\n"
                            "}\n";
    const sim::Preprocessed p = sim::preprocess(src);
    ASSERT_TRUE(p.ok) << p.error.message;
    const std::string b = body(p);
    EXPECT_NE(b.find("    ::pplab::sim::ref<volatile int> flag = ::pplab::sim::ptr<volatile int>("),
              std::string::npos)
        << b;
}

// A puzzle's skeleton uses TILE, WARPS and BINS without defining them: the runner defines them
// with the launch's values. What the file defines or declares itself is left to it.
TEST(Preprocess, NamesTheLaunchConstantsTheFileUsesButDoesNotDefine) {
    const auto constants = [](const std::string& src) {
        const sim::Preprocessed p = sim::preprocess(src);
        EXPECT_TRUE(p.ok) << p.error.message;
        return p.rewritten.launch_constants;
    };
    using Names = std::vector<std::string>;
    EXPECT_EQ(constants("#define WARPS (TILE / 32)\n__global__ void k(int* o)\n"
                        "{ __shared__ int s[WARPS * BINS]; }\n"),
              (Names{"TILE", "BINS"}));
    EXPECT_EQ(constants("#define TILE 64\n__global__ void k(int* o) { o[0] = TILE; }\n"), Names{});
    EXPECT_EQ(constants("constexpr int TILE = 64;\n__global__ void k(int* o) { o[0] = TILE; }\n"),
              Names{});
    EXPECT_EQ(constants("// TILE in a comment\n__global__ void k(int* o) { o[0] = 1; }\n"),
              Names{});
    EXPECT_EQ(constants("__global__ void k(int* o) { if (o[0] == BINS) o[1] = WARPS; }\n"),
              (Names{"WARPS", "BINS"}));
    // The values it sets as plain numbers, to be compared with the launch's.
    const sim::Preprocessed p = sim::preprocess(
        "#define TILE 256   // block size\n#define WARPS (TILE / 32)\n#define BINS (16)\n"
        "__global__ void k(int* o) { o[0] = TILE + WARPS + BINS; }\n");
    using Values = std::vector<std::pair<std::string, long long>>;
    EXPECT_EQ(p.rewritten.defined_constants, (Values{{"TILE", 256}, {"BINS", 16}}));
    // A number no long long holds is the compiler's to refuse, not a throw here (fuzzing found
    // std::stoll's out_of_range on 26 digits).
    const sim::Preprocessed huge = sim::preprocess(
        "#define TILE 21111111111111111111111156\n__global__ void k(int* o) { o[0] = TILE; }\n");
    EXPECT_TRUE(huge.ok) << huge.error.message;
    EXPECT_EQ(huge.rewritten.defined_constants, Values{});
}

struct Refused {
    std::string source;
    int line;
    std::string says;
};

class PreprocessRefuses : public ::testing::TestWithParam<Refused> {};

TEST_P(PreprocessRefuses, WithTheLineAndWhy) {
    const sim::Preprocessed p = sim::preprocess(GetParam().source);
    ASSERT_FALSE(p.ok);
    EXPECT_EQ(p.error.line, GetParam().line);
    EXPECT_NE(p.error.message.find(GetParam().says), std::string::npos) << p.error.message;
}

INSTANTIATE_TEST_SUITE_P(
    Located, PreprocessRefuses,
    ::testing::Values(
        Refused{"__global__ void k(float* o)\n{\n  __shared__ float t[4][4];\n}\n", 3,
                "two-dimensional"},
        Refused{"__global__ void k(float* o)\n{\n  __shared__ float t[];\n}\n", 3, "needs a size"},
        Refused{"__global__ void k(float* o)\n{\n  /* never closed\n}\n", 3, "never closed"},
        Refused{"__device__ float f(float x) { return x; }\n", 1, "no __global__"},
        Refused{"__global__ void k(float** o)\n{\n}\n", 1, "pointers to pointers"},
        Refused{"template <class T>\n__global__ void k(T* o)\n{\n}\n", 1, "template kernels"},
        Refused{"__global__ void k(float* o)\n{\n  float* p = new (o) float;\n}\n", 3,
                "placement new is not supported"},
        Refused{"__global__ void k(float* o)\n{\n  float* p = new float[];\n}\n", 3,
                "new float[] needs the number of elements"},
        Refused{"__global__ void k(float* o)\n{\n  float* p = new float[2]{1, 2};\n}\n", 3,
                "an initialiser in braces"},
        Refused{"__global__ void k(float* o)\n{\n  delete[] ;\n}\n", 3, "delete needs the pointer"},
        Refused{"__global__ void k(float* o)\n{\n  float* p = malloc(8);\n}\n", 3,
                "malloc needs the pointer's type"},
        Refused{"__global__ void k(float& o)\n{\n}\n", 1, "cannot be references"},
        Refused{"struct P { float a; };\n__global__ void k(float* o)\n{\n  __shared__ P s[4];\n}\n",
                4, "a __shared__ array of a struct (P)"},
        Refused{"__global__ void k(float* o)\n{\n  float2 v;\n}\n", 3, "float2 is not supported"},
        Refused{"__global__ void k(float* o)\n{\n  k<<<1, 32>>>(o);\n}\n", 3,
                "a launch (<<<...>>>) is host code"},
        Refused{"\n__device__ int a, b;\n__global__ void k(float* o)\n{\n}\n", 2,
                "declare one __device__ variable per statement"},
        Refused{"__device__ float t[4][4];\n__global__ void k(float* o)\n{\n}\n", 1,
                "two-dimensional __device__ arrays"},
        Refused{"__device__ float t[];\n__global__ void k(float* o)\n{\n}\n", 1,
                "a __device__ array needs a size"}),
    [](const ::testing::TestParamInfo<Refused>& p) { return "case" + std::to_string(p.index); });

// Nothing a student types makes the pre-processor throw or loop: every prefix of a real kernel
// either rewrites or is refused with a located error.
TEST(Preprocess, EveryPrefixOfAKernelIsAnswered) {
    const std::string src = "__global__ void reduceTree(const float* in, float* out, int n)\n"
                            "{\n  __shared__ float s[TILE];\n  s[threadIdx.x] = in[0];\n"
                            "  extern __shared__ int d[];\n  \"str /* \" 'c';\n"
                            "  float* p = new float[n](); delete[] p; int* q = (int*)malloc(4);\n"
                            "  free(q); auto& r = s[0]; float& f = s[1]; auto v = s[2];\n}\n";
    for (std::size_t k = 0; k <= src.size(); ++k) {
        const sim::Preprocessed p = sim::preprocess(src.substr(0, k));
        if (!p.ok) {
            EXPECT_GT(p.error.line, 0) << "prefix " << k;
        }
    }
}

// A number as the file's first character: nothing before it is read (fuzz/fuzz_kernel_source).
TEST(Preprocess, ANumberAtTheStartOfTheFile) {
    const sim::Preprocessed p =
        sim::preprocess("0// a stray digit\n__global__ void k(int* o) {}\n");
    EXPECT_TRUE(p.ok) << p.error.message;
}

// The rewrite of `src`, which must keep every line where it was.
std::string rewritten_keeping_lines(const std::string& src) {
    const sim::Preprocessed p = sim::preprocess(src);
    EXPECT_TRUE(p.ok) << p.error.message;
    const std::string b = p.ok ? body(p) : std::string();
    EXPECT_EQ(std::count(b.begin(), b.end(), '\n'), std::count(src.begin(), src.end(), '\n'));
    return b;
}

// A __shared__ array's size or a type written over several lines, or with a comment in it:
// the rewrite keeps every later line where it was (found by fuzz/fuzz_kernel_source).
TEST(Preprocess, DeclarationsOverSeveralLinesKeepTheLines) {
    const std::string b = rewritten_keeping_lines("__global__ void k(float* out)\n"
                                                  "{\n"
                                                  "    __shared__ float s[TILE // the size\n"
                                                  "        + 1];\n"
                                                  "    s[0] = 1.0f;\n"
                                                  "    out[0] = s[0];\n"
                                                  "}\n");
    EXPECT_NE(b.find("(TILE + 1)>::value, 3), 0, 3)"), std::string::npos) << b;
    EXPECT_NE(b.find("s.at(5)[0] = 1.0f"), std::string::npos) << b;
    const std::string c = rewritten_keeping_lines("__global__ void k(unsigned // the count\n"
                                                  "    int* out)\n"
                                                  "{\n"
                                                  "    out[0] = 1;\n"
                                                  "}\n");
    EXPECT_NE(c.find("::pplab::sim::ptr<unsigned int> out"), std::string::npos) << c;
}

// An array's size written with shifts: the size copied into the rewrite keeps `<<` and `>>`
// whole (the lexer gives each as two tokens; `1 < < 10` would not compile).
TEST(Preprocess, ShiftsInAnArraysSizeStayShifts) {
    const std::string b = rewritten_keeping_lines("__device__ float scratch[1 << 10];\n"
                                                  "__global__ void k(float* out)\n"
                                                  "{\n"
                                                  "    __shared__ float s[1 << 10];\n"
                                                  "    __shared__ float h[TILE >> 1];\n"
                                                  "    __shared__ int b[sizeof(int) << 3];\n"
                                                  "    s[0] = h[0] = b[0] = scratch[0];\n"
                                                  "    out[0] = s[0];\n"
                                                  "}\n");
    EXPECT_NE(b.find("pplab_device_scratch[1 << 10];"), std::string::npos) << b;
    EXPECT_NE(b.find("(1 << 10)>::value"), std::string::npos) << b;
    EXPECT_NE(b.find("(TILE >> 1)>::value"), std::string::npos) << b;
    EXPECT_NE(b.find("(sizeof(int) << 3)>::value"), std::string::npos) << b;
}

// Each loop's condition notes its line first, so the time limit can place a loop that touches
// only registers; written on the loop's line, no line added. A range-for and a condition that
// declares its variable have no place for it.
TEST(Preprocess, EachLoopsConditionSaysItsLine) {
    const std::string b = rewritten_keeping_lines("__global__ void k(float* out, int n)\n"
                                                  "{\n"
                                                  "    for (int i = 0; i < n; i++) out[i] = 0;\n"
                                                  "    for (;;) break;\n"
                                                  "    int j = 0;\n"
                                                  "    while (j < n\n"
                                                  "           && out[j] == 0) j++;\n"
                                                  "    do {\n"
                                                  "        j--;\n"
                                                  "    } while (j > 0);\n"
                                                  "    for (int v : {1, 2}) j += v;\n"
                                                  "    while (int m = j--) out[0] = m;\n"
                                                  "    for (int a = 0, c = 1; a < c; ++a) ;\n"
                                                  "}\n");
    EXPECT_NE(b.find("for (int i = 0; ::pplab::sim::going_round(3), i < n; i++)"),
              std::string::npos)
        << b;
    EXPECT_NE(b.find("for (;(::pplab::sim::going_round(4), true);) break;"), std::string::npos)
        << b;
    EXPECT_NE(b.find("while (::pplab::sim::going_round(6), j < n\n"
                     "           && out.at(7)[j] == 0) j++;"),
              std::string::npos)
        << b;
    EXPECT_NE(b.find("} while (::pplab::sim::going_round(10), j > 0);"), std::string::npos) << b;
    EXPECT_NE(b.find("for (int v : {1, 2}) j += v;"), std::string::npos) << b;
    EXPECT_NE(b.find("while (int m = j--)"), std::string::npos) << b;
    EXPECT_NE(b.find("for (int a = 0, c = 1; ::pplab::sim::going_round(13), a < c; ++a) ;"),
              std::string::npos)
        << b;
    EXPECT_EQ(std::count(b.begin(), b.end(), '('), std::count(b.begin(), b.end(), ')')) << b;
}

// new, delete, malloc and free become the runtime's device heap, named after the variable they
// are assigned to, each on the line it was on; the line count stays.
TEST(Preprocess, WritesTheDeviceHeapsCalls) {
    const std::string b =
        rewritten_keeping_lines("__global__ void k(float* out, int n)\n"
                                "{\n"
                                "    float* p = new float[n + 1];\n"
                                "    int* h = new int[8]();\n"
                                "    int* c = new int(3);\n"
                                "    float* a = (float*)malloc(n * sizeof(float));\n"
                                "    float* b = static_cast<float*>(malloc(4));\n"
                                "    delete[] p; delete c;\n"
                                "    free(a);\n"
                                "}\n");
    for (const char* expected :
         {"::pplab::sim::ptr<float> p = ::pplab::sim::heap_new<float>(3, \"p\", (n + 1));",
          "::pplab::sim::heap_new<int>(4, \"h\", (8), true);",
          "::pplab::sim::heap_new_one<int>(5, \"c\", 3);",
          "::pplab::sim::heap_malloc<float>(6, \"a\", n * sizeof(float));",
          "(::pplab::sim::heap_malloc<float>(7, \"b\", 4));",
          // the space after `delete[]` and `delete` stays where it was
          "::pplab::sim::heap_delete(8, ::pplab::sim::Taken::NewArray,  p.at(8)); "
          "::pplab::sim::heap_delete(8, ::pplab::sim::Taken::NewOne,  c.at(8));",
          "::pplab::sim::heap_delete(9, ::pplab::sim::Taken::Malloc, a.at(9));"})
        EXPECT_NE(b.find(expected), std::string::npos) << expected << "\n" << b;
}

// A reference to an element becomes auto&&, `auto x = e` takes e's value, and the uses of both
// learn their lines through at(); a later `int r` is no longer watched.
TEST(Preprocess, ReferencesAndAutoLearnTheirLines) {
    const std::string b = rewritten_keeping_lines("__device__ void add(float& into, float v)\n"
                                                  "{ into += v; }\n"
                                                  "__global__ void k(float* out)\n"
                                                  "{\n"
                                                  "    float& r = out[0];\n"
                                                  "    auto v = out[1];\n"
                                                  "    auto* p = out;\n"
                                                  "    r = v + p[2];\n"
                                                  "    { int r = 0; r++; }\n"
                                                  "}\n");
    for (const char* expected :
         {"__device__ void add(auto&& into, ::pplab::sim::reg v)",
          "{ ::pplab::sim::at(into, 2) += v; }", "auto&& r = out.at(5)[0];",
          "auto v = ::pplab::sim::value( out.at(6)[1]);", "auto p = out.at(7);",
          "::pplab::sim::at(r, 8) = ::pplab::sim::at(v, 8) + "
          "::pplab::sim::at(p, 8)[2];",
          "{ int r = 0; r++; }"})
        EXPECT_NE(b.find(expected), std::string::npos) << expected << "\n" << b;
}

} // namespace
// A __device__ variable is watched as a global buffer, over the whole file (a kernel's uses
// of it say their lines); a local of its name hides it; a __device__ function is left alone.
TEST(Preprocess, DeviceVariablesAreWatchedBuffers) {
    const sim::Preprocessed p =
        sim::preprocess("__device__ unsigned int count = 3;\n"
                        "__device__ float totals[8];\n"
                        "__device__ float twice(float x) { return 2 * x; }\n"
                        "__global__ void k(float* o)\n{\n"
                        "  atomicAdd(&count, 1u);\n"
                        "  totals[1] = twice(o[0]);\n"
                        "}\n"
                        "__global__ void j(float* count)\n{\n  count[0] = 1;\n}\n");
    ASSERT_TRUE(p.ok) << p.error.message;
    const std::string text = body(p);
    EXPECT_NE(text.find("static ::std::remove_cv_t<unsigned int> pplab_device_count[1] = {3};"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("::pplab::sim::ref<unsigned int> count = "), std::string::npos) << text;
    EXPECT_NE(text.find("::pplab::sim::ptr<float> totals("), std::string::npos) << text;
    EXPECT_NE(text.find("atomicAdd(&count.at(6), 1u)"), std::string::npos) << text;
    EXPECT_NE(text.find("totals.at(7)[1] = twice("), std::string::npos) << text;
    EXPECT_NE(text.find("__device__ float twice("), std::string::npos) << text;
    EXPECT_NE(text.find("count.at(11)[0] = 1"), std::string::npos) << text; // j's parameter
    // Each line where the student wrote it.
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 12) << text;
}

} // namespace pplab
