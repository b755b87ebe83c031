// The CUDA-on-CPU runtime (see runtime.hpp). One OS thread runs everything: a block's threads
// are fibers resumed in threadIdx order, each until it waits at a barrier or a warp rendezvous
// or finishes, so the same kernel and input always give the same schedule and the same trace.
#include "runtime.hpp"

#include "pplab/rng.hpp"

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <csetjmp>
#include <csignal>
#include <cstdio>

#include <algorithm>
#include <bit>
#include <cmath>
#include <deque>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <new>
#include <stdexcept>
#include <tuple>

#if defined(__SANITIZE_ADDRESS__)
#define PPLAB_SIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PPLAB_SIM_ASAN 1
#endif
#endif
#if defined(PPLAB_SIM_ASAN)
#include <sanitizer/asan_interface.h>
#endif

namespace pplab::sim {

namespace {
// Where g_self points between fibers, so a register's destructor always finds a thread.
ThreadView g_idle;
} // namespace

ThreadView* g_self = &g_idle;

namespace {
// The latest lines the kernel passed, in a ring (see LastSeen): words a signal handler may read.
constexpr int kRecentLines = 32;
volatile std::sig_atomic_t g_recent[kRecentLines] = {};
volatile std::sig_atomic_t g_recent_next = 0;
volatile std::sig_atomic_t g_seen_block = -1, g_seen_thread = -1, g_seen_pass = 0;

void seen(int line, int block, int thread, int pass) {
    g_recent[g_recent_next] = line;
    g_recent_next = (g_recent_next + 1) % kRecentLines;
    g_seen_block = block;
    g_seen_thread = thread;
    g_seen_pass = pass;
}
} // namespace

LastSeen last_seen() {
    LastSeen w;
    w.line = g_recent[(g_recent_next + kRecentLines - 1) % kRecentLines];
    w.block = g_seen_block;
    w.thread = g_seen_thread;
    w.pass = g_seen_pass;
    w.low = w.high = w.line;
    for (int k = 0; k < kRecentLines; ++k)
        if (const int l = g_recent[k]; l > 0) {
            w.low = w.low > 0 ? std::min(w.low, l) : l;
            w.high = std::max(w.high, l);
        }
    return w;
}

namespace {

namespace ctx = boost::context;

constexpr float kUndefined = std::numeric_limits<float>::quiet_NaN();
constexpr std::size_t kStackBytes = 256 * 1024;

// AddressSanitizer must be told of every switch between stacks (Boost 1.74's fcontext fibers do
// not tell it), or it takes a fiber's frames for the thread's and reports errors that are not
// there, or misses ones that are: before a switch, the stack we go to; on arrival, the fake
// frames (of use-after-return detection) the arriving stack left behind.
struct Stack {
    const void* bottom = nullptr;
    std::size_t size = 0;
    void* fake = nullptr;
};
void switching([[maybe_unused]] Stack& from, [[maybe_unused]] const Stack& to,
               [[maybe_unused]] bool from_ends = false) {
#if defined(PPLAB_SIM_ASAN)
    __sanitizer_start_switch_fiber(from_ends ? nullptr : &from.fake, to.bottom, to.size);
#endif
}
void arrived_on([[maybe_unused]] Stack& here, [[maybe_unused]] Stack* learn_from = nullptr) {
#if defined(PPLAB_SIM_ASAN)
    __sanitizer_finish_switch_fiber(here.fake, learn_from ? &learn_from->bottom : nullptr,
                                    learn_from ? &learn_from->size : nullptr);
#endif
}

std::vector<KernelEntry>& registry() {
    static std::vector<KernelEntry> entries;
    return entries;
}

// Fiber stacks with a guard page below each (a runaway recursion faults instead of writing
// over its neighbour), kept for reuse: a launch of 256 blocks makes 65536 fibers.
class ReusedStacks {
public:
    ctx::stack_context allocate() {
        void* base = nullptr;
        if (!free_.empty()) {
            base = free_.back();
            free_.pop_back();
        } else {
            base = ::mmap(nullptr, kStackBytes + page(), PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (base == MAP_FAILED)
                throw std::bad_alloc();
            ::mprotect(base, page(), PROT_NONE);
        }
        ctx::stack_context sc;
        sc.size = kStackBytes;
        sc.sp = static_cast<char*>(base) + page() + kStackBytes;
        last_ = {static_cast<char*>(base) + page(), kStackBytes, nullptr};
        return sc;
    }
    void deallocate(ctx::stack_context& sc) {
        char* base = static_cast<char*>(sc.sp) - kStackBytes - page();
#if defined(PPLAB_SIM_ASAN)
        ASAN_UNPOISON_MEMORY_REGION(base + page(), kStackBytes); // the next fiber's, clean
#endif
        free_.push_back(base);
    }
    // The stack allocate() gave last.
    const Stack& last() const {
        return last_;
    }
    ~ReusedStacks() {
        for (void* base : free_)
            ::munmap(base, kStackBytes + page());
    }

private:
    static std::size_t page() {
        return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    }
    std::vector<void*> free_;
    Stack last_;
};

// Allocator handle that Boost.Context copies into each fiber.
struct StackHandle {
    ReusedStacks* stacks;
    ctx::stack_context allocate() { return stacks->allocate(); }
    void deallocate(ctx::stack_context& sc) { stacks->deallocate(sc); }
};

// Thrown inside a fiber when the run cannot go on; caught where the fiber starts.
struct Fault {};
// Thrown inside a fiber that went outside memory (or, after one did, ran on too long): the
// thread stops there and the others run on, so that the report names the lowest thread that
// made the mistake (see Impl::stopped_accesses).
struct Stopped {};

enum class State { Runnable, Barrier, Warp, Done };
enum class WarpOpKind { Shuffle, SyncWarp, Vote };

struct WarpOp {
    WarpOpKind kind = WarpOpKind::Shuffle;
    ShuffleKind shuffle = ShuffleKind::Idx;
    int vote = 0;
    unsigned mask = 0;
    std::uint32_t bits = 0;
    int param = 0, width = 32, line = 0;
    const float* watch = nullptr;
    std::uint32_t result = 0;
};

// What one block, thread or flag knows of the other blocks' work: for each block, the block's
// time up to which its accesses are ordered before (0: none). Within a launch only a flag orders
// two blocks: the writer's __threadfence() and then an atomic or volatile write of the flag (a
// release), and the reader's atomic or volatile read that sees it (an acquire).
using Clock = std::vector<std::uint32_t>;
void join(Clock& into, const Clock& from) {
    if (into.size() < from.size())
        into.resize(from.size(), 0);
    for (std::size_t b = 0; b < from.size(); ++b)
        into[b] = std::max(into[b], from[b]);
}
std::uint32_t time_of(const Clock& c, int block) {
    return static_cast<std::size_t>(block) < c.size() ? c[static_cast<std::size_t>(block)] : 0;
}

struct Thread {
    ThreadView view;
    int tid = 0, warp = 0, lane = 0;
    ctx::fiber fiber, back;
    Stack stack; // the fiber's
    State state = State::Runnable;
    int wait_line = 0;
    WarpOp op;
    // Rounds of the accumulation (registers snapshots).
    int round = 0;
    bool closed = false;
    std::vector<float> rounds;
    float close_value = kUndefined;
    // The shuffle whose "after" value the watched register will give.
    int watch_step = -1;
    // Lines of this thread's shared-memory reads since its last write to the first shared
    // array: they did the step's work if a write follows before the barrier.
    std::vector<int> pending_lines;
    // In this barrier interval, on the first shared array: the generation of this thread's last
    // write, and the highest generation among its own writes it has read back since.
    int write_gen = 0, read_gen = 0;
    // Other blocks' work this thread saw published since the block's last barrier; what its
    // last __threadfence() publishes (`fenced`); its last write of global memory since then.
    Clock acquired, released;
    bool fenced = false;
    int unfenced_write_line = 0;
    // Where an own array's overrun lands (own_array_overrun): the compiler's bounds check
    // calls it from a call it takes never to throw, so the Fault cannot unwind through the
    // kernel's frames; a jump back to the thread's start ends it instead.
    std::jmp_buf overrun{};
};

// One cell of a shared array: who touched it in this barrier interval (racecheck's view).
struct Cell {
    std::uint32_t write_epoch = 0, read_epoch = 0, write_warp_sync = 0;
    int writer = -1, write_line = 0, reader = -1, read_line = 0, other_reader = -1;
    std::uint8_t gen = 0;
    bool written = false, atomic_write = false;
};

struct SharedArray {
    Region region{};
    std::vector<unsigned char> storage;
    std::vector<Cell> cells;
    std::string name;
};

struct WriteLog {
    long long index;
    std::uint64_t bits;
    int gen;
};

// One block's state while other blocks are in flight with it (LaunchSpec::resident): swapped in
// and out of the runtime's members, so that everything else sees one block at a time.
struct BlockState {
    std::deque<Thread> threads; // a deque's swap keeps its elements where they are
    BlockObservation obs;
    std::map<int, std::unique_ptr<SharedArray>> shared;
    SharedArray* primary = nullptr;
    std::unique_ptr<SharedArray> dynamic;
    std::map<std::tuple<const void*, int, long long>, Region> own;
    std::uint32_t epoch = 1;
    std::uint32_t time = 1;
    Clock known;
    std::vector<std::uint32_t> warp_sync;
    std::vector<float> interval_start;
    std::vector<WriteLog> interval_log;
    bool interval_dirty = false;
    std::vector<std::vector<int>> interval_lines;
    int arrived = 0, finished = 0;
    std::vector<Hazard> stopped_accesses;
    std::vector<Hazard> unwritten_reads;
};

// One element of a launch's global buffer: who last wrote and read it, and when (the block, its
// barrier interval and its time). Within a launch a barrier orders the threads of one block, a
// flag (see Clock) two blocks; atomics do not race with each other.
struct GlobalCell {
    int writer = -1, write_block = -1, write_line = 0;
    int reader = -1, read_block = -1, read_line = 0;
    std::uint32_t write_epoch = 0, read_epoch = 0;
    std::uint32_t write_time = 0, read_time = 0;
    bool atomic = false;
};

// Memory a thread took from the device heap. Given back, its bytes go but the block stays, so
// a later use of a pointer into it is caught and says where it was given back.
struct HeapBlock {
    Region region{};
    std::vector<unsigned char> storage;
    std::string name;
    Taken how = Taken::NewArray;
    int line = 0;            // where it was taken
    int given_back_line = 0; // where it was given back; 0 while it is live
};

struct Shape {
    Elem elem;
    int elem_size;
    long long count;
};
// A region over new storage of `shape`, every byte 0xFF: memory starts undefined, as on a GPU
// (a float reads NaN, shown "?").
Region poisoned(std::vector<unsigned char>& storage, const std::string& name, Shape shape,
                Space space, int id) {
    storage.assign(static_cast<std::size_t>(shape.count * shape.elem_size), 0xFF);
    Region r;
    r.base = storage.data();
    r.count = shape.count;
    r.elem_size = shape.elem_size;
    r.elem = shape.elem;
    r.space = space;
    r.name = name.c_str();
    r.id = id;
    return r;
}

const char* memory_name(Space s) {
    return s == Space::Shared ? "shared"
           : s == Space::Heap ? "heap"
           : s == Space::Own  ? "own"
                              : "global";
}

// How the kernel took the memory, and how it must give it back, in CUDA's spelling.
const char* taken_with(Taken how) {
    return how == Taken::NewArray ? "new[]" : how == Taken::NewOne ? "new" : "malloc";
}
const char* given_back_with(Taken how) {
    return how == Taken::NewArray ? "delete[]" : how == Taken::NewOne ? "delete" : "free";
}

float as_float(Elem e, const unsigned char* p) {
    switch (e) {
    case Elem::Float: {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    case Elem::Int: {
        int v;
        std::memcpy(&v, p, 4);
        return static_cast<float>(v);
    }
    case Elem::UInt: {
        unsigned v;
        std::memcpy(&v, p, 4);
        return static_cast<float>(v);
    }
    case Elem::UChar:
        return static_cast<float>(*p);
    case Elem::ULL: {
        unsigned long long v;
        std::memcpy(&v, p, 8);
        return static_cast<float>(v);
    }
    case Elem::Other:
        break;
    }
    return kUndefined;
}

std::string lanes_text(const std::vector<int>& lanes) {
    std::string s;
    for (std::size_t k = 0; k < lanes.size();) {
        std::size_t e = k;
        while (e + 1 < lanes.size() && lanes[e + 1] == lanes[e] + 1)
            ++e;
        if (!s.empty())
            s += ", ";
        s += std::to_string(lanes[k]);
        if (e > k) { // two appends: GCC 12's -Wrestrict misfires on "-" + std::string
            s += '-';
            s += std::to_string(lanes[e]);
        }
        k = e + 1;
    }
    return s;
}

} // namespace

const std::vector<KernelEntry>& registered_kernels() {
    return registry();
}

void register_kernel(const KernelEntry& entry) {
    registry().push_back(entry);
}

float Buffer::value(long long i) const {
    return as_float(elem, bytes.data() + i * region.elem_size);
}

struct Runtime::Impl {
    Runtime& owner;
    ReusedStacks stacks;
    const LaunchSpec* spec = nullptr;
    std::deque<Thread> threads;
    Thread* self = nullptr;
    Stack main_stack;       // the scheduler's: the thread's own stack
    bool unwinding = false; // the block is over: parked fibers throw Fault and finish
    BlockObservation obs;
    std::map<int, std::unique_ptr<SharedArray>> shared; // by declaration site
    SharedArray* primary = nullptr;                     // the first one the block declared
    std::unique_ptr<SharedArray> dynamic;
    // The device heap, over the whole run as on a GPU (region.id: the index here).
    std::vector<std::unique_ptr<HeapBlock>> heap;
    long long heap_held = 0, heap_peak = 0; // bytes
    // The launch's global buffers, element by element (racecheck's view, across blocks).
    std::map<const Region*, std::vector<GlobalCell>> global_cells;
    // The regions of pointers into threads' own memory, this block's, by (address, size, count).
    std::map<std::tuple<const void*, int, long long>, Region> own;
    std::uint32_t epoch = 1;
    // The block's time (a __threadfence() moves it on: later accesses are not what the fence
    // published) and what its barriers made known to all its threads (see Clock).
    std::uint32_t time = 1;
    Clock known;
    // The launch's flags: what the fences before their last writes published, by element.
    std::map<std::pair<const Region*, long long>, Clock> published;
    // Blocks that wrote global memory and then a flag with no __threadfence() between them:
    // block -> (the flag's line, the write's line).
    std::map<int, std::pair<int, int>> unfenced_flags;
    std::vector<std::uint32_t> warp_sync;
    std::vector<float> interval_start;
    std::vector<WriteLog> interval_log;
    bool interval_dirty = false;
    // Lines of this interval's work, by the generation of the write they led to (a thread's
    // second write of a cell in one interval is generation 2: the clear-root after the last
    // upsweep level); index 0 holds the barrier that began the interval.
    std::vector<std::vector<int>> interval_lines;
    int arrived = 0;
    int finished = 0; // threads Done, counted: searching them at every arrival cost O(block)
    bool faulted = false;
    // This block's accesses outside memory, not yet reported: each thread that made one has
    // stopped; the others run on until none can (or for kMostPassesAfterAStop lines, a loop
    // waiting for a stopped thread), and the report names the lowest thread and the others.
    std::vector<Hazard> stopped_accesses;
    long long passes_after_stop = 0;
    // This interval's reads of shared memory no thread had written, reported when the interval
    // ends: if another thread writes the cell later in the interval, the read was early, not of
    // memory nobody fills (a missing barrier: racecheck's race), and only the race is said.
    std::vector<Hazard> unwritten_reads;
    static constexpr long long kMostPassesAfterAStop = 1 << 20;
    // (kind, line, other) -> hazard, over all the launches of a run: one mistake, one report
    // (a race in the first launch and again in the one that adds the block totals is one line).
    std::map<std::tuple<int, int, int>, std::size_t> seen;

