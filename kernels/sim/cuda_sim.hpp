// CUDA's names, given their meaning on the CPU: the header a student's kernel is compiled
// against (embedded into pplab and written to a private cache folder at run time).
//
// Every CUDA thread is a fiber of the runner (kernels/sim/runtime.cpp); the runtime's entry
// points below are defined there and found when the runner loads the compiled kernel. The
// source pre-processor (preprocess.cpp) turns `__shared__` arrays and pointers into `ptr<T>`
// and `float` variables into `reg`, so that every access to shared or global memory is seen
// (with its source line) and every value a snapshot of registers needs is known.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <type_traits>
#include <utility>

namespace pplab::sim {

struct uint3 {
    unsigned x = 0, y = 0, z = 0;
};

// Heap: memory a thread took with new or malloc (CUDA's device heap, in global memory); Own: a
// thread's own array or variable that a pointer points into (registers or local memory).
enum class Space : std::uint8_t { Global, Shared, Heap, Own };
enum class Elem : std::uint8_t { Float, Int, UInt, UChar, ULL, Other };

template <class T>
constexpr Elem elem_of() {
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, float>)
        return Elem::Float;
    else if constexpr (std::is_same_v<U, int>)
        return Elem::Int;
    else if constexpr (std::is_same_v<U, unsigned>)
        return Elem::UInt;
    else if constexpr (std::is_same_v<U, unsigned char>)
        return Elem::UChar;
    else if constexpr (std::is_integral_v<U> && std::is_unsigned_v<U> && sizeof(U) == 8)
        return Elem::ULL; // unsigned long long, and std::uint64_t where that is unsigned long
    else
        return Elem::Other;
}

// A buffer the runtime watches: one global buffer of the launch, or one shared array of the
// block. Accesses go through the runtime, which checks bounds and records them.
struct Region {
    unsigned char* base = nullptr;
    long long count = 0; // elements
    int elem_size = 4;
    Elem elem = Elem::Float;
    Space space = Space::Global;
    const char* name = "";
    int id = 0;
};

// A __device__ variable, as the pre-processor writes it: the file's own storage, watched as a
// global buffer of every launch (bounds, races, the flags that order blocks) and kept over the
// whole run, as a GPU keeps it.
inline constexpr int kDeviceVariable = -2; // its Region::id: no launch's buffer
inline const Region* device_variable(const char* name, Elem elem, int elem_size, void* storage,
                                     std::size_t count) {
    static std::deque<Region> regions; // a deque keeps each where it is
    Region& r = regions.emplace_back();
    r.base = static_cast<unsigned char*>(storage);
    r.count = static_cast<long long>(count);
    r.elem_size = elem_size;
    r.elem = elem;
    r.space = Space::Global;
    r.name = name;
    r.id = kDeviceVariable;
    return &r;
}

// The running CUDA thread as the header sees it. `last_written` is the float register it wrote
// last (the register snapshots of the accumulation); `watched` is the register it passed to its
// last shuffle, whose value after the step the lanes' snapshot needs.
struct ThreadView {
    uint3 thread_idx, block_idx, block_dim, grid_dim;
    float last_written = 0.0f;
    const float* watched = nullptr;
};

// ---- The runtime (defined in the runner) ---------------------------------------------------
extern ThreadView* g_self;
// `strong`: a volatile access (CUDA's relaxed atomic at system scope: it races with no other
// strong access to the element).
std::uint64_t load(const Region* r, long long index, int line, bool strong = false);
void store(const Region* r, long long index, std::uint64_t bits, int line, bool strong = false);
enum class AtomicOp : std::uint8_t { Add, Sub, Max, Min, Exch, Cas, Or, And, Xor, Inc, Dec };

