// Timing on the device: CUDA events around each run, the median of the timed runs after
// warm-ups; and rotating inputs so that no run reads what the previous one left in L2.
#pragma once

#include "cuda/launch.hpp"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace pplab::cuda {

class Events {
public:
    Events() {
        check(cudaEventCreate(&start_), "cudaEventCreate");
        check(cudaEventCreate(&stop_), "cudaEventCreate");
    }
    ~Events() {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }
    Events(const Events&) = delete;
    Events& operator=(const Events&) = delete;

    // Median of `runs` timed calls after `warmups` untimed ones; fn(k) gets the run number.
    double median_ms(const std::function<void(int)>& fn, int warmups, int runs) {
        for (int k = 0; k < warmups; ++k)
            fn(k);
        check(cudaGetLastError(), "a warm-up launch");
        check(cudaDeviceSynchronize(), "the warm-up runs");
        std::vector<float> ms(static_cast<std::size_t>(runs));
        for (int k = 0; k < runs; ++k) {
            check(cudaEventRecord(start_), "cudaEventRecord");
            fn(warmups + k);
            check(cudaEventRecord(stop_), "cudaEventRecord");
            check(cudaEventSynchronize(stop_), "a timed run");
            check(cudaEventElapsedTime(&ms[static_cast<std::size_t>(k)], start_, stop_),
                  "cudaEventElapsedTime");
        }
        check(cudaGetLastError(), "a timed launch");
        return median(ms);
    }

    // Each call timed alone, the calls taken in turn (a, b, a, b, ...) so that launch noise and
    // clock changes fall on all of them alike (issue 14: at 2^20 the launch is most of the
    // time): the median of each, in the order given.
    std::vector<double> in_turn_ms(const std::vector<std::function<void(int)>>& fns, int warmups,
                                   int runs) {
        std::vector<std::vector<float>> ms(fns.size());
        for (int k = 0; k < warmups + runs; ++k)
            for (std::size_t f = 0; f < fns.size(); ++f) {
                check(cudaEventRecord(start_), "cudaEventRecord");
                fns[f](k);
                check(cudaEventRecord(stop_), "cudaEventRecord");
                check(cudaEventSynchronize(stop_), "a timed run");
                float t = 0;
                check(cudaEventElapsedTime(&t, start_, stop_), "cudaEventElapsedTime");
                if (k >= warmups)
                    ms[f].push_back(t);
            }
        check(cudaGetLastError(), "a timed launch");
        std::vector<double> medians;
        for (std::vector<float>& m : ms)
            medians.push_back(median(m));
        return medians;
    }

private:
    static double median(std::vector<float>& ms) {
        std::sort(ms.begin(), ms.end());
        const std::size_t m = ms.size() / 2;
        return ms.size() % 2 ? ms[m] : 0.5 * (ms[m - 1] + ms[m]);
    }

    cudaEvent_t start_{}, stop_{};
};

// Run k reads copy (k % copies) of a region: together the copies span at least four L2s.
struct Rotation {
    std::size_t copies = 1;
    std::size_t offset(int run, std::size_t size) const {
        return static_cast<std::size_t>(run) % copies * size;
    }
};

inline Rotation rotation(std::size_t size_bytes, std::size_t capacity_bytes, std::size_t l2_bytes) {
    Rotation r;
    const std::size_t wanted = (4 * l2_bytes + size_bytes - 1) / size_bytes;
    r.copies = std::max<std::size_t>(1, std::min(wanted, capacity_bytes / size_bytes));
    return r;
}

} // namespace pplab::cuda