    explicit Impl(Runtime& o) : owner(o) {}

    // ---- hazards ---------------------------------------------------------------------------
    void hazard(Hazard h) {
        h.pass = spec->pass;
        h.block = static_cast<int>(obs.block);
        const auto key = std::make_tuple(static_cast<int>(h.kind), h.line, h.other_line);
        if (auto it = seen.find(key); it != seen.end() && !h.fatal) {
            ++owner.hazards_[it->second].count;
            return;
        }
        seen[key] = owner.hazards_.size();
        obs.hazard_ids.push_back(owner.hazards_.size());
        owner.hazards_.push_back(std::move(h));
        obs.hazard_interval.push_back(static_cast<int>(obs.shared.size()));
    }
    [[noreturn]] void fatal(Hazard h) {
        report_unwritten_reads();
        if (!stopped_accesses.empty())  // a barrier left waiting for the stopped threads, ...
            h = first_stopped_access(); // ... the access is the fault
        h.fatal = true;
        hazard(std::move(h));
        faulted = true;
        throw Fault{};
    }

    void report_unwritten_reads() {
        std::vector<Hazard> reads;
        swap(reads, unwritten_reads);
        for (Hazard& h : reads)
            hazard(std::move(h));
    }
    // The access of the lowest thread that went outside memory, saying how many others did so
    // on the same line; the list emptied.
    Hazard first_stopped_access() {
        auto& all = stopped_accesses;
        const auto first =
            std::min_element(all.begin(), all.end(), [](const auto& a, const auto& b) {
                return a.threads.front() < b.threads.front();
            });
        Hazard h = *first;
        std::vector<int> others;
        for (const Hazard& o : all)
            if (&o != &*first && o.line == h.line)
                others.push_back(o.threads.front());
        std::sort(others.begin(), others.end());
        if (!others.empty())
            h.message += "; " + std::to_string(others.size()) + " other thread" +
                         (others.size() > 1 ? "s" : "") + " of the block (" + lanes_text(others) +
                         ") did the same on line " + std::to_string(h.line);
        all.clear();
        return h;
    }
    [[noreturn]] void stop_for_access(Hazard h) {
        if (stopped_accesses.empty())
            passes_after_stop = 0;
        stopped_accesses.push_back(std::move(h));
        throw Stopped{};
    }
    // Each line a thread passes: after a thread stopped, the others run on for so long only.
    void passed() {
        if (!stopped_accesses.empty() && self && ++passes_after_stop > kMostPassesAfterAStop)
            throw Stopped{};
    }