// What an atomic leaves in the element, as CUDA defines each: atomicInc wraps to 0 past `v`,
// atomicDec to `v` from 0 or from above `v`; the bitwise ones are for integers only.
template <class T>
T atomic_result(AtomicOp op, T old, T v, T compare) {
    switch (op) {
    case AtomicOp::Add:
        return static_cast<T>(old + v);
    case AtomicOp::Sub:
        return static_cast<T>(old - v);
    case AtomicOp::Max:
        return old < v ? v : old;
    case AtomicOp::Min:
        return v < old ? v : old;
    case AtomicOp::Exch:
        return v;
    case AtomicOp::Cas:
        return old == compare ? v : old;
    case AtomicOp::Or:
    case AtomicOp::And:
    case AtomicOp::Xor:
        if constexpr (std::is_integral_v<T>)
            return static_cast<T>(op == AtomicOp::Or    ? old | v
                                  : op == AtomicOp::And ? old & v
                                                        : old ^ v);
        break;
    case AtomicOp::Inc:
        if constexpr (std::is_unsigned_v<T>)
            return old >= v ? T(0) : static_cast<T>(old + 1);
        break;
    case AtomicOp::Dec:
        if constexpr (std::is_unsigned_v<T>)
            return old == 0 || old > v ? v : static_cast<T>(old - 1);
        break;
    }
    return old;
}
std::uint64_t atomic(AtomicOp op, const Region* r, long long index, std::uint64_t operand,
                     std::uint64_t compare, int line);
void register_ended(const float* reg);
void syncthreads(int line);
// `__threadfence()`: the thread's next atomic or volatile write publishes what came before.
void threadfence(int line);
void syncwarp(int line, unsigned mask = 0xffffffffu);
enum class ShuffleKind : std::uint8_t { Idx, Up, Down, Xor };
std::uint32_t shuffle(ShuffleKind kind, unsigned mask, std::uint32_t bits, int param, int width,
                      const float* watch, int line);
unsigned vote(int kind, unsigned mask, bool predicate, int line);
// Called by each loop's condition (the pre-processor writes it there): notes only the line.
void going_round(int line);
const Region* shared_array(int site, const char* name, Elem elem, int elem_size, long long count,
                           int line);
const Region* dynamic_shared(const char* name, Elem elem, int elem_size, int line);
// The device heap: `new T[n]`, `new T`, `malloc` and their `delete[]`, `delete`, `free`.
enum class Taken : std::uint8_t { NewArray, NewOne, Malloc };
const Region* heap_take(Taken how, const char* name, Elem elem, int elem_size, long long count,
                        int line);
void heap_give_back(Taken how, const Region* r, long long offset, int line);
// A thread's own array of `count` elements (-1: a pointer of unknown extent, `&vals[2]`).
const Region* own_memory(void* base, Elem elem, int elem_size, long long count);

template <class T>
std::uint64_t to_bits(T v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}
template <class T>
T from_bits(std::uint64_t b) {
    std::remove_cv_t<T> v;
    std::memcpy(&v, &b, sizeof(T));
    return v;
}

template <class T>
class ptr;

// One element of a watched buffer: reading it and writing it go through the runtime.
template <class T>
class ref {
    using V = std::remove_cv_t<T>;

public:
    ref(const Region* region, long long index, int line)
        : region_(region), index_(index), line_(line) {}
    ref(const ref&) = default;

    operator V() const { return from_bits<V>(load(region_, index_, line_, std::is_volatile_v<T>)); }
    ptr<T> operator&() const { return ptr<T>(region_, index_, line_); }

    ref& operator=(V v) requires(!std::is_const_v<T>) {
        store(region_, index_, to_bits(v), line_, std::is_volatile_v<T>);
        return *this;
    }
    ref& operator=(const ref& o) requires(!std::is_const_v<T>) { return *this = static_cast<V>(o); }
    template <class U>
    ref& operator=(const ref<U>& o) requires(!std::is_const_v<T>) {
        return *this = static_cast<V>(o);
    }

#define PPLAB_SIM_COMPOUND(op)                                                                     \
    ref& operator op##=(V v) requires(!std::is_const_v<T>) {                                       \
        const V old = *this;                                                                       \
        return *this = static_cast<V>(old op v);                                                   \
    }
    PPLAB_SIM_COMPOUND(+)
    PPLAB_SIM_COMPOUND(-)
    PPLAB_SIM_COMPOUND(*)
    PPLAB_SIM_COMPOUND(/)
