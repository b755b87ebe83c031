#include "lookback.hpp"

#include "pplab/io.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace pplab::scene::detail {

namespace {

constexpr float kFoundRow = 2.9f; // below the tiles: what the current tile found
constexpr float kCarryRow = 5.6f; // below that: the carry it added

// Cells wide enough for a prefix of five digits; with many tiles the camera follows the tile
// acting and its window (the scene's focus).
Grid tiles_grid(int tiles, float y) {
    Grid g;
    g.y = y;
    g.cols = tiles;
    g.cell_w = 1.9f;
    g.pitch_x = 2.15f;
    return g;
}

// Grey, so "nothing published" has a swatch that shows on either background.
Rgba nothing_fill(const Composer& c) {
    return mix(c.pal.cell, c.pal.future, 0.45f);
}

struct Shade {
    Rgba fill;
    std::string text;
};

Shade shade(const Composer& c, TileState state, float value) {
    switch (state) {
    case TileState::Aggregate:
        return {c.pal.aggregate, format_value(value)};
    case TileState::Inclusive:
        return {c.pal.inclusive, format_value(value)};
    default:
        return {nothing_fill(c), ""};
    }
}

// The strip's cells are the last `count` pushed: give each its trace cell, for hover.
void refer(Composer& c, std::size_t count, const std::vector<std::optional<CellRef>>& refs,
           const Rgba& border) {
    for (std::size_t k = 0; k < count; ++k) {
        Cell& cell = c.s.cells[c.s.cells.size() - count + k];
        cell.ref = refs[k];
        cell.border = border;
        cell.border_width = 0.05f;
    }
}

void tile_row(Composer& c, const std::vector<LookbackTile>& tiles, const Grid& g, int ticket,
              int current) {
    std::vector<Rgba> fills;
    std::vector<std::string> texts;
    std::vector<std::optional<CellRef>> refs;
    for (const LookbackTile& tile : tiles) {
        const TileState state = tile_state(tile, ticket);
        const float value = state == TileState::Inclusive ? tile.inclusive : tile.aggregate;
        const Shade sh = shade(c, state, value);
        fills.push_back(sh.fill);
        texts.push_back(sh.text);
        const int publish = c.find(Step::TilePublish, 0, 0, tile.tile);
        if (state == TileState::Nothing)
            refs.push_back(std::nullopt);
        else
            refs.push_back(
                CellRef{publish, state == TileState::Inclusive ? kTileInclusive : kTileAggregate});
    }
    c.strip(g, fills, texts, CellRole::Value);
    refer(c, tiles.size(), refs, c.pal.cell_border);
    // Every tile numbered while there is room; every eighth beyond.
    const int every = tiles.size() <= 16 ? 1 : 8;
    for (const LookbackTile& tile : tiles)
        if (tile.tile % every == 0 || tile.tile == current)
            c.note({g.rect(tile.tile).center().x, g.y - 0.25f}, std::to_string(tile.tile),
                   tile.tile == current ? c.pal.text : c.pal.muted, Align::Center, 0.7f);
    if (current >= 0)
        c.outline(inflate(g.rect(current), 0.12f, 0.12f), c.pal.highlight, 0.12f);
    c.row_label(g, "tiles", "as published");
}

// The current tile's look-back: what it found at each predecessor it read, the carry it added
// (arrows from what it added), and the carry's way into the tile's inclusive prefix.
LookbackFocus look_back_rows(Composer& c, const LookbackTile& tile, const Grid& tiles) {
    Grid found = tiles;
    found.y = kFoundRow;
    Grid carry = tiles;
    carry.y = kCarryRow;
    const Rect own = carry.rect(tile.tile);
    Rect window, added = tiles.rect(tile.tile);
    for (const LookbackRead& read : tile.reads) {
        const Rect at = found.rect(read.predecessor);
        window = unite(window, at);
        if (read.added)
            added = unite(added, at);
        Shade sh = shade(c, read.state, read.value);
        if (!read.added)
            sh.fill = mix(sh.fill, c.pal.background, 0.65f);
        Grid one = found;
        one.x = at.x;
        one.cols = 1;
        c.strip(one, {sh.fill}, {sh.text}, CellRole::Read);
        refer(c, 1,
              {CellRef{c.find(Step::LookBack, 0, 0, tile.tile),
                       read.predecessor * kReadValues + kReadValue}},
              c.pal.cell_border);
        // Above the window's bracket, in the gap the arrows below it never cross (the carry's
        // arrow rises at the tile's own column, which no predecessor shares).
        if (read.waits > 0 && tiles.cols <= 16)
            c.note({at.center().x, at.y - 0.3f - 0.25f * c.label_em},
                   "waited " + std::to_string(read.waits), c.pal.muted, Align::Center, 0.65f);
        if (read.added)
            c.s.arrows.push_back(
                Arrow{at.bottom_center(), own.top_center(), c.pal.arrow, 0.05f, 0.25f, false, at});
    }
    if (!window.empty()) {
        c.box(inflate(window, 0.25f, 0.25f));
        c.row_label(found, "tile " + std::to_string(tile.tile) + " found", "nearest first");
    }
    Grid one = carry;
    one.x = own.x;
    one.cols = 1;
    c.strip(one, {c.pal.carry}, {format_value(tile.carry)}, CellRole::Written);
    refer(c, 1, {CellRef{c.find(Step::TilePublish, 0, 0, tile.tile), kTileCarry}},
          c.pal.cell_border);
    c.row_label(carry, "carry", "what it added");
    // carry + aggregate: the inclusive prefix it publishes.
    c.s.arrows.push_back(Arrow{own.top_center(), tiles.rect(tile.tile).bottom_center(), c.pal.carry,
                               0.06f, 0.3f, true, own});
    // The look-back step's own cells: what it found nearest, and the carry; its rows, the tile
    // it publishes into (the carry's arrow rises to it) with them.
    return {unite(unite(window, own), tiles.rect(tile.tile)), unite(added, own),
            tile.reads.empty() ? own : unite(found.rect(tile.reads.front().predecessor), own)};
}

} // namespace

