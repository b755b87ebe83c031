// The scene builder without any GL: which cells, arrows and highlights a frame produces.
#include "fixtures.hpp"

#include "pplab/io.hpp"

#include "scene/camera.hpp"
#include "scene/lookback.hpp"
#include "scene/overlay.hpp"
#include "scene/view.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>

namespace pplab::scene {
namespace {

using test::request;
using test::seq;
using test::trace;

const Palette kPal = palette(Theme::Light);

std::vector<const Cell*> cells_of(const Scene& s, int frame) {
    std::vector<const Cell*> out;
    for (const Cell& c : s.cells)
        if (c.ref && c.ref->frame == frame)
            out.push_back(&c);
    std::sort(out.begin(), out.end(),
              [](const Cell* a, const Cell* b) { return a->ref->cell < b->ref->cell; });
    return out;
}

const Cell& cell_at(const Scene& s, int frame, int cell) {
    for (const Cell& c : s.cells)
        if (c.ref && c.ref->frame == frame && c.ref->cell == cell)
            return c;
    throw std::runtime_error("no cell " + std::to_string(cell) + " of frame " +
                             std::to_string(frame));
}

std::size_t count_arrows(const Scene& s, const Rgba& color) {
    return static_cast<std::size_t>(
        std::count_if(s.arrows.begin(), s.arrows.end(),
                      [&](const Arrow& a) { return a.color == color && a.head > 0; }));
}

// An arrow from the bottom of cell a to the top of cell b, in color.
bool has_arrow(const Scene& s, const Rect& a, const Rect& b, const Rgba& color) {
    return std::any_of(s.arrows.begin(), s.arrows.end(), [&](const Arrow& ar) {
        return ar.color == color && std::abs(ar.from.x - a.center().x) < 1e-3f &&
               ar.from.y >= a.bottom() && std::abs(ar.to.x - b.center().x) < 1e-3f &&
               ar.to.y <= b.y;
    });
}

int find_frame(const Model& m, Step st, int level, int block = 0, int warp = -1) {
    return m.dataflow().find(st, 0, level, block, warp);
}

// Exercise 3: the downsweep on [1, 2, 3, 4]; level 1 ends in [0, 1, 3, 6].
TEST(SceneBuilder, BlellochDownsweepOn1234) {
    const auto m = trace(request(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4));
    const int down0 = find_frame(*m, Step::Downsweep, 0);
    const int down1 = find_frame(*m, Step::Downsweep, 1);
    ASSERT_GE(down1, 0);
    const Scene s = build(*m, static_cast<std::size_t>(down1), {});

    const auto row = cells_of(s, down1);
    ASSERT_EQ(row.size(), 4u);
    const std::vector<std::string> expect = {"0", "1", "3", "6"};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(row[i]->text, expect[i]);
        EXPECT_EQ(row[i]->role, CellRole::Written) << "every slot is written at stride 1";
        EXPECT_EQ(row[i]->fill, kPal.highlight);
    }
    // The carry (old s[t]) goes left unchanged and stays right; the left sum joins it on the right.
    const Rect& c1 = cell_at(s, down0, 1).rect;
    const Rect& c3 = cell_at(s, down0, 3).rect;
    EXPECT_TRUE(has_arrow(s, c1, row[0]->rect, kPal.carry))
        << "carry of the pair (0, 1) passed left";
    EXPECT_TRUE(has_arrow(s, c1, row[1]->rect, kPal.carry)) << "carry kept by the right child";
    EXPECT_TRUE(has_arrow(s, cell_at(s, down0, 0).rect, row[1]->rect, kPal.left_sum));
    EXPECT_TRUE(has_arrow(s, c3, row[2]->rect, kPal.carry));
    EXPECT_TRUE(has_arrow(s, c3, row[3]->rect, kPal.carry));
    EXPECT_TRUE(has_arrow(s, cell_at(s, down0, 2).rect, row[3]->rect, kPal.left_sum));
    EXPECT_EQ(count_arrows(s, kPal.carry), 4u);
    EXPECT_EQ(count_arrows(s, kPal.left_sum), 2u);
    EXPECT_NE(s.caption.find("Downsweep level 1"), std::string::npos);
}

// The tree's level 1 at block 8: threads 0-1 add s[t+2] into s[t].
TEST(SceneBuilder, TreeLevel2AtBlock8) {
    const auto m = trace(request(Algorithm::ReduceTree, seq(8), 8));
    const int l1 = find_frame(*m, Step::TreeLevel, 0);
    const int l2 = find_frame(*m, Step::TreeLevel, 1);
    const Scene s = build(*m, static_cast<std::size_t>(l2), {});
    const auto row = cells_of(s, l2);
    ASSERT_EQ(row.size(), 8u);
    EXPECT_EQ(row[0]->text, "16"); // 6 + 10
    EXPECT_EQ(row[1]->text, "20"); // 8 + 12
    for (int t = 0; t < 8; ++t)
        EXPECT_EQ(row[static_cast<std::size_t>(t)]->role,
                  t < 2 ? CellRole::Written : CellRole::Unchanged)
            << t;
    EXPECT_EQ(row[0]->fill, kPal.highlight);
    for (int t = 0; t < 2; ++t) {
        EXPECT_TRUE(has_arrow(s, cell_at(s, l1, t + 2).rect, row[static_cast<std::size_t>(t)]->rect,
                              kPal.arrow))
            << "s[" << t + 2 << "] -> s[" << t << "]";
        EXPECT_TRUE(has_arrow(s, cell_at(s, l1, t).rect, row[static_cast<std::size_t>(t)]->rect,
                              kPal.arrow_own));
    }
    EXPECT_EQ(count_arrows(s, kPal.arrow), 2u)
        << "only the current level's flow is drawn in the flow colour";
    // The threads strip: 2 of 8 threads lit, the rest of the (one) warp not.
    const auto lit = std::count_if(s.panels.begin(), s.panels.end(), [&](const Cell& c) {
        return c.role == CellRole::Active && c.rect.y < row[0]->rect.y &&
               c.rect.y > row[0]->rect.y - 1;
    });
    EXPECT_EQ(lit, 2);
    // Level 3 is not reached yet: its cells are empty outlines.
    for (const Cell* c : cells_of(s, find_frame(*m, Step::TreeLevel, 2))) {
        EXPECT_EQ(c->role, CellRole::Future);
        EXPECT_TRUE(c->text.empty());
    }
}

// A student's trace that departs from the chapter kernel's at one cell: that frame's caption
// says where first (the cell, yours, the chapter's), then the chapter's words; every other
// frame's caption is the chapter's alone, and the canvas shows the same caption. (The chapter's
// captions over a student's kernel said what the chapter's kernel did, whatever theirs did.)
TEST(SceneBuilder, AStudentsCaptionSaysWhereTheirKernelDeparts) {
    const auto chapter = trace(request(Algorithm::ReduceTree, seq(8), 8));
    const int l0 = find_frame(*chapter, Step::TreeLevel, 0);
    Trace yours = chapter->trace();
    yours.frames[static_cast<std::size_t>(l0)].values[0] = 5.0f; // s[0] = s[4]: the + forgotten
    const scene::Model m(yours, chapter->trace());
    const auto at = static_cast<std::size_t>(l0);
    EXPECT_EQ(m.caption(at), "Your kernel departs here: s[0] is 5 where the chapter's kernel "
                             "leaves 6. The chapter's step: " +
                                 chapter->dataflow().caption(at));
    for (std::size_t f = 0; f < yours.frames.size(); ++f)
        if (f != at) {
            EXPECT_EQ(m.caption(f), chapter->dataflow().caption(f)) << f;
        }
    EXPECT_EQ(build(m, at, {}).caption, m.caption(at));
}

// A shuffle step with offset 16: lanes 0-15 add lane+16, lanes 16-31 keep their own value.
TEST(SceneBuilder, ShuffleOffset16) {
    const auto m = trace(request(Algorithm::ReduceShuffle, seq(32), 32));
    const int load = find_frame(*m, Step::Load, 0, 0, 0);
    const int sh1 = find_frame(*m, Step::Shuffle, 1, 0, 0);
    const Scene s = build(*m, static_cast<std::size_t>(sh1), {});
    const auto row = cells_of(s, sh1);
    ASSERT_EQ(row.size(), 32u);
    for (int lane = 0; lane < 32; ++lane) {
        const Cell& c = *row[static_cast<std::size_t>(lane)];
        if (lane < 16) {
            EXPECT_EQ(c.role, CellRole::Written) << lane;
            EXPECT_EQ(c.text, std::to_string(2 * lane + 18)) << "(lane+1) + (lane+17)";
            EXPECT_TRUE(has_arrow(s, cell_at(s, load, lane + 16).rect, c.rect, kPal.arrow)) << lane;
        } else {
            EXPECT_EQ(c.role, CellRole::KeepsOwn) << lane;
            EXPECT_EQ(c.border, kPal.keeps_own);
            EXPECT_EQ(c.text, std::to_string(2 * (lane + 1))) << "its own value, twice";
            EXPECT_TRUE(has_arrow(s, cell_at(s, load, lane).rect, c.rect, kPal.keeps_own)) << lane;
        }
    }
    EXPECT_EQ(count_arrows(s, kPal.arrow), 16u);
    EXPECT_EQ(count_arrows(s, kPal.keeps_own), 16u);
}

// Mid-transition the values are on their way: movers exist and nothing is lit yet.
TEST(SceneBuilder, ValuesTravelAlongTheirArrows) {
    const auto m = trace(request(Algorithm::ReduceTree, seq(8), 8));
    const auto l1 = static_cast<std::size_t>(find_frame(*m, Step::TreeLevel, 0));
    const Scene start = build(*m, l1, {}, 0.0f);
    const Scene mid = build(*m, l1, {}, 0.5f);
    const Scene end = build(*m, l1, {}, 1.0f);
    EXPECT_TRUE(start.movers.empty());
    // 4 threads, 2 operands each: every s[t + stride] on its way; an s[t] that would meet
    // one in flight waits out of sight (no two values read as one number).
    EXPECT_GE(mid.movers.size(), 4u);
    EXPECT_LT(mid.movers.size(), 8u);
    EXPECT_TRUE(end.movers.empty());
    EXPECT_EQ(cells_of(mid, static_cast<int>(l1))[0]->role, CellRole::Read)
        << "waiting for its value";
    EXPECT_EQ(cells_of(end, static_cast<int>(l1))[0]->role, CellRole::Written);
    // Arrows grow from their source: shorter at the start than at the end.
    const auto length = [](const Scene& s) {
        float sum = 0;
        for (const Arrow& a : s.arrows)
            sum += std::hypot(a.to.x - a.from.x, a.to.y - a.from.y);
        return sum;
    };
    EXPECT_LT(length(start), length(end));
}

// n = 65536: cells narrower than a few pixels merge into a heat strip.
TEST(SceneBuilder, LargeInputsMergeIntoAHeatStrip) {
    const auto m = trace(
        request(Algorithm::HistPrivatised, generate(Generator::UniformBytes, 65536, 1, 256), 256));
    ViewOptions far;
    far.pixels_per_unit = 8.0f;
    const Scene s = build(*m, m->trace().frames.size() / 2, far);
    EXPECT_LT(s.cells.size(), 20000u);
    EXPECT_TRUE(std::any_of(s.cells.begin(), s.cells.end(),
                            [](const Cell& c) { return c.role == CellRole::Heat; }));
    ViewOptions near;
    near.pixels_per_unit = 8000.0f; // on a few of a round's 16384 elements, 31 pixels each
    const Scene close = build(*m, 0, near);
    EXPECT_TRUE(std::any_of(close.cells.begin(), close.cells.end(), [](const Cell& c) {
        return c.ref && c.ref->frame == CellRef::kInput && !c.text.empty();
    }));
}

// reduceNaive's step is read at any n: the element it adds and the sums before and after it are
// cells of full size with their numbers, the arrow between them drawn (n 65536 fitted its rows
// into 48 units: the step adding in[2] was a sliver of colour). Past 48 elements the whole of
// in[] stays above as a strip, no wider than the magnified rows (so on screen wherever they are
// whole), ringed where they are. The sums are the kernel's fp32 loop, run here.
TEST(SceneBuilder, ReduceNaiveDrawsTheStepsElementAndSumsWithTheirNumbersAtAnyN) {
    for (const int n : {7, 48, 49, 1000, 65536}) {
        const std::vector<float> in = generate(Generator::RandomInt, n, 3, 0);
        const auto m = trace(request(Algorithm::ReduceNaive, in, 0));
        std::vector<float> sums;
        float sum = 0.0f;
        for (const float v : in)
            sums.push_back(sum += v);
        for (const int k : {1, 2, 15, 16, 17, 31, n / 2 + 1, n}) {
            if (k > n)
                continue;
            const std::string at = "n " + std::to_string(n) + ", addition " + std::to_string(k);
            const std::size_t f = m->frame_at(k - 1, 0);
            ASSERT_EQ(m->trace().frames[f].values.at(0), sums[static_cast<std::size_t>(k - 1)])
                << at << ": the frame is not addition k";
            const Scene s = build(*m, f, ViewOptions{});
            const auto full = [&](int frame, int cell, float value) -> const Cell* {
                for (const Cell& c : s.cells)
                    if (c.ref && c.ref->frame == frame && c.ref->cell == cell &&
                        c.rect.w >= 0.99f && c.text == cell_text(value))
                        return &c;
                return nullptr;
            };
            const Cell* read = full(CellRef::kInput, k - 1, in[static_cast<std::size_t>(k - 1)]);
            const Cell* wrote = full(static_cast<int>(f), 0, sums[static_cast<std::size_t>(k - 1)]);
            ASSERT_TRUE(read) << at << ": in[k-1] not drawn whole with its value";
            ASSERT_TRUE(wrote) << at << ": the sum it writes not drawn whole with its value";
            EXPECT_EQ(wrote->role, CellRole::Written) << at;
            if (k > 1) {
                EXPECT_TRUE(full(static_cast<int>(m->frame_at(k - 2, 0)), 0,
                                 sums[static_cast<std::size_t>(k - 2)]))
                    << at << ": the sum it adds to not drawn whole with its value";
            }
            EXPECT_TRUE(std::any_of(
                s.arrows.begin(), s.arrows.end(),
                [&](const Arrow& a) {
                    return a.head > 0 && read->rect.contains({a.from.x, read->rect.bottom()}) &&
                           std::abs(a.to.x - wrote->rect.center().x) < 1e-3f;
                }))
                << at << ": no arrow from in[k-1] to the sum";
            if (n <= 48)
                continue;
            // The whole of in[]: its narrow cells reach element n - 1, within the magnified rows'
            // width, and the ring stands round element k - 1 among them.
            float lens_lo = 1e9f, lens_hi = -1e9f, strip_lo = 1e9f, strip_hi = -1e9f;
            int strip_last = -1;
            std::optional<float> strip_x; // where element k - 1 is on the strip
            for (const Cell& c : s.cells) {
                if (!c.ref || c.ref->frame != CellRef::kInput)
                    continue;
                if (c.rect.w >= 0.99f) {
                    lens_lo = std::min(lens_lo, c.rect.x);
                    lens_hi = std::max(lens_hi, c.rect.right());
                    continue;
                }
                strip_lo = std::min(strip_lo, c.rect.x);
                strip_hi = std::max(strip_hi, c.rect.right());
                const int merged = std::max(c.merged, 1);
                strip_last = std::max(strip_last, c.ref->cell + merged - 1);
                if (c.ref->cell <= k - 1 && k - 1 < c.ref->cell + merged)
                    strip_x = c.rect.center().x;
            }
            EXPECT_EQ(strip_last, n - 1) << at << ": the strip does not hold the whole of in[]";
            EXPECT_GE(strip_lo, lens_lo - 1e-3f) << at;
            EXPECT_LE(strip_hi, lens_hi + 1e-3f) << at << ": the strip is wider than the lens";
            ASSERT_TRUE(strip_x) << at << ": element k - 1 not on the strip";
            EXPECT_TRUE(std::any_of(s.cells.begin(), s.cells.end(),
                                    [&](const Cell& c) {
                                        return c.role == CellRole::Panel && c.border_width > 0 &&
                                               c.rect.x <= *strip_x && *strip_x <= c.rect.right();
                                    }))
                << at << ": no ring round the magnified part on the strip";
        }
    }
}

// A tooltip over an input element names the thread that reads it, as the kernel indexes:
// reduceNaive's thread 0 reads in[i] at addition i + 1 (the tooltip said "thread 4" for
// in[35604] at block 8: i % blockDim); reduceTree's block b loads elements b * blockDim ...
// at step 1; reduceFull's grid-stride loop reads i in block (i / blockDim) % gridDim.
TEST(SceneBuilder, AnInputElementNamesTheThreadThatReadsIt) {
    const auto naive = trace(request(Algorithm::ReduceNaive, seq(1000), 8));
    for (const int i : {0, 1, 500, 999})
        EXPECT_EQ(input_reader_text(*naive, 0, i),
                  "thread 0 reads it at step " + std::to_string(i + 1));
    const auto tree = trace(request(Algorithm::ReduceTree, seq(32), 8));
    EXPECT_EQ(input_reader_text(*tree, 0, 13),
              "block 1 (thread 5) reads it at step 1; click to show that block");
    const int n = 1000, block_dim = 32;
    const auto full = trace(request(Algorithm::ReduceFull, seq(n), block_dim));
    const int grid = full->grid(0);
    ASSERT_GT(grid, 1);
    ASSERT_LT(grid * block_dim, n) << "the test wants more than one round";
    for (const int i : {0, 33, grid * block_dim + 40, n - 1}) {
        const std::string said = input_reader_text(*full, 0, i);
        const std::string head = "block " + std::to_string((i / block_dim) % grid) + " (thread " +
                                 std::to_string(i % block_dim) + ") reads it at step ";
        EXPECT_EQ(said.substr(0, head.size()), head) << "element " << i;
    }
}

// reduceAtomic's blocks read in[] as reduceFull's do, in grid-stride rounds: block b reads
// element i where (i / blockDim) % gridDim == b (i = b * blockDim + threadIdx.x, then
// i += gridDim * blockDim). The outline round the shown block's elements holds exactly those
// (one slice outlined said block 0 of 1 read elements 0-255 of 1000, where it reads them all).
TEST(SceneBuilder, AtomicOutlinesEveryElementTheShownBlockReads) {
    for (const auto& [n, block, shown] :
         {std::tuple{1000, 256, 0}, std::tuple{4096, 32, 5}, std::tuple{3000, 64, 11}}) {
        const auto m = trace(request(Algorithm::ReduceAtomic, seq(n), block));
        const int grid = m->grid(0);
        ASSERT_GT(grid, shown);
        const int frame = find_frame(*m, Step::BlockTotal, 0, shown);
        ASSERT_GE(frame, 0);
        ViewOptions near;
        near.pixels_per_unit = 2000.0f; // every element a cell of its own
        const Scene s = build(*m, static_cast<std::size_t>(frame), near);
        std::vector<Rect> outlines;
        for (const Cell& c : s.cells)
            if (c.role == CellRole::Panel && c.border_width > 0 && c.border == kPal.selection)
                outlines.push_back(c.rect);
        int inputs = 0;
        for (const Cell& c : s.cells) {
            if (!c.ref || c.ref->frame != CellRef::kInput)
                continue;
            ASSERT_LE(c.merged, 1) << "n " << n << ": a heat strip at this zoom";
            ++inputs;
            const int i = c.ref->cell;
            const bool read = (i / block) % grid == shown;
            const bool outlined = std::any_of(outlines.begin(), outlines.end(), [&](const Rect& o) {
                return o.contains(c.rect.center());
            });
            EXPECT_EQ(outlined, read)
                << "n " << n << ", block " << block << ": in[" << i << "] is "
                << (read ? "" : "not ") << "read by block " << shown << " of " << grid;
        }
        EXPECT_EQ(inputs, n);
    }
}

// A cell merged into a heat strip stands for several values and holds none: the zoom at which
// the step's written values fit their cells does not count it. Counted, it grew the farther out
// the scene was built (the merged cells wider), and the follow view never settled:
// scan-multiblock's add-carries at block 1024 framed at 65 pixels a unit where built at 28, and
// at 28 where built at 65.
TEST(SceneBuilder, MergedCellsDoNotSetTheZoomValuesAreReadAt) {
    const auto m = trace(request(Algorithm::ScanMultiblock, seq(65536), 1024));
    const std::size_t add_carries = m->frame_at(static_cast<int>(m->steps().size()) - 1, 0);
    std::vector<float> zooms;
    for (const float ppu : {14.0f, 20.0f, 28.0f, 40.0f, 65.0f}) {
        ViewOptions o;
        o.pixels_per_unit = ppu;
        const Scene s = build(*m, add_carries, o);
        const bool merged = std::any_of(s.cells.begin(), s.cells.end(), [](const Cell& c) {
            return c.role == CellRole::Written && c.merged > 1;
        });
        EXPECT_TRUE(merged) << ppu << " pixels a unit"; // out[]: 1/64 of a unit an element
        zooms.push_back(s.written_values_zoom);
    }
    for (const float z : zooms)
        EXPECT_EQ(z, zooms.front());
}

// The multi-block scan lines its levels up: totals[j], the total of block j, stands under
// block j of in[], and carries[j] over block j of out[], so the carry the camera follows sits
// over its block (at block 1024, block 63's carry was drawn at element 63 while out[]'s block
// 63 was at the right end, and the camera framed an empty totals[] row beside padding). The
// scan of the totals draws the blocks' carries only, not the padding of its 1024 slots.
TEST(SceneBuilder, MultiblockTotalsAndCarriesStandOverTheirBlocks) {
    for (const auto& [block_dim, n] : {std::pair{4, 10}, {32, 1000}, {64, 4000}, {1024, 65536}}) {
        SCOPED_TRACE("block " + std::to_string(block_dim) + ", n " + std::to_string(n));
        const auto m = trace(request(Algorithm::ScanMultiblock, seq(n), block_dim));
        const int blocks = (n + block_dim - 1) / block_dim;
        const std::size_t last = m->frame_at(static_cast<int>(m->steps().size()) - 1, 0);
        ASSERT_EQ(m->trace().frames.at(last).step, Step::AddCarries);
        ViewOptions o;
        o.pixels_per_unit = 40.0f;
        const Scene s = build(*m, last, o);
        // Where element e of a strip is drawn (a heat strip's cell stands for several).
        const auto x_of = [&](int frame, int e) {
            for (const Cell& c : s.cells)
                if (c.ref && c.ref->frame == frame && c.ref->cell <= e &&
                    e < c.ref->cell + std::max(1, c.merged))
                    return std::pair{c.rect.x, c.rect.right()};
            ADD_FAILURE() << "element " << e << " of frame " << frame << " is not drawn";
            return std::pair{0.0f, 0.0f};
        };
        // The rows' names in one column, in[]'s: placed by their first cell, totals[] and
        // carries stood among the arrows into out[].
        const auto name_x = [&](const std::string& text) {
            for (const Label& l : s.labels)
                if (l.kind == LabelKind::Row && l.text == text)
                    return l.pos.x;
            ADD_FAILURE() << "no row named " << text;
            return 0.0f;
        };
        EXPECT_EQ(name_x("totals[]"), name_x("in[]"));
        EXPECT_EQ(name_x("carries"), name_x("in[]"));
        int carries = -1;
        for (std::size_t f = 0; f < m->trace().frames.size(); ++f) {
            const Frame& fr = m->trace().frames[f];
            if (fr.pass == 1 && fr.step == Step::Downsweep)
                carries = static_cast<int>(f); // the last downsweep of the totals' scan
        }
        ASSERT_GE(carries, 0);
        EXPECT_EQ(cells_of(s, carries).size(), static_cast<std::size_t>(blocks))
            << "the scan of the totals draws one carry a block, no padding";
        for (int j = 0; j < blocks; ++j) {
            const float left = x_of(CellRef::kInput, j * block_dim).first,
                        right = x_of(CellRef::kInput, std::min(n, (j + 1) * block_dim) - 1).second;
            const Cell& carry = cell_at(s, carries, j);
            EXPECT_GT(carry.rect.x + 0.5f * carry.rect.w, left) << "carries[" << j << "]";
            EXPECT_LT(carry.rect.x + 0.5f * carry.rect.w, right) << "carries[" << j << "]";
            for (std::size_t f = 0; f < m->trace().frames.size(); ++f) {
                const Frame& fr = m->trace().frames[f];
                if (fr.pass != 0 || fr.step != Step::BlockTotal || fr.block != j)
                    continue;
                const Cell& total = cell_at(s, static_cast<int>(f), 0);
                EXPECT_GT(total.rect.x + 0.5f * total.rect.w, left) << "totals[" << j << "]";
                EXPECT_LT(total.rect.x + 0.5f * total.rect.w, right) << "totals[" << j << "]";
            }
        }
    }
}

// The detail (the shown block's scanBlock rows) stands under its block's tile: its loads fall
// straight down from in[] and its sums straight into its block of out[]. At block 0's place,
// block 2's sums crossed the totals and carries on a slant to reach out[]. Where in[] is
// squeezed (65536 elements), the detail is centred under its tile as far as the row allows.
// A row of block totals (one frame a block) too narrow for its numbers is coloured by value on
// the range of the whole row, as the carries under it are: each total, alone in its frame, had
// no range of its own and stayed the pale "written by an earlier step" (scan-multiblock n 65536).
// The legend names that pale colour only where a cell wears it.
TEST(SceneBuilder, ARowOfBlockTotalsIsColouredOnOneScale) {
    std::vector<float> in(65536);
    for (std::size_t i = 0; i < in.size(); ++i)
        in[i] = static_cast<float>((i * 7919) % 13);
    for (const int block_dim : {1024, 32}) { // one level of totals; two, the second of 64
        SCOPED_TRACE("block " + std::to_string(block_dim));
        const auto m = trace(request(Algorithm::ScanMultiblock, in, block_dim));
        const std::size_t last = m->frame_at(static_cast<int>(m->steps().size()) - 1, 0);
        ViewOptions far;
        far.pixels_per_unit = 2.0f; // no number fits
        const Scene s = build(*m, last, far);
        std::map<int, std::pair<float, float>> range; // each level's totals, by pass
        for (const Frame& f : m->trace().frames)
            if (f.step == Step::BlockTotal) {
                const float v = f.values.at(0);
                const auto [at, added] = range.try_emplace(f.pass, v, v);
                at->second = {std::min(at->second.first, v), std::max(at->second.second, v)};
            }
        // Each level of the recursion has its totals: 64 over blocks of 1024; 2048, 64 and 2 over
        // blocks of 32 (the scan of two totals has one block, and so one total: no range).
        ASSERT_EQ(range.size(), block_dim == 32 ? 3u : 1u);
        std::map<int, int> coloured;
        for (const Cell& c : s.cells) {
            if (!c.ref || c.ref->frame < 0 || c.merged > 1)
                continue;
            const Frame& f = m->trace().frames.at(static_cast<std::size_t>(c.ref->frame));
            if (f.step != Step::BlockTotal)
                continue;
            const auto [lo, hi] = range.at(f.pass);
            if (hi == lo)
                continue;
            ++coloured[f.pass];
            EXPECT_TRUE(c.on_scale) << "pass " << f.pass << ", block " << f.block << "'s total";
            EXPECT_EQ(c.fill, value_scale((f.values.at(0) - lo) / (hi - lo)))
                << "pass " << f.pass << ", block " << f.block << "'s total " << f.values.at(0)
                << " in " << lo << "–" << hi;
        }
        for (const auto& [pass, lo_hi] : range) {
            if (lo_hi.second > lo_hi.first) {
                EXPECT_GT(coloured[pass], 0) << "pass " << pass << "'s totals drawn cell by cell";
            }
        }
        const bool said = std::any_of(s.legend.begin(), s.legend.end(), [](const LegendItem& e) {
            return e.text == "written by an earlier step";
        });
        const bool worn = std::any_of(s.cells.begin(), s.cells.end(), [](const Cell& c) {
            return c.role != CellRole::Future && c.fill == kPal.active;
        });
        EXPECT_EQ(said, worn) << "the legend's 'written by an earlier step'";
    }
}

TEST(SceneBuilder, MultiblockDetailStandsUnderItsBlock) {
    for (const auto& [block_dim, n, shown] :
         {std::tuple{4, 10, 0}, {4, 10, 1}, {4, 10, 2}, {32, 100, 3}, {32, 65536, 2000}}) {
        SCOPED_TRACE("block " + std::to_string(block_dim) + ", n " + std::to_string(n) +
                     ", shown block " + std::to_string(shown));
        const auto m = trace(request(Algorithm::ScanMultiblock, seq(n), block_dim));
        const auto& frames = m->trace().frames;
        int load = -1, last_sum = -1;
        for (std::size_t f = 0; f < frames.size(); ++f)
            if (frames[f].pass == 0 && frames[f].block == shown) {
                if (frames[f].step == Step::Load)
                    load = static_cast<int>(f);
                if (frames[f].step == Step::Downsweep)
                    last_sum = static_cast<int>(f);
            }
        ASSERT_GE(load, 0);
        ASSERT_GE(last_sum, 0);
        const std::size_t add = m->frame_at(static_cast<int>(m->steps().size()) - 1, shown);
        ASSERT_EQ(frames.at(add).step, Step::AddCarries);
        ASSERT_EQ(frames.at(add).block, shown);
        ViewOptions o;
        o.pixels_per_unit = 40.0f;
        const Scene at_load = build(*m, static_cast<std::size_t>(load), o);
        const Scene at_add = build(*m, add, o);
        const int first = shown * block_dim, mine = std::min(block_dim, n - first);
        const auto loads = cells_of(at_load, load);
        ASSERT_EQ(loads.size(), static_cast<std::size_t>(block_dim));
        if (cell_at(at_load, CellRef::kInput, 0).rect.w >= loads.front()->rect.w * 0.99f) {
            // in[] one unit a cell: each slot under its element
            for (int i = 0; i < mine; ++i) {
                const Cell& element = cell_at(at_load, CellRef::kInput, first + i);
                EXPECT_NEAR(loads[static_cast<std::size_t>(i)]->rect.center().x,
                            element.rect.center().x, 1e-3f)
                    << "s[" << i << "] and in[" << first + i << "]";
                EXPECT_NEAR(cell_at(at_add, last_sum, i).rect.center().x,
                            cell_at(at_add, static_cast<int>(add), i).rect.center().x, 1e-3f)
                    << "the scan's s[" << i << "] and out[" << first + i << "]";
            }
        } else { // squeezed: the tile's middle lies under the detail
            const auto drawn = [&](int e) -> Rect { // a heat strip's cell stands for several
                for (const Cell& c : at_load.cells)
                    if (c.ref && c.ref->frame == CellRef::kInput && c.ref->cell <= e &&
                        e < c.ref->cell + std::max(1, c.merged))
                        return c.rect;
                ADD_FAILURE() << "in[" << e << "] is not drawn";
                return {};
            };
            const float middle = 0.5f * (drawn(first).x + drawn(first + mine - 1).right());
            EXPECT_GT(middle, loads.front()->rect.x);
            EXPECT_LT(middle, loads.back()->rect.right());
        }
    }
}

// Every step of every view builds, settled and mid-flight, and stays inside its bounds.
TEST(SceneBuilder, EveryStepOfEveryView) {
    for (const auto& c : test::view_cases()) {
        const auto m = trace(c.request);
        for (std::size_t step = 0; step < m->steps().size(); ++step)
            for (const int block : {0, 1}) {
                const std::size_t f = m->frame_at(static_cast<int>(step), block);
                for (const float anim : {0.0f, 0.5f, 1.0f}) {
                    const Scene s = build(*m, f, {}, anim);
                    ASSERT_FALSE(s.cells.empty()) << c.name << " step " << step;
                    EXPECT_FALSE(s.caption.empty()) << c.name;
                    for (const Cell& cell : s.cells) {
                        EXPECT_GE(cell.rect.x, s.bounds.x - 1e-3f) << c.name;
                        EXPECT_LE(cell.rect.right(), s.bounds.right() + 1e-3f) << c.name;
                    }
                    EXPECT_TRUE(s.focus.w > 0 && s.focus.h > 0) << c.name;
                }
            }
    }
}

// ---- colours as a class sees them: CIELAB distance, for normal vision and the three
// dichromacies ----------------------------------------------------------------------------

struct Lab {
    double l = 0, a = 0, b = 0;
};

// An sRGB value (0..1) in linear light.
double linear(double c) {
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

using Matrix = std::array<std::array<double, 3>, 3>;

// Dichromat simulation, severity 1.0, applied to linear RGB: Machado, Oliveira and Fernandes,
// "A Physiologically-based Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6),
// 2009, the published table of matrices.
constexpr Matrix kNormal = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
constexpr Matrix kProtanopia = {{{0.152286, 1.052583, -0.204868},
                                 {0.114503, 0.786281, 0.099216},
                                 {-0.003882, -0.048116, 1.051998}}};
constexpr Matrix kDeuteranopia = {{{0.367322, 0.860646, -0.227968},
                                   {0.280085, 0.672501, 0.047413},
                                   {-0.011820, 0.042940, 0.968881}}};
constexpr Matrix kTritanopia = {{{1.255528, -0.076749, -0.178779},
                                 {-0.078411, 0.930809, 0.147602},
                                 {0.004733, 0.691367, 0.303900}}};

// The colour as seen through `vision`, in CIELAB (D65 white), after compositing it over the
// background it is drawn on (a translucent swatch is seen mixed with it).
Lab seen(const Rgba& c, const Rgba& background, const Matrix& vision) {
    const Rgba over = mix(background, with_alpha(c, 1.0f), c.a);
    const std::array<double, 3> rgb = {linear(over.r), linear(over.g), linear(over.b)};
    std::array<double, 3> sim{};
    for (std::size_t i = 0; i < 3; ++i)
        sim[i] = std::clamp(vision[i][0] * rgb[0] + vision[i][1] * rgb[1] + vision[i][2] * rgb[2],
                            0.0, 1.0);
    const double x = 0.4124564 * sim[0] + 0.3575761 * sim[1] + 0.1804375 * sim[2];
    const double y = 0.2126729 * sim[0] + 0.7151522 * sim[1] + 0.0721750 * sim[2];
    const double z = 0.0193339 * sim[0] + 0.1191920 * sim[1] + 0.9503041 * sim[2];
    const auto f = [](double t) {
        constexpr double d = 6.0 / 29.0;
        return t > d * d * d ? std::cbrt(t) : t / (3 * d * d) + 4.0 / 29.0;
    };
    const double fx = f(x / 0.95047), fy = f(y), fz = f(z / 1.08883);
    return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

// CIE76 Delta E.
double delta_e(const Lab& p, const Lab& q) {
    return std::hypot(p.l - q.l, p.a - q.a, p.b - q.b);
}

// 2.3 is a just-noticeable difference between patches side by side. A legend swatch is small,
// seen from the back of a room through a projector that washes colours out, and matched
// against cells across the picture: it has to be told apart at a glance, so we ask for about
// ten times that (Okabe & Ito's accents are 25 to 90 apart).
constexpr double kApartAtAGlance = 20.0;

struct Vision {
    const char* name;
    Matrix matrix;
};
constexpr std::array<Vision, 4> kVisions = {{{"normal vision", kNormal},
                                             {"protanopia", kProtanopia},
                                             {"deuteranopia", kDeuteranopia},
                                             {"tritanopia", kTritanopia}}};

TEST(ColourDistance, AgreesWithPublishedValues) {
    const Rgba white{1, 1, 1, 1}, black{0, 0, 0, 1};
    const Lab w = seen(white, white, kNormal), k = seen(black, white, kNormal);
    EXPECT_NEAR(w.l, 100.0, 0.01);
    EXPECT_NEAR(k.l, 0.0, 0.01);
    EXPECT_NEAR(delta_e(w, k), 100.0, 0.01);
    // sRGB #808080 is L* 53.59 (the sRGB curve, not a plain 2.2 power); red is L* 53.24,
    // a* 80.09, b* 67.20 (D65).
    const float grey = 128.0f / 255.0f;
    EXPECT_NEAR(seen({grey, grey, grey, 1}, white, kNormal).l, 53.59, 0.05);
    const Lab red = seen({1, 0, 0, 1}, white, kNormal);
    EXPECT_NEAR(red.l, 53.24, 0.05);
    EXPECT_NEAR(red.a, 80.09, 0.05);
    EXPECT_NEAR(red.b, 67.20, 0.05);
    // A dichromat confuses red and green that a normal eye tells far apart; the simulation
    // keeps white white (each matrix's rows sum to 1).
    const Rgba red_c{0.8f, 0.2f, 0.1f, 1}, green_c{0.45f, 0.5f, 0.1f, 1};
    EXPECT_GT(delta_e(seen(red_c, white, kNormal), seen(green_c, white, kNormal)), 30.0);
    EXPECT_LT(delta_e(seen(red_c, white, kDeuteranopia), seen(green_c, white, kDeuteranopia)),
              delta_e(seen(red_c, white, kNormal), seen(green_c, white, kNormal)) / 2);
    for (const Vision& v : kVisions)
        EXPECT_NEAR(seen(white, white, v.matrix).l, 100.0, 0.1) << v.name;
}

// The pitfalls and scan-fast bring legend entries of their own.
std::vector<test::Case> legend_cases() {
    std::vector<test::Case> cases = test::view_cases();
    const auto with = [](Request r, Pitfall p) {
        r.options.pitfall = p;
        return r;
    };
    cases.push_back({"reduce-tree non-power-of-two",
                     with(request(Algorithm::ReduceTree, seq(6), 6), Pitfall::NonPowerOfTwo)});
    cases.push_back({"reduce-full every-lane-writes",
                     with(request(Algorithm::ReduceFull, seq(256), 64), Pitfall::EveryLaneWrites)});
    Request partial = with(request(Algorithm::ReduceShuffle, seq(32), 32), Pitfall::PartialWarp);
    partial.options.active_lanes = 20;
    cases.push_back({"reduce-shuffle partial-warp", partial});
    cases.push_back({"scan-blelloch no-final-sync",
                     with(request(Algorithm::ScanBlelloch, seq(8), 8), Pitfall::NoFinalSync)});
    Request fast = request(Algorithm::ScanFast, seq(512), 32);
    fast.options.order_seed = 3;
    cases.push_back({"scan-fast", fast});
    return cases;
}

// Whether `fill` is `named` faded toward the background: the same meaning, said more quietly
// (scan-fast's look-back reads it did not add).
bool faded_from(const Rgba& fill, const Rgba& named, const Rgba& background) {
    const std::array<float, 3> f = {fill.r, fill.g, fill.b}, n = {named.r, named.g, named.b},
                               b = {background.r, background.g, background.b};
    std::size_t widest = 0;
    for (std::size_t i = 1; i < 3; ++i)
        if (std::abs(b[i] - n[i]) > std::abs(b[widest] - n[widest]))
            widest = i;
    if (std::abs(b[widest] - n[widest]) < 1e-3f)
        return false;
    const float t = (f[widest] - n[widest]) / (b[widest] - n[widest]);
    for (std::size_t i = 0; i < 3; ++i)
        if (std::abs(n[i] + t * (b[i] - n[i]) - f[i]) > 2e-3f)
            return false;
    return t >= 0 && t < 1;
}

// Whether `fill` is on the value scale at some t, or that faded toward the background (an
// unchanged cell's, another block's thread).
bool on_value_scale(const Rgba& fill, const Rgba& background) {
    // A view's cells wear a few hundred colours many times over: each looked up once.
    static std::map<std::array<float, 6>, bool> known;
    const std::array<float, 6> key = {fill.r,       fill.g,       fill.b,
                                      background.r, background.g, background.b};
    if (const auto it = known.find(key); it != known.end())
        return it->second;
    bool on = false;
    for (int k = 0; k <= 4096 && !on; ++k) {
        const Rgba v = value_scale(static_cast<float>(k) / 4096.0f);
        on = (std::abs(v.r - fill.r) < 2e-3f && std::abs(v.g - fill.g) < 2e-3f &&
              std::abs(v.b - fill.b) < 2e-3f) ||
             faded_from(fill, v, background);
    }
    known.emplace(key, on);
    return on;
}

bool has_value_scale(const Scene& s) {
    return std::any_of(s.legend.begin(), s.legend.end(),
                       [](const LegendItem& e) { return e.ramp; });
}

// Where a colour on a cell means something, the legend says what: a fill is either the plain
// cell's, a colour on the value scale (a bin's, a thread's, a value's in a row too narrow to
// print it) that the legend's value scale names, or the colour of a legend entry (or that
// colour faded). And the legend has a value scale only where a cell wears it.
void expect_every_fill_in_the_legend(const Scene& s, const Palette& pal, const std::string& at) {
    bool on_scale = false;
    for (const Cell& c : s.cells) {
        // A level not reached yet is an empty outline, unless a student's values fill it.
        const bool students = c.marks.right || c.marks.wrong;
        if (!c.ref || (c.role == CellRole::Future && !students) || c.fill.a <= 0 ||
            c.fill == pal.cell || c.fill == pal.future)
            continue;
        // A bar's colour is its bin's; a row whose values its cells cannot hold is coloured
        // by value; the notice says its values are left out. The cell says so (the canvas
        // shows the legend's value scale only while a cell on it is on screen).
        const bool looks_on_scale =
            c.role == CellRole::Bar || on_value_scale(c.fill, pal.background);
        EXPECT_EQ(c.on_scale, looks_on_scale)
            << at << ": cell " << c.ref->cell << " of frame " << c.ref->frame;
        if (looks_on_scale) {
            on_scale = true;
            EXPECT_TRUE(has_value_scale(s))
                << at << ": cell " << c.ref->cell << " of frame " << c.ref->frame
                << " is on the value scale, and the legend has none";
            continue;
        }
        // A mark's fill is a mix toward its accent, named by the accent's entry; a cell with
        // nothing to say (no atomics queued) is the plain cell faded toward the background; the
        // input's others blocks are shaded apart.
        if (c.marks.never_added || c.role == CellRole::KeepsOwn ||
            faded_from(c.fill, pal.cell, pal.background) || c.ref->frame < 0)
            continue;
        // A student's value in a hidden level wears its verdict's accent faded toward the
        // plain cell.
        const bool named = std::any_of(s.legend.begin(), s.legend.end(), [&](const LegendItem& e) {
            return !e.ramp && (e.color == c.fill || faded_from(c.fill, e.color, pal.background) ||
                               faded_from(c.fill, e.color, pal.cell));
        });
        EXPECT_TRUE(named) << at << ": cell " << c.ref->cell << " of frame " << c.ref->frame << " ("
                           << c.text << ") has a fill no legend entry names: " << c.fill.r << " "
                           << c.fill.g << " " << c.fill.b;
    }
    if (has_value_scale(s)) {
        EXPECT_TRUE(on_scale) << at << ": the legend has a value scale no cell wears";
    }
}

// The colours an entry's swatch shows: its colour, or the value scale's from low to high.
std::vector<Rgba> swatch_colours(const LegendItem& e) {
    if (!e.ramp)
        return {e.color};
    std::vector<Rgba> scale;
    for (int k = 0; k <= 16; ++k)
        scale.push_back(value_scale(static_cast<float>(k) / 16.0f));
    return scale;
}

// No two legend entries of the scene are alike to anyone in the class, and one value scale at
// most (two would be one set of colours with two meanings). The value scale runs through
// hues, so a dichromat meets some accent on it wherever it is taken (the written cells'
// orange among its yellow-greens, for a deuteranope): it is told by its run and its
// lightness, and held apart from every accent for normal vision.
void expect_legend_apart(const Scene& s, const Palette& pal, const std::string& at) {
    EXPECT_LE(
        std::count_if(s.legend.begin(), s.legend.end(), [](const LegendItem& e) { return e.ramp; }),
        1)
        << at << ": two value scales";
    for (std::size_t i = 0; i < s.legend.size(); ++i)
        for (std::size_t j = i + 1; j < s.legend.size(); ++j)
            for (const Vision& v : kVisions) {
                if ((s.legend[i].ramp || s.legend[j].ramp) && &v != &kVisions.front())
                    continue;
                double apart = 1e9;
                for (const Rgba& p : swatch_colours(s.legend[i]))
                    for (const Rgba& q : swatch_colours(s.legend[j]))
                        apart = std::min(apart, delta_e(seen(p, pal.background, v.matrix),
                                                        seen(q, pal.background, v.matrix)));
                EXPECT_GE(apart, kApartAtAGlance)
                    << at << ", " << v.name << ": '" << s.legend[i].text << "' and '"
                    << s.legend[j].text << "' are " << apart << " apart";
            }
}

// A colour means one thing in a view: no two legend entries of a view are alike to anyone in
// the class, in either theme, and every colour a cell wears is in the legend.
TEST(SceneBuilder, LegendColoursAreDistinctInEveryView) {
    for (const auto& c : legend_cases()) {
        const auto m = trace(c.request);
        for (const Theme theme : {Theme::Light, Theme::Dark}) {
            const Palette pal = palette(theme);
            for (std::size_t step = 0; step < m->steps().size(); ++step) {
                ViewOptions o;
                o.theme = theme;
                const Scene s = build(*m, m->frame_at(static_cast<int>(step), 0), o);
                const std::string at =
                    c.name + " (" + std::string(theme_id(theme)) + ") step " + std::to_string(step);
                expect_every_fill_in_the_legend(s, pal, at);
                expect_legend_apart(s, pal, at);
            }
        }
    }
}

// Zoomed far out, rows too narrow for their values wear the value scale, and the legend says
// so; where the input already wears it (by the thread that reads it, by bin) no other row
// does: one set of colours, one meaning. Block 1024, n 65536, a few steps of each view.
TEST(SceneBuilder, OneValueScaleAViewAndTheLegendNamesIt) {
    const std::vector<float> data = generate(Generator::UniformBytes, 65536, 4, 256);
    const std::vector<Request> requests = {
        request(Algorithm::ReduceTree, data, 1024),
        request(Algorithm::ReduceCoarsened, data, 1024),
        request(Algorithm::ReduceFull, data, 1024),
        request(Algorithm::ReduceNaive, generate(Generator::RandomInt, 8192, 4, 0), 0),
        request(Algorithm::ScanMultiblock, data, 1024),
        request(Algorithm::HistGlobal, data, 1024, 256),
        request(Algorithm::HistPrivatised, data, 1024, 256),
        request(Algorithm::HistPerWarp, data, 1024, 256),
    };
    int scaled = 0, by_value = 0;
    for (const Request& r : requests) {
        const auto m = trace(r);
        const int steps = static_cast<int>(m->steps().size());
        for (const float zoom : {3.0f, 12.0f})
            for (const Theme theme : {Theme::Light, Theme::Dark})
                for (int step = 0; step < steps; step += std::max(1, steps / 6)) {
                    ViewOptions o;
                    o.theme = theme;
                    o.pixels_per_unit = zoom;
                    const Scene s = build(*m, m->frame_at(step, 0), o);
                    const std::string at =
                        std::string(info(r.algorithm).id) + " at " + std::to_string(zoom) + " (" +
                        std::string(theme_id(theme)) + ") step " + std::to_string(step);
                    expect_every_fill_in_the_legend(s, palette(theme), at);
                    expect_legend_apart(s, palette(theme), at);
                    scaled += has_value_scale(s);
                    by_value +=
                        std::any_of(s.legend.begin(), s.legend.end(), [](const LegendItem& e) {
                            return e.ramp && e.text.find("value") != std::string::npos;
                        });
                }
    }
    EXPECT_GT(by_value, 0) << "no row was coloured by value: the test checks less than it says";
    EXPECT_GT(scaled, by_value) << "no input was coloured by thread or bin";
}

// scan-fast: one playback step per record, in ticket order (a tile's aggregate published; its
// look-back, ending in its inclusive prefix); at each, every tile drawn in the state the events
// so far left it, the acting tile outlined, and at a look-back what it found at each
// predecessor it read, its carry, and an arrow from each value it added. 2, 8 and 64 tiles.
TEST(LookbackView, TilesInTheStateTheEventsLeftThemAndTheWindowOfTheTileActing) {
    for (const int tiles : {2, 8, 64}) {
        Request r =
            request(Algorithm::ScanFast, generate(Generator::RandomInt, tiles * 128, 5, 0), 32);
        r.options.order_seed = 11;
        const auto m = trace(r);
        const std::vector<LookbackTile> told = lookback_tiles(m->trace());
        ASSERT_EQ(m->steps().size(), static_cast<std::size_t>(2 * tiles - 1));
        for (std::size_t step = 0; step < m->steps().size(); ++step) {
            const StepGroup& g = m->steps()[step];
            SCOPED_TRACE(std::to_string(tiles) + " tiles, step " + std::to_string(step));
            if (step > 0) {
                EXPECT_GT(g.ticket, m->steps()[step - 1].ticket) << "ticket order";
            }
            const std::size_t f = m->frame_at(static_cast<int>(step), g.block);
            EXPECT_EQ(m->step_of(f), static_cast<int>(step));
            const Scene s = build(*m, f, {});
            EXPECT_FALSE(s.caption.empty());
            int aggregates = 0, inclusives = 0, want_aggregates = 0, want_inclusives = 0;
            for (const LookbackTile& tile : told) {
                const TileState state = detail::tile_state(tile, g.ticket);
                want_aggregates += state == TileState::Aggregate;
                want_inclusives += state == TileState::Inclusive;
            }
            for (const Cell& c : s.cells) {
                if (c.role != CellRole::Value || !c.ref)
                    continue;
                aggregates += c.fill == kPal.aggregate;
                inclusives += c.fill == kPal.inclusive;
            }
            EXPECT_EQ(aggregates, want_aggregates);
            EXPECT_EQ(inclusives, want_inclusives);
            EXPECT_EQ(std::count_if(s.cells.begin(), s.cells.end(),
                                    [](const Cell& c) {
                                        return c.role == CellRole::Panel &&
                                               c.border == kPal.highlight;
                                    }),
                      1)
                << "the tile acting now, outlined";
            const LookbackTile& tile = told[static_cast<std::size_t>(g.block)];
            const long found = std::count_if(s.cells.begin(), s.cells.end(), [](const Cell& c) {
                return c.role == CellRole::Read;
            });
            if (g.step != Step::LookBack) {
                EXPECT_EQ(found, 0);
                continue;
            }
            EXPECT_EQ(found, static_cast<long>(tile.reads.size()));
            const auto carry = std::find_if(s.cells.begin(), s.cells.end(), [](const Cell& c) {
                return c.role == CellRole::Written;
            });
            ASSERT_NE(carry, s.cells.end());
            EXPECT_EQ(carry->fill, kPal.carry);
            if (!carry->text.empty()) {
                EXPECT_EQ(carry->text, format_value(tile.carry));
            }
            const long added = std::count_if(tile.reads.begin(), tile.reads.end(),
                                             [](const LookbackRead& read) { return read.added; });
            EXPECT_EQ(static_cast<long>(count_arrows(s, kPal.arrow)), added);
        }
    }
}

// The states, the acting tile and the carry: five colours apart in both themes.
TEST(LookbackView, LegendColoursAreDistinctInBothThemes) {
    const auto m =
        trace(request(Algorithm::ScanFast, generate(Generator::RandomInt, 800, 2, 0), 32));
    for (const Theme theme : {Theme::Light, Theme::Dark})
        for (std::size_t step = 0; step < m->steps().size(); ++step) {
            ViewOptions o;
            o.theme = theme;
            const Scene s =
                build(*m, m->frame_at(static_cast<int>(step), m->steps()[step].block), o);
            EXPECT_GE(s.legend.size(), 4u);
            for (std::size_t i = 0; i < s.legend.size(); ++i)
                for (std::size_t j = i + 1; j < s.legend.size(); ++j)
                    EXPECT_FALSE(s.legend[i].color == s.legend[j].color)
                        << "step " << step << ": '" << s.legend[i].text << "' and '"
                        << s.legend[j].text << "'";
        }
}

TEST(SceneBuilder, HitTestFindsTheCellUnderThePoint) {
    const auto m = trace(request(Algorithm::ReduceTree, seq(8), 8));
    const int l2 = find_frame(*m, Step::TreeLevel, 1);
    const Scene s = build(*m, static_cast<std::size_t>(l2), {});
    const Cell& c = cell_at(s, l2, 1);
    const Cell* hit = hit_test(s, c.rect.center());
    ASSERT_NE(hit, nullptr);
    EXPECT_EQ(hit->ref, (CellRef{l2, 1}));
    EXPECT_EQ(hit_test(s, {s.bounds.x - 10, s.bounds.y - 10}), nullptr);
}

TEST(SceneBuilder, StepsGroupBlocksAndKeepTheirPlace) {
    const auto m = trace(request(Algorithm::ReduceTree, seq(16), 8)); // 2 blocks, 3 levels
    ASSERT_EQ(m->steps().size(), 5u);                                 // load, 3 levels, totals
    EXPECT_EQ(m->trace().frames[m->frame_at(2, 1)].block, 1);
    EXPECT_EQ(m->trace().frames[m->frame_at(2, 1)].level, 1)
        << "step 2 is tree level 1 (levels count from 0)";
    const StepKey k = m->key(2);
    const auto wider = trace(request(Algorithm::ReduceTree, seq(64), 16)); // 4 levels now
    EXPECT_EQ(wider->steps()[static_cast<std::size_t>(wider->find(k))].level, 1);
    // The fold carries global bins from block to block: one playback step per block.
    const auto h =
        trace(request(Algorithm::HistPrivatised, generate(Generator::Skewed, 300, 3, 16), 64, 16));
    EXPECT_EQ(std::count_if(h->steps().begin(), h->steps().end(),
                            [](const StepGroup& g) { return g.step == Step::HistFold; }),
              h->grid(0));
}

TEST(SceneBuilder, CellTextStaysShort) {
    EXPECT_EQ(cell_text(3.0f), "3");
    EXPECT_EQ(cell_text(0.5f), "0.5");
    EXPECT_LE(cell_text(0.72437191f).size(), 6u);
    EXPECT_LE(cell_text(123456789.0f).size(), 7u);
    EXPECT_LE(cell_text(-1234.567f).size(), 6u);
    EXPECT_EQ(cell_text(std::nanf("")), "?");
}

// ---- The chapter's pitfalls, drawn ---------------------------------------------------------

Request with_pitfall(Request r, Pitfall p, int active_lanes = kWarpSize) {
    r.options.pitfall = p;
    r.options.active_lanes = active_lanes;
    return r;
}

bool has_legend(const Scene& s, const Rgba& c) {
    return std::any_of(s.legend.begin(), s.legend.end(),
                       [&](const LegendItem& l) { return l.color == c; });
}

bool has_label(const Scene& s, const std::string& part) {
    return std::any_of(s.labels.begin(), s.labels.end(),
                       [&](const Label& l) { return l.text.find(part) != std::string::npos; });
}

// Block 6 halves 6 -> 3 -> 1: s[2] (holding s[2] + s[5]) is never added into s[0].
TEST(Pitfalls, NonPowerOfTwoMarksTheElementsNeverAdded) {
    const auto m =
        trace(with_pitfall(request(Algorithm::ReduceTree, seq(12), 6), Pitfall::NonPowerOfTwo));
    const int load = find_frame(*m, Step::Load, 0);
    const int total = find_frame(*m, Step::BlockTotal, 0);
    const Scene s = build(*m, static_cast<std::size_t>(total), {});
    for (int k = 0; k < 6; ++k) {
        const bool lost = k == 2 || k == 5;
        EXPECT_EQ(cell_at(s, load, k).marks.never_added, lost) << "s[" << k << "]";
        EXPECT_EQ(cell_at(s, CellRef::kInput, k).marks.never_added, lost) << "in[" << k << "]";
    }
    EXPECT_EQ(cell_at(s, load, 2).border, kPal.never_added);
    // Level 0 folds s[5] into s[2] (9), which level 1 never reads; the values left in s[3]
    // and s[4] were added into s[0] and s[1], so they are not marked.
    const int l1 = find_frame(*m, Step::TreeLevel, 0), l2 = find_frame(*m, Step::TreeLevel, 1);
    EXPECT_EQ(cell_at(s, l1, 2).text, "9");
    for (int k = 0; k < 6; ++k) {
        const bool lost = k == 2 || k == 5;
        EXPECT_EQ(cell_at(s, l1, k).marks.never_added, lost) << "level 0, s[" << k << "]";
        EXPECT_EQ(cell_at(s, l2, k).marks.never_added, lost) << "level 1, s[" << k << "]";
    }
    EXPECT_EQ(cell_at(s, total, 0).text, "12");
    EXPECT_TRUE(has_label(s, "s[2], s[5] never added"));
    EXPECT_TRUE(has_label(s, "out[0] = 12, not 21"));
    EXPECT_TRUE(has_legend(s, kPal.never_added));
    // The same tree with a power-of-two block marks nothing.
    const auto fine = trace(request(Algorithm::ReduceTree, seq(16), 8));
    const Scene ok = build(*fine, fine->trace().frames.size() - 1, {});
    EXPECT_TRUE(std::none_of(ok.cells.begin(), ok.cells.end(),
                             [](const Cell& c) { return c.marks.never_added; }));
}

// warpReduce from lanes 0-19 only: lanes 20-31 greyed, lanes reading them undefined ("?").
TEST(Pitfalls, PartialWarpGreysTheAbsentLanesAndMarksUndefinedValues) {
    const auto m = trace(
        with_pitfall(request(Algorithm::ReduceShuffle, seq(32), 32), Pitfall::PartialWarp, 20));
    const int sh1 = find_frame(*m, Step::Shuffle, 1, 0, 0);
    const Scene s = build(*m, static_cast<std::size_t>(sh1), {});
    const auto row = cells_of(s, sh1);
    ASSERT_EQ(row.size(), 32u);
    for (int lane = 0; lane < 32; ++lane) {
        const Cell& c = *row[static_cast<std::size_t>(lane)];
        EXPECT_EQ(c.marks.not_taking_part, lane >= 20) << lane;
        // Lanes 4-15 read lanes 20-31, which did not call the shuffle.
        const bool undefined = lane >= 4 && lane < 16;
        EXPECT_EQ(c.marks.undefined, undefined) << lane;
        if (undefined) {
            EXPECT_EQ(c.text, "?");
            EXPECT_EQ(c.fill, kPal.undefined);
        }
    }
    EXPECT_EQ(row[0]->text, "18"); // 1 + 17: lane 16 called it
    EXPECT_EQ(row[25]->fill, kPal.idle_warp);
    EXPECT_EQ(row[25]->text, "26") << "a lane that does not take part keeps its value";
    EXPECT_TRUE(has_legend(s, kPal.undefined));
    EXPECT_TRUE(has_legend(s, kPal.idle_warp));
    // By the last shuffle lane 0's total is undefined too.
    const int sh5 = find_frame(*m, Step::Shuffle, 5, 0, 0);
    const Scene last = build(*m, static_cast<std::size_t>(sh5), {});
    EXPECT_TRUE(cell_at(last, sh5, 0).marks.undefined);
}

// Without the final __syncthreads(), the downsweep's last writes are read unordered.
TEST(Pitfalls, MissingFinalSyncMarksTheHazards) {
    const auto m = trace(
        with_pitfall(request(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4), Pitfall::NoFinalSync));
    const int down0 = find_frame(*m, Step::Downsweep, 0);
    const int down1 = find_frame(*m, Step::Downsweep, 1);
    const Scene s = build(*m, static_cast<std::size_t>(down1), {});
    const auto& writes = m->writes(static_cast<std::size_t>(down1));
    int hazards = 0;
    for (int c = 0; c < 4; ++c) {
        const Cell& cell = cell_at(s, down1, c);
        const bool hazard = !writes[static_cast<std::size_t>(c)].hazard.empty();
        EXPECT_EQ(cell.marks.hazard, hazard) << c;
        if (hazard) {
            EXPECT_EQ(cell.border, kPal.hazard);
            ++hazards;
        }
    }
    EXPECT_EQ(hazards, 3) << "s[1], s[2], s[3] are read by another thread than their writer";
    EXPECT_FALSE(cell_at(s, down0, 1).marks.hazard) << "a barrier follows the first level";
    EXPECT_TRUE(has_legend(s, kPal.hazard));
    EXPECT_EQ(cell_at(s, down1, 3).text, "6") << "the values themselves are the right ones";
    EXPECT_TRUE(has_label(s, "no __syncthreads() here"));
    EXPECT_FALSE(has_label(s, "__syncthreads(): the final barrier"));
}

// Exercise 2: every lane writes s[warpId]: 32 candidates per slot, the slot raced, the
// CPU model's result undefined rather than invented.
TEST(Pitfalls, EveryLaneWritesShowsTheRaceAndNoInventedResult) {
    const auto m = trace(
        with_pitfall(request(Algorithm::ReduceFull, generate(Generator::RandomInt, 64, 1, 0), 64),
                     Pitfall::EveryLaneWrites));
    const int slots = find_frame(*m, Step::WarpTotals, 0);
    const Scene s = build(*m, static_cast<std::size_t>(slots), {});
    for (int w = 0; w < 2; ++w) {
        const Cell& c = cell_at(s, slots, w);
        EXPECT_TRUE(c.marks.race) << w;
        EXPECT_TRUE(c.marks.undefined) << "the CPU model does not pick a winner";
        EXPECT_EQ(c.text, "?");
        EXPECT_EQ(c.border, kPal.race);
    }
    EXPECT_EQ(count_arrows(s, kPal.race), 64u) << "32 lanes into each of the 2 slots";
    EXPECT_TRUE(has_label(s, "? = one of the 32 lane sums"));
    EXPECT_TRUE(has_legend(s, kPal.race));
    const int total = find_frame(*m, Step::BlockTotal, 0);
    const Scene end = build(*m, static_cast<std::size_t>(total), {});
    EXPECT_EQ(cell_at(end, total, 0).text, "?");
    EXPECT_TRUE(cell_at(end, total, 0).marks.undefined);
}

// ---- A student's values on the canvas --------------------------------------------------------

// Practising Exercise 3: the hidden first downsweep level shows what the student typed.
TEST(Answers, HiddenLevelShowsTheStudentsValuesMarked) {
    const auto m = trace(request(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4));
    const int clear = find_frame(*m, Step::ClearRoot, 0);
    const int down0 = find_frame(*m, Step::Downsweep, 0); // 1 0 3 3
    Scene s = build(*m, static_cast<std::size_t>(clear), {});
    const Rect focus_before = s.focus;
    AnswerRow row{down0,
                  {"1", "0", "3", "4"},
                  {Verdict::Right, Verdict::Right, Verdict::Right, Verdict::Wrong},
                  true};
    mark_answers(s, {row}, kPal);
    const Cell& right = cell_at(s, down0, 1);
    EXPECT_EQ(right.role, CellRole::Future) << "the level itself stays hidden";
    EXPECT_EQ(right.text, "0");
    EXPECT_TRUE(right.marks.right);
    EXPECT_EQ(right.border, kPal.right);
    const Cell& wrong = cell_at(s, down0, 3);
    EXPECT_EQ(wrong.text, "4") << "the student's value, not the answer 3";
    EXPECT_TRUE(wrong.marks.wrong);
    EXPECT_EQ(wrong.border, kPal.wrong);
    EXPECT_TRUE(has_legend(s, kPal.right));
    EXPECT_TRUE(has_legend(s, kPal.wrong));
    EXPECT_GE(s.focus.bottom(), wrong.rect.bottom()) << "the camera keeps the answer in view";
    EXPECT_GE(s.focus.bottom(), focus_before.bottom());
}

// reduceNaive past 48 elements draws each sum twice, narrow on the strip of every sum and
// whole in the magnified part: a student's wrong answer is marked once, on the cell read, and
// what they wrote stands under that cell (not also under a sliver of the strip, over the funnel).
TEST(Answers, AValueDrawnTwiceIsMarkedWhereItIsRead) {
    const auto m = trace(request(Algorithm::ReduceNaive, seq(100), 32));
    const std::size_t f = m->frame_at(29, 0); // addition 30
    Scene s = build(*m, f, {});
    ASSERT_EQ(std::count_if(s.cells.begin(), s.cells.end(),
                            [&](const Cell& c) {
                                return c.ref && c.ref->frame == static_cast<int>(f) &&
                                       c.ref->cell == 0;
                            }),
              2)
        << "the test wants the sum drawn twice";
    const std::size_t labels_before = s.labels.size();
    mark_answers(s, {AnswerRow{static_cast<int>(f), {"999"}, {Verdict::Wrong}, true}}, kPal);
    std::vector<const Cell*> marked;
    for (const Cell& c : s.cells)
        if (c.marks.wrong)
            marked.push_back(&c);
    ASSERT_EQ(marked.size(), 1u) << "marked on every drawing of the value";
    EXPECT_GE(marked[0]->rect.w, 0.99f) << "marked on the strip's sliver, not the cell read";
    int said = 0;
    for (std::size_t i = labels_before; i < s.labels.size(); ++i)
        if (s.labels[i].text.find("999") != std::string::npos) {
            ++said;
            EXPECT_GE(s.labels[i].pos.y, marked[0]->rect.bottom()) << s.labels[i].text;
            EXPECT_NEAR(s.labels[i].pos.x, marked[0]->rect.center().x, marked[0]->rect.w)
                << s.labels[i].text;
        }
    EXPECT_EQ(said, 1) << "what the student wrote, said once";
}

// A hand-trace compared on a level that is on screen: the trace's values, the verdicts as
// borders, and what the student wrote under a wrong cell.
TEST(Answers, ShownLevelKeepsTheTracesValuesAndSaysWhatTheStudentWrote) {
    const auto m = trace(request(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4));
    const int down0 = find_frame(*m, Step::Downsweep, 0);
    Scene s = build(*m, static_cast<std::size_t>(down0), {});
    mark_answers(s,
                 {{down0,
                   {"1", "0", "3", "4"},
                   {Verdict::Right, Verdict::Right, Verdict::Right, Verdict::Wrong}}},
                 kPal);
    EXPECT_EQ(cell_at(s, down0, 3).text, "3");
    EXPECT_EQ(cell_at(s, down0, 3).border, kPal.wrong);
    EXPECT_EQ(cell_at(s, down0, 0).border, kPal.right);
    EXPECT_TRUE(has_label(s, "you: 4"));
    EXPECT_FALSE(has_label(s, "you: 3"));
}

// A student's hand-trace of the whole trace, each level labelled as the Hand-trace tab's
// "Labels to fill in" writes it, every third value written one off (the third, sixth, ... of
// the whole hand-trace, so that levels of one value are right in some places and wrong in
// others); checked as that tab checks it.
bool slipped(std::size_t nth_value) {
    return nth_value % 3 == 2;
}

std::vector<AnswerRow> checked_hand_trace(const Trace& t) {
    const LabelParts parts = label_parts(t);
    std::string text;
    std::size_t written = 0;
    for (const Frame& f : t.frames) {
        text += frame_label(f, parts) + ":";
        for (const float v : f.values) {
            if (slipped(written++))
                text += " " + format_value(std::isnan(v) ? 0.0f : v + 1.0f);
            else
                text += " " + (std::isnan(v) ? std::string("?") : format_value(v));
        }
        text += '\n';
    }
    const std::vector<AnswerLine> answer = parse_answer(text);
    return answer_rows(check_answer(t, answer), answer);
}

// A checked hand-trace brings "your value: right" and "your value: wrong" beside a view's own
// entries, and its borders and fills onto the view's cells: those two are apart from each other
// and from every entry of the view, to anyone in the class, in both themes, and every fill a
// cell then wears is named.
TEST(Answers, CheckedHandTraceColoursAreDistinctInEveryView) {
    std::size_t hidden = 0; // students' values in levels not reached yet, over every view
    for (const auto& c : legend_cases()) {
        if (c.request.algorithm == Algorithm::ScanFast)
            continue; // the schedule chooses its look-back: the checker refuses a hand-trace
        const auto m = trace(c.request);
        const std::vector<AnswerRow> rows = checked_hand_trace(m->trace());
        ASSERT_EQ(rows.size(), m->trace().frames.size()) << c.name;
        std::size_t written = 0;
        for (const AnswerRow& row : rows)
            for (std::size_t i = 0; i < row.verdicts.size(); ++i)
                ASSERT_EQ(row.verdicts[i] == Verdict::Wrong, slipped(written++))
                    << c.name << ": frame " << row.frame << " cell " << i;
        std::size_t right = 0, wrong = 0; // cells the canvas marks, over every step
        for (const Theme theme : {Theme::Light, Theme::Dark}) {
            const Palette pal = palette(theme);
            for (std::size_t step = 0; step < m->steps().size(); ++step) {
                ViewOptions o;
                o.theme = theme;
                Scene s = build(*m, m->frame_at(static_cast<int>(step), 0), o);
                mark_answers(s, rows, pal);
                const std::string at = c.name + " (" + std::string(theme_id(theme)) + ") step " +
                                       std::to_string(step) + ", hand-trace checked";
                ASSERT_TRUE(has_legend(s, pal.right)) << at;
                ASSERT_TRUE(has_legend(s, pal.wrong)) << at;
                expect_every_fill_in_the_legend(s, pal, at);
                expect_legend_apart(s, pal, at);
                for (const Cell& cell : s.cells) {
                    right += cell.marks.right;
                    wrong += cell.marks.wrong;
                    if (cell.role == CellRole::Future && (cell.marks.right || cell.marks.wrong)) {
                        ++hidden;
                        EXPECT_TRUE(faded_from(cell.fill, cell.marks.right ? pal.right : pal.wrong,
                                               pal.cell))
                            << at << ": a hidden level's value wears its own verdict's accent";
                    }
                }
            }
        }
        EXPECT_GT(right, 0u) << c.name;
        EXPECT_GT(wrong, 0u) << c.name;
    }
    EXPECT_GT(hidden, 0u) << "no level not reached yet showed a student's values";
}

// A moving value comes from the cell its arrow reads, and is drawn only while that cell is: a
// picture showing the right half of the row leaves out the values from the left half, as it
// leaves out their arrows (without Cell::source every one was drawn, from the edge).
TEST(SceneBuilder, MovingValuesFromCellsOffScreenAreLeftOut) {
    const auto m = trace(request(Algorithm::ReduceTree, seq(8), 8));
    const auto l1 = static_cast<std::size_t>(find_frame(*m, Step::TreeLevel, 0));
    const Scene mid = build(*m, l1, {}, 0.5f);
    ASSERT_FALSE(mid.movers.empty());
    Camera cam;
    cam.scale = 40;
    cam.center = mid.bounds.center();
    const float w = 800, h = 600;
    const Rect right_half{w / 2, 0, w / 2, h};
    std::size_t kept = 0, left_out = 0;
    for (const Cell& mv : mid.movers) {
        ASSERT_FALSE(mv.source.empty()) << "a moving value without the cell it comes from";
        const bool from_source = std::any_of(mid.cells.begin(), mid.cells.end(),
                                             [&](const Cell& c) { return c.rect == mv.source; });
        EXPECT_TRUE(from_source) << "its source is no cell of the scene";
        const Vec2 at = cam.to_screen({mv.source.x, mv.source.y}, w, h);
        const bool on_right = at.x + mv.source.w * cam.scale > right_half.x + kSourceShownPx;
        EXPECT_EQ(source_drawn(mv.source, cam, w, h, right_half), on_right);
        (on_right ? kept : left_out) += 1;
    }
    EXPECT_GT(kept, 0u);
    EXPECT_GT(left_out, 0u) << "the picture must leave some sources out for this test to mean it";
}

} // namespace
} // namespace pplab::scene
