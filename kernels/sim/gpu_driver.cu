// The GPU side of a student's kernel (pplab run --backend cuda): nvcc compiles this file with
// the student's (kernel.cu, included below) into one program that pplab runs as a child. It
// makes the buffers, runs the launches the parent lists, copies the output back, and times the
// same launches: CUDA events, warm-ups first, the median of the timed runs, the input rotated
// through four L2's worth of copies. It uses nothing of pplab's.
//
//   pplab-gpu SPEC INPUT.bin OUTPUT.bin
//
// SPEC, one item per line (the parent writes it from the plan):
//   runs R | warmups W
//   buffer NAME BYTES [input]         "input": filled from INPUT.bin (and rotated when timed)
//   zero NAME                         cleared before every run of the launches
//   launch SHAPE GRID BLOCK SHARED ARG...   ARG: a buffer name or a number
//   output NAME                       written to OUTPUT.bin after one untimed run
// stdout: "device NAME", then "ms MEDIAN". Exit 0 done, 3 no device, 4 a CUDA error (stderr).
//
// The kernels' names and signatures are the chapter's; -DPPLAB_KERNEL names the one the
// algorithm launches (SHAPE reduce, scan, hist), and the multi-block scan's are scanBlocks and
// addCarries (SHAPE scan-blocks, add-carries).
#include "kernel.cu"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
    if (e == cudaSuccess)
        return;
    std::fprintf(stderr, "%s: %s (%s)\n", what, cudaGetErrorName(e), cudaGetErrorString(e));
    std::exit(4);
}

struct Launch {
    std::string shape;
    int grid = 1, block = 1;
    std::size_t shared = 0;
    std::vector<std::string> args;
};

struct Spec {
    int runs = 20, warmups = 3;
    std::map<std::string, std::size_t> bytes;
    std::string input; // the buffer INPUT.bin fills
    std::vector<std::string> zero;
    std::vector<Launch> launches;
    std::string output;
};

Spec read_spec(const char* path) {
    Spec s;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string what;
        words >> what;
        if (what == "runs")
            words >> s.runs;
        else if (what == "warmups")
            words >> s.warmups;
        else if (what == "zero")
            s.zero.emplace_back(), words >> s.zero.back();
        else if (what == "output")
            words >> s.output;
        else if (what == "buffer") {
            std::string name, flag;
            std::size_t n = 0;
            words >> name >> n >> flag;
            s.bytes[name] = n;
            if (flag == "input")
                s.input = name;
        } else if (what == "launch") {
            Launch l;
            words >> l.shape >> l.grid >> l.block >> l.shared;
            for (std::string a; words >> a;)
                l.args.push_back(a);
            s.launches.push_back(l);
        }
    }
    return s;
}

class Buffers {
public:
    void* operator[](const std::string& name) const { return at_.at(name); }
    int number(const std::string& arg) const { return std::atoi(arg.c_str()); }
    void make(const std::string& name, std::size_t bytes) {
        void* p = nullptr;
        check(cudaMalloc(&p, std::max<std::size_t>(bytes, 4)), "cudaMalloc");
        // Cleared once, before any run: an element the kernel leaves unwritten reads 0, as
        // the simulator's does; the timed runs clear only what a kernel adds into.
        check(cudaMemset(p, 0, std::max<std::size_t>(bytes, 4)), "cudaMemset");
        owned_.push_back(p);
        at_[name] = p;
    }
    void point(const std::string& name, void* p) { at_[name] = p; }
    ~Buffers() {
        for (void* p : owned_)
            cudaFree(p);
    }

private:
    std::map<std::string, void*> at_;
    std::vector<void*> owned_;
};

// One launch, with the chapter's signature for its shape.
void launch(const Launch& l, const Buffers& b) {
    const dim3 grid(static_cast<unsigned>(l.grid)), block(static_cast<unsigned>(l.block));
    const auto f = [&](std::size_t k) { return static_cast<float*>(b[l.args.at(k)]); };
#if defined(PPLAB_MULTIBLOCK)
    if (l.shape == "scan-blocks")
        scanBlocks<<<grid, block, l.shared>>>(f(0), f(1), f(2), b.number(l.args.at(3)),
                                              b.number(l.args.at(4)) != 0);
    else
        addCarries<<<grid, block, l.shared>>>(f(0), f(1));
#elif defined(PPLAB_HISTOGRAM)
    PPLAB_KERNEL<<<grid, block, l.shared>>>(static_cast<const unsigned char*>(b[l.args.at(0)]),
                                            static_cast<int*>(b[l.args.at(1)]),
                                            b.number(l.args.at(2)));
#else
    PPLAB_KERNEL<<<grid, block, l.shared>>>(f(0), f(1), b.number(l.args.at(2)));
#endif
    check(cudaGetLastError(), "launching your kernel");
}

void run_once(const Spec& s, const Buffers& b) {
    for (const std::string& z : s.zero)
        check(cudaMemsetAsync(b[z], 0, s.bytes.at(z)), "cudaMemset");
    for (const Launch& l : s.launches)
        launch(l, b);
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: pplab-gpu SPEC INPUT.bin OUTPUT.bin\n");
        return 2;
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::fprintf(stderr, "no CUDA device answers on this machine\n");
        return 3;
    }
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    std::printf("device %s\n", p.name);
    const Spec s = read_spec(argv[1]);
    std::ifstream in(argv[2], std::ios::binary);
    const std::vector<char> input((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
    Buffers b;
    for (const auto& [name, bytes] : s.bytes)
        if (name != s.input)
            b.make(name, bytes);
    // The input's copies: together at least four L2s, so no timed run reads what the last left.
    const std::size_t size = std::max<std::size_t>(input.size(), 4);
    std::size_t free_bytes = 0, total = 0;
    check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
    const std::size_t copies = std::max<std::size_t>(
        1, std::min((4 * static_cast<std::size_t>(p.l2CacheSize) + size - 1) / size,
                    free_bytes / 2 / size));
    b.make("input copies", copies * size);
    char* base = static_cast<char*>(b["input copies"]);
    for (std::size_t k = 0; k < copies; ++k)
        check(cudaMemcpy(base + k * size, input.data(), input.size(), cudaMemcpyHostToDevice),
              "copying the input");
    b.point(s.input, base);
    run_once(s, b);
    check(cudaDeviceSynchronize(), "your kernel");
    std::vector<char> out(s.bytes.at(s.output));
    check(cudaMemcpy(out.data(), b[s.output], out.size(), cudaMemcpyDeviceToHost),
          "copying the output back");
    std::ofstream(argv[3], std::ios::binary).write(out.data(), static_cast<long>(out.size()));

    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    std::vector<float> ms;
    for (int k = 0; k < s.warmups + s.runs; ++k) {
        b.point(s.input, base + static_cast<std::size_t>(k) % copies * size);
        check(cudaEventRecord(start), "cudaEventRecord");
        run_once(s, b);
        check(cudaEventRecord(stop), "cudaEventRecord");
        check(cudaEventSynchronize(stop), "a timed run of your kernel");
        float t = 0;
        check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
        if (k >= s.warmups)
            ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    const std::size_t m = ms.size() / 2;
    std::printf("ms %.6f\n", ms.empty() ? 0.0 : ms.size() % 2 ? ms[m] : 0.5 * (ms[m - 1] + ms[m]));
    return 0;
}
