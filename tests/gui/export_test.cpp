// The exports for slides and sharing, read back as a viewer would: the PNG decoded
// (stb_image), the SVG parsed (a small well-formedness check) and searched for the cells'
// values, the PNG sequence whole or absent; failures leave no file; `pplab render --svg`
// exit codes. The GIF has its own file (gif_test.cpp): it needs giflib to read it back.
#include "fixtures.hpp"
#include "pictures.hpp"
#include "scratch.hpp"

#include "export/run.hpp"
#include "export/svg.hpp"
#include "render/gl_renderer.hpp"
#include "render/picture.hpp"

#include "pplab/stats.hpp"

#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace pplab::exporting {
namespace {

namespace fs = std::filesystem;

// ---- a small XML reader: enough to say a document is well-formed --------------------------

struct Element {
    std::string name;
    std::map<std::string, std::string> attributes;
    std::string text; // its character data, entities decoded
};

struct Xml {
    std::vector<Element> elements; // in document order
    std::string error;             // empty: well-formed
};

bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' ||
           c == '.';
}

// Decodes &amp; &lt; &gt; &quot; &apos; and &#N;; false for anything else after '&'.
bool decode(std::string_view raw, std::string& out) {
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] != '&') {
            out += raw[i];
            continue;
        }
        const std::size_t end = raw.find(';', i);
        if (end == std::string_view::npos)
            return false;
        const std::string_view entity = raw.substr(i + 1, end - i - 1);
        if (entity == "amp")
            out += '&';
        else if (entity == "lt")
            out += '<';
        else if (entity == "gt")
            out += '>';
        else if (entity == "quot")
            out += '"';
        else if (entity == "apos")
            out += '\'';
        else if (entity.size() > 1 && entity[0] == '#')
            out += '?'; // a character reference: well-formed, its value does not matter here
        else
            return false;
        i = end;
    }
    return true;
}

Xml parse(std::string_view s) {
    Xml x;
    std::vector<std::size_t> open; // indices into x.elements
    std::size_t i = 0;
    const auto fail = [&](const std::string& why) {
        x.error = why + " at byte " + std::to_string(i);
        return x;
    };
    if (s.substr(0, 5) == "<?xml") {
        i = s.find("?>");
        if (i == std::string_view::npos)
            return fail("unterminated prolog");
        i += 2;
    }
    bool root_seen = false;
    while (i < s.size()) {
        if (s[i] != '<') {
            const std::size_t end = std::min(s.find('<', i), s.size());
            std::string text;
            if (!decode(s.substr(i, end - i), text))
                return fail("unknown entity");
            if (open.empty()) {
                if (text.find_first_not_of(" \t\r\n") != std::string::npos)
                    return fail("text outside the root element");
            } else {
                x.elements[open.back()].text += text;
            }
            i = end;
            continue;
        }
        if (s.substr(i, 4) == "<!--") {
            const std::size_t end = s.find("-->", i);
            if (end == std::string_view::npos)
                return fail("unterminated comment");
            i = end + 3;
            continue;
        }
        if (s.substr(i, 2) == "</") {
            std::size_t j = i + 2;
            while (j < s.size() && name_char(s[j]))
                ++j;
            const std::string name(s.substr(i + 2, j - i - 2));
            if (open.empty() || x.elements[open.back()].name != name)
                return fail("</" + name + "> closes nothing open");
            if (j >= s.size() || s[j] != '>')
                return fail("malformed end tag");
            open.pop_back();
            i = j + 1;
            continue;
        }
        std::size_t j = i + 1;
        while (j < s.size() && name_char(s[j]))
            ++j;
        if (j == i + 1)
            return fail("a tag without a name");
        if (open.empty() && root_seen)
            return fail("a second root element");
        root_seen = true;
        Element e;
        e.name = std::string(s.substr(i + 1, j - i - 1));
        for (;;) {
            while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j])))
                ++j;
            if (j >= s.size())
                return fail("unterminated tag <" + e.name + ">");
            if (s[j] == '>' || s.substr(j, 2) == "/>")
                break;
            const std::size_t a = j;
            while (j < s.size() && name_char(s[j]))
                ++j;
            const std::string attribute(s.substr(a, j - a));
            if (attribute.empty() || j + 1 >= s.size() || s[j] != '=' || s[j + 1] != '"')
                return fail("attribute of <" + e.name + "> not name=\"value\"");
            const std::size_t end = s.find('"', j + 2);
            if (end == std::string_view::npos)
                return fail("unterminated attribute value");
            std::string value;
            const std::string_view raw = s.substr(j + 2, end - j - 2);
            if (raw.find('<') != std::string_view::npos || !decode(raw, value))
                return fail("bad attribute value");
            if (!e.attributes.emplace(attribute, value).second)
                return fail("attribute '" + attribute + "' twice");
            j = end + 1;
        }
        const bool empty = s[j] == '/';
        x.elements.push_back(std::move(e));
        if (!empty)
            open.push_back(x.elements.size() - 1);
        i = j + (empty ? 2 : 1);
    }
    if (!open.empty())
        return fail("<" + x.elements[open.back()].name + "> is never closed");
    if (!root_seen)
        return fail("no root element");
    return x;
}

