// `pplab render --layout FILE.json` run as a student would, its JSON read back and held to facts
// found without the writer: the sizes asked for, the input given, sums and counts computed
// here, the step's caption as `pplab trace` words it. No GL context: a layout needs only the
// font's metrics.
#include "scratch.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace pplab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Box {
    double x = 0, y = 0, w = 0, h = 0;
    double right() const { return x + w; }
    double bottom() const { return y + h; }
};

Box box(const json& r) {
    return {r.at(0).get<double>(), r.at(1).get<double>(), r.at(2).get<double>(),
            r.at(3).get<double>()};
}

// The file keeps two decimals: a hundredth of a pixel either way is on the line.
constexpr double kRounding = 0.011;

bool inside(const Box& in, const Box& out) {
    return in.x >= out.x - kRounding && in.y >= out.y - kRounding &&
           in.right() <= out.right() + kRounding && in.bottom() <= out.bottom() + kRounding;
}

std::vector<std::string> words(const std::string& line) {
    std::istringstream s(line);
    std::vector<std::string> out;
    for (std::string w; s >> w;)
        out.push_back(w);
    return out;
}

class RenderLayout : public test::Scratch {
protected:
    // `pplab render --backend cpu ARGS --layout layout.json`, read back.
    json layout(const std::string& args) const {
        const Outcome r = render(args + " --layout layout.json");
        EXPECT_EQ(r.exit_code, 0) << r.err;
        std::ifstream f(dir / "layout.json");
        return json::parse(f);
    }

    // What `pplab trace --backend cpu ARGS --format FORMAT` prints.
    std::string trace(const std::string& args, const std::string& format) const {
        const fs::path out = dir / "trace.txt";
        const std::string cmd = "'" + std::string(PPLAB_BINARY) + "' trace --backend cpu " + args +
                                " --format " + format + " >'" + out.string() + "'";
        EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
        std::stringstream s;
        s << std::ifstream(out).rdbuf();
        fs::remove(out);
        return s.str();
    }

    // The caption `pplab trace --format markdown` gives the frame named `frame` ("block 0
    // block-total"): the table's second column.
    std::string caption_of(const std::string& args, const std::string& frame) const {
        std::istringstream table(trace(args, "markdown"));
        const std::string head = "| " + frame + " | ";
        for (std::string line; std::getline(table, line);)
            if (line.rfind(head, 0) == 0)
                return line.substr(head.size(), line.find(" | ", head.size()) - head.size());
        ADD_FAILURE() << "no frame '" << frame << "' in the trace of " << args;
        return "";
    }

    // The values `pplab trace` prints after "NAME: " (text format), one per word.
    std::vector<std::string> trace_row(const std::string& args, const std::string& name) const {
        std::istringstream text(trace(args, "text"));
        for (std::string line; std::getline(text, line);)
            if (line.rfind(name + ": ", 0) == 0)
                return words(line.substr(name.size() + 2));
        ADD_FAILURE() << "no row '" << name << "' in the trace of " << args;
        return {};
    }
};

// What holds for every layout of a picture of `width` x `height` at presenter scale `scale`:
// the canvas lies in the picture, everything drawn on it in the canvas (captions, above and
// below it, in the picture), only the five kinds, and no text under 11 px at 100%.
void expect_legible_and_in_place(const json& doc, int width, int height, int scale) {
    const Box picture{0, 0, static_cast<double>(width), static_cast<double>(height)};
    const Box canvas = box(doc.at("canvas"));
    EXPECT_GT(canvas.w, 0);
    EXPECT_GT(canvas.h, 0);
    EXPECT_TRUE(inside(canvas, picture)) << doc.at("canvas");
    const std::set<std::string> kinds = {"cell", "label", "legend", "caption", "arrow-label"};
    ASSERT_FALSE(doc.at("items").empty());
    for (const json& it : doc.at("items")) {
        const std::string kind = it.at("kind");
        EXPECT_TRUE(kinds.count(kind)) << it;
        const Box r = box(it.at("rect"));
        EXPECT_GT(r.w, 0) << it;
        EXPECT_GT(r.h, 0) << it;
        EXPECT_TRUE(inside(r, kind == "caption" ? picture : canvas)) << it;
        if (!it.at("text").get<std::string>().empty()) {
            EXPECT_GE(it.at("text_px").get<double>(), 11.0 * scale / 100.0 - kRounding) << it;
        }
    }
}