#undef PPLAB_SIM_COMPOUND
    ref& operator++() requires(!std::is_const_v<T>) {
        return *this += V(1);
    }
    V operator++(int) requires(!std::is_const_v<T>) {
        const V old = *this;
        *this = static_cast<V>(old + V(1));
        return old;
    }
    ref& operator--() requires(!std::is_const_v<T>) {
        return *this -= V(1);
    }
    V operator--(int) requires(!std::is_const_v<T>) {
        const V old = *this;
        *this = static_cast<V>(old - V(1));
        return old;
    }

    ref at(int line) const {
        return ref(region_, index_, line);
    }
    const Region* region() const {
        return region_;
    }
    long long index() const {
        return index_;
    }
    int line() const {
        return line_;
    }

private:
    const Region* region_;
    long long index_;
    int line_;
};

// A pointer into a watched buffer, with the source line of its use.
template <class T>
class ptr {
public:
    ptr() = default;
    ptr(std::nullptr_t) {}
    ptr(const Region* region, long long offset, int line)
        : region_(region), offset_(offset), line_(line) {}
    // float* -> const float*, volatile float* (the warp-synchronous reduction's `volatile`).
    template <class U>
    requires(std::is_convertible_v<U*, T*> && !std::is_same_v<U, T>) ptr(const ptr<U>& o)
        : region_(o.region()), offset_(o.offset()), line_(o.line()) {}
    // `(unsigned*)p` of a float* p, `(int*)`: the same elements seen as another type of their
    // size (their bits, as on a GPU), bounds and races still watched. A cast between sizes
    // (`(float4*)in`, `(char*)`) would change what an index means: refused.
    template <class U>
    requires(!std::is_convertible_v<U*, T*>) explicit ptr(const ptr<U>& o)
        : region_(o.region()), offset_(o.offset()), line_(o.line()) {
        static_assert(sizeof(U) == sizeof(T),
                      "pplab's simulator casts a pointer only to a type of the same size "
                      "(float* to unsigned*): index the elements one by one");
    }
    // `&v` of a float variable (a reg): one element of the thread's own.
    template <class R>
    requires(
        std::is_same_v<std::remove_cv_t<R>, class reg>&& std::is_same_v<std::remove_cv_t<T>, float>)
        ptr(R* r)
        : region_(own_memory(const_cast<float*>(&r->value_), Elem::Float, 4, 1)) {
        r->undefined_ = nullptr; // written through the pointer, perhaps: not said as unread
    }
    // A thread's own array (`float* p = vals`): its bounds are checked, nothing is recorded.
    template <std::size_t N>
    ptr(T (&array)[N])
        : region_(own_memory(const_cast<std::remove_cv_t<T>*>(array), elem_of<T>(), sizeof(T),
                             static_cast<long long>(N))) {}
    // `&vals[2]`, `&k`: a raw address, of an extent nobody knows (taken as it comes, so that
    // an array goes to the constructor above, and 0 and NULL still mean nullptr).
    template <class P>
    requires(std::is_same_v<std::remove_cvref_t<P>, T*>) ptr(P&& raw)
        : region_(
              raw ? own_memory(const_cast<std::remove_cv_t<T>*>(raw), elem_of<T>(), sizeof(T), -1)
                  : nullptr) {}

    // Each use in the student's source is rewritten to `name.at(line)`: the variable itself,
    // so `p += 4` and `p = q` still change it, now knowing the line of its latest use.
    ptr& at(int line) {
        line_ = line;
        return *this;
    }
    const ptr& at(int line) const {
        line_ = line;
        return *this;
    }

    ref<T> operator[](long long i) const { return ref<T>(region_, offset_ + i, line_); }
    ref<T> operator*() const { return (*this)[0]; }

