// The listings show what ran: the chapter's code verbatim (held to the chapter's text, kept in
// tests/unit/chapter/), pplab's code told apart, every step a trace records lit on some line
// for every option, a pitfall's changes as a diff, the launch's constants, kernel names that
// agree with the plan, and notes where the chapter's text and the run part.
#include "helpers.hpp"
#include "pplab/listing.hpp"
#include "pplab/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace pplab::test {
namespace {

std::vector<std::string> chapter_snippet(const std::string& name) {
    std::ifstream f(std::string(PPLAB_CHAPTER_DIR) + "/" + name + ".cu");
    EXPECT_TRUE(f) << "no chapter snippet called " << name;
    std::vector<std::string> lines;
    for (std::string line; std::getline(f, line);)
        lines.push_back(line);
    return lines;
}

std::vector<Algorithm> traced() {
    std::vector<Algorithm> out;
    for (const AlgorithmInfo& i : algorithms())
        if (i.traced)
            out.push_back(i.algorithm);
    return out;
}

bool contains(const std::vector<std::string>& lines, const std::string& part) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

// ---- The chapter's code, verbatim ---------------------------------------------------------

TEST(ListingChapter, EveryRegionIsTheChaptersTextVerbatim) {
    int whole = 0;
    for (const Algorithm a : traced()) {
        SCOPED_TRACE(std::string(info(a).id));
        for (const ChapterRegion& region : chapter_regions(listing_text(a))) {
            const auto snippet = chapter_snippet(region.snippet);
            if (region.whole) {
                ++whole;
                EXPECT_EQ(region.lines, snippet) << "the chapter's " << region.snippet;
                continue;
            }
            // A part: a run of the snippet's lines, in order, none changed.
            const auto at = std::search(snippet.begin(), snippet.end(), region.lines.begin(),
                                        region.lines.end());
            EXPECT_FALSE(region.lines.empty());
            EXPECT_NE(at, snippet.end()) << "not a run of the chapter's " << region.snippet;
        }
    }
    // reduceNaive, reduceTree, reduceCoarsened, warpReduce, reduceFull, scanBlock (twice: the
    // one-block and the multi-block scan), histogramPrivatised.
    EXPECT_EQ(whole, 8);
}

TEST(ListingChapter, EverySnippetOfTheChapterIsShownWhole) {
    std::set<std::string> shown;
    for (const Algorithm a : traced())
        for (const ChapterRegion& region : chapter_regions(listing_text(a)))
            if (region.whole)
                shown.insert(region.snippet);
    EXPECT_EQ(shown, (std::set<std::string>{"reduce-naive", "reduce-tree", "reduce-coarsened",
                                            "warp-reduce", "reduce-full", "scan-block",
                                            "hist-privatised"}));
}

TEST(ListingChapter, KernelsNotInTheChapterSaySo) {
    for (const Algorithm a :
         {Algorithm::ReduceAtomic, Algorithm::ScanMultiblock, Algorithm::ScanHillisSteele,
          Algorithm::HistPerWarp, Algorithm::HistGlobal, Algorithm::ScanFast}) {
        const Listing l = listing(a);
        EXPECT_TRUE(mentions(l.about, "Not in")) << info(a).id << ": " << l.about;
        const std::string section(info(a).section);
        EXPECT_TRUE(mentions(section, "beyond the chapter") || section == "production")
            << info(a).id << " is placed under " << info(a).section;
    }
    for (const Algorithm a : traced()) {
        const Listing l = listing(a);
        EXPECT_FALSE(l.about.empty()) << info(a).id;
        const bool pplab_code =
            std::find(l.origin.begin(), l.origin.end(), LineOrigin::Pplab) != l.origin.end();
        if (pplab_code) {
            EXPECT_TRUE(mentions(l.about, "pplab")) << info(a).id << ": " << l.about;
        }
    }
}

// ---- Tags -----------------------------------------------------------------------------------

TEST(ListingTags, ABadTagFailsHereNotInADrawCall) {
    EXPECT_THROW(parse_listing("int x; // @no-such-step\n"), std::logic_error);
    EXPECT_THROW(parse_listing("int x; // @only:no-such-pitfall\n"), std::logic_error);
    EXPECT_THROW(parse_listing("int x; // @note:no-such-note\n"), std::logic_error);
    EXPECT_THROW(parse_listing("//@chapter reduce-tree\nint x;\n"), std::logic_error);
    EXPECT_THROW(parse_listing("//@nonsense\n"), std::logic_error);
    EXPECT_NO_THROW(parse_listing("int x; // @load,only:inclusive,note:warps\n"));
}

// Every option the controls offer for an algorithm, with a request small enough to trace
// and large enough to reach every step (several blocks, a second pass).
std::vector<Request> configurations(Algorithm a) {
    std::vector<Request> out;
    const auto add = [&](Request r) { out.push_back(normalize_trace(std::move(r))); };
    const AlgorithmInfo& i = info(a);
    Request base = request(a, ones(i.single_block ? 8 : 300), i.single_block ? 8 : 64);
    if (i.family == Family::Histogram) {
        base.bins = 16;
        base.input = generate(Generator::Skewed, 300, 1, 16);
    }
    add(base);
    if (i.family == Family::Scan && a != Algorithm::ScanHillisSteele) {
        Request r = base;
        r.options.inclusive = true;
        add(r);
    }
    if (i.family == Family::Histogram && a != Algorithm::HistGlobal) {
        Request r = base;
        r.options.skip_empty = false;
        add(r);
    }
    for (int p = 1; p < kPitfallCount; ++p) {
        const auto pitfall = static_cast<Pitfall>(p);
        if (pitfall_algorithm(pitfall) != a)
            continue;
        Request r = base;
        r.options.pitfall = pitfall;
        if (pitfall == Pitfall::NonPowerOfTwo)
            r.block = 6;
        if (pitfall == Pitfall::PartialWarp) {
            r.input = ones(32);
            r.block = 32;
            r.options.active_lanes = 20;
        }
        add(r);
    }
    return out;
}

TEST(ListingTags, EveryStepATraceRecordsLightsALineForEveryOption) {
    for (const Algorithm a : traced()) {
        for (const Request& r : configurations(a)) {
            SCOPED_TRACE(std::string(info(a).id) + " " +
                         std::string(pitfall_id(r.options.pitfall)) +
                         (r.options.inclusive ? " inclusive" : "") +
                         (r.options.skip_empty ? "" : " no-skip-empty"));
            const Listing l = listing(r);
            std::set<Step> recorded;
            for (const Frame& f : trace(r).frames)
                recorded.insert(f.step);
            for (const Step s : recorded) {
                bool lit = false;
                for (std::size_t line = 0; line < l.lines.size(); ++line)
                    lit |= l.runs(line, s);
                EXPECT_TRUE(lit) << "no line runs " << step_id(s);
            }
        }
    }
}

// ---- What ran -----------------------------------------------------------------------------

TEST(ListingDiff, Exercise2ReplacesLaneZerosWriteWithEveryLanes) {
    Request r = normalize(request(Algorithm::ReduceFull, ones(256), 64));
    r.options.pitfall = Pitfall::EveryLaneWrites;
    const Listing l = listing(r);
    ASSERT_EQ(l.removed.size(), 1u);
    EXPECT_TRUE(mentions(l.removed[0].text, "if (lane == 0) s[warpId] = sum;"));
    const std::size_t at = l.removed[0].before;
    ASSERT_LT(at, l.lines.size());
    EXPECT_TRUE(mentions(l.lines[at], "s[warpId] = sum;"));
    EXPECT_FALSE(mentions(l.lines[at], "if (lane == 0)"));
    EXPECT_EQ(l.origin[at], LineOrigin::Changed);
    EXPECT_TRUE(l.runs(at, Step::WarpTotals));
    // The chapter's listing has the chapter's line and not the mistake.
    const Listing chapter = listing(Algorithm::ReduceFull);
    EXPECT_TRUE(chapter.removed.empty());
    EXPECT_TRUE(contains(chapter.lines, "if (lane == 0) s[warpId] = sum;"));
}

TEST(ListingDiff, TheMissingFinalBarrierIsStruckOut) {
    Request r = normalize(request(Algorithm::ScanBlelloch, ones(8), 8));
    r.options.pitfall = Pitfall::NoFinalSync;
    const Listing l = listing(r);
    ASSERT_EQ(l.removed.size(), 1u);
    EXPECT_EQ(l.removed[0].text, "    __syncthreads();");
    // It sat after the downsweep's loop, before scanBlock's closing brace.
    EXPECT_EQ(l.lines.at(l.removed[0].before), "}");
    const auto barriers = [](const Listing& x) {
        return std::count_if(x.lines.begin(), x.lines.end(), [](const std::string& s) {
            return s.find("__syncthreads()") != std::string::npos;
        });
    };
    EXPECT_EQ(barriers(l) + 1,
              barriers(listing(normalize(request(Algorithm::ScanBlelloch, ones(8), 8)))));
}

TEST(ListingDiff, TheFoldWithoutItsSkip) {
    for (const Algorithm a : {Algorithm::HistPrivatised, Algorithm::HistPerWarp}) {
        Request r = normalize(request(a, ones(100), 64));
        r.options.skip_empty = false;
        const Listing l = listing(r);
        ASSERT_EQ(l.removed.size(), 1u) << info(a).id;
        EXPECT_TRUE(mentions(l.removed[0].text, "if (s_hist[b] != 0)"));
        EXPECT_TRUE(mentions(l.lines.at(l.removed[0].before), "atomicAdd(&g_hist[b], s_hist[b])"));
    }
}

TEST(ListingDiff, InclusiveAddsTheShiftAndKeepsTheTotal) {
    Request r = normalize(request(Algorithm::ScanBlelloch, ones(8), 8));
    const Listing exclusive = listing(r);
    r.options.inclusive = true;
    const Listing inclusive = listing(r);
    EXPECT_FALSE(contains(exclusive.lines, "s[n] = s[n - 1]"));
    EXPECT_TRUE(contains(inclusive.lines, "s[n] = s[n - 1]"));
    EXPECT_GT(inclusive.lines.size(), exclusive.lines.size());
    for (std::size_t i = 0; i < inclusive.lines.size(); ++i)
        if (inclusive.runs(i, Step::InclusiveShift) &&
            inclusive.lines[i].find("__syncthreads") == std::string::npos) {
            EXPECT_EQ(inclusive.origin[i], LineOrigin::Changed) << inclusive.lines[i];
        }
}

TEST(ListingDiff, PartialWarpShowsWhichLanesCallWarpReduce) {
    Request r = normalize(request(Algorithm::ReduceShuffle, ones(32), 32));
    r.options.pitfall = Pitfall::PartialWarp;
    r.options.active_lanes = 20;
    const Listing l = listing(r);
    EXPECT_TRUE(contains(l.lines, "#define ACTIVE_LANES 20"));
    EXPECT_TRUE(contains(l.lines, "threadIdx.x % 32 < ACTIVE_LANES"));
    ASSERT_EQ(l.removed.size(), 1u);
    EXPECT_TRUE(mentions(l.removed[0].text, "val = warpReduce(val);"));
    EXPECT_FALSE(contains(listing(Algorithm::ReduceShuffle).lines, "ACTIVE_LANES"));
}

// ---- The launch's constants -----------------------------------------------------------------

// The lines of the listing for `a` launched with `block` threads and `bins` bins.
std::vector<std::string> launched(Algorithm a, int block, int bins = 256) {
    Request r = request(a, ones(block), block);
    r.bins = bins;
    return listing(normalize(r)).lines;
}

int count_starting(const std::vector<std::string>& lines, const std::string& start) {
    return static_cast<int>(std::count_if(
        lines.begin(), lines.end(), [&](const std::string& l) { return l.rfind(start, 0) == 0; }));
}

TEST(ListingConstants, TheChaptersTileTakesTheLaunchsBlock) {
    const Listing l = listing(normalize(request(Algorithm::ReduceFull, ones(64), 64)));
    EXPECT_EQ(count_starting(l.lines, "#define TILE 64 "), 1);
    EXPECT_EQ(count_starting(l.lines, "#define TILE 256"), 0);
    // WARPS keeps the chapter's formula: it follows TILE.
    EXPECT_EQ(count_starting(l.lines, "#define WARPS (TILE / 32)"), 1);
    for (std::size_t i = 0; i < l.lines.size(); ++i)
        if (l.lines[i].rfind("#define TILE", 0) == 0) {
            EXPECT_EQ(l.origin[i], LineOrigin::Changed) << "a value that is not the chapter's";
        }
    // At the chapter's own block size the line is the chapter's.
    const Listing chapter = listing(normalize(request(Algorithm::ReduceFull, ones(256), 256)));
    for (std::size_t i = 0; i < chapter.lines.size(); ++i)
        if (chapter.lines[i].rfind("#define TILE", 0) == 0) {
            EXPECT_EQ(chapter.origin[i], LineOrigin::Chapter);
        }
}

TEST(ListingConstants, AConstantUsedButNotDefinedIsDefinedOnceAboveTheKernel) {
    const auto lines = launched(Algorithm::ReduceTree, 128);
    ASSERT_EQ(count_starting(lines, "#define TILE 128"), 1);
    const auto define = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.rfind("#define TILE", 0) == 0;
    });
    const auto kernel = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.rfind("__global__", 0) == 0;
    });
    EXPECT_LT(define, kernel);
    EXPECT_EQ(count_starting(lines, "#define BINS"), 0) << "a reduction has no bins";
}