    // ---- the schedule ----------------------------------------------------------------------
    void park() {
        Thread& t = *self;
        switching(t.stack, main_stack);
        t.back = std::move(t.back).resume();
        arrived_on(t.stack);
        if (unwinding)
            throw Fault{}; // the block stopped (a fault): unwind the kernel's frames
    }
    void resume(Thread& t) {
        self = &t;
        g_self = &t.view;
        switching(main_stack, t.stack);
        t.fiber = std::move(t.fiber).resume();
        arrived_on(main_stack);
    }

    void start_threads(int block) {
        threads.clear();
        const int block_dim = spec->block;
        for (int tid = 0; tid < block_dim; ++tid) {
            Thread& t = threads.emplace_back();
            t.tid = tid;
            t.warp = tid / 32;
            t.lane = tid % 32;
            t.view.thread_idx = {static_cast<unsigned>(tid), 0, 0};
            t.view.block_idx = {static_cast<unsigned>(block), 0, 0};
            t.view.block_dim = {static_cast<unsigned>(block_dim), 1, 1};
            t.view.grid_dim = {static_cast<unsigned>(spec->grid), 1, 1};
        }
        for (Thread& t : threads) {
            Thread* tp = &t;
            t.fiber =
                ctx::fiber(std::allocator_arg, StackHandle{&stacks}, [this, tp](ctx::fiber&& back) {
                    arrived_on(tp->stack, &main_stack);
                    tp->back = std::move(back);
                    body(*tp);
                    switching(tp->stack, main_stack, true);
                    return std::move(tp->back);
                });
            t.stack = stacks.last();
        }
    }

    void body(Thread& t) {
        if (unwinding) { // never started, and the block is over
            mark_done(t);
            return;
        }
        if (setjmp(t.overrun) != 0) { // own_array_overrun: the hazard is recorded
            mark_done(t);
            return;
        }
        try {
            spec->kernel->invoke(spec->kernel->fn, spec->args.data());
            finish(t);
        } catch (const Stopped&) { // see stopped_accesses
        } catch (const Fault&) {
            faulted = true;
        } catch (const std::bad_alloc&) {
            fault_message(t, "the kernel ran out of memory");
        } catch (const std::exception& e) {
            fault_message(t, std::string("the kernel threw an exception: ") + e.what());
        }
        mark_done(t);
    }
    void mark_done(Thread& t) {
        if (t.state != State::Done)
            ++finished;
        t.state = State::Done;
    }
    void fault_message(Thread& t, std::string message) {
        Hazard h;
        h.kind = HazardKind::Fault;
        h.threads = {t.tid};
        h.message = std::move(message);
        h.fatal = true;
        hazard(std::move(h));
        faulted = true;
    }

    void finish(Thread& t) {
        close_accumulation(t);
        resolve_watch(t);
        mark_done(t);
        // A warp rendezvous may have been waiting only for lanes that have now finished.
        if (arrived > 0 && arrived == live_threads())
            divergent_barrier(t.tid, 0);
    }

    int live_threads() const { return spec->block - finished; }

    void begin_block(int block) {
        obs = BlockObservation{};
        obs.block = block;
        obs.rounds.assign(static_cast<std::size_t>(spec->block), {});
        obs.round_close.assign(static_cast<std::size_t>(spec->block), kUndefined);
        obs.shuffles.assign(static_cast<std::size_t>((spec->block + 31) / 32), {});
        shared.clear();
        own.clear();
        primary = nullptr;
        dynamic.reset();
        epoch = 1;
        time = 1;
        known.clear();
        warp_sync.assign(obs.shuffles.size(), 0);
        interval_start.clear();
        interval_log.clear();
        interval_dirty = false;
        interval_lines.clear();
        arrived = 0;
        finished = 0;
        stopped_accesses.clear();
        unwritten_reads.clear();
        start_threads(block);
    }
    // One round of the block: each runnable thread runs until it waits. False when the block
    // is over (every thread finished, or a fault).
    bool block_round() {
        bool progressed = false;
        for (Thread& t : threads) {
            if (t.state != State::Runnable || !t.fiber)
                continue;
            resume(t);
            progressed = true;
            if (faulted)
                return false;
        }
        if (!stopped_accesses.empty() && (!progressed || finished == spec->block)) {
            report_unwritten_reads();
            Hazard h = first_stopped_access();
            h.fatal = true;
            hazard(std::move(h));
            faulted = true;
            return false;
        }
        if (finished == spec->block)
            return false;
        if (!progressed)
            stalled();
        return !faulted;
    }
    bool end_block() {
        report_unwritten_reads();
        if (!faulted)
            end_interval();
        for (const Thread& t : threads) {
            obs.rounds[static_cast<std::size_t>(t.tid)] = t.rounds;
            obs.round_close[static_cast<std::size_t>(t.tid)] = t.close_value;
        }
        // Fibers still parked (after a fault) or never started finish through the same
        // switches as any other, so that nothing is left for Boost to unwind behind our back.
        unwinding = true;
        for (Thread& t : threads)
            if (t.fiber && t.state != State::Done)
                resume(t);
        unwinding = false;
        g_self = &g_idle;
        self = nullptr;
        threads.clear();
        return !faulted;
    }
    bool run_block(int block) {
        begin_block(block);
        while (block_round()) {
        }
        return end_block();
    }

    void swap_block(BlockState& b) {
        using std::swap;
        swap(threads, b.threads);
        swap(obs, b.obs);
        swap(shared, b.shared);
        swap(primary, b.primary);
        swap(dynamic, b.dynamic);
        swap(own, b.own);
        swap(epoch, b.epoch);
        swap(time, b.time);
        swap(known, b.known);
        swap(warp_sync, b.warp_sync);
        swap(interval_start, b.interval_start);
        swap(interval_log, b.interval_log);
        swap(interval_dirty, b.interval_dirty);
        swap(interval_lines, b.interval_lines);
        swap(arrived, b.arrived);
        swap(finished, b.finished);
        swap(stopped_accesses, b.stopped_accesses);
        swap(unwritten_reads, b.unwritten_reads);
        self = nullptr;
    }

    // Up to spec->resident blocks in flight together, as a GPU keeps several resident: in
    // turn, each runs 0 to 2 rounds (seeded), so blocks go at their own pace and one may
    // overtake another. A thread that polls global memory with a volatile read or an atomic
    // waits there for its next round (yield()), so a block spinning on a flag another block
    // publishes does not stop that block from running. A block ends as in run_block.
    bool run_resident(const std::function<void(const BlockObservation&)>& on_block) {
        std::list<BlockState> flight;
        SplitMix pace{spec->schedule_seed};
        int next = 0;
        while (!faulted && (next < spec->grid || !flight.empty())) {
            while (static_cast<int>(flight.size()) < spec->resident && next < spec->grid) {
                begin_block(next++);
                swap_block(flight.emplace_back());
            }
            for (auto it = flight.begin(); it != flight.end() && !faulted;) {
                swap_block(*it);
                bool going = true;
                for (std::uint32_t k = pace.below(3); k > 0 && going; --k)
                    going = block_round();
                if (going) {
                    swap_block(*it++);
                    continue;
                }
                end_block();
                on_block(obs);
                it = flight.erase(it);
            }
        }
        for (BlockState& b : flight) { // after a fault: the blocks still in flight unwind
            swap_block(b);
            end_block();
        }
        return !faulted;
    }
    // A scheduling point of a launch with blocks in flight together (see run_resident).
    void yield(const Region* r) {
        if (spec->resident > 1 && r->space == Space::Global)
            park();
    }

    // Nobody can run: lanes wait for partners that will never come, or a barrier for
    // threads that went elsewhere.
    void stalled() {
        for (int w = 0; w < static_cast<int>(warp_sync.size()); ++w)
            if (complete_partial(w))
                return;
        std::vector<int> waiting, others;
        int line = 0;
        for (const Thread& t : threads) {
            if (t.state == State::Barrier) {
                waiting.push_back(t.tid);
                line = t.wait_line;
            } else {
                others.push_back(t.tid);
            }
        }
        self = nullptr;
        try {
            divergent_barrier(waiting.empty() ? 0 : waiting.front(), line);
        } catch (const Fault&) {
        }
    }

