// The CUDA source of each algorithm: shown beside the canvas with the lines of the current step
// lit, and the starting point of a student's own kernel. The listings live in
// kernels/listings/*.cu (embedded). They hold the chapter's code verbatim, inside
//   //@chapter NAME [part]   ...   //@end-chapter
// (NAME is a snippet of tests/unit/chapter/, which a test holds them to), and pplab's own code
// around it. `//@about TEXT` lines say, for the panel's header, what comes from where.
// A trailing "// @tag,tag" on a line is not shown; its tags are:
//   a step id (upsweep, tree-level, ...)  the line runs in that step: it is lit there
//   only:COND                              the line runs only with COND (drawn as added)
//   unless:COND                            a chapter line that COND removes (drawn struck out)
//   added                                  pplab's change to the chapter's code (drawn as added)
//   note:ID                                a note computed from the trace (listing_note)
// COND is a pitfall id, `inclusive` or `no-skip-empty`.
#pragma once

#include "pplab/request.hpp"
#include "pplab/trace.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pplab {

// Where a line of a listing comes from.
enum class LineOrigin {
    Chapter, // the chapter's code, verbatim
    Pplab,   // pplab's code around it (a kernel or a driver the chapter does not show)
    Changed, // pplab's change to the chapter's code, or a line only this launch's option runs
};

struct Listing {
    std::string about; // the header: what is the chapter's and what is pplab's

    // The code as the launch runs it: what a student edits and compiles.
    std::vector<std::string> lines;
    std::vector<std::vector<Step>> steps; // per line: the steps that execute it
    std::vector<LineOrigin> origin;       // per line
    std::vector<std::string> note;        // per line: a note id for listing_note, or ""

    // Chapter lines this launch does not run (a pitfall's missing barrier, the fold without its
    // skip): shown struck through just before lines[before].
    struct Removed {
        std::size_t before = 0;
        std::string text;
    };
    std::vector<Removed> removed;

    bool runs(std::size_t line, Step s) const;
    // The code as one text, as a student's file holds it.
    std::string source() const;
};

// The chapter's code a listing holds: the snippet it names and its lines as the chapter writes
// them (tags stripped; pplab's added lines left out, lines a condition removes kept).
struct ChapterRegion {
    std::string snippet;
    bool whole = true; // the whole snippet; false: a run of its lines ("part")
    std::vector<std::string> lines;
};

// Parses a listing file for the launch's options (throws std::logic_error naming a bad tag,
// an unknown step or condition, or an unclosed region: a listing is ours, not user input).
Listing parse_listing(std::string_view text, const Options& options = {});
std::vector<ChapterRegion> chapter_regions(std::string_view text);

// The listing of an algorithm as the chapter writes it: no pitfall, no option, the chapter's
// constants (throws std::logic_error if the build lost one).
Listing listing(Algorithm a);
std::string_view listing_text(Algorithm a);

// The listing as this launch runs it: its options' lines, and the constants it uses (TILE, WARPS,
// BINS, ACTIVE_LANES) defined with the launch's values, so the text shown and the text a student
// edits say what ran (the chapter's `#define TILE 256` reads `#define TILE 64` for a block of
// 64). A constant the listing uses without defining it gets a `#define` on top. `r` must be
// normalized.
Listing listing(const Request& r);

// The note `id` of a listing line for this trace: "" when it says nothing for this run. E.g. the
// chapter's "The block total ends in s[blockDim.x - 1]", which after the downsweep holds the sum
// of the first n-1 elements, annotated with the value that sits there.
std::string listing_note(std::string_view id, const Trace& t);
// The note `id` where it depends on the launch alone ("" for the others, and where it says
// nothing for this launch): WARPS for this TILE, the slots a tree of a TILE that is not a power
// of two never reaches.
std::string launch_note(std::string_view id, const Request& r);
// The listing's source with each launch note as a comment above its line: the file `pplab
// listing` writes says what this launch runs ("// pplab: TILE = 64 in this launch: 2 warps per
// block, where the chapter's comments say 8"). Notes that need the run are the window's.
std::string source_with_launch_notes(const Listing& l, const Request& r);
// Whether `id` names a note listing_note knows.
bool is_listing_note(std::string_view id);

} // namespace pplab