TEST(ListingConstants, PerWarpHistogramsGetTheirWarpsAndBins) {
    const auto lines = launched(Algorithm::HistPerWarp, 96, 16);
    EXPECT_EQ(count_starting(lines, "#define WARPS 3 "), 1);
    EXPECT_EQ(count_starting(lines, "#define BINS 16 "), 1);
    const auto privatised = launched(Algorithm::HistPrivatised, 64, 16);
    EXPECT_EQ(count_starting(privatised, "#define BINS 16"), 1);
    EXPECT_EQ(count_starting(privatised, "#define TILE 64"), 1);
}

TEST(ListingConstants, TheStepsStayOnTheirLines) {
    // Inserting definitions must move each line's steps, origin and note with it.
    const Listing chapter = listing(Algorithm::ReduceTree);
    const Listing run = listing(normalize(request(Algorithm::ReduceTree, ones(64), 64)));
    const auto shift = run.lines.size() - chapter.lines.size();
    ASSERT_GT(shift, 0u);
    for (std::size_t i = 0; i < chapter.lines.size(); ++i) {
        EXPECT_EQ(run.lines[i + shift], chapter.lines[i]);
        EXPECT_EQ(run.steps[i + shift], chapter.steps[i]) << chapter.lines[i];
        EXPECT_EQ(run.origin[i + shift], chapter.origin[i]) << chapter.lines[i];
        EXPECT_EQ(run.note[i + shift], chapter.note[i]) << chapter.lines[i];
    }
}