    ptr operator+(long long k) const { return ptr(region_, offset_ + k, line_); }
    ptr operator-(long long k) const { return ptr(region_, offset_ - k, line_); }
    friend ptr operator+(long long k, const ptr& p) { return p + k; }
    long long operator-(const ptr& o) const { return offset_ - o.offset_; }
    ptr& operator+=(long long k) {
        offset_ += k;
        return *this;
    }
    ptr& operator-=(long long k) {
        offset_ -= k;
        return *this;
    }
    ptr& operator++() { return *this += 1; }
    ptr& operator--() { return *this -= 1; }
    ptr operator++(int) {
        ptr old = *this;
        ++*this;
        return old;
    }
    ptr operator--(int) {
        ptr old = *this;
        --*this;
        return old;
    }
    bool operator==(const ptr& o) const { return region_ == o.region_ && offset_ == o.offset_; }
    auto operator<=>(const ptr& o) const { return offset_ <=> o.offset_; }
    explicit operator bool() const { return region_ != nullptr; }

    const Region* region() const { return region_; }
    long long offset() const { return offset_; }
    int line() const { return line_; }

private:
    const Region* region_ = nullptr;
    long long offset_ = 0;
    mutable int line_ = 0;
};

// A float declared without a value (`float sum;`), named with its line by the pre-processor. On
// a GPU it holds whatever was there before: read before it is given a value, it is a hazard at
// its declaration (where `= 0.0f` goes) and reads as ? (NaN), never a lucky 0.
struct Undefined {
    const char* name;
    int line;
};
void undefined_read(const char* name, int line);

// A float variable of the kernel. Its writes are noted, so a snapshot of "each thread's
// register" (the accumulation's rounds, the lanes after a shuffle) reads what the code holds.
class reg {
    template <class T>
    friend class ptr;

public:
    reg() = default;
    explicit reg(Undefined u)
        : value_(std::numeric_limits<float>::quiet_NaN()), undefined_(u.name), line_(u.line) {}
    reg(float v) : value_(v) { note(); }
    reg(const reg& o) : value_(o.read()) { note(); }
    template <class U>
    requires(std::is_convertible_v<U, float> && !std::is_same_v<std::remove_cvref_t<U>, reg>)
        reg(const U& u)
        : value_(static_cast<float>(u)) {
        note();
    }
    ~reg() {
        if (g_self->watched == &value_)
            register_ended(&value_);
    }

    reg& operator=(const reg& o) { return set(o.value_); }
    reg& operator=(float v) { return set(v); }
    // `x = s[i]`: an element of watched memory converts to float and to reg alike; this says
    // which.
    template <class T>
    reg& operator=(const ref<T>& r) {
        return set(static_cast<float>(r));
    }
    reg& operator+=(float v) { return set(read() + v); }
    reg& operator-=(float v) { return set(read() - v); }
    reg& operator*=(float v) { return set(read() * v); }
    reg& operator/=(float v) { return set(read() / v); }
    reg& operator++() { return set(read() + 1.0f); }
    reg& operator--() { return set(read() - 1.0f); }
    operator float() const { return read(); }
    const float* address() const { return &value_; }

private:
    void note() const { g_self->last_written = value_; }
    reg& set(float v) {
        value_ = v;
        undefined_ = nullptr;
        note();
        return *this;
    }
    float read() const {
        if (undefined_) {
            undefined_read(undefined_, line_);
            undefined_ = nullptr; // said once; it stays ? until given a value
        }
        return value_;
    }
    float value_ = 0.0f;
    mutable const char* undefined_ = nullptr; // its name while it holds no value
    int line_ = 0;                            // its declaration's
};

// ---- Shuffles, votes, atomics --------------------------------------------------------------
template <class T>
std::uint32_t bits32(T v) {
    static_assert(sizeof(T) == 4, "shuffles move 32-bit values (float, int, unsigned)");
    std::uint32_t b;
    std::memcpy(&b, &v, 4);
    return b;
}
template <class T>
T from32(std::uint32_t b) {
    T v;
    std::memcpy(&v, &b, 4);
    return v;
}