std::vector<std::string> texts(const Xml& x) {
    std::vector<std::string> out;
    for (const Element& e : x.elements)
        if (e.name == "text")
            out.push_back(e.text);
    return out;
}

std::size_t count(const Xml& x, const std::string& name, const std::string& cls = {}) {
    return static_cast<std::size_t>(
        std::count_if(x.elements.begin(), x.elements.end(), [&](auto& e) {
            if (e.name != name)
                return false;
            const auto it = e.attributes.find("class");
            return cls.empty() || (it != e.attributes.end() && it->second == cls);
        }));
}

TEST(XmlCheck, RejectsWhatIsNotWellFormed) {
    EXPECT_TRUE(parse("<a><b x=\"1\"/>t &amp; u</a>").error.empty());
    EXPECT_FALSE(parse("<a><b></a>").error.empty());
    EXPECT_FALSE(parse("<a x=1/>").error.empty());
    EXPECT_FALSE(parse("<a>&nbsp;</a>").error.empty());
    EXPECT_FALSE(parse("<a/><b/>").error.empty());
    EXPECT_FALSE(parse("<a>").error.empty());
}

// ---- SVG ---------------------------------------------------------------------------------

render::Composition blelloch_last(const render::FontAtlas& font, const scene::Model& m,
                                  int width = 1280, int height = 800) {
    render::PictureOptions po;
    po.width = width;
    po.height = height;
    return render::compose(font, m, m.trace().frames.size() - 1, po);
}

TEST(Svg, IsWellFormedAndHoldsEveryValueAsText) {
    const render::FontAtlas font(render::ui_font());
    const auto m = test::trace(test::request(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4));
    const render::Composition c = blelloch_last(font, *m);
    const std::string doc = svg(c, font);
    const Xml x = parse(doc);
    ASSERT_TRUE(x.error.empty()) << x.error;
    ASSERT_FALSE(x.elements.empty());
    const Element& root = x.elements.front();
    EXPECT_EQ(root.name, "svg");
    EXPECT_EQ(root.attributes.at("xmlns"), "http://www.w3.org/2000/svg");
    EXPECT_EQ(root.attributes.at("viewBox"), "0 0 1280 800");

    // Every cell that shows a value: a rectangle, and its value as text.
    const std::vector<std::string> shown = texts(x);
    std::size_t values = 0;
    for (const scene::Cell& cell : c.scene.cells) {
        if (!cell.ref || cell.text.empty())
            continue;
        ++values;
        EXPECT_NE(std::find(shown.begin(), shown.end(), cell.text), shown.end())
            << "value " << cell.text << " is not in the SVG";
    }
    EXPECT_GE(values, 4u * 6) << "in[], the load, two upsweeps, the root, two downsweeps";
    EXPECT_GE(count(x, "rect"), values);
    // The exclusive scan of 1 2 3 4, the last row: 0 1 3 6.
    for (const char* v : {"0", "1", "3", "6"})
        EXPECT_NE(std::find(shown.begin(), shown.end(), v), shown.end()) << v;
    // Each arrow the picture draws (scene::arrows_drawn, as the window) is a path (the current
    // step's also a head); the header's title and every legend entry are text.
    EXPECT_EQ(count(x, "path", "arrow"),
              scene::arrows_drawn(c.scene, c.camera, static_cast<float>(c.width),
                                  static_cast<float>(c.height), c.picture)
                  .size());
    EXPECT_GT(count(x, "path", "arrowhead"), 0u);
    const auto has = [&](const std::string& part) {
        return std::any_of(shown.begin(), shown.end(),
                           [&](const std::string& t) { return t.find(part) != std::string::npos; });
    };
    EXPECT_TRUE(has("scanBlelloch"));
    EXPECT_TRUE(has("downsweep"));
    for (const scene::LegendItem& item : c.scene.legend)
        EXPECT_TRUE(has(item.text)) << item.text;
    if (const char* dir = std::getenv("PPLAB_SCREENSHOT_DIR")) {
        fs::create_directories(dir);
        write_svg(c, font, (fs::path(dir) / "export-blelloch.svg").string());
    }
}