// ---- Names ----------------------------------------------------------------------------------

TEST(ListingNames, EveryLaunchAndTitleNamesAKernelOfTheListing) {
    for (const Algorithm a : traced()) {
        SCOPED_TRACE(std::string(info(a).id));
        const std::string text(listing_text(a));
        const auto defines = [&](const std::string& kernel) {
            return text.find("__global__ void " + kernel + "(") != std::string::npos;
        };
        for (const Request& r : configurations(a))
            for (const Launch& l : make_plan(r).launches)
                EXPECT_TRUE(defines(l.kernel)) << "the plan launches " << l.kernel;
        std::istringstream title{std::string(info(a).title)};
        for (std::string word; title >> word;)
            if (word != "+") {
                EXPECT_TRUE(defines(word)) << "the title names " << word;
            }
    }
}

// ---- Notes ----------------------------------------------------------------------------------

// The note attached to the first line that has one, for this trace.
std::string first_note(const Request& r) {
    const Trace t = trace(r);
    const Listing l = listing(r);
    for (std::size_t i = 0; i < l.lines.size(); ++i)
        if (!l.note[i].empty())
            if (std::string text = listing_note(l.note[i], t); !text.empty())
                return text;
    return "";
}

TEST(ListingNotes, TheChaptersBlockTotalCommentIsMarkedWithWhatSitsThere) {
    // Exercise 3: after the downsweep s[3] = 6 = 1 + 2 + 3; the total 10 was the root.
    const std::string note =
        first_note(normalize(request(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4)));
    EXPECT_TRUE(mentions(note, "s[3] holds 6")) << note;
    EXPECT_TRUE(mentions(note, "first 3 elements")) << note;
    EXPECT_TRUE(mentions(note, "not the block total. The total, 10,")) << note;
    // The exclusive scan keeps no total: the note names no line the listing does not show.
    EXPECT_TRUE(mentions(note, "which clear-root overwrote.")) << note;
    EXPECT_FALSE(mentions(note, "keeps it")) << note;
    Request inclusive = request(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4);
    inclusive.options.inclusive = true;
    const std::string kept = first_note(normalize(inclusive));
    EXPECT_TRUE(mentions(kept, "pplab keeps it in s[4] where it is needed")) << kept;
    // The multi-block scan's scanBlock carries the same note, for its first block.
    const std::string multi =
        first_note(normalize(request(Algorithm::ScanMultiblock, {1, 2, 3, 4, 5, 6, 7, 8}, 4)));
    EXPECT_TRUE(mentions(multi, "s[3] holds 6")) << multi;
    EXPECT_TRUE(mentions(multi, "pplab keeps it in s[4] where it is needed")) << multi;
    // The chapter's comment itself is shown as the chapter writes it.
    EXPECT_TRUE(contains(listing(Algorithm::ScanMultiblock).lines,
                         "// The block total ends in s[blockDim.x - 1]."));
}