#define PPLAB_SIM_SHUFFLE(fn, kind)                                                                \
    inline float fn(int line, unsigned mask, const reg& var, int param, int width = 32) {          \
        return from32<float>(shuffle(ShuffleKind::kind, mask, bits32(static_cast<float>(var)),     \
                                     param, width, var.address(), line));                          \
    }                                                                                              \
    inline float fn(int line, unsigned mask, float var, int param, int width = 32) {               \
        return from32<float>(                                                                      \
            shuffle(ShuffleKind::kind, mask, bits32(var), param, width, nullptr, line));           \
    }                                                                                              \
    inline int fn(int line, unsigned mask, int var, int param, int width = 32) {                   \
        return from32<int>(                                                                        \
            shuffle(ShuffleKind::kind, mask, bits32(var), param, width, nullptr, line));           \
    }                                                                                              \
    inline unsigned fn(int line, unsigned mask, unsigned var, int param, int width = 32) {         \
        return from32<unsigned>(                                                                   \
            shuffle(ShuffleKind::kind, mask, bits32(var), param, width, nullptr, line));           \
    }
PPLAB_SIM_SHUFFLE(shfl, Idx)
PPLAB_SIM_SHUFFLE(shfl_up, Up)
PPLAB_SIM_SHUFFLE(shfl_down, Down)
PPLAB_SIM_SHUFFLE(shfl_xor, Xor)
#undef PPLAB_SIM_SHUFFLE

template <class T>
T atomic_on(AtomicOp op, const ptr<T>& p, T operand, T compare = T{}) {
    static_assert(!std::is_const_v<T>, "an atomic writes: the pointer must not be const");
    return from_bits<T>(
        atomic(op, p.region(), p.offset(), to_bits(operand), to_bits(compare), p.line()));
}

// Atomics on a thread's own variables (not shared, not global) need no watching.
template <class T>
T atomic_local(AtomicOp op, T* p, T operand, T compare = T{}) {
    const T old = *p;
    *p = atomic_result(op, old, operand, compare);
    return old;
}

// ---- The device heap ------------------------------------------------------------------------
// The pre-processor writes `new float[n]` as heap_new<float>(line, "p", n): memory watched as
// any other global buffer (bounds, use after delete), counted in the run's memory limit.
template <class T>
ptr<T> heap_new(int line, const char* name, long long count, bool zeroed = false) {
    const Region* r = heap_take(Taken::NewArray, name, elem_of<T>(), sizeof(T), count, line);
    if (zeroed && count > 0)
        std::memset(r->base, 0, static_cast<std::size_t>(count) * sizeof(T));
    return ptr<T>(r, 0, line);
}
// `new T`, `new T()`, `new T(v)`: one element.
template <class T, class... V>
ptr<T> heap_new_one(int line, const char* name, const V&... v) {
    const Region* r = heap_take(Taken::NewOne, name, elem_of<T>(), sizeof(T), 1, line);
    if (sizeof...(V) > 0) {
        const std::remove_cv_t<T> value(static_cast<std::remove_cv_t<T>>(v)...);
        std::memcpy(r->base, &value, sizeof(T));
    }
    return ptr<T>(r, 0, line);
}
// `(T*)malloc(bytes)`: as many whole elements as the bytes hold.
template <class T>
ptr<T> heap_malloc(int line, const char* name, long long bytes) {
    const long long count = bytes < 0 ? bytes : bytes / static_cast<long long>(sizeof(T));
    return ptr<T>(heap_take(Taken::Malloc, name, elem_of<T>(), sizeof(T), count, line), 0, line);
}
template <class T>
void heap_delete(int line, Taken how, const ptr<T>& p) {
    heap_give_back(how, p.region(), p.offset(), line);
}

// A use of a variable whose type the pre-processor cannot see (`auto`, a reference): a watched
// pointer or element learns the line, anything else is itself.
template <class T>
decltype(auto) at(T&& v, int line) {
    using U = std::remove_cvref_t<T>;
    if constexpr (requires { v.at(line); } && !std::is_arithmetic_v<U>)
        return v.at(line);
    else
        return std::forward<T>(v);
}

// A float variable, or an element of watched memory, standing alone as an operand of ?:
// (`c ? sum : 0.0f`): its value, so that both operands have one type.
inline float plain(const reg& r) {
    return r;
}
template <class T>
std::remove_cv_t<T> plain(const ref<T>& element) {
    return element;
}
template <class T>
struct is_element : std::false_type {};
template <class T>
struct is_element<ref<T>> : std::true_type {};
template <class T>
requires(!std::is_same_v<std::remove_cvref_t<T>, reg> &&
         !is_element<std::remove_cvref_t<T>>::value) T && plain(T&& v) {
    return std::forward<T>(v);
}