// The rows of values drawn in cells, top to bottom, each left to right.
std::vector<std::vector<std::string>> value_rows(const json& doc) {
    std::map<double, std::map<double, std::string>> rows;
    for (const json& it : doc.at("items"))
        if (it.at("kind") == "cell" && !it.at("text").get<std::string>().empty()) {
            const Box r = box(it.at("rect"));
            rows[r.y][r.x] = it.at("text");
        }
    std::vector<std::vector<std::string>> out;
    for (const auto& [y, row] : rows) {
        out.emplace_back();
        for (const auto& [x, text] : row)
            out.back().push_back(text);
    }
    return out;
}

std::string captions(const json& doc) {
    std::string all;
    for (const json& it : doc.at("items"))
        if (it.at("kind") == "caption")
            all += it.at("text").get<std::string>() + " ";
    return all;
}

std::vector<std::string> texts_of(const std::vector<float>& values) {
    std::vector<std::string> out;
    for (const float v : values)
        out.push_back(std::to_string(static_cast<int>(v)));
    return out;
}

bool has_row(const std::vector<std::vector<std::string>>& rows,
             const std::vector<std::string>& row) {
    return std::find(rows.begin(), rows.end(), row) != rows.end();
}

// The case: reduceTree n 12 block 8 at its last step. Block 0 is shown: every row of
// values drawn is one the trace holds (the input given, block 0's tree level by level, both
// block totals in out[]). At 100% on a 1280x720 projector all of them are drawn; at 200% on a
// 1920x1080 one the camera follows the step with the rows above it that read at that size: block
// 0's load, its levels and out[], and in[] (the input's 12 values, wider than a block) said above.
TEST_F(RenderLayout, ReduceTreeShowsTheTraceOfTheStepLegibly) {
    const std::vector<float> in = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8};
    const std::string request = "--algo reduce-tree --block 8 --input 3,1,4,1,5,9,2,6,5,3,5,8";
    const std::vector<float> totals = {std::accumulate(in.begin(), in.begin() + 8, 0.0f),
                                       std::accumulate(in.begin() + 8, in.end(), 0.0f)};
    std::vector<std::vector<std::string>> trace_rows = {texts_of(in), texts_of(totals)};
    for (const char* row :
         {"block 0 load", "block 0 tree-level 0", "block 0 tree-level 1", "block 0 tree-level 2"})
        trace_rows.push_back(trace_row(request, row));
    const std::string caption = caption_of(request, "block 0 block-total");
    ASSERT_FALSE(caption.empty());
    for (const auto& [size, w, h, scale, shown] :
         {std::tuple{"1280x720", 1280, 720, 100, trace_rows.size()},
          std::tuple{"1920x1080", 1920, 1080, 200, trace_rows.size() - 1}}) {
        SCOPED_TRACE(std::string(size) + " at " + std::to_string(scale) + "%");
        const json doc =
            layout(request + " --step 5 --size " + size + " --scale " + std::to_string(scale));
        expect_legible_and_in_place(doc, w, h, scale);
        EXPECT_NE(captions(doc).find("step 5 of 5"), std::string::npos) << captions(doc);
        EXPECT_NE(captions(doc).find(caption), std::string::npos)
            << "'" << caption << "' in " << captions(doc);
        const auto rows = value_rows(doc);
        for (const auto& row : rows)
            EXPECT_TRUE(has_row(trace_rows, row)) << "a row the trace does not hold: " << row[0];
        EXPECT_EQ(rows.size(), shown);
        EXPECT_TRUE(has_row(rows, texts_of(totals))) << "out[]: the blocks' sums";
        EXPECT_TRUE(has_row(rows, trace_rows.back())) << "the step's level";
        if (rows.size() < trace_rows.size()) {
            EXPECT_FALSE(has_row(rows, texts_of(in)));
            EXPECT_NE(captions(doc).find("in[] above"), std::string::npos) << captions(doc);
        }
    }
}

