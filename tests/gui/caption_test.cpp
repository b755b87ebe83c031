// Every caption the window can show is right: for every algorithm, every block size the controls
// offer (settings' block_choices), sizes of n around every boundary the kernels have, and every
// option and pitfall. A caption with an empty range ("lanes 32–31"), a range past the block or
// the warp, a one-element range written as a range ("lanes 31–31"), a count of nothing, or a
// placeholder is refused, with the configuration that produced it.
#include "pplab/backend.hpp"
#include "pplab/dataflow.hpp"
#include "pplab/io.hpp"
#include "pplab/listing.hpp"
#include "pplab/lookback.hpp"
#include "settings.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <string>

namespace pplab::ui {
namespace {

struct Problem {
    std::string what;
    std::string caption;
};

// The number written at `at` in `text` (digits only), and where it ends; -1 when none.
long number_at(const std::string& text, std::size_t at, std::size_t* end) {
    std::size_t e = at;
    while (e < text.size() && std::isdigit(static_cast<unsigned char>(text[e])))
        ++e;
    *end = e;
    return e == at ? -1 : std::stol(text.substr(at, e - at));
}

// The word just before position `at` ("threads" in "threads 0–7").
std::string word_before(const std::string& text, std::size_t at) {
    std::size_t end = at;
    while (end > 0 && text[end - 1] == ' ')
        --end;
    std::size_t begin = end;
    while (begin > 0 && std::isalpha(static_cast<unsigned char>(text[begin - 1])))
        --begin;
    return text.substr(begin, end - begin);
}

// What is wrong with a caption of a frame whose launch runs `block` threads, if anything.
// (Hand-written scanning: std::regex over a third of a million captions costs minutes.)
std::string problem(const std::string& caption, int block) {
    if (caption.empty())
        return "empty";
    for (const char* placeholder :
         {"??", "{}", "%d", "%s", "nan", "inf", "  ", "()", " ,", " ;", "of 0 ", "of 0)", "of 0:"})
        if (caption.find(placeholder) != std::string::npos)
            return std::string("holds the placeholder '") + placeholder + "'";
    // Two brackets in a row ("level 3 (4th of 5) (stride 8)") read as one aside too many.
    if (caption.find(") (") != std::string::npos)
        return "two brackets in a row: " + caption.substr(caption.find(") (") - 1, 4);
    const std::string dash = "–";
    for (std::size_t at = caption.find(dash); at != std::string::npos;
         at = caption.find(dash, at + 1)) {
        std::size_t begin = at;
        while (begin > 0 && std::isdigit(static_cast<unsigned char>(caption[begin - 1])))
            --begin;
        std::size_t end = 0, unused = 0;
        const long first = number_at(caption, begin, &unused);
        const long last = number_at(caption, at + dash.size(), &end);
        if (first < 0 || last < 0)
            continue;
        const std::string kind = word_before(caption, begin);
        const std::string range = caption.substr(begin, end - begin);
        if (first > last)
            return "an empty range: " + kind + " " + range;
        if (first == last)
            return "a one-element range written as a range: " + kind + " " + range;
        const long bound = kind == "threads" ? block : kind == "lanes" ? kWarpSize : -1;
        if (bound > 0 && last >= bound)
            return "a range past the " + std::string(kind == "lanes" ? "warp" : "block") + ": " +
                   kind + " " + range;
    }
    for (const std::string kind : {"thread ", "lane "})
        for (std::size_t at = caption.find(kind); at != std::string::npos;
             at = caption.find(kind, at + 1)) {
            if (at > 0 && std::isalpha(static_cast<unsigned char>(caption[at - 1])))
                continue;
            std::size_t end = 0;
            const long index = number_at(caption, at + kind.size(), &end);
            if (index >= (kind == "lane " ? kWarpSize : block))
                return "past the " + std::string(kind == "lane " ? "warp" : "block") + ": " +
                       caption.substr(at, end - at);
        }
    for (const char* nothing : {"0 threads", "0 lanes", "0 warps", "0 slots", "0 warp totals",
                                "0 atomics", "0 atomic ", "0 atomicAdds"})
        for (std::size_t at = caption.find(nothing); at != std::string::npos;
             at = caption.find(nothing, at + 1))
            if (at == 0 || !std::isdigit(static_cast<unsigned char>(caption[at - 1])))
                return std::string("counts nothing: ") + nothing;
    return "";
}

std::vector<Request> options_of(Algorithm a, Request base) {
    std::vector<Request> out{base};
    const AlgorithmInfo& i = info(a);
    if (i.family == Family::Scan && a != Algorithm::ScanHillisSteele && a != Algorithm::ScanFast) {
        Request r = base;
        r.options.inclusive = true;
        out.push_back(r);
    }
    if (i.family == Family::Histogram && a != Algorithm::HistGlobal) {
        Request r = base;
        r.options.skip_empty = false;
        out.push_back(r);
    }
    for (int p = 1; p < kPitfallCount; ++p) {
        const auto pitfall = static_cast<Pitfall>(p);
        if (pitfall_algorithm(pitfall) != a)
            continue;
        Request r = base;
        r.options.pitfall = pitfall;
        if (pitfall == Pitfall::PartialWarp)
            for (const int lanes : {1, 20, 31}) {
                r.options.active_lanes = lanes;
                out.push_back(r);
            }
        else
            out.push_back(r);
    }
    return out;
}

// The sizes of n a caption's arithmetic turns on, for a block of `block`.
std::set<int> sizes(Algorithm a, int block) {
    const int b = block > 0 ? block : 256;
    std::set<int> out = {1, 7, 31, 32, 33, b - 1, b, b + 1, 1000};
    if (a == Algorithm::ScanFast) // tiles of 4b: one, two, 32 and 33 (a second window), 64
        for (const int tiles : {1, 2, 32, 33, 64})
            for (const int d : {-1, 0, 1})
                out.insert(tiles * 4 * b + d);
    if (!info(a).single_block) {
        out.insert(4 * b + 3);
        if (b == 256 || b == kMaxBlock)
            out.insert(kMaxN);
    }
    std::erase_if(out, [&](int n) { return n < 1 || (info(a).single_block && n > 1024); });
    return out;
}

// "1st", "2nd", "3rd", "4th", ... "11th", "21st".
std::string ordinal(long n) {
    const long tens = n % 100, ones = n % 10;
    const char* suffix = tens >= 11 && tens <= 13 ? "th"
                         : ones == 1              ? "st"
                         : ones == 2              ? "nd"
                         : ones == 3              ? "rd"
                                                  : "th";
    return std::to_string(n) + suffix;
}

// Whether a frame's caption numbers its level, shuffle, round or addition as its label does
// ("tree-level 2" is "Level 2, the 3rd of 5": levels count from 0 as the listings' comments
// do, the rest from 1); what is wrong, if anything.
std::string numbering_problem(const std::string& label, const std::string& caption) {
    const auto space = label.rfind(' ');
    if (space == std::string::npos || !std::isdigit(static_cast<unsigned char>(label[space + 1])))
        return {};
    const long n = std::stol(label.substr(space + 1));
    const auto word_start = label.rfind(' ', space - 1);
    const std::string step =
        label.substr(word_start == std::string::npos ? 0 : word_start + 1,
                     space - (word_start == std::string::npos ? 0 : word_start + 1));
    struct Said {
        const char* step;
        const char* phrase; // followed by the number
        bool from_zero;     // a tree level: "the (n+1)th of" follows
    };
    static const Said kSaid[] = {
        {"tree-level", "Level ", true},          {"upsweep", "Upsweep level ", true},
        {"downsweep", "Downsweep level ", true}, {"shuffle", "shuffle ", false},
        {"final-shuffle", "shuffle ", false},    {"accumulate", "round ", false},
        {"hist-accumulate", "ound ", false},     {"serial-add", "Addition ", false},
        {"atomic-add", "atomicAdd ", false},     {"hillis-steele", "Step ", false}};
    for (const Said& said : kSaid) {
        if (step != said.step)
            continue;
        if (step == "final-shuffle" && n == 0) // the first warp's load, before any shuffle
            return {};
        const std::string want = said.phrase + std::to_string(n);
        const auto at = caption.find(want);
        if (at == std::string::npos ||
            (at + want.size() < caption.size() &&
             std::isdigit(static_cast<unsigned char>(caption[at + want.size()]))))
            return "numbers " + label + " otherwise (no '" + want + "')";
        if (said.from_zero &&
            caption.find(", the " + ordinal(n + 1) + " of ", at) == std::string::npos)
            return label + " is not the " + ordinal(n + 1) + " level";
        return {};
    }
    return "numbers " + label + ": a step this test does not know";
}

TEST(Captions, EveryCaptionOfEveryConfigurationTheControlsOfferIsRight) {
    const auto cpu = make_cpu_backend();
    std::vector<Problem> problems;
    int captions = 0;
    for (const AlgorithmInfo& i : algorithms()) {
        if (!i.traced)
            continue;
        for (const Pitfall pitfall : {Pitfall::None, Pitfall::NonPowerOfTwo}) {
            if (pitfall != Pitfall::None && pitfall_algorithm(pitfall) != i.algorithm)
                continue;
            for (const int block : block_choices(i.algorithm, pitfall)) {
                for (const int n : sizes(i.algorithm, block)) {
                    Request base;
                    base.algorithm = i.algorithm;
                    base.block = block;
                    base.bins = i.family == Family::Histogram ? 16 : 256;
                    base.input =
                        generate(i.family == Family::Histogram ? Generator::Skewed : Generator::Seq,
                                 n, 1, base.bins);
                    base.options.pitfall = pitfall;
                    const std::vector<Request> runs = pitfall == Pitfall::None
                                                          ? options_of(i.algorithm, base)
                                                          : std::vector<Request>{base};
                    for (const Request& r : runs) {
                        Trace t;
                        try {
                            t = cpu->trace(normalize_trace(r));
                        } catch (const InputError&) {
                            continue; // the window refuses it before any caption
                        }
                        const Dataflow flow(t);
                        const LabelParts parts = label_parts(t);
                        const std::string config = std::string(i.id) + " block " +
                                                   std::to_string(t.request.block) + " n " +
                                                   std::to_string(n) + " " +
                                                   std::string(pitfall_id(r.options.pitfall)) +
                                                   (r.options.inclusive ? " inclusive" : "");
                        for (std::size_t k = 0; k < t.frames.size(); ++k) {
                            const std::string caption = flow.caption(k);
                            ++captions;
                            if (std::string why = problem(caption, t.request.block); !why.empty())
                                problems.push_back({config + ": " + why, caption});
                            const std::string label = frame_label(t.frames[k], parts);
                            if (std::string why = numbering_problem(label, caption); !why.empty())
                                problems.push_back({config + ": " + why, caption});
                        }
                    }
                }
            }
        }
    }
    EXPECT_GT(captions, 100000);
    // One failure per algorithm and kind of mistake, with its first example.
    std::set<std::string> seen;
    for (const Problem& p : problems) {
        const std::string kind =
            p.what.substr(0, p.what.find(' ')) + " " + p.what.substr(p.what.find(": ") + 2, 12);
        if (seen.insert(kind).second)
            ADD_FAILURE() << p.what << "\n  " << p.caption;
    }
    EXPECT_TRUE(problems.empty()) << problems.size() << " captions are wrong";
}

// "tile 3", "tiles 3 and 4", "tiles 1–4": how scan-fast's captions name a run of tiles.
std::string tiles_named(int low, int high) {
    if (low == high)
        return "tile " + std::to_string(low);
    return "tiles " + std::to_string(low) + (high == low + 1 ? " and " : "–") +
           std::to_string(high);
}

// What a look-back caption must say of `tile`, from the record alone: where the look-back
// stopped (the nearest inclusive prefix it read), the aggregates it added on the way, its carry
// and the inclusive prefix it publishes.
std::string look_back_told(const LookbackTile& tile) {
    int prefix = -1; // the nearest predecessor read as an inclusive prefix
    for (const LookbackRead& read : tile.reads)
        if (read.state == TileState::Inclusive) {
            prefix = read.predecessor;
            break;
        }
    std::string found = " to tile " + std::to_string(prefix) + "'s inclusive prefix";
    if (prefix + 1 < tile.tile) // the tiles between it and this one gave their aggregates
        found += std::string(prefix + 2 == tile.tile ? ", adding the aggregate of "
                                                     : ", adding the aggregates of ") +
                 tiles_named(prefix + 1, tile.tile - 1);
    return "Tile " + std::to_string(tile.tile) + " looks back" + found + ": carry " +
           format_value(tile.carry) + ", inclusive prefix " + format_value(tile.inclusive);
}

// What the details (`pplab trace`'s text and markdown) must keep of a look-back that its
// caption leaves out: every value added into the carry, the polls that found nothing, the
// reads past the prefix, the publish's event and who chose the order.
void expect_look_back_details(const std::string& details, const LookbackTile& tile,
                              const std::string& order, const std::string& config) {
    std::string sum;
    float carry = 0.0f;
    int added = 0, polls = 0, past = 0;
    for (const LookbackRead& read : tile.reads) {
        polls += read.waits;
        if (!read.added) {
            ++past;
            continue;
        }
        sum += (added++ == 0 ? "" : " + ") + format_value(read.value);
        carry += read.value;
    }
    const std::string carry_told =
        "carry = " + (added > 1 ? sum + " = " : "") + format_value(tile.carry);
    EXPECT_NE(details.find(carry_told), std::string::npos) << config;
    EXPECT_EQ(carry, tile.carry) << config; // whole numbers: exact in any order
    if (polls > 0) {
        EXPECT_NE(details.find(std::to_string(polls) + (polls == 1 ? " poll " : " polls ")),
                  std::string::npos)
            << config;
    }
    if (past > 0) {
        EXPECT_NE(details.find(past == 1 ? " lies past that prefix" : " lie past that prefix"),
                  std::string::npos)
            << config;
    }
    EXPECT_NE(details.find("inclusive prefix = carry + aggregate = " + format_value(tile.carry) +
                           " + " + format_value(tile.aggregate) + " = " +
                           format_value(tile.inclusive) + ", published at event " +
                           std::to_string(tile.inclusive_ticket) + " of " + order),
              std::string::npos)
        << config;
}

// The cells a look-back draws tell what the caption leaves out on hover: each read found, when
// and after how many polls; the carry's every value; the event that published the prefix.
void expect_look_back_hover(const Dataflow& flow, const LookbackTile& tile,
                            const std::string& order, const std::string& config) {
    const int look = flow.find(Step::LookBack, 0, 0, tile.tile, -1);
    const int publish = flow.find(Step::TilePublish, 0, 0, tile.tile, -1);
    const auto reads = flow.writes(static_cast<std::size_t>(look));
    for (const LookbackRead& read : tile.reads) {
        const std::string& e =
            reads.at(static_cast<std::size_t>(read.predecessor * kReadValues + kReadValue))
                .expression;
        EXPECT_NE(e.find("found at event " + std::to_string(read.ticket)), std::string::npos)
            << config << ": " << e;
        EXPECT_EQ(e.find(" poll") != std::string::npos, read.waits > 0) << config << ": " << e;
        EXPECT_NE(e.find(read.added ? ", added" : "not added"), std::string::npos) << config;
    }
    const auto cells = flow.writes(static_cast<std::size_t>(publish));
    for (const LookbackRead& read : tile.reads) {
        if (read.added) {
            EXPECT_NE(cells[kTileCarry].expression.find(format_value(read.value)),
                      std::string::npos)
                << config << ": " << cells[kTileCarry].expression;
        }
    }
    EXPECT_NE(cells[kTileInclusive].expression.find(
                  "event " + std::to_string(tile.inclusive_ticket) + " of " + order),
              std::string::npos)
        << config << ": " << cells[kTileInclusive].expression;
}

// scan-fast's captions tell each tile's step with the trace's own numbers, in a projector's
// few words, over every block size the controls offer and n at the tile boundaries: a
// look-back where it stopped, the aggregates it added, its carry and the inclusive prefix it
// publishes; a publish its aggregate. What they leave out (every value, polls, reads past the
// prefix, events, who chose the order: the seed on the CPU model, the device on a GPU) is in
// the details and the cells' hover.
TEST(Captions, ScanFastTellsEachTilesChainWithItsOwnNumbers) {
    const auto cpu = make_cpu_backend();
    int tiles_told = 0;
    for (const int block : block_choices(Algorithm::ScanFast, Pitfall::None)) {
        const int tile = 4 * (block > 0 ? block : 256);
        for (const int n : {tile - 1, tile, tile + 1, 33 * tile + 1, 64 * tile}) {
            Request r;
            r.algorithm = Algorithm::ScanFast;
            r.block = block;
            r.input = generate(Generator::RandomInt, n, 3, 0);
            r.options.order_seed = 17;
            Trace t = cpu->trace(normalize_trace(r));
            const std::vector<LookbackTile> tiles = lookback_tiles(t);
            for (const bool gpu : {false, true}) {
                if (gpu) {
                    t.backend = "cuda";
                    t.device = "NVIDIA H200";
                }
                const std::string order =
                    gpu ? "the order the NVIDIA H200 ran" : "the CPU model's schedule, seed 17";
                const Dataflow flow(t);
                for (std::size_t k = 0; k < t.frames.size(); ++k) {
                    const Frame& f = t.frames[k];
                    const LookbackTile& told = tiles.at(static_cast<std::size_t>(f.block));
                    const std::string caption = flow.caption(k);
                    const std::string details = flow.caption_details(k);
                    const std::string config = "block " + std::to_string(block) + " n " +
                                               std::to_string(n) + ": " + caption + " — " + details;
                    ASSERT_EQ(caption.rfind("Tile " + std::to_string(f.block) + " ", 0), 0u)
                        << config;
                    EXPECT_NE(details.find(order), std::string::npos) << config;
                    EXPECT_EQ(problem(caption, t.request.block), "") << config;
                    if (f.step == Step::TilePublish) {
                        EXPECT_NE(caption.find("its aggregate " + format_value(told.aggregate)),
                                  std::string::npos)
                            << config;
                        EXPECT_NE(details.find("event " + std::to_string(told.aggregate_ticket)),
                                  std::string::npos)
                            << config;
                        continue;
                    }
                    ++tiles_told;
                    if (f.block == 0) {
                        EXPECT_NE(caption.find("carry is 0"), std::string::npos) << config;
                        continue;
                    }
                    EXPECT_EQ(caption, look_back_told(told)) << config;
                    expect_look_back_details(details, told, order, config);
                    expect_look_back_hover(flow, told, order, config);
                }
            }
        }
    }
    EXPECT_GT(tiles_told, 32 * 5);
}

// The polls that found predecessors unpublished name those tiles and no other: a range only
// where they are consecutive, a short list otherwise, a count of a range when a list would be
// long. The waits are set by hand on a real record (tile 10 reads tiles 9 down to 0), so each
// case is the one named.
TEST(Captions, ScanFastPollsNameTheTilesTheyFoundUnpublished) {
    Request r;
    r.algorithm = Algorithm::ScanFast;
    r.block = 32;
    r.input = generate(Generator::RandomInt, 11 * 128, 3, 0);
    r.options.order_seed = 17;
    const Trace real = make_cpu_backend()->trace(normalize_trace(r));
    const struct {
        std::set<int> waited;
        const char* told;
    } cases[] = {
        {{4}, "; 1 poll found tile 4 unpublished"},
        {{4, 5}, "; 2 polls found tiles 4 and 5 unpublished"},
        {{3, 4, 5, 6, 7}, "; 5 polls found tiles 3–7 unpublished"},
        {{3, 7}, "; 2 polls found tiles 3 and 7 unpublished"},
        {{3, 5, 7}, "; 3 polls found tiles 3, 5 and 7 unpublished"},
        {{2, 3, 4, 7}, "; 4 polls found tiles 2–4 and 7 unpublished"},
        {{0, 1, 3, 4}, "; 4 polls found tiles 0, 1, 3 and 4 unpublished"},
        {{1, 3, 5, 7, 9}, "; 5 polls found 5 of tiles 1–9 unpublished"},
    };
    for (const auto& c : cases) {
        Trace t = real;
        const int look = Dataflow(t).find(Step::LookBack, 0, 0, 10, -1);
        ASSERT_GE(look, 0);
        ASSERT_EQ(lookback_tiles(t).at(10).reads.size(), 10u) << "one window: every predecessor";
        std::vector<float>& values = t.frames[static_cast<std::size_t>(look)].values;
        for (int pred = 0; pred < 10; ++pred)
            values.at(static_cast<std::size_t>(pred * kReadValues + kReadWaits)) =
                c.waited.contains(pred) ? 1.0f : 0.0f;
        const std::string details = Dataflow(t).caption_details(static_cast<std::size_t>(look));
        EXPECT_NE(details.find(c.told), std::string::npos) << c.told << "\n  " << details;
    }
}

TEST(Captions, TheCheckItselfRefusesWhatTheIssueFound) {
    // reduceFull's final shuffle at block 1024 and 992, as they read before.
    EXPECT_NE(
        problem("The first warp loads the 32 warp totals; lanes 32–31 load the identity 0", 1024),
        "");
    EXPECT_NE(
        problem("The first warp loads the 31 warp totals; lanes 31–31 load the identity 0", 992),
        "");
    EXPECT_NE(problem("Level 0: threads 0–7 add s[t+8] into s[t]", 4), "");
    EXPECT_NE(problem("Warp 0: 0 lanes add", 32), "");
    EXPECT_NE(problem("Round 3: the busiest bin took 0 atomics", 32), "");
    EXPECT_NE(problem("lane 32 reads", 64), "");
    EXPECT_EQ(problem("the busiest bin took 10 atomics", 32), "");
    EXPECT_EQ(problem("Level 0, the 1st of 3: threads 0–3 add s[t+4] into s[t]; one barrier", 8),
              "");
    EXPECT_NE(problem("Upsweep level 3 (4th of 5) (stride 8): 2 threads each add s[t-8]", 32), "");
    EXPECT_EQ(problem("Upsweep level 3, the 4th of 5 (stride 8): 2 threads each add s[t-8]", 32),
              "");
    // Numbering: the label's number is the caption's, levels from 0, the rest from 1.
    EXPECT_EQ(numbering_problem("block 1 tree-level 2", "Block 1: Level 2, the 3rd of 5: ..."), "");
    EXPECT_NE(numbering_problem("tree-level 2", "Level 3, the 4th of 5: threads 0–1 add"), "");
    EXPECT_NE(numbering_problem("tree-level 2", "Level 2, the 2nd of 5: threads 0–3 add"), "");
    EXPECT_NE(numbering_problem("upsweep 1", "Upsweep level 10, the 11th of 12 (stride 2)"), "");
    EXPECT_EQ(numbering_problem("warp 0 shuffle 1", "Warp 0, shuffle 1 of 5 (offset 16)"), "");
    EXPECT_NE(numbering_problem("accumulate 2", "Grid-stride round 1 of 2: each thread"), "");
    EXPECT_NE(numbering_problem("serial-add 3", "Thread 0 adds in[2] to its running sum"), "");
    EXPECT_EQ(numbering_problem("clear-root", "Clear the root: s[7] = 0"), "");
    EXPECT_EQ(ordinal(11) + ordinal(12) + ordinal(21) + ordinal(22) + ordinal(103),
              "11th12th21st22nd103rd");
}

// The listings' comments count levels as the captions do: reduceTree's "Level 0: threads
// 0..TILE/2-1 add s[t] and s[t + TILE/2]" and "Level k: active threads < TILE >> (k+1)" hold for
// every tree level's caption at every block size the controls offer.
TEST(Captions, TheTreeListingsLevelCommentsAreTheCaptionsLevels) {
    std::string text;
    for (const std::string& line : listing(Algorithm::ReduceTree).lines)
        text += line + "\n";
    ASSERT_NE(text.find("// Level 0: threads 0..TILE/2-1 add s[t] and s[t + TILE/2]."),
              std::string::npos)
        << text;
    ASSERT_NE(text.find("// Level k: active threads < TILE >> (k+1)."), std::string::npos) << text;
    const auto cpu = make_cpu_backend();
    int blocks = 0;
    for (const int block : block_choices(Algorithm::ReduceTree, Pitfall::None)) {
        if (block <= 0) // "auto": the kernel's own choice, one of the others
            continue;
        ++blocks;
        Request r;
        r.algorithm = Algorithm::ReduceTree;
        r.block = block;
        r.input = generate(Generator::Seq, block, 1, 0);
        const Trace t = cpu->trace(normalize_trace(r));
        const Dataflow flow(t);
        int levels = 0;
        for (std::size_t k = 0; k < t.frames.size(); ++k) {
            if (t.frames[k].step != Step::TreeLevel)
                continue;
            const int level = t.frames[k].level;
            EXPECT_EQ(level, levels++) << "levels count from 0, one a frame";
            const int active = block >> (level + 1); // TILE >> (k+1)
            const std::string caption = flow.caption(k);
            const std::string threads = active == 1 ? "thread 0 adds s[t+1] into s[t]"
                                                    : "threads 0–" + std::to_string(active - 1) +
                                                          " add s[t+" + std::to_string(active) +
                                                          "] into s[t]";
            EXPECT_EQ(caption.rfind("Level " + std::to_string(level) + ", ", 0), 0u) << caption;
            EXPECT_NE(caption.find(threads), std::string::npos)
                << "block " << block << ": " << caption << "\n  wants: " << threads;
        }
        EXPECT_EQ(1 << levels, block) << "log2(TILE) levels";
    }
    EXPECT_GE(blocks, 5) << "the block sizes the controls offer, 32 to 1024";
}

} // namespace
} // namespace pplab::ui