// `auto x = e` takes e's value: an element of watched memory is read once (not kept as a
// watch on the element), and a float is a register as `float x = e` makes it.
template <class T>
auto value(const ref<T>& r) {
    if constexpr (std::is_same_v<std::remove_cv_t<T>, float>)
        return reg(static_cast<float>(r));
    else
        return static_cast<std::remove_cv_t<T>>(r);
}
inline reg value(float v) {
    return reg(v);
}
template <class T>
requires(!std::is_same_v<std::remove_cvref_t<T>, float>) std::decay_t<T> value(T&& v) {
    return std::forward<T>(v);
}

// printf's values: an element of watched memory and a float register are passed as the
// numbers they hold (as objects, through `...`, printf would read garbage), a watched pointer
// as the address it points to.
template <class T>
const T& printable(const T& v) {
    return v;
}
template <class T>
std::remove_cv_t<T> printable(const ref<T>& element) {
    return element;
}
inline double printable(const reg& r) {
    return static_cast<float>(r);
}
template <class T>
const void* printable(const ptr<T>& p) {
    return p.region() && p.region()->base ? p.region()->base + p.offset() * p.region()->elem_size
                                          : nullptr;
}
// A kernel's text (`const char* name = "block";`, a char array): the characters it points to,
// or nullptr where no '\0' ends them inside what it points into (printf would read past it).
template <class C>
requires(std::is_same_v<std::remove_cv_t<C>, char>) const char* text_of(const ptr<C>& p) {
    const Region* r = p.region();
    if (!r || !r->base || p.offset() < 0 || (r->count >= 0 && p.offset() >= r->count))
        return nullptr;
    const char* at = reinterpret_cast<const char*>(r->base) + p.offset();
    if (r->count >= 0 &&
        std::memchr(at, '\0', static_cast<std::size_t>(r->count - p.offset())) == nullptr)
        return nullptr;
    return at;
}
// A kernel's text given to %s: its characters (as an address, %s would be handed a pointer).
template <class C>
requires(std::is_same_v<std::remove_cv_t<C>, char>) const char* printable(const ptr<C>& p) {
    const char* text = text_of(p);
    return text ? text : "(null)";
}
template <class... A>
int print(const char* format, const A&... values) {
    return std::printf(format, printable(values)...);
}
// The format in a variable (`const char* fmt = "%d\n"; printf(fmt, i);`), as CUDA takes it.
template <class C, class... A>
requires(std::is_same_v<std::remove_cv_t<C>, char>) int print(const ptr<C>& format,
                                                              const A&... values) {
    const char* text = text_of(format);
    return text ? print(text, values...) : std::printf("(printf's format has no ending '\\0')\n");
}

// ---- Kernels: how the runner finds and calls them ------------------------------------------
enum class ParamType : std::uint8_t { Pointer, Integer, Unsupported };
struct Param {
    ParamType type = ParamType::Unsupported;
    Elem elem = Elem::Other;
    bool is_const = false;
};
struct Arg {
    const Region* region = nullptr;
    long long value = 0;
};
inline constexpr int kMaxParams = 12;
struct KernelEntry {
    const char* name = "";
    int params = 0;
    Param param[kMaxParams];
    void (*fn)() = nullptr;
    void (*invoke)(void (*fn)(), const Arg* args) = nullptr;
};
void register_kernel(const KernelEntry& entry);

template <class P>
struct param_of {
    static constexpr Param value{
        std::is_integral_v<P> ? ParamType::Integer : ParamType::Unsupported,
        std::is_same_v<P, reg> ? Elem::Float : elem_of<P>(), false}; // `float x`: a reg
    static P make(const Arg& a) {
        if constexpr (std::is_integral_v<P>)
            return static_cast<P>(a.value);
        else
            return P{};
    }
};
template <class T>
struct param_of<ptr<T>> {
    static constexpr Param value{ParamType::Pointer, elem_of<T>(), std::is_const_v<T>};
    static ptr<T> make(const Arg& a) { return ptr<T>(a.region, 0, 0); }
};