    [[noreturn]] void divergent_barrier(int tid, int line) {
        std::vector<int> waiting, done, elsewhere;
        for (const Thread& t : threads) {
            if (t.state == State::Barrier) {
                waiting.push_back(t.tid);
                line = line ? line : t.wait_line;
            } else if (t.state == State::Done) {
                done.push_back(t.tid);
            } else {
                elsewhere.push_back(t.tid);
            }
        }
        Hazard h;
        h.kind = HazardKind::DivergentBarrier;
        h.line = line;
        h.threads = waiting.empty() ? std::vector<int>{tid} : waiting;
        h.message =
            "__syncthreads() on line " + std::to_string(line) + " is reached by threads " +
            lanes_text(waiting) + " of block " + std::to_string(obs.block) +
            (done.empty() ? "" : "; threads " + lanes_text(done) + " have finished without it") +
            (elsewhere.empty() ? "" : "; threads " + lanes_text(elsewhere) + " wait elsewhere") +
            ": every thread of the block must reach the same barrier (a barrier inside "
            "an `if` that not all threads take hangs or breaks on a GPU)";
        fatal(std::move(h));
    }

    // ---- barriers --------------------------------------------------------------------------
    // The whole block waits, but not at one barrier: which threads wait where, by the line
    // thread 0's group waits at first.
    [[noreturn]] void different_barriers() {
        std::vector<std::pair<int, std::vector<int>>> at; // line -> threads, as first met
        for (const Thread& w : threads) {
            auto it = std::find_if(at.begin(), at.end(),
                                   [&](const auto& g) { return g.first == w.wait_line; });
            if (it == at.end())
                it = at.insert(at.end(), {w.wait_line, {}});
            it->second.push_back(w.tid);
        }
        std::string where;
        for (const auto& [line, tids] : at)
            where += (where.empty() ? "threads " : "; threads ") + lanes_text(tids) + " at line " +
                     std::to_string(line);
        Hazard h;
        h.kind = HazardKind::DivergentBarrier;
        h.line = at.front().first; // thread 0's
        h.other_line = at[1].first;
        h.threads = {at.front().second.front(), at[1].second.front()};
        h.message = "threads of block " + std::to_string(obs.block) +
                    " wait at different barriers: " + where +
                    ": each __syncthreads() must be reached by the whole block (a barrier inside "
                    "a loop or an `if` that not all threads take hangs or breaks on a GPU)";
        fatal(std::move(h));
    }

    void barrier(int line) {
        Thread& t = *self;
        close_accumulation(t);
        resolve_watch(t);
        t.state = State::Barrier;
        t.wait_line = line;
        ++arrived;
        if (arrived < spec->block) {
            if (arrived == live_threads() && live_threads() < spec->block)
                divergent_barrier(t.tid, line);
            park();
            return;
        }
        for (const Thread& o : threads)
            if (o.wait_line != line)
                different_barriers();
        report_unwritten_reads();
        end_interval();
        if (obs.shared.size() > static_cast<std::size_t>(kMostSnapshotsPerBlock))
            endless_barrier(t.tid, line);
        lines_of_generation(0).push_back(line); // the barrier begins the next step
        for (Thread& o : threads) {
            o.pending_lines.clear(); // reads after a thread's last write finished the step
            o.write_gen = o.read_gen = 0;
            join(known, o.acquired); // what one thread saw published, the block now knows
            o.acquired.clear();
        }
        ++owner.counted_.barriers;
        ++epoch;
        arrived = 0;
        for (Thread& o : threads)
            o.state = State::Runnable;
    }

    [[noreturn]] void endless_barrier(int tid, int line) {
        Hazard h;
        h.kind = HazardKind::Fault;
        h.line = line;
        h.threads = {tid};
        h.message = "block " + std::to_string(obs.block) + " passed __syncthreads() on line " +
                    std::to_string(line) + " so often that it recorded more than " +
                    std::to_string(kMostSnapshotsPerBlock) +
                    " snapshots of shared memory, and was stopped: a loop around the barrier "
                    "that never ends (a stride that never reaches 0)?";
        fatal(std::move(h));
    }

    // Snapshots of the first shared array for the interval that ends here.
    void end_interval() {
        if (!primary) {
            interval_log.clear();
            interval_lines.clear();
            return;
        }
        int maxgen = 0;
        for (const WriteLog& w : interval_log)
            maxgen = std::max(maxgen, w.gen);
        // Generation g's snapshot lights its own lines (the first also the barrier).
        const auto lines_up_to = [&](int first, int last) {
            std::vector<int> lines;
            for (int g = first; g <= last && g < static_cast<int>(interval_lines.size()); ++g)
                lines.insert(lines.end(), interval_lines[static_cast<std::size_t>(g)].begin(),
                             interval_lines[static_cast<std::size_t>(g)].end());
            std::sort(lines.begin(), lines.end());
            lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
            return lines;
        };
        if (maxgen > 1) {
            for (int g = 1; g < maxgen; ++g) {
                std::vector<float> state = interval_start;
                for (const WriteLog& w : interval_log)
                    if (w.gen <= g)
                        state[static_cast<std::size_t>(w.index)] = as_float(
                            primary->region.elem, reinterpret_cast<const unsigned char*>(&w.bits));
                obs.shared.push_back(std::move(state));
                obs.shared_lines.push_back(lines_up_to(g == 1 ? 0 : g, g));
            }
        }
        if (maxgen > 0 || interval_dirty) {
            obs.shared.push_back(primary_values());
            obs.shared_lines.push_back(
                lines_up_to(maxgen > 1 ? maxgen : 0, static_cast<int>(interval_lines.size())));
        }
        interval_start = primary_values();
        interval_log.clear();
        interval_dirty = false;
        interval_lines.clear();
    }

    std::vector<int>& lines_of_generation(int gen) {
        if (static_cast<int>(interval_lines.size()) <= gen)
            interval_lines.resize(static_cast<std::size_t>(gen) + 1);
        return interval_lines[static_cast<std::size_t>(gen)];
    }

    static void note_line(std::vector<int>& lines, int line) {
        const auto at = std::lower_bound(lines.begin(), lines.end(), line);
        if (at == lines.end() || *at != line)
            lines.insert(at, line);
    }

    std::vector<float> primary_values() const {
        const SharedArray& a = *primary;
        std::vector<float> v(static_cast<std::size_t>(a.region.count));
        for (long long i = 0; i < a.region.count; ++i)
            v[static_cast<std::size_t>(i)] =
                a.cells[static_cast<std::size_t>(i)].written
                    ? as_float(a.region.elem, a.storage.data() + i * a.region.elem_size)
                    : kUndefined;
        return v;
    }

    // ---- registers: rounds and watched shuffles --------------------------------------------
    void close_accumulation(Thread& t) {
        if (t.closed)
            return;
        t.closed = true;
        t.close_value = t.view.last_written;
    }
    void input_read(Thread& t, long long index) {
        if (t.closed && spec->rounds == RoundRule::PerElement)
            return;
        long long round = index + 1;
        if (spec->rounds == RoundRule::GridStride) {
            const long long gtid = static_cast<long long>(t.view.block_idx.x) * spec->block + t.tid;
            const long long stride = static_cast<long long>(spec->grid) * spec->block;
            round = index >= gtid ? (index - gtid) / stride + 1 : 1;
        }
        if (round <= t.round)
            return;
        if (!t.closed)
            while (static_cast<long long>(t.rounds.size()) < round - 1)
                t.rounds.push_back(t.view.last_written);
        t.round = static_cast<int>(round);
    }
    void resolve_watch(Thread& t) {
        if (t.watch_step < 0)
            return;
        auto& step =
            obs.shuffles[static_cast<std::size_t>(t.warp)][static_cast<std::size_t>(t.watch_step)];
        step.after[static_cast<std::size_t>(t.lane)] =
            t.view.watched ? *t.view.watched : kUndefined;
        t.watch_step = -1;
        t.view.watched = nullptr;
    }

    // ---- warp rendezvous -------------------------------------------------------------------
    std::uint32_t warp_op(WarpOp op) {
        Thread& t = *self;
        t.pending_lines.clear(); // what it read went into the shuffle, a step of its own
        close_accumulation(t);
        resolve_watch(t);
        if (op.width != 32)
            fatal_message(t, op.line,
                          "pplab's simulator runs shuffles over the whole warp: "
                          "leave out the width argument (or pass 32)");
        if (!(op.mask & (1u << t.lane))) {
            Hazard h;
            h.kind = HazardKind::BadShuffleMask;
            h.line = op.line;
            h.threads = {t.tid};
            h.message = "lane " + std::to_string(t.lane) + " of warp " + std::to_string(t.warp) +
                        " executes a warp operation whose mask leaves it out";
            hazard(std::move(h));
            op.mask |= 1u << t.lane;
        }
        t.op = op;
        t.state = State::Warp;
        if (group_complete(t.warp, op.mask))
            complete(t.warp, op.mask, op.mask);
        else
            park();
        return t.op.result;
    }
    [[noreturn]] void fatal_message(Thread& t, int line, std::string message) {
        Hazard h;
        h.kind = HazardKind::Fault;
        h.line = line;
        h.threads = {t.tid};
        h.message = std::move(message);
        fatal(std::move(h));
    }