TEST(ListingNotes, WarpsAndHalvingAndArrivalSayWhatThisRunDid) {
    EXPECT_TRUE(mentions(first_note(normalize(request(Algorithm::ReduceFull, ones(64), 64))),
                         "2 warps per block"));
    EXPECT_EQ(first_note(normalize(request(Algorithm::ReduceFull, ones(256), 256))), "")
        << "the chapter's 8 warps: nothing to say";
    Request six = request(Algorithm::ReduceTree, {1, 2, 3, 4, 5, 6}, 6);
    six.options.pitfall = Pitfall::NonPowerOfTwo;
    const std::string halving = first_note(normalize(six));
    // TILE 6: stride 3 folds s[3..5] into s[0..2], stride 1 folds s[1] into s[0]: s[2] and
    // s[5] (folded into it) never reach s[0].
    EXPECT_TRUE(mentions(halving, "stride takes 3, 1")) << halving;
    EXPECT_TRUE(mentions(halving, "s[2], s[5] never reach s[0]")) << halving;
    EXPECT_EQ(first_note(normalize(request(Algorithm::ReduceTree, ones(8), 8))), "");
    Request atomic = request(Algorithm::ReduceAtomic, ones(1000), 64);
    atomic.options.order_seed = 7;
    EXPECT_TRUE(mentions(first_note(normalize(atomic)), "seed 7"));
    // Who chose the arrival order: a seed on the CPU model and on the simulator (a student's
    // kernel), the hardware on a GPU.
    Trace t = trace(normalize(atomic));
    EXPECT_TRUE(mentions(listing_note("arrival", t), "on the CPU model the blocks arrive"));
    t.backend = "sim";
    const std::string sim = listing_note("arrival", t);
    EXPECT_TRUE(mentions(sim, "on the simulator the blocks arrive in an order chosen with seed 7"))
        << sim;
    t.backend = "cuda";
    t.device = "NVIDIA H200";
    EXPECT_TRUE(mentions(listing_note("arrival", t), "NVIDIA H200 the blocks arrived in the "
                                                     "hardware's order"));
}