template <class... P>
struct Registered {
    Registered(const char* name, void (*fn)(P...)) {
        static_assert(sizeof...(P) <= kMaxParams, "a kernel takes at most 12 parameters here");
        KernelEntry e;
        e.name = name;
        e.params = static_cast<int>(sizeof...(P));
        int k = 0;
        ((e.param[k++] = param_of<std::remove_cvref_t<P>>::value), ...);
        e.fn = reinterpret_cast<void (*)()>(fn);
        e.invoke = [](void (*f)(), const Arg* args) {
            auto typed = reinterpret_cast<void (*)(P...)>(f);
            [&]<std::size_t... I>(std::index_sequence<I...>) {
                typed(param_of<std::remove_cvref_t<P>>::make(args[I])...);
            }
            (std::index_sequence_for<P...>{});
        };
        register_kernel(e);
    }
};

} // namespace pplab::sim

// ---- CUDA's spelling -----------------------------------------------------------------------
#define __global__
#define __device__
#define __constant__ // constant memory: a global the kernel only reads
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __restrict__
#define __launch_bounds__(...)
#define threadIdx (::pplab::sim::g_self->thread_idx)
#define blockIdx (::pplab::sim::g_self->block_idx)
#define blockDim (::pplab::sim::g_self->block_dim)
#define gridDim (::pplab::sim::g_self->grid_dim)
#define warpSize 32
#define __syncthreads() ::pplab::sim::syncthreads(__LINE__)
#define __syncwarp(...) ::pplab::sim::syncwarp(__LINE__ __VA_OPT__(, ) __VA_ARGS__)
#define __shfl_sync(...) ::pplab::sim::shfl(__LINE__, __VA_ARGS__)
#define __shfl_up_sync(...) ::pplab::sim::shfl_up(__LINE__, __VA_ARGS__)
#define __shfl_down_sync(...) ::pplab::sim::shfl_down(__LINE__, __VA_ARGS__)
#define __shfl_xor_sync(...) ::pplab::sim::shfl_xor(__LINE__, __VA_ARGS__)
#define __ballot_sync(mask, pred) ::pplab::sim::vote(0, (mask), (pred), __LINE__)
#define __any_sync(mask, pred) (::pplab::sim::vote(1, (mask), (pred), __LINE__) != 0u)
#define __all_sync(mask, pred) (::pplab::sim::vote(2, (mask), (pred), __LINE__) != 0u)
#define __trap() ::std::abort() // the kernel stops itself: said as an abort, with its last line
#define __threadfence() ::pplab::sim::threadfence(__LINE__)
#define __threadfence_system() ::pplab::sim::threadfence(__LINE__)
// Within a block the simulator orders nothing by a fence (a barrier does): no-op.
#define __threadfence_block() ((void)0)
#define printf(...) ::pplab::sim::print(__VA_ARGS__)

using ::pplab::sim::uint3;
using dim3 = ::pplab::sim::uint3;

#define PPLAB_SIM_ATOMIC(name, op)                                                                 \
    template <class T>                                                                             \
    T name(::pplab::sim::ptr<T> p, std::type_identity_t<T> v) {                                    \
        return ::pplab::sim::atomic_on(::pplab::sim::AtomicOp::op, p, v);                          \
    }                                                                                              \
    template <class T>                                                                             \
    T name(T* p, std::type_identity_t<T> v) {                                                      \
        return ::pplab::sim::atomic_local(::pplab::sim::AtomicOp::op, p, v);                       \
    }
PPLAB_SIM_ATOMIC(atomicAdd, Add)
PPLAB_SIM_ATOMIC(atomicSub, Sub)
PPLAB_SIM_ATOMIC(atomicMax, Max)
PPLAB_SIM_ATOMIC(atomicMin, Min)
PPLAB_SIM_ATOMIC(atomicExch, Exch)
#undef PPLAB_SIM_ATOMIC
// The bitwise atomics: int, unsigned and unsigned long long, as CUDA has them.
#define PPLAB_SIM_ATOMIC_BITS(name, op)                                                            \
    template <class T>                                                                             \
    requires std::is_integral_v<T> T name(::pplab::sim::ptr<T> p, std::type_identity_t<T> v) {     \
        return ::pplab::sim::atomic_on(::pplab::sim::AtomicOp::op, p, v);                          \
    }                                                                                              \
    template <class T>                                                                             \
    requires std::is_integral_v<T> T name(T* p, std::type_identity_t<T> v) {                       \
        return ::pplab::sim::atomic_local(::pplab::sim::AtomicOp::op, p, v);                       \
    }