// A histogram at 150% on 1600x1000: the global histogram's counts are the input's, counted
// here; each bin is drawn with its count.
TEST_F(RenderLayout, HistogramCountsAreTheInputsCounts) {
    const std::vector<int> in = {0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 15, 15, 7};
    std::string list;
    std::vector<float> counts(16, 0.0f);
    for (const int v : in) {
        list += (list.empty() ? "" : ",") + std::to_string(v);
        counts[static_cast<std::size_t>(v)] += 1;
    }
    const std::string request = "--algo hist-privatised --bins 16 --block 64 --input " + list;
    const json doc = layout(request + " --step 3 --size 1600x1000 --scale 150");
    expect_legible_and_in_place(doc, 1600, 1000, 150);
    EXPECT_NE(captions(doc).find("step 3 of 3"), std::string::npos) << captions(doc);
    const std::string caption = caption_of(request, "hist-fold");
    ASSERT_FALSE(caption.empty());
    EXPECT_NE(captions(doc).find(caption), std::string::npos) << captions(doc);
    const auto rows = value_rows(doc);
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows.back(), texts_of(counts)) << "g_hist[], the lowest row: every bin's count";
}

// Where the canvas's edge cuts a cell (a step too wide to show whole), the cell says so: its
// rect is the sliver shown, at the edge, narrower than the whole cells of its row, and it is
// the only kind of cell that is.
TEST_F(RenderLayout, CellsTheCanvasCutsAreMarked) {
    const json doc =
        layout("--algo reduce-tree --n 65536 --block 1024 --step 12 --size 1920x1080 --scale 100");
    expect_legible_and_in_place(doc, 1920, 1080, 100);
    double left = 1e9, right = -1e9;
    std::map<double, double> row_width; // y -> the widest cell of the row
    for (const json& it : doc.at("items"))
        if (it.at("kind") == "cell") {
            const Box r = box(it.at("rect"));
            left = std::min(left, r.x);
            right = std::max(right, r.right());
            row_width[r.y] = std::max(row_width[r.y], r.w);
        }
    int cut = 0;
    for (const json& it : doc.at("items")) {
        if (it.at("kind") != "cell")
            continue;
        const Box r = box(it.at("rect"));
        if (it.at("cut").get<bool>()) {
            ++cut;
            EXPECT_TRUE(r.x <= left + kRounding || r.right() >= right - kRounding) << it;
            EXPECT_LT(r.w, row_width[r.y] - 1.0) << it;
        } else {
            EXPECT_GT(r.w, row_width[r.y] - kRounding) << "a narrow cell not marked cut: " << it;
        }
    }
    EXPECT_GT(cut, 0) << "out[]'s 64 block totals do not fit in 1920 px";
}

// Where the edge goes between two cells (beside a legend docked on the right: nothing cut,
// nothing to show that the rows go on), the notice says which part of them is shown, as many
// cells as the picture holds of a row of the block's 1024 threads.
TEST_F(RenderLayout, RowsEndingAtACleanEdgeAreSaidToGoOn) {
    const json doc =
        layout("--algo reduce-tree --n 65536 --block 1024 --step 12 --size 1280x720 --scale 100");
    std::map<double, int> row_cells; // y -> cells of the row in the picture
    for (const json& it : doc.at("items"))
        if (it.at("kind") == "cell") {
            ASSERT_FALSE(it.at("cut").get<bool>()) << "the test wants an edge that cuts nothing";
            ++row_cells[box(it.at("rect")).y];
        }
    int most = 0;
    for (const auto& [y, cells] : row_cells)
        most = std::max(most, cells);
    const std::string said = "showing elements 0–" + std::to_string(most - 1) + " of 1024";
    bool found = false;
    for (const json& it : doc.at("items"))
        found = found || (it.at("kind") == "caption" &&
                          it.at("text").get<std::string>().find(said) != std::string::npos);
    EXPECT_TRUE(found) << "no caption says '" << said << "'";
}

