#include "reference.hpp"

namespace pplab::ref {

double total(const std::vector<float>& in) {
    double s = 0;
    for (const float v : in)
        s += v;
    return s;
}

float serial_fp32_sum(const std::vector<float>& in) {
    float s = 0.0f;
    for (const float v : in)
        s += v;
    return s;
}

std::vector<double> block_sums(const std::vector<float>& in, int block) {
    const std::size_t B = static_cast<std::size_t>(block);
    std::vector<double> out((in.size() + B - 1) / B, 0.0);
    for (std::size_t i = 0; i < in.size(); ++i)
        out[i / B] += in[i];
    return out;
}

std::vector<double> grid_stride_block_sums(const std::vector<float>& in, int grid, int block) {
    const std::size_t B = static_cast<std::size_t>(block), G = static_cast<std::size_t>(grid);
    std::vector<double> out(G, 0.0);
    for (std::size_t i = 0; i < in.size(); ++i)
        out[(i / B) % G] += in[i];
    return out;
}

std::vector<double> warp_sums(const std::vector<float>& in, int block) {
    constexpr std::size_t kWarp = 32;
    const std::size_t B = static_cast<std::size_t>(block);
    const std::size_t blocks = (in.size() + B - 1) / B;
    std::vector<double> out(blocks * (B / kWarp), 0.0);
    for (std::size_t i = 0; i < in.size(); ++i)
        out[i / kWarp] += in[i]; // blocks hold whole warps, so warp i / 32 of the grid
    return out;
}

std::vector<double> exclusive_scan(const std::vector<float>& in) {
    std::vector<double> out(in.size());
    double before = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        out[i] = before;
        before += in[i];
    }
    return out;
}

std::vector<double> inclusive_scan(const std::vector<float>& in) {
    std::vector<double> out(in.size());
    double upto = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        upto += in[i];
        out[i] = upto;
    }
    return out;
}

std::vector<double> counts(const std::vector<float>& in, int bins) {
    std::vector<double> out(static_cast<std::size_t>(bins), 0.0);
    for (const float v : in)
        out.at(static_cast<std::size_t>(v)) += 1;
    return out;
}

std::vector<double> tile(const std::vector<float>& in, std::size_t first, std::size_t count) {
    std::vector<double> out(count, 0.0);
    for (std::size_t k = 0; k < count && first + k < in.size(); ++k)
        out[k] = in[first + k];
    return out;
}

} // namespace pplab::ref