TileState tile_state(const LookbackTile& tile, int ticket) {
    if (tile.inclusive_ticket >= 0 && tile.inclusive_ticket <= ticket)
        return TileState::Inclusive;
    if (tile.aggregate_ticket >= 0 && tile.aggregate_ticket <= ticket)
        return TileState::Aggregate;
    return TileState::Nothing;
}

LookbackFocus view_lookback(Composer& c) {
    const std::vector<LookbackTile> tiles = lookback_tiles(c.t);
    const StepGroup& event = c.m.steps().at(static_cast<std::size_t>(c.step));
    const Grid g = tiles_grid(static_cast<int>(tiles.size()), 0);
    // A prefix of five digits needs the tiles' width: the camera reads that width legibly, not
    // one unit (which put the tiles row above a canvas at 200%).
    c.s.value_width = g.cell_w;
    tile_row(c, tiles, g, event.ticket, event.block);
    const LookbackTile& tile = tiles.at(static_cast<std::size_t>(event.block));
    const bool looked = tile.tile > 0 && event.step == Step::LookBack;
    LookbackFocus focus{g.rect(tile.tile), g.rect(tile.tile), g.rect(tile.tile)};
    if (looked)
        focus = look_back_rows(c, tile, g);
    c.legend(nothing_fill(c), "nothing yet");
    c.legend(c.pal.aggregate, "aggregate");
    c.legend(c.pal.inclusive, "inclusive prefix");
    c.legend(c.pal.highlight, "acting now");
    if (looked)
        c.legend(c.pal.carry, "carry");
    return {inflate(focus.rows, 2.0f * kPitch, 0.6f), inflate(focus.cells, 2.0f * kPitch, 0.6f),
            inflate(focus.tile, 0.6f, 0.6f)};
}

} // namespace pplab::scene::detail