    Thread* lane_thread(int warp, int lane) {
        const int tid = warp * 32 + lane;
        return tid < spec->block ? &threads[static_cast<std::size_t>(tid)] : nullptr;
    }
    bool group_complete(int warp, unsigned mask) {
        for (int lane = 0; lane < 32; ++lane) {
            if (!(mask & (1u << lane)))
                continue;
            const Thread* o = lane_thread(warp, lane);
            if (!o || o->state != State::Warp || o->op.mask != mask)
                return false;
        }
        return true;
    }

    // Lanes of one warp wait on a mask whose other lanes will never come: the mask is wrong.
    bool complete_partial(int warp) {
        for (int lane = 0; lane < 32; ++lane) {
            const Thread* t = lane_thread(warp, lane);
            if (!t || t->state != State::Warp)
                continue;
            const unsigned mask = t->op.mask;
            unsigned present = 0;
            std::vector<int> missing;
            for (int l = 0; l < 32; ++l) {
                const Thread* o = lane_thread(warp, l);
                if (o && o->state == State::Warp && o->op.mask == mask)
                    present |= 1u << l;
                else if (mask & (1u << l))
                    missing.push_back(l);
            }
            Hazard h;
            h.kind = HazardKind::BadShuffleMask;
            h.line = t->op.line;
            h.threads = {t->tid};
            char hex[16];
            std::snprintf(hex, sizeof hex, "0x%08x", mask);
            h.message = std::string("the mask ") + hex + " on line " + std::to_string(h.line) +
                        " names lanes " + lanes_text(missing) + " of warp " + std::to_string(warp) +
                        (spec->grid > 1 ? " of block " + std::to_string(obs.block) : "") +
                        ", which do not execute it: the values they should give are undefined "
                        "(shown as ?)";
            self = nullptr;
            hazard(std::move(h));
            complete(warp, mask, present);
            return true;
        }
        return false;
    }

    void complete(int warp, unsigned mask, unsigned present) {
        const WarpOp& first = lane_thread(warp, std::countr_zero(present))->op;
        const std::uint32_t undefined = std::bit_cast<std::uint32_t>(kUndefined);
        ShuffleStep step;
        std::uint32_t ballot = 0;
        for (int lane = 0; lane < 32; ++lane) {
            const Thread* o = lane_thread(warp, lane);
            const bool here = (present >> lane) & 1u;
            step.in[static_cast<std::size_t>(lane)] =
                here ? std::bit_cast<float>(o->op.bits) : (o ? o->view.last_written : kUndefined);
            step.after[static_cast<std::size_t>(lane)] = step.in[static_cast<std::size_t>(lane)];
            if (here && o->op.bits != 0)
                ballot |= 1u << lane;
        }
        step.lanes = present;
        step.line = first.line;
        const int index = static_cast<int>(obs.shuffles[static_cast<std::size_t>(warp)].size());
        for (int lane = 0; lane < 32; ++lane) {
            if (!((present >> lane) & 1u))
                continue;
            Thread& o = *lane_thread(warp, lane);
            if (first.kind == WarpOpKind::Shuffle) {
                const int src = source_lane(o.op, lane);
                o.op.result = ((present >> src) & 1u) ? lane_thread(warp, src)->op.bits : undefined;
                if (o.op.watch) {
                    o.view.watched = o.op.watch;
                    o.watch_step = index;
                } else {
                    step.after[static_cast<std::size_t>(lane)] = kUndefined;
                }
            } else if (first.kind == WarpOpKind::Vote) {
                o.op.result = first.vote == 0   ? ballot
                              : first.vote == 1 ? (ballot != 0)
                                                : ((ballot & present) == present);
            }
            o.state = State::Runnable;
        }
        (void)mask;
        if (first.kind == WarpOpKind::Shuffle) {
            obs.shuffles[static_cast<std::size_t>(warp)].push_back(step);
            ++owner.counted_.shuffles;
        } else if (first.kind == WarpOpKind::SyncWarp)
            ++warp_sync[static_cast<std::size_t>(warp)];
    }

    static int source_lane(const WarpOp& op, int lane) {
        switch (op.shuffle) {
        case ShuffleKind::Idx:
            return op.param & 31;
        case ShuffleKind::Up:
            return lane - op.param >= 0 ? lane - op.param : lane;
        case ShuffleKind::Down:
            return lane + op.param < 32 ? lane + op.param : lane;
        case ShuffleKind::Xor:
            return (lane ^ op.param) & 31;
        }
        return lane;
    }

    // ---- memory ----------------------------------------------------------------------------
    // An access outside live memory: past an array's ends, or into heap memory given back.
    // `why` follows "read of s[70] by thread 3 of block 0".
    [[noreturn]] void bad_access(const Region* r, long long index, int line, const char* what,
                                 const std::string& why, int other_line = 0) {
        Hazard h;
        h.kind = HazardKind::OutOfBounds;
        h.line = line;
        h.other_line = other_line;
        h.threads = {self ? self->tid : 0};
        h.array = r->name;
        h.memory = memory_name(r->space);
        h.index = index;
        h.address = index * r->elem_size;
        h.message = std::string(what) + " " + r->name + "[" + std::to_string(index) +
                    "] by thread " + std::to_string(h.threads[0]) + " of block " +
                    std::to_string(obs.block) + why;
        if (!self)
            fatal(std::move(h));
        stop_for_access(std::move(h));
    }
    [[noreturn]] void overrun(const std::string& type, long long index, bool index_known,
                              int line) {
        Hazard h;
        h.kind = HazardKind::OutOfBounds;
        h.line = line;
        h.threads = {self->tid};
        h.array = "its own array";
        h.memory = memory_name(Space::Own);
        h.index = index_known ? index : -1;
        // "float [4]": its elements, the first extent ("float [2][3]": the index is a row's).
        const auto open = type.find('['), close = type.find(']');
        std::string count = open != std::string::npos && close > open + 1
                                ? type.substr(open + 1, close - open - 1)
                                : std::string();
        if (count.size() > 18 || count.find_first_not_of("0123456789") != std::string::npos)
            count.clear();
        // A 2-D array's first index picks a row.
        const bool rows = close != std::string::npos && type.find('[', close) != std::string::npos;
        const std::string what = rows ? "row" : "element";
        h.message = (index_known ? what + " " + std::to_string(index) : "a " + what) +
                    " of a thread's own array (" + type + ") by thread " +
                    std::to_string(self->tid) + " of block " + std::to_string(obs.block) +
                    (count.empty() ? ": outside its " + what + "s"
                                   : ": outside its " + count + " " + what + "s, 0 to " +
                                         std::to_string(std::stoll(count) - 1));
        h.fatal = true;
        hazard(std::move(h));
        faulted = true;
        std::longjmp(self->overrun, 1);
    }
    void undefined(const char* name, int line) {
        Hazard h;
        h.kind = HazardKind::UninitialisedRead;
        h.line = line;
        h.threads = {self->tid};
        h.array = name;
        h.memory = "register";
        h.message = std::string(name) + ", declared without a value, is read by thread " +
                    std::to_string(self->tid) + " of block " + std::to_string(obs.block) +
                    " before anything is written to it: on a GPU it holds whatever was there "
                    "before, so declare it with a value (float " +
                    name + " = 0.0f;)";
        hazard(std::move(h));
    }
    std::string where_from(const Region* r) {
        if (r->space == Space::Shared)
            return std::string("the shared array ") + r->name;
        if (r->space == Space::Own)
            return "the thread's own array";
        if (r->space == Space::Global)
            return std::string(r->id == kDeviceVariable ? "the __device__ array " : "the buffer ") +
                   r->name;
        const HeapBlock& b = heap_block(r);
        return std::string(r->name) + " got from " + taken_with(b.how) + " on line " +
               std::to_string(b.line);
    }
    void check(const Region* r, long long index, int line, const char* what) {
        if (!r)
            fatal_message(*self, line, "a pointer that points nowhere (nullptr) is used");
        if (r->space == Space::Heap)
            if (const HeapBlock& b = heap_block(r); b.given_back_line > 0)
                bad_access(r, index, line, what,
                           std::string(" after ") + given_back_with(b.how) +
                               " gave it back on line " + std::to_string(b.given_back_line) +
                               ": memory given back is no longer the kernel's",
                           b.given_back_line);
        if (r->space == Space::Own && r->count < 0)
            return; // `&vals[2]`: where its array ends is not known
        if (index < 0 || index >= r->count)
            bad_access(r, index, line, what,
                       ": outside the " + std::to_string(r->count) + " elements of " +
                           where_from(r));
    }
    HeapBlock& heap_block(const Region* r) { return *heap.at(static_cast<std::size_t>(r->id)); }
    SharedArray& array_of(const Region* r) {
        if (dynamic && &dynamic->region == r)
            return *dynamic;
        return *shared.at(r->id);
    }
    bool ordered(const Thread& t, int other, std::uint32_t other_sync) const {
        const Thread& o = threads[static_cast<std::size_t>(other)];
        return o.warp == t.warp && warp_sync[static_cast<std::size_t>(t.warp)] > other_sync;
    }
    // An element as the kernel names it: `s[3]`, or `total` for a __shared__ variable of one
    // (`__shared__ float total;` is an array of one: "total[0]" named what the kernel never wrote).
    static std::string element(const SharedArray& a, long long index) {
        return a.region.count == 1 ? std::string(a.name)
                                   : std::string(a.name) + "[" + std::to_string(index) + "]";
    }
    void race(const Thread& t, int line, int other_tid, int other_line, const SharedArray& a,
              long long index, const char* what) {
        Hazard h;
        h.kind = HazardKind::Race;
        h.line = line;
        h.other_line = other_line;
        h.threads = {t.tid, other_tid};
        h.array = a.name;
        h.memory = "shared";
        h.index = index;
        h.address = index * a.region.elem_size;
        h.message = std::string(what) + " race on " + element(a, index) + ": thread " +
                    std::to_string(t.tid) + " (line " + std::to_string(line) + ") and thread " +
                    std::to_string(other_tid) + " (line " + std::to_string(other_line) +
                    ") of block " + std::to_string(obs.block) +
                    " with no __syncthreads() between them";
        hazard(std::move(h));
    }