TEST(Svg, EscapesTextAndDropsWhatTheCameraDoesNotSee) {
    const render::FontAtlas font(render::ui_font());
    render::Composition c;
    c.width = 400;
    c.height = 300;
    c.camera.center = {0, 0};
    c.camera.scale = 40;
    scene::Cell in;
    in.rect = {-1, -1, 2, 2};
    in.fill = {1, 1, 1, 1};
    in.text = "a<b & \"c\"";
    in.text_size = 0.5f;
    scene::Cell out = in;
    out.rect = {100, 100, 2, 2}; // far outside the 10 x 7.5 units the camera shows
    out.text = "outside";
    c.scene.cells = {in, out};
    c.overlay_labels.push_back({{10, 20}, "Σ ≤ → ×", 16, {0, 0, 0, 1}, scene::Align::Left, 0});
    c.picture = {0, 0, 400, 300};
    c.text = render::scene_text(font, c.scene, c.camera, 400, 300, c.picture);
    const std::string doc = svg(c, font);
    const Xml x = parse(doc);
    ASSERT_TRUE(x.error.empty()) << x.error << "\n" << doc;
    const std::vector<std::string> shown = texts(x);
    EXPECT_NE(std::find(shown.begin(), shown.end(), "a<b & \"c\""), shown.end()) << doc;
    EXPECT_NE(std::find(shown.begin(), shown.end(), "Σ ≤ → ×"), shown.end()) << doc;
    EXPECT_EQ(doc.find("outside"), std::string::npos);
}

TEST(Svg, LargeInputsStaySmall) {
    // 65536 bytes: heat strips, not 65536 rectangles with text.
    const render::FontAtlas font(render::ui_font());
    Request r = test::request(Algorithm::HistPrivatised, {}, 256, 64);
    r.input.resize(65536);
    for (std::size_t i = 0; i < r.input.size(); ++i)
        r.input[i] = static_cast<float>((i * 2654435761u >> 7) % 64);
    const auto m = test::trace(r);
    render::PictureOptions po;
    const std::string doc = svg(render::compose(font, *m, 3, po), font);
    EXPECT_TRUE(parse(doc).error.empty());
    EXPECT_LT(doc.size(), 2u << 20) << "an SVG a slide program opens quickly";
}

// ---- pictures: PNG and PNG sequence (an offscreen GL context) ---------------------------

using test::Pictures;
using test::Scratch;

TEST_F(Pictures, PngDecodesToThePicture) {
    const auto m = test::trace(test::request(Algorithm::ReduceTree, test::seq(32), 8));
    const render::Image img = draw(*m, 3);
    render::write_png(img, file("frame.png"));
    int w = 0, h = 0, channels = 0;
    unsigned char* px = stbi_load(file("frame.png").c_str(), &w, &h, &channels, 4);
    ASSERT_NE(px, nullptr) << stbi_failure_reason();
    EXPECT_EQ(w, img.width);
    EXPECT_EQ(h, img.height);
    EXPECT_TRUE(std::equal(img.rgba.begin(), img.rgba.end(), px)) << "PNG is lossless";
    stbi_image_free(px);
    EXPECT_EQ(listing(), std::vector<std::string>{"frame.png"});
}