// A row the edge cuts, under a step shown whole, is counted in what one of its cells stands
// for: scan-multiblock's add-carries at 150% showed totals[] and carries cut after two blocks
// and said "showing elements 0–1 of 64"; reduceAtomic's out[] holds a total per block;
// reduceFull's last step said "elements" of the first warp's 32 lanes.
TEST_F(RenderLayout, ARowCutByTheEdgeIsCountedInItsOwnUnit) {
    struct Case {
        std::string args, row, unit;
        int total;
    };
    const std::vector<Case> cases = {
        {"--algo reduce-atomic --n 65536 --block 1024 --step 1 --order-seed 1", "out[]", "block",
         65536 / 1024 / 4}, // ELEMS_PER_THREAD = 4 elements per thread: 16 blocks
        {"--algo reduce-full --n 65536 --block 128 --step 31", "shuffle 4", "lane", 32},
    };
    for (const Case& k : cases) {
        const json doc = layout(k.args + " --size 1280x720 --scale 150");
        std::optional<Box> name;
        for (const json& it : doc.at("items"))
            if (it.at("kind") == "label" && it.at("text") == k.row)
                name = box(it.at("rect"));
        ASSERT_TRUE(name) << k.args << ": no row named " << k.row;
        const double level = name->y + name->h / 2;
        int whole = 0, cut = 0;
        for (const json& it : doc.at("items")) {
            const Box r = box(it.at("rect"));
            if (it.at("kind") == "cell" && r.y <= level && r.bottom() >= level &&
                r.x >= name->right())
                ++(it.at("cut").get<bool>() ? cut : whole);
        }
        ASSERT_GT(whole, 1) << k.args;
        ASSERT_LT(whole, k.total) << k.args << ": the test wants a row the edge cuts";
        const std::string said = "showing " + k.unit + "s 0–" + std::to_string(whole - 1) + " of " +
                                 std::to_string(k.total);
        std::string notice;
        for (const json& it : doc.at("items"))
            if (it.at("kind") == "caption" &&
                it.at("text").get<std::string>().rfind("showing ", 0) == 0)
                notice = it.at("text").get<std::string>();
        EXPECT_EQ(notice.substr(0, said.size()), said) << k.args << " (cut cells: " << cut << ")";
    }
}

// A row of cells narrower than a unit cut by the picture's left edge is said like any other (at
// n 200 reduceNaive's view followed the sum to element 99, showed in[] from element 93 on, and
// said nothing of it), a heat strip's cells counted by the elements each stands for: the
// multi-block scan's out[], 65536 elements, seen from block 63's add-carries. The cell the edge
// cuts by under a pixel may count as shown.
TEST_F(RenderLayout, ARowOfNarrowCellsCutOnTheLeftIsSaid) {
    const int n = 65536;
    const json doc = layout("--algo scan-multiblock --n " + std::to_string(n) +
                            " --block 1024 --step 46 --shown-block 63 --size 1280x720 --scale 100");
    std::optional<Box> name;
    for (const json& it : doc.at("items"))
        if (it.at("kind") == "label" && it.at("text") == "out[]")
            name = box(it.at("rect"));
    ASSERT_TRUE(name) << "no row named out[]";
    const double level = name->y + name->h / 2;
    int whole = 0, cut = 0, narrow = 0;
    double right = 0;
    for (const json& it : doc.at("items")) {
        const Box r = box(it.at("rect"));
        if (it.at("kind") != "cell" || r.y > level || r.bottom() < level || r.x < name->right())
            continue;
        const int elements = it.value("elements", 1);
        (it.at("cut").get<bool>() ? cut : whole) += elements;
        narrow += r.w < 8;
        right = std::max(right, r.right());
    }
    ASSERT_GT(cut, 0) << "the test wants out[] cut by the left edge";
    ASSERT_GT(narrow, 100) << "the test wants a row of narrow cells";
    ASSERT_LT(right, box(doc.at("canvas")).right() - 1) << "the test wants out[]'s end in view";
    std::string notice;
    for (const json& it : doc.at("items"))
        if (it.at("kind") == "caption" &&
            it.at("text").get<std::string>().rfind("showing ", 0) == 0)
            notice = it.at("text").get<std::string>();
    const std::string head = "showing elements ",
                      tail = "–" + std::to_string(n - 1) + " of " + std::to_string(n);
    ASSERT_EQ(notice.rfind(head, 0), 0u) << notice;
    const std::size_t dash = notice.find(tail);
    ASSERT_NE(dash, std::string::npos) << notice;
    const int first = std::stoi(notice.substr(head.size(), dash - head.size()));
    EXPECT_GE(first, n - whole - cut) << notice;
    EXPECT_LE(first, n - whole) << notice;
}