// The file `pplab listing` writes carries the notes that depend on the launch alone, each a
// comment above its line: reduceFull's "8 warps per block" (the chapter's TILE 256) said for a
// block of 64; the tree of 12 says which slots never reach s[0]. Nothing else changes, and a
// note that needs the run (the blocks' arrival order) is not written.
TEST(ListingNotes, TheStartingFileSaysWhatThisLaunchRuns) {
    const Request full = normalize(request(Algorithm::ReduceFull, ones(64), 64));
    const std::string text = source_with_launch_notes(listing(full), full);
    EXPECT_TRUE(mentions(text, "// pplab: TILE = 64 in this launch: 2 warps per block, where the "
                               "chapter's comments say 8\n#define WARPS (TILE / 32)"))
        << text;
    const Request chapters = normalize(request(Algorithm::ReduceFull, ones(256), 256));
    EXPECT_EQ(source_with_launch_notes(listing(chapters), chapters), listing(chapters).source());

    Request twelve = request(Algorithm::ReduceTree, ones(12), 12);
    twelve.options.pitfall = Pitfall::NonPowerOfTwo;
    twelve = normalize(twelve);
    const std::string tree = source_with_launch_notes(listing(twelve), twelve);
    // TILE 12: strides 6, 3, 1; s[2] (and s[5], s[8], s[11] folded into it) never reach s[0].
    EXPECT_TRUE(mentions(tree, "    // pplab: TILE = 12 is not a power of two: stride takes 6, 3, "
                               "1, and s[2], s[5], s[8], s[11] never reach s[0]\n    for (int "
                               "stride = TILE / 2;"))
        << tree;
    // The listing's own lines, in order, with one line more.
    std::string without = tree;
    without.erase(without.find("    // pplab: TILE = 12"),
                  without.find("    for (int stride") - without.find("    // pplab: TILE = 12"));
    EXPECT_EQ(without, listing(twelve).source());

    Request atomic = normalize(request(Algorithm::ReduceAtomic, ones(1000), 64));
    EXPECT_EQ(source_with_launch_notes(listing(atomic), atomic), listing(atomic).source());
}

} // namespace
} // namespace pplab::test
