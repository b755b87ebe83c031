// Where texts already drawn lie in the renderer's texture of texts: a value such as "37" at
// 11.6 px is drawn from its glyphs once and then copied, one quad per text instead of one per
// glyph, with no distance field to read (llvmpipe's cost is per fragment; bench/NOTES.md).
// Pure bookkeeping (the GL side is GlRenderer's): shelves packed left to right, top down.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace pplab::render {

struct CachedRun {
    int x = 0, y = 0, w = 0, h = 0; // texels of the cache
    int left = 0, top = 0;          // pixels from the pen on the baseline to (x, y)
};

class RunCache {
public:
    RunCache(int width, int height) : width_(width), height_(height) {}

    const CachedRun* find(std::string_view text, float px) const;
    // Room for a w x h text; nullopt when the texture is full (clear() and draw them again).
    std::optional<CachedRun> place(std::string_view text, float px, int w, int h, int left,
                                   int top);
    void clear();

    int width() const { return width_; }
    int height() const { return height_; }
    std::size_t size() const { return runs_.size(); }

private:
    static std::string key(std::string_view text, float px);

    int width_, height_;
    int shelf_x_ = 0, shelf_y_ = 0, shelf_h_ = 0;
    std::unordered_map<std::string, CachedRun> runs_;
};

} // namespace pplab::render
