// The Timing panel's two charts, drawn with ImGui's draw list: each stage's GB/s as a bar
// beside CUB and the copy roof, and GB/s against threads per block.
#pragma once

#include "state.hpp"
#include "timing_view.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace pplab::ui {

// GB/s to pixels along one axis, linear from 0 or logarithmic over the decades shown.
struct Axis {
    double lo = 0, hi = 1;
    bool log = false;
    float p0 = 0, p1 = 1; // pixels of lo and hi

    // The range for values up to `max_value` (and, on a log scale, down to `min_value`); the
    // chart sets the pixels.
    static Axis over(double max_value, double min_value, bool log) {
        Axis a;
        a.log = log;
        if (log) {
            a.lo = std::pow(10.0, std::floor(std::log10(std::max(min_value, 1e-3))));
            a.hi = std::pow(10.0, std::ceil(std::log10(std::max(max_value, a.lo * 10))));
        } else {
            const double step = nice_step(max_value * 1.05);
            a.lo = 0;
            a.hi = std::ceil(max_value * 1.05 / step) * step;
        }
        return a;
    }
    static double nice_step(double range) {
        const double raw = range / 5;
        const double p = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
        for (const double m : {1.0, 2.0, 5.0})
            if (m * p >= raw)
                return m * p;
        return 10 * p;
    }
    float at(double v) const {
        const double t =
            log ? (std::log10(std::max(v, lo)) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
                : (v - lo) / (hi - lo);
        return p0 + static_cast<float>(std::clamp(t, 0.0, 1.0)) * (p1 - p0);
    }
    std::vector<double> ticks() const {
        std::vector<double> out;
        if (log) {
            for (double v = lo; v <= hi * 1.001; v *= 10)
                out.push_back(v);
        } else {
            const double step = nice_step(hi);
            for (double v = 0; v <= hi * 1.0001; v += step)
                out.push_back(v);
        }
        return out;
    }
};

// One axis for both charts: up to the largest figure on show (down to the smallest on a log
// scale), so a bar and a point at the same GB/s sit at the same place.
Axis chart_axis(const Bars& bars, const std::vector<BlockSeries>& series, bool log_scale);

std::string gbps_text(double v);

// One row per stage, CUB and the copy roof as reference lines.
void bars_chart(const State& st, Family f, const Bars& bars, const Axis& shape, float width);
// GB/s against threads per block, `highlight` (0: none) marked.
void block_plot(const State& st, Family f, const std::vector<BlockSeries>& series, const Bars& refs,
                const Axis& shape, int highlight, float width, float height);

} // namespace pplab::ui