// reduceNaive past 48 elements shows the step's part of in[] magnified, named by its elements
// ("in[90–105]"): its cells are those elements (the input written here, found among them), and
// where the edge cuts the row the notice counts in in[]'s numbers, not the row's own (addition
// 100 at 200% in 1280x720 would say "showing elements 0–13 of 16"), on either side.
TEST_F(RenderLayout, ReduceNaivesMagnifiedPartIsCountedInTheArraysNumbers) {
    const int n = 65536;
    std::ofstream input(dir / "in.txt");
    const auto value = [](int i) { return std::to_string((i * 7 + i / 10) % 10); };
    for (int i = 0; i < n; ++i)
        input << value(i) << (i + 1 < n ? "," : "\n");
    input.close();
    // Addition 1 too: the strip's sliver that draws its sum stood for 185 sums, and the notice
    // counted it among the step's cells: "showing thread 0 of 185". Addition 32771 at 200%: the
    // six-digit sums take 85 px cells, and the magnified in[] once fell off the top.
    for (const std::string step_scale :
         {"100 --scale 200", "65536 --scale 150", "1 --scale 200", "32771 --scale 200"}) {
        const std::string args =
            "--algo reduce-naive --input-file in.txt --size 1280x720 --step " + step_scale;
        const json doc = layout(args);
        std::optional<Box> name;
        int first = -1, last = -1;
        for (const json& it : doc.at("items")) {
            const std::string text = it.at("text").get<std::string>();
            if (it.at("kind") == "label" && text.rfind("in[", 0) == 0 && text != "in[]") {
                name = box(it.at("rect"));
                const std::size_t dash = text.find("–");
                ASSERT_NE(dash, std::string::npos) << text;
                first = std::stoi(text.substr(3, dash - 3));
                last = std::stoi(text.substr(dash + std::string("–").size()));
            }
        }
        ASSERT_TRUE(name) << args << ": no magnified row named in[A–B]";
        EXPECT_EQ(last - first + 1, 16) << args;
        const double level = name->y + name->h / 2;
        std::vector<std::pair<double, std::string>> whole; // by x
        for (const json& it : doc.at("items")) {
            const Box r = box(it.at("rect"));
            if (it.at("kind") == "cell" && r.y <= level && r.bottom() >= level &&
                !it.at("cut").get<bool>())
                whole.emplace_back(r.x, it.at("text").get<std::string>());
        }
        std::sort(whole.begin(), whole.end());
        ASSERT_GT(whole.size(), 1u) << args;
        ASSERT_LT(whole.size(), 16u) << args << ": the test wants the row cut by the edge";
        // Which of in[first..last] the cells shown whole are: the one run of them that matches.
        std::vector<int> starts;
        for (int at = first; at + static_cast<int>(whole.size()) - 1 <= last; ++at) {
            bool same = true;
            for (std::size_t i = 0; i < whole.size(); ++i)
                same = same && whole[i].second == value(at + static_cast<int>(i));
            if (same)
                starts.push_back(at);
        }
        ASSERT_EQ(starts.size(), 1u)
            << args << ": the cells are not one run of in[" << first << "–" << last << "]";
        const int shown_last = starts[0] + static_cast<int>(whole.size()) - 1;
        const std::string said = "showing elements " + std::to_string(starts[0]) + "–" +
                                 std::to_string(shown_last) + " of " + std::to_string(n);
        std::string notice;
        for (const json& it : doc.at("items"))
            if (it.at("kind") == "caption" &&
                it.at("text").get<std::string>().rfind("showing ", 0) == 0)
                notice = it.at("text").get<std::string>();
        EXPECT_EQ(notice.substr(0, said.size()), said) << args;
    }
}

