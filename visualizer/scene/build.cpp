#include "lookback.hpp"
#include "views.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pplab::scene {

namespace detail {

Grid rounds_grid(const Composer& c, float y, int n, int per_round, float width) {
    const int cols = std::max(1, std::min(n, per_round));
    Grid g = cols * kPitch <= width * 1.001f ? unit_row(0, y, cols) : fitted(0, y, cols, width);
    // Cells fitted narrower than a unit are no taller than kRoundRowPx where they are read
    // close: hist-per-warp reads its 256 bins four to a data[] element, and four rounds of
    // 460-pixel towers filled the canvas, the bars off it.
    constexpr float kRoundRowPx = 64.0f;
    g.cell_h = std::min(g.cell_h, std::max(g.cell_w, c.world(kRoundRowPx * c.opt.text_scale)));
    const float gap = std::min(0.3f, 0.5f * g.cell_h);
    g.pitch_y = std::max(g.cell_h + gap, 1.35f * c.label_em); // room for each round's label
    return g;
}

} // namespace detail

Scene build(const Model& m, std::size_t frame, const ViewOptions& o, float anim) {
    detail::Composer c(m, frame, o, anim);
    switch (m.request().algorithm) {
    case Algorithm::ReduceNaive:
        detail::view_naive(c);
        break;
    case Algorithm::ReduceTree:
    case Algorithm::ReduceCoarsened:
        detail::view_tree(c);
        break;
    case Algorithm::ReduceShuffle:
        detail::view_shuffle(c);
        break;
    case Algorithm::ReduceFull:
        detail::view_full(c);
        break;
    case Algorithm::ReduceAtomic:
        detail::view_atomic(c);
        break;
    case Algorithm::ScanBlelloch:
        detail::view_blelloch(c);
        break;
    case Algorithm::ScanMultiblock:
        detail::view_multiblock(c);
        break;
    case Algorithm::ScanHillisSteele:
        detail::view_hillis_steele(c);
        break;
    case Algorithm::HistGlobal:
    case Algorithm::HistPrivatised:
    case Algorithm::HistPerWarp:
        detail::view_histogram(c);
        break;
    case Algorithm::ScanFast: { // many tiles: the camera follows the one acting
        const detail::LookbackFocus focus = detail::view_lookback(c);
        c.focus_rows = focus.rows;
        c.focus_cells = focus.cells;
        c.focus_written = focus.tile;
        break;
    }
    default: // reduce-fast and hist-fast are timed, never traced: no trace of theirs gets here
        throw std::logic_error("no view for " + std::string(info(m.request().algorithm).id));
    }
    return c.finish();
}

} // namespace pplab::scene
