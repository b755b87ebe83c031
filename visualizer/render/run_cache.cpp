#include "run_cache.hpp"

#include "pplab/bits.hpp"

#include <algorithm>
#include <cstdint>

namespace pplab::render {

std::string RunCache::key(std::string_view text, float px) {
    // The size's exact bits: a text a fraction of a pixel larger is drawn again, not stretched.
    const auto bits = bits_of(px);
    std::string k(reinterpret_cast<const char*>(&bits), sizeof bits);
    k += text;
    return k;
}

const CachedRun* RunCache::find(std::string_view text, float px) const {
    const auto it = runs_.find(key(text, px));
    return it == runs_.end() ? nullptr : &it->second;
}

std::optional<CachedRun> RunCache::place(std::string_view text, float px, int w, int h, int left,
                                         int top) {
    // At least a clear texel between texts (no neighbour bleeds in), each on even texels.
    constexpr int kGap = 2;
    w += w % 2;
    h += h % 2;
    if (w <= 0 || h <= 0 || w + kGap > width_ || h + kGap > height_)
        return std::nullopt;
    if (shelf_x_ + w + kGap > width_) {
        shelf_y_ += shelf_h_;
        shelf_x_ = 0;
        shelf_h_ = 0;
    }
    if (shelf_y_ + h + kGap > height_)
        return std::nullopt;
    const CachedRun run{shelf_x_, shelf_y_, w, h, left, top};
    shelf_x_ += w + kGap;
    shelf_h_ = std::max(shelf_h_, h + kGap);
    runs_[key(text, px)] = run;
    return run;
}

void RunCache::clear() {
    runs_.clear();
    shelf_x_ = shelf_y_ = shelf_h_ = 0;
}

} // namespace pplab::render
