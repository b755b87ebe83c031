// scan-fast's view (internal to visualizer/scene): the tiles as a row, each in the state the
// current event left it (nothing published, aggregate, inclusive prefix), the current tile's
// look-back window (what it found at each predecessor it read) and the carry it added.
#pragma once

#include "compose.hpp"
#include "pplab/lookback.hpp"

namespace pplab::scene::detail {

// Where the camera looks when the whole row cannot be read: the rows of the tile acting (at a
// look-back, its window and carry), and within them the cells that matter most (the tile,
// what it added, its carry).
struct LookbackFocus {
    Rect rows;
    Rect cells;
    Rect tile; // what a camera showing part keeps: the tile acting, or what its look-back found
};
LookbackFocus view_lookback(Composer& c);

// A tile's descriptor as every event up to `ticket` left it.
TileState tile_state(const LookbackTile& tile, int ticket);

} // namespace pplab::scene::detail