    void shared_read(SharedArray& a, long long index, int line) {
        Thread& t = *self;
        t.pending_lines.push_back(line);
        Cell& c = a.cells[static_cast<std::size_t>(index)];
        if (!c.written) {
            Hazard h;
            h.kind = HazardKind::UninitialisedRead;
            h.line = line;
            h.threads = {t.tid};
            h.array = a.name;
            h.memory = "shared";
            h.index = index;
            h.address = index * a.region.elem_size;
            h.message = "thread " + std::to_string(t.tid) + " of block " +
                        std::to_string(obs.block) + " reads " + element(a, index) +
                        " before any thread of the block wrote it: shared memory starts "
                        "undefined in every block";
            unwritten_reads.push_back(std::move(h));
        } else if (c.write_epoch == epoch && c.writer != t.tid &&
                   !ordered(t, c.writer, c.write_warp_sync)) {
            race(t, line, c.writer, c.write_line, a, index, "read-after-write");
        }
        if (&a == primary && c.write_epoch == epoch && c.writer == t.tid)
            t.read_gen = std::max(t.read_gen, static_cast<int>(c.gen));
        if (c.read_epoch != epoch) {
            c.read_epoch = epoch;
            c.reader = t.tid;
            c.read_line = line;
            c.other_reader = -1;
        } else if (c.reader != t.tid) {
            c.other_reader = t.tid;
        }
    }

    void shared_write(SharedArray& a, long long index, std::uint64_t& bits, int line, bool atomic) {
        Thread& t = *self;
        if (&a != primary)
            t.pending_lines.push_back(line);
        Cell& c = a.cells[static_cast<std::size_t>(index)];
        const bool same_interval = c.written && c.write_epoch == epoch;
        if (same_interval && c.writer != t.tid && !(atomic && c.atomic_write) &&
            !ordered(t, c.writer, c.write_warp_sync)) {
            race(t, line, c.writer, c.write_line, a, index, "write-after-write");
            if (a.region.elem == Elem::Float) // which write lands is undefined
                bits = std::bit_cast<std::uint32_t>(kUndefined);
        }
        if (!atomic && c.read_epoch == epoch) {
            const int other = c.reader != t.tid ? c.reader : c.other_reader;
            if (other >= 0 && !ordered(t, other, 0)) {
                race(t, line, other, c.read_line, a, index, "write-after-read");
                // Another thread's earlier read of it, before anyone wrote it, is this race.
                std::erase_if(unwritten_reads, [&](const Hazard& u) {
                    return u.array == a.name && u.index == index && u.threads.front() != t.tid;
                });
            }
        }
        int gen = same_interval && c.writer == t.tid && !atomic ? c.gen + 1 : 1;
        if (&a == primary && !atomic) {
            // A thread's steps follow its program order, and a write that uses what the same
            // thread wrote in this interval comes after it: scanBlock's s[n] = s[n - 1], after
            // the last upsweep level, is the clear-root's.
            gen = std::max({gen, t.write_gen, t.read_gen + 1});
            t.write_gen = gen;
            t.read_gen = 0;
        }
        c.gen = static_cast<std::uint8_t>(std::min(gen, 255));
        c.writer = t.tid;
        c.write_line = line;
        c.write_epoch = epoch;
        c.write_warp_sync = warp_sync[static_cast<std::size_t>(t.warp)];
        c.written = true;
        c.atomic_write = atomic;
        if (&a == primary) {
            // The reads that led to this write did the step's work with it.
            std::vector<int>& lines = lines_of_generation(gen);
            for (const int read : t.pending_lines)
                note_line(lines, read);
            t.pending_lines.clear();
            note_line(lines, line);
            if (atomic)
                interval_dirty = true;
            else
                interval_log.push_back({index, bits, gen});
        }
    }

    // `strong`: a volatile access, which CUDA gives the meaning of a relaxed atomic at system
    // scope (ld.volatile is ld.relaxed.sys): it does not race with another strong access to
    // the element (a look-back polling a flag another block publishes).
    std::uint64_t load(const Region* r, long long index, int line, bool strong) {
        check(r, index, line, "read of");
        if (strong)
            yield(r);
        Thread& t = *self;
        if (r->space == Space::Own) {
            // a thread's own memory: nothing to count or record
        } else if (r->space == Space::Shared) {
            shared_read(array_of(r), index, line);
            ++owner.counted_.shared_reads;
        } else {
            ++owner.counted_.global_reads;
            if (r->space == Space::Global && r->id == spec->input_region) {
                input_read(t, index);
                note_line(obs.input_lines, line);
            }
            if (r->space == Space::Global) {
                global_access(r, index, line, false, strong);
                if (strong)
                    acquire(r, index);
            }
        }
        std::uint64_t bits = 0;
        std::memcpy(&bits, r->base + index * r->elem_size, static_cast<std::size_t>(r->elem_size));
        if (r->space == Space::Global && r->id == spec->watched_region)
            owner.watched_.push_back({obs.block, false, index, bits});
        return bits;
    }

    void store(const Region* r, long long index, std::uint64_t bits, int line, bool strong) {
        check(r, index, line, "write to");
        Thread& t = *self;
        if (r->space == Space::Own) {
            std::memcpy(r->base + index * r->elem_size, &bits,
                        static_cast<std::size_t>(r->elem_size));
            return; // a thread's own memory: nothing to count or record
        }
        close_accumulation(t);
        if (r->space == Space::Shared) {
            shared_write(array_of(r), index, bits, line, false);
            ++owner.counted_.shared_writes;
        } else {
            ++owner.counted_.global_writes;
            if (r->space == Space::Global) {  // a thread's scratch from the heap is no output
                if (r->id != kDeviceVariable) // nor a __device__ variable (a counter, a flag)
                    note_line(obs.output_lines, line);
                global_access(r, index, line, true, strong);
                if (strong)
                    release(r, index, line, false);
                else
                    t.unfenced_write_line = line;
                if (r->id == spec->watched_region)
                    owner.watched_.push_back({obs.block, true, index, bits});
            }
        }
        std::memcpy(r->base + index * r->elem_size, &bits, static_cast<std::size_t>(r->elem_size));
    }

    std::uint64_t atomic(AtomicOp op, const Region* r, long long index, std::uint64_t operand,
                         std::uint64_t compare, int line);