TEST_F(Pictures, PngSequenceIsWholeOrAbsent) {
    const auto m = test::trace(test::request(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4));
    const std::vector<std::size_t> run = run_frames(*m, 0);
    {
        PngSequence seq(file("frames/"));
        seq.add(draw(*m, run[0]));
        // A temporary folder of its own beside "frames": "frames.<8 hex digits>.part".
        const std::vector<std::string> partial = listing();
        ASSERT_EQ(partial.size(), 1u);
        EXPECT_EQ(partial[0].rfind("frames.", 0), 0u) << partial[0];
        EXPECT_EQ(partial[0].substr(partial[0].size() - 5), ".part") << partial[0];
    } // abandoned: nothing left
    EXPECT_TRUE(listing().empty());

    PngSequence seq(file("frames"));
    for (const std::size_t f : run)
        seq.add(draw(*m, f));
    seq.finish();
    EXPECT_EQ(listing(), std::vector<std::string>{"frames"});
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir / "frames")) {
        int w = 0, h = 0, channels = 0;
        unsigned char* px = stbi_load(e.path().c_str(), &w, &h, &channels, 4);
        ASSERT_NE(px, nullptr) << e.path();
        EXPECT_EQ(w, 480);
        EXPECT_EQ(h, 300);
        stbi_image_free(px);
        ++n;
    }
    EXPECT_EQ(n, run.size());
    // Numbered as the transport and `pplab render --all-steps` number steps, from 1.
    for (std::size_t step = 1; step <= run.size(); ++step)
        EXPECT_TRUE(fs::exists(dir / "frames" / ("step_000" + std::to_string(step) + ".png")));
    EXPECT_THROW(PngSequence{file("frames")}, std::runtime_error) << "never over a finished run";
}

TEST_F(Scratch, FailuresLeaveNothingBehind) {
    const render::FontAtlas font(render::ui_font());
    const auto m = test::trace(test::request(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4));
    EXPECT_THROW(write_svg(blelloch_last(font, *m), font, file("missing/x.svg")),
                 std::runtime_error);
    EXPECT_THROW(PngSequence{file("missing/frames")}, std::runtime_error);
    EXPECT_TRUE(listing().empty());
}

// ---- `pplab render --svg` ----------------------------------------------------------------

class RenderCli : public Scratch {
protected:
    void expect_bad_input(const std::string& args, const std::string& names,
                          const std::string& backend = "--backend cpu ") const {
        SCOPED_TRACE("pplab render " + backend + args);
        const Outcome r = render(args, "", backend);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
        EXPECT_TRUE(listing().empty()) << "no file, not even a partial one";
    }
};

TEST_F(RenderCli, SvgOfAFrame) {
    const Outcome r = render("--algo scan-blelloch --input 1,2,3,4 --step 6 --svg b.svg");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(listing(), std::vector<std::string>{"b.svg"}) << "the SVG alone: no PNG asked for";
    std::stringstream doc;
    doc << std::ifstream(dir / "b.svg").rdbuf();
    const Xml x = parse(doc.str());
    EXPECT_TRUE(x.error.empty()) << x.error;
    const std::vector<std::string> shown = texts(x);
    EXPECT_NE(std::find(shown.begin(), shown.end(), "6"), shown.end()) << "the scan's total";
}