// Where reduceNaive's whole picture fits at the zoom its numbers need, it is shown whole: the
// strip of in[] and the sums, and the 16 magnified elements, each with its number. The sum the
// step writes, narrow on the strip (49 sums in 16 units), once set the zoom values are read at:
// at 200% in 1920x1080 the view showed 10 magnified elements at 130 pixels a unit, in[] off the
// top.
TEST_F(RenderLayout, ReduceNaiveIsShownWholeWhereItFits) {
    for (const std::string args : {"--n 49 --step 20 --size 1920x1080 --scale 200",
                                   "--n 1000 --step 500 --size 1920x1080 --scale 150",
                                   "--n 65536 --step 40000 --size 1280x720 --scale 100"}) {
        const json doc = layout("--algo reduce-naive " + args);
        std::set<std::string> named;
        std::optional<Box> magnified;
        for (const json& it : doc.at("items"))
            if (it.at("kind") == "label") {
                const std::string text = it.at("text").get<std::string>();
                named.insert(text);
                if (text.rfind("in[", 0) == 0 && text != "in[]")
                    magnified = box(it.at("rect"));
            }
        EXPECT_TRUE(named.count("in[]")) << args << ": the strip of in[] is not on screen";
        EXPECT_TRUE(named.count("threads")) << args;
        ASSERT_TRUE(magnified) << args << ": no magnified row";
        const double level = magnified->y + magnified->h / 2;
        int whole = 0;
        for (const json& it : doc.at("items")) {
            const Box r = box(it.at("rect"));
            whole += it.at("kind") == "cell" && r.y <= level && r.bottom() >= level &&
                     !it.at("cut").get<bool>() && !it.at("text").get<std::string>().empty();
        }
        EXPECT_EQ(whole, 16) << args << ": the magnified elements are not all shown";
        for (const json& it : doc.at("items"))
            if (it.at("kind") == "caption") {
                const std::string text = it.at("text").get<std::string>();
                EXPECT_EQ(text.find("showing"), std::string::npos) << args << ": " << text;
                EXPECT_EQ(text.find("above"), std::string::npos) << args << ": " << text;
            }
    }
}

// Rows off screen said in notes at the canvas's edges, where no band fits, are captions of the
// layout like the band's lines, and lie over no cell, label or legend entry: reduceTree's level
// 1 at 175% in 1280x640 shows s[] load, level 0 and level 1 only.
TEST_F(RenderLayout, NotesAtTheEdgesSayTheRowsOffScreen) {
    const json doc =
        layout("--algo reduce-tree --n 32 --block 8 --step 3 --size 1280x640 --scale 175");
    std::vector<Box> notes, drawn;
    std::set<std::string> said, named;
    for (const json& it : doc.at("items")) {
        const std::string text = it.at("text").get<std::string>();
        if (it.at("kind") == "caption" && (text.rfind("↑ ", 0) == 0 || text.rfind("↓ ", 0) == 0)) {
            notes.push_back(box(it.at("rect")));
            said.insert(text);
        } else if (it.at("kind") != "caption") {
            drawn.push_back(box(it.at("rect")));
            if (it.at("kind") == "label")
                named.insert(text);
        }
    }
    ASSERT_TRUE(named.count("level 1") && named.count("s[] load")) << "the step's rows drawn";
    ASSERT_FALSE(named.count("in[]") || named.count("out[]") || named.count("level 2"))
        << "the test wants rows off screen";
    EXPECT_EQ(said, (std::set<std::string>{"↑ in[] above", "↓ level 2, out[] below"}));
    for (const Box& n : notes) {
        EXPECT_TRUE(inside(n, box(doc.at("canvas"))));
        for (const Box& d : drawn)
            EXPECT_FALSE(n.x < d.right() && d.x < n.right() && n.y < d.bottom() && d.y < n.bottom())
                << "a note at " << n.x << "," << n.y << " over an item at " << d.x << "," << d.y;
    }
}

// A layout goes where a file can go, or nowhere: a folder or a path that cannot be written is
// one line, exit code 2, and nothing written (not even a partial file).
TEST_F(RenderLayout, APathThatCannotBeWrittenIsRefused) {
    fs::create_directory(dir / "slides");
    std::ofstream(dir / "notes.txt") << "notes";
    const std::string tree = "--algo reduce-tree --n 8 --step 1 --layout ";
    for (const auto& [path, says] :
         {std::pair{"slides", "'slides': it is a folder"},
          std::pair{"slides/", "'slides/': it is a folder"},
          std::pair{"nowhere/l.json", "there is no folder 'nowhere'"},
          std::pair{"notes.txt/l.json", "'notes.txt/l.json': Not a directory"}}) {
        SCOPED_TRACE(path);
        const Outcome r = render(tree + path);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_EQ(r.err.rfind("pplab: cannot write ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
        EXPECT_EQ(listing(), (std::vector<std::string>{"notes.txt", "slides"}));
        EXPECT_TRUE(fs::is_empty(dir / "slides"));
    }
}

} // namespace
} // namespace pplab