    // A read or write of a launch's global buffer, against the element's last write and read
    // by another thread: racecheck's hazards, across the blocks of the launch too.
    void global_access(const Region* r, long long index, int line, bool write, bool atomic) {
        std::vector<GlobalCell>& cells = global_cells[r];
        if (cells.empty())
            cells.resize(static_cast<std::size_t>(r->count));
        GlobalCell& c = cells[static_cast<std::size_t>(index)];
        const Thread& t = *self;
        const int me = obs.block * spec->block + t.tid;
        // Another thread's access this one is not ordered after: of this block, in this
        // barrier interval; of another block, after what this thread knows of that block.
        const auto unordered = [&](int other, int block, std::uint32_t epoch_at,
                                   std::uint32_t time_at) {
            return other >= 0 && other != me &&
                   (block != obs.block ? known_of(t, block) < time_at : epoch_at == epoch);
        };
        if (unordered(c.writer, c.write_block, c.write_epoch, c.write_time) &&
            !(atomic && c.atomic))
            global_race(r, index, line, write ? "write-after-write" : "read-after-write", c.writer,
                        c.write_line);
        else if (write && !atomic && unordered(c.reader, c.read_block, c.read_epoch, c.read_time))
            global_race(r, index, line, "write-after-read", c.reader, c.read_line);
        if (write) {
            c.writer = me;
            c.write_block = obs.block;
            c.write_line = line;
            c.write_epoch = epoch;
            c.write_time = time;
            c.atomic = atomic;
        } else {
            c.reader = me;
            c.read_block = obs.block;
            c.read_line = line;
            c.read_epoch = epoch;
            c.read_time = time;
        }
    }
    // How far this thread's accesses are ordered after `block`'s (see Clock).
    std::uint32_t known_of(const Thread& t, int block) const {
        return std::max(time_of(known, block), time_of(t.acquired, block));
    }
    // `__threadfence()`: what the block did so far, and what it knows, is published by the
    // thread's next flag; what it does next is not.
    void fence() {
        Thread& t = *self;
        t.released = known;
        join(t.released, t.acquired);
        if (t.released.size() <= static_cast<std::size_t>(obs.block))
            t.released.resize(static_cast<std::size_t>(obs.block) + 1, 0);
        t.released[static_cast<std::size_t>(obs.block)] = time++;
        t.fenced = true;
        t.unfenced_write_line = 0;
    }
    // An atomic or volatile read of a flag: the thread knows what the fences before its writes
    // published.
    void acquire(const Region* r, long long index) {
        if (const auto it = published.find({r, index}); it != published.end())
            join(self->acquired, it->second);
    }
    // An atomic or volatile write of a flag publishes what the thread's last fence did; a plain
    // store of a flag replaces what it published, an atomic adds to it (a release sequence).
    void release(const Region* r, long long index, int line, bool rmw) {
        Thread& t = *self;
        if (t.unfenced_write_line > 0)
            unfenced_flags.try_emplace(obs.block, line, t.unfenced_write_line);
        if (!t.fenced) {
            if (!rmw)
                published.erase({r, index});
            return;
        }
        Clock& c = published[{r, index}];
        if (rmw)
            join(c, t.released);
        else
            c = t.released;
    }
    // What orders two blocks, said for the one that raced with this thread.
    std::string what_orders_blocks(int other_block) const {
        const std::string block = "block " + std::to_string(other_block);
        if (const auto it = unfenced_flags.find(other_block); it != unfenced_flags.end())
            return ": " + block + " wrote global memory (line " +
                   std::to_string(it->second.second) + ") and then a flag (line " +
                   std::to_string(it->second.first) +
                   ") with no __threadfence() between them, so a block that sees the flag may "
                   "still read the old value: put __threadfence() before the flag's write";
        if (known_of(*self, other_block) > 0)
            return ": " + block +
                   " wrote it after the __threadfence() that published its flag: "
                   "write the data first, then __threadfence(), then the flag";
        return ": threads of different blocks are not ordered within a launch (a second launch "
               "is; or a flag: the writer's __threadfence() and then an atomic or volatile write "
               "of the flag, which the reader reads)";
    }
    void global_race(const Region* r, long long index, int line, const char* what, int other,
                     int other_line) {
        const Thread& t = *self;
        const int other_block = other / spec->block, other_tid = other % spec->block;
        Hazard h;
        h.kind = HazardKind::Race;
        h.line = line;
        h.other_line = other_line;
        h.threads = {t.tid, other_tid};
        h.array = r->name;
        h.memory = "global";
        h.index = index;
        h.address = index * r->elem_size;
        const bool scalar = r->id == kDeviceVariable && r->count == 1;
        h.message = std::string(what) + " race on " + r->name +
                    (scalar ? "" : "[" + std::to_string(index) + "]") + ": thread " +
                    std::to_string(t.tid) + " of block " + std::to_string(obs.block) + " (line " +
                    std::to_string(line) + ") and thread " + std::to_string(other_tid) +
                    " of block " + std::to_string(other_block) + " (line " +
                    std::to_string(other_line) + ")" +
                    (other_block == obs.block ? " with no __syncthreads() between them"
                                              : what_orders_blocks(other_block));
        hazard(std::move(h));
    }

    const Region* declare_shared(int site, const char* name, Elem elem, int elem_size,
                                 long long count, int line) {
        auto& slot = shared[site];
        if (!slot) {
            if (count <= 0)
                fatal_message(*self, line,
                              std::string("the __shared__ array ") + name + " has " +
                                  std::to_string(count) +
                                  " elements: give it a size between 1 and what a block's "
                                  "shared memory holds (48 KiB)");
            static_shared_limit(name, count * elem_size, line);
            slot = make_array(site, name, elem, elem_size, count);
            if (!primary) {
                primary = slot.get();
                interval_start = primary_values();
            }
        }
        return &slot->region;
    }
    // nvcc refuses a kernel whose static __shared__ arrays together pass 48 KiB per block
    // (more comes only from the launch, to an extern __shared__ array): so does the simulator.
    void static_shared_limit(const char* name, long long bytes, int line) {
        constexpr long long kStaticSharedBytes = 48 * 1024;
        long long total = bytes;
        std::string arrays;
        for (const auto& [site, a] : shared) {
            if (!a)
                continue;
            const long long b = a->region.count * a->region.elem_size;
            total += b;
            arrays += a->name + " " + bytes_in_words(b) + ", ";
        }
        if (total <= kStaticSharedBytes)
            return;
        if (!arrays.empty()) // more than one array: what each takes
            arrays = " (" + arrays + name + " " + bytes_in_words(bytes) + ")";
        fatal_message(*self, line,
                      "the kernel declares " + bytes_in_words(total) + " of __shared__" + arrays +
                          " and a block holds 48 KiB statically (nvcc refuses the kernel): "
                          "size the arrays by the block (s[TILE]), or take the memory from the "
                          "launch with extern __shared__");
    }
    static std::string bytes_in_words(long long bytes) {
        const std::string kib = std::to_string(bytes / 1024) + " KiB",
                          rest = std::to_string(bytes % 1024) + " bytes";
        return bytes < 1024 ? rest : bytes % 1024 == 0 ? kib : kib + " and " + rest;
    }
    std::unique_ptr<SharedArray> make_array(int site, const char* name, Elem elem, int elem_size,
                                            long long count) {
        auto a = std::make_unique<SharedArray>();
        a->name = name;
        a->cells.assign(static_cast<std::size_t>(count), Cell{});
        a->region = poisoned(a->storage, a->name, {elem, elem_size, count}, Space::Shared, site);
        return a;
    }
    const Region* declare_dynamic(const char* name, Elem elem, int elem_size, int line) {
        if (!dynamic) {
            const long long count = spec->dynamic_shared_bytes / elem_size;
            if (count <= 0)
                fatal_message(*self, line,
                              std::string("extern __shared__ ") + name +
                                  " has no memory: this launch gives the kernel no dynamic "
                                  "shared memory; declare the array with its size instead");
            dynamic = make_array(-1, name, elem, elem_size, count);
            if (!primary) {
                primary = dynamic.get();
                interval_start = primary_values();
            }
        }
        return &dynamic->region;
    }

    const Region* heap_take(Taken how, const char* name, Elem elem, int elem_size, long long count,
                            int line) {
        const std::string what = how == Taken::Malloc ? "malloc" : "new";
        if (count < 0)
            fatal_message(*self, line,
                          what + " is asked for " + std::to_string(count) +
                              (how == Taken::Malloc ? " bytes" : " elements") +
                              ": the size must not be negative");
        // More than the address space holds: the memory limit, as any allocation past it.
        if (count > (1ll << 46) / elem_size) {
            if (const std::new_handler out_of_memory = std::get_new_handler())
                out_of_memory();
            throw std::bad_alloc();
        }
        auto b = std::make_unique<HeapBlock>();
        b->name = *name ? name : "memory"; // `return new float[n];` names nothing
        b->how = how;
        b->line = line;
        b->region = poisoned(b->storage, b->name, {elem, elem_size, count}, Space::Heap,
                             static_cast<int>(heap.size()));
        heap.push_back(std::move(b));
        heap_held += count * elem_size;
        heap_peak = std::max(heap_peak, heap_held);
        return &heap.back()->region;
    }