// The numbering of steps is the window's transport's: --step K draws what the transport calls
// "step K of N", and the picture says so.
TEST_F(RenderCli, StepsAreNumberedAsTheTransportNumbersThem) {
    // Whether the SVG `pplab render ARGS --svg t.svg` writes has a text holding `said`.
    const auto says = [&](const std::string& args, const std::string& said) {
        const Outcome r = render(args + " --svg t.svg");
        EXPECT_EQ(r.exit_code, 0) << r.err;
        std::stringstream doc;
        doc << std::ifstream(dir / "t.svg").rdbuf();
        const std::vector<std::string> shown = texts(parse(doc.str()));
        return std::any_of(shown.begin(), shown.end(),
                           [&](const std::string& t) { return t.find(said) != std::string::npos; });
    };
    const std::string tree = "--algo reduce-tree --n 12 --block 8 --gen seq --step 3";
    EXPECT_TRUE(says(tree, "step 3 of 5"))
        << "the picture's header counts steps as the transport does";
    // Blocks are blockIdx.x, from 0, said with their range as the window's selector says them
    // ("block 1 of 2" read as a count from 1, as the steps count).
    EXPECT_TRUE(says(tree + " --shown-block 1", "step 3 of 5  ·  block 1 in 0–1"))
        << "the header names blockIdx.x 1 of blocks 0-1";
    fs::remove(dir / "t.svg");
    expect_bad_input("--algo reduce-tree --n 12 --block 8 --step 2 --shown-block 9 --svg x.svg",
                     "block 9");
    expect_bad_input("--algo reduce-tree --n 12 --step 1 --size 12by3 --svg x.svg", "--size");
}

// Exports count what the window counts at the same step: through the whole playback step,
// every block included. The oracle adds each frame's own cost up to the step's last frame.
TEST(Counters, PicturesCountWhatTheWindowCountsAtEveryStep) {
    for (const Request& r : {test::request(Algorithm::ReduceTree, test::seq(12), 8),
                             test::request(Algorithm::ScanMultiblock, test::seq(40), 8),
                             test::request(Algorithm::HistPrivatised,
                                           generate(Generator::Skewed, 300, 3, 16), 64, 16)}) {
        const auto m = test::trace(r);
        for (std::size_t f = 0; f < m->trace().frames.size(); ++f) {
            const int step = m->step_of(f);
            Counters expect;
            for (std::size_t i = 0; i < m->trace().frames.size(); ++i)
                if (m->step_of(i) <= step)
                    expect += frame_cost(m->trace(), i);
            EXPECT_EQ(m->counters_at(step), expect) << "frame " << f;
            const std::string line = render::counters_line(*m, f);
            if (expect.shared_reads > 0) {
                EXPECT_NE(line.find("shared reads " + std::to_string(expect.shared_reads)),
                          std::string::npos)
                    << line;
            }
            if (expect.global_writes > 0) {
                EXPECT_NE(line.find("global writes " + std::to_string(expect.global_writes)),
                          std::string::npos)
                    << line;
            }
        }
    }
    // The case: reduceTree n 12 block 8, at step 5 of 5, from block 1's frame.
    const auto m = test::trace(test::request(Algorithm::ReduceTree, test::seq(12), 8));
    const std::string line = render::counters_line(*m, m->frame_at(4, 1));
    EXPECT_NE(line.find("shared reads 30"), std::string::npos) << line;
    EXPECT_NE(line.find("global writes 2"), std::string::npos) << line;
}

// With the automatic back end, its note (no GPU: the CPU model) comes only after every check:
// a step, a block or an option that cannot be drawn is the one line said. Steps count from 1;
// a theme colours a picture, which a layout is not.
TEST_F(RenderCli, EveryCheckComesBeforeTheBackEndsNote) {
    const std::string tree = "--algo reduce-tree --n 8 ";
    expect_bad_input(tree + "--step 99 --out x.png", "step 99 does not exist", "");
    // One step is one step: scan-fast over one tile publishes once.
    expect_bad_input("--algo scan-fast --n 7 --block 32 --step 3 --out x.png",
                     "step 3 does not exist: this trace has one step, step 1", "");
    expect_bad_input(tree + "--step 1 --shown-block 5 --out x.png",
                     "block 5 does not exist: this launch has one block, block 0", "");
    expect_bad_input(tree + "--step 0 --out x.png",
                     "there is no step 0: steps count from 1, as the window's transport does", "");
    expect_bad_input(tree + "--step 1 --layout l.json --theme dark", "--theme colours a picture",
                     "");
    const Outcome dark = render(tree + "--step 1 --svg d.svg --theme dark");
    EXPECT_EQ(dark.exit_code, 0) << dark.err;
}