PPLAB_SIM_ATOMIC_BITS(atomicOr, Or)
PPLAB_SIM_ATOMIC_BITS(atomicAnd, And)
PPLAB_SIM_ATOMIC_BITS(atomicXor, Xor)
#undef PPLAB_SIM_ATOMIC_BITS
// atomicInc and atomicDec: unsigned only, as in CUDA.
inline unsigned atomicInc(::pplab::sim::ptr<unsigned> p, unsigned v) {
    return ::pplab::sim::atomic_on(::pplab::sim::AtomicOp::Inc, p, v);
}
inline unsigned atomicInc(unsigned* p, unsigned v) {
    return ::pplab::sim::atomic_local(::pplab::sim::AtomicOp::Inc, p, v);
}
inline unsigned atomicDec(::pplab::sim::ptr<unsigned> p, unsigned v) {
    return ::pplab::sim::atomic_on(::pplab::sim::AtomicOp::Dec, p, v);
}
inline unsigned atomicDec(unsigned* p, unsigned v) {
    return ::pplab::sim::atomic_local(::pplab::sim::AtomicOp::Dec, p, v);
}
template <class T>
T atomicCAS(::pplab::sim::ptr<T> p, std::type_identity_t<T> compare, std::type_identity_t<T> v) {
    return ::pplab::sim::atomic_on(::pplab::sim::AtomicOp::Cas, p, v, compare);
}
template <class T>
T __ldg(::pplab::sim::ptr<const T> p) {
    return *p;
}

inline float min(float a, float b) {
    return fminf(a, b);
}
inline float max(float a, float b) {
    return fmaxf(a, b);
}
inline int min(int a, int b) {
    return a < b ? a : b;
}
inline int max(int a, int b) {
    return a < b ? b : a;
}
inline unsigned min(unsigned a, unsigned b) {
    return a < b ? a : b;
}
inline unsigned max(unsigned a, unsigned b) {
    return a < b ? b : a;
}
// CUDA's integer and bit-cast intrinsics (CUDA Math API, "Integer Intrinsics" and "Type
// Casting Intrinsics"), exactly: a cast keeps the bits, a count is an int.
inline int __float_as_int(float f) {
    return std::bit_cast<int>(f);
}
inline float __int_as_float(int i) {
    return std::bit_cast<float>(i);
}
inline unsigned __float_as_uint(float f) {
    return std::bit_cast<unsigned>(f);
}
inline float __uint_as_float(unsigned u) {
    return std::bit_cast<float>(u);
}
inline long long __double_as_longlong(double d) {
    return std::bit_cast<long long>(d);
}
inline double __longlong_as_double(long long i) {
    return std::bit_cast<double>(i);
}
// The position of the least significant set bit, counting from 1; 0 when no bit is set.
inline int __ffs(int x) {
    return x == 0 ? 0 : std::countr_zero(static_cast<unsigned>(x)) + 1;
}
inline int __ffsll(long long x) {
    return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1;
}
inline int __popc(unsigned x) {
    return std::popcount(x);
}
inline int __popcll(unsigned long long x) {
    return std::popcount(x);
}
// Leading zeros from the most significant bit: 32 (64) for 0.
inline int __clz(int x) {
    return std::countl_zero(static_cast<unsigned>(x));
}
inline int __clzll(long long x) {
    return std::countl_zero(static_cast<unsigned long long>(x));
}
inline unsigned __brev(unsigned x) {
    unsigned r = 0;
    for (int k = 0; k < 32; ++k, x >>= 1)
        r = (r << 1) | (x & 1u);
    return r;
}