    void heap_give_back(Taken how, const Region* r, long long offset, int line) {
        if (!r)
            return; // delete of nullptr, free(NULL): nothing to do, as in CUDA
        const std::string with = given_back_with(how);
        if (r->space != Space::Heap)
            fatal_message(*self, line,
                          with + " gives back " + r->name +
                              ", which new or malloc did not give: only memory from the device "
                              "heap is given back (not a __shared__ array, not the kernel's "
                              "buffers)");
        HeapBlock& b = heap_block(r);
        if (b.given_back_line > 0)
            fatal_message(*self, line,
                          with + " gives back " + b.name + " a second time (" +
                              given_back_with(b.how) + " gave it back on line " +
                              std::to_string(b.given_back_line) + ")");
        if (offset != 0)
            fatal_message(*self, line,
                          with + " is given " + b.name + " + " + std::to_string(offset) +
                              ": give back the pointer " + taken_with(b.how) +
                              " returned, not one moved along it");
        if (how != b.how)
            fatal_message(*self, line,
                          b.name + " came from " + taken_with(b.how) + " on line " +
                              std::to_string(b.line) + ", so it is given back with " +
                              given_back_with(b.how) + ", not " + with);
        b.given_back_line = line;
        heap_held -= static_cast<long long>(b.storage.size());
        std::vector<unsigned char>().swap(b.storage);
        b.region.base = nullptr;
    }
};

namespace {
Runtime::Impl* g_impl = nullptr;

template <class T>
std::uint64_t apply(AtomicOp op, std::uint64_t old_bits, std::uint64_t operand_bits,
                    std::uint64_t compare_bits) {
    return to_bits(atomic_result(op, from_bits<T>(old_bits), from_bits<T>(operand_bits),
                                 from_bits<T>(compare_bits)));
}
} // namespace

std::uint64_t Runtime::Impl::atomic(AtomicOp op, const Region* r, long long index,
                                    std::uint64_t operand, std::uint64_t compare, int line) {
    check(r, index, line, "atomic on");
    yield(r);
    Thread& t = *self;
    std::uint64_t old = 0;
    unsigned char* at = r->base + index * r->elem_size;
    std::memcpy(&old, at, static_cast<std::size_t>(r->elem_size));
    std::uint64_t next = old;
    double delta = 0;
    switch (r->elem) {
    case Elem::Float:
        next = apply<float>(op, old, operand, compare);
        delta = static_cast<double>(from_bits<float>(next)) - from_bits<float>(old);
        break;
    case Elem::Int:
        next = apply<int>(op, old, operand, compare);
        delta = static_cast<double>(from_bits<int>(next)) - from_bits<int>(old);
        break;
    case Elem::UInt:
        next = apply<unsigned>(op, old, operand, compare);
        delta = static_cast<double>(from_bits<unsigned>(next)) - from_bits<unsigned>(old);
        break;
    case Elem::ULL:
        next = apply<unsigned long long>(op, old, operand, compare);
        delta = static_cast<double>(next) - static_cast<double>(old);
        break;
    default:
        fatal_message(t, line, "atomics work on float, int, unsigned and unsigned long long here");
    }
    if (r->space == Space::Shared) {
        ++owner.counted_.shared_atomics;
        SharedArray& a = array_of(r);
        if (!a.cells[static_cast<std::size_t>(index)].written)
            shared_read(a, index, line); // an atomic on never-written memory reads garbage
        shared_write(a, index, next, line, true);
        if (&a == primary)
            obs.atomics.push_back({t.round, -1, index, delta, obs.block, t.tid});
    } else if (r->space == Space::Heap) {
        ++owner.counted_.global_atomics;
    } else if (r->space == Space::Own) {
        // an atomic on a thread's own memory: nobody else sees it
    } else {
        ++owner.counted_.global_atomics;
        global_access(r, index, line, true, true);
        acquire(r, index);
        release(r, index, line, true);
        close_accumulation(t);
        if (r->id != kDeviceVariable) { // a ticket or a flag is no output of the kernel's
            note_line(obs.output_lines, line);
            const double operand_value =
                r->elem == Elem::Float ? from_bits<float>(operand) : static_cast<double>(delta);
            obs.atomics.push_back({t.round, r->id, index,
                                   op == AtomicOp::Add ? operand_value : delta, obs.block, t.tid});
        }
    }
    std::memcpy(at, &next, static_cast<std::size_t>(r->elem_size));
    return old;
}

Runtime::Runtime() : impl_(new Impl(*this)) {}
long long Runtime::heap_peak() const {
    return impl_->heap_peak;
}
Runtime::~Runtime() {
    delete impl_;
}

bool Runtime::launch(const LaunchSpec& spec,
                     const std::function<void(const BlockObservation&)>& on_block) {
    impl_->spec = &spec;
    impl_->faulted = false;
    impl_->global_cells.clear();
    impl_->published.clear();
    impl_->unfenced_flags.clear();
    watched_.clear();
    g_impl = impl_;
    if (spec.resident > 1) {
        impl_->run_resident(on_block);
        g_impl = nullptr;
        return !impl_->faulted;
    }
    for (int k = 0; k < spec.grid; ++k) {
        const int b = spec.block_order.empty() ? k : spec.block_order[static_cast<std::size_t>(k)];
        const bool ok = impl_->run_block(b);
        on_block(impl_->obs);
        if (!ok)
            break;
    }
    g_impl = nullptr;
    return !impl_->faulted;
}

// ---- The entry points the student's kernel calls (declared in cuda_sim.hpp) ----------------

namespace {
// Every entry point says where the kernel is, for the time limit's report.
void passing(int line) {
    Runtime::Impl& i = *g_impl;
    seen(line, i.obs.block, i.self ? i.self->tid : -1, i.spec ? i.spec->pass : 0);
    i.passed();
}
} // namespace

std::uint64_t load(const Region* r, long long index, int line, bool strong) {
    passing(line);
    return g_impl->load(r, index, line, strong);
}
void store(const Region* r, long long index, std::uint64_t bits, int line, bool strong) {
    passing(line);
    g_impl->store(r, index, bits, line, strong);
}
std::uint64_t atomic(AtomicOp op, const Region* r, long long index, std::uint64_t operand,
                     std::uint64_t compare, int line) {
    passing(line);
    return g_impl->atomic(op, r, index, operand, compare, line);
}
void going_round(int line) {
    if (g_impl) // a loop outside any launch (a static's initialiser) is nowhere to report
        passing(line);
}
void register_ended(const float* reg) {
    if (!g_impl || !g_impl->self || g_impl->self->view.watched != reg)
        return;
    g_impl->resolve_watch(*g_impl->self);
}
void syncthreads(int line) {
    passing(line);
    g_impl->barrier(line);
}
void threadfence(int line) {
    passing(line);
    g_impl->fence();
}
void syncwarp(int line, unsigned mask) {
    passing(line);
    WarpOp op;
    op.kind = WarpOpKind::SyncWarp;
    op.mask = mask;
    op.line = line;
    g_impl->warp_op(op);
}
std::uint32_t shuffle(ShuffleKind kind, unsigned mask, std::uint32_t bits, int param, int width,
                      const float* watch, int line) {
    passing(line);
    WarpOp op;
    op.kind = WarpOpKind::Shuffle;
    op.shuffle = kind;
    op.mask = mask;
    op.bits = bits;
    op.param = param;
    op.width = width;
    op.watch = watch;
    op.line = line;
    return g_impl->warp_op(op);
}
unsigned vote(int kind, unsigned mask, bool predicate, int line) {
    passing(line);
    WarpOp op;
    op.kind = WarpOpKind::Vote;
    op.vote = kind;
    op.mask = mask;
    op.bits = predicate ? 1u : 0u;
    op.line = line;
    return g_impl->warp_op(op);
}
const Region* shared_array(int site, const char* name, Elem elem, int elem_size, long long count,
                           int line) {
    return g_impl->declare_shared(site, name, elem, elem_size, count, line);
}
const Region* dynamic_shared(const char* name, Elem elem, int elem_size, int line) {
    return g_impl->declare_dynamic(name, elem, elem_size, line);
}
void own_array_overrun(const std::string& type, long long index, bool index_known, int line) {
    if (!g_impl || !g_impl->self || line <= 0) { // not the kernel's: pplab's own bug
        std::fprintf(stderr,
                     "pplab-sim-runner: an array of type %s indexed out of bounds at line %d\n",
                     type.c_str(), line);
        std::abort();
    }
    g_impl->overrun(type, index, index_known, line);
}
void undefined_read(const char* name, int line) {
    if (g_impl && g_impl->self) // a file-scope float read outside a launch: nobody's thread
        g_impl->undefined(name, line);
}
const Region* own_memory(void* base, Elem elem, int elem_size, long long count) {
    Region& r = g_impl->own[{base, elem_size, count}];
    r.base = static_cast<unsigned char*>(base);
    r.count = count;
    r.elem_size = elem_size;
    r.elem = elem;
    r.space = Space::Own;
    r.name = "array";
    return &r;
}
const Region* heap_take(Taken how, const char* name, Elem elem, int elem_size, long long count,
                        int line) {
    passing(line);
    return g_impl->heap_take(how, name, elem, elem_size, count, line);
}
void heap_give_back(Taken how, const Region* r, long long offset, int line) {
    passing(line);
    g_impl->heap_give_back(how, r, offset, line);
}

} // namespace pplab::sim