TEST_F(RenderCli, BadInputIsOneLineAndNoFile) {
    expect_bad_input("--algo reduce-tree --n 16 --svg x.svg", "--step");
    expect_bad_input("--algo reduce-tree --n 16 --step 999 --svg x.svg", "step 999");
    expect_bad_input("--algo reduce-tree --n 16 --step 1 --svg nowhere/x.svg", "nowhere");
    expect_bad_input("--algo reduce-tree --n 16 --gif nowhere/x.gif", "nowhere");
    expect_bad_input("--algo reduce-tree --n 16 --gif x.gif --delay 5", "--delay");
    expect_bad_input("--algo reduce-tree --n 16 --gif x.gif --step 2", "--step");
    expect_bad_input("--algo nope --step 1 --svg x.svg", "nope");
    expect_bad_input("--algo reduce-tree --n 16 --gif x.gif --out y.png", "--out writes the step");
    expect_bad_input("--algo reduce-tree --n 16 --step 1 --svg x.svg --delay 500", "--delay");
}

// A limit on the size of any file written (512-byte blocks, dash's unit), with the signal a
// write past it raises ignored: the write fails with "File too large", as on a full disk.
std::string small_disk(int blocks) {
    return "ulimit -f " + std::to_string(blocks) + "; trap '' XFSZ; ";
}

TEST_F(RenderCli, AFailedWriteOfAnyFormatExitsTwoAndLeavesNothing) {
    const std::string blelloch = "--algo scan-blelloch --input 1,2,3,4 ";
    for (const char* what :
         {"--step 6 --out x.png", "--step 6 --svg x.svg", "--gif x.gif", "--all-steps steps"}) {
        SCOPED_TRACE(what);
        const Outcome r = render(blelloch + what, small_disk(16));
        EXPECT_EQ(r.exit_code, 2) << r.err;
        // giflib says "Write failed (disk full?)" for the same failure.
        EXPECT_TRUE(r.err.find("File too large") != std::string::npos ||
                    r.err.find("Write failed") != std::string::npos)
            << r.err;
        EXPECT_EQ(r.err.rfind("pplab: cannot write '", 0), 0u) << r.err;
        EXPECT_TRUE(listing().empty()) << "no file, not even a partial one";
    }
}

TEST_F(RenderCli, TheOutputsOfOneCommandAreWrittenTogether) {
    // The SVG (about 16 KB) fits under the limit, the PNG (about 170 KB) does not: neither
    // is written.
    const std::string both = "--algo scan-blelloch --input 1,2,3,4 --step 6 --svg b.svg "
                             "--out b.png";
    const Outcome r = render(both, small_disk(64));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("'b.png': File too large"), std::string::npos) << r.err;
    EXPECT_TRUE(listing().empty());
    EXPECT_EQ(render(both).exit_code, 0);
    EXPECT_EQ(listing(), (std::vector<std::string>{"b.png", "b.svg"}));
}

TEST_F(RenderCli, AllStepsNeverMixesRuns) {
    ASSERT_EQ(render("--algo scan-blelloch --input 1,2,3,4 --all-steps steps").exit_code, 0);
    const auto count = [&] {
        std::size_t n = 0;
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir / "steps"))
            ++n;
        return n;
    };
    ASSERT_EQ(count(), 6u);
    // A second, shorter run into the same folder would leave the first run's last steps
    // among its own: refused, saying what is there.
    const Outcome again = render("--algo reduce-tree --input 1,2 --block 2 --all-steps steps");
    EXPECT_EQ(again.exit_code, 2);
    EXPECT_NE(again.err.find("'steps' already holds 6 files ('step_0001.png', "
                             "'step_0002.png', 'step_0003.png', ...): name a new folder"),
              std::string::npos)
        << again.err;
    EXPECT_EQ(count(), 6u);
    EXPECT_EQ(listing(), std::vector<std::string>{"steps"});
}

} // namespace
} // namespace pplab::exporting
