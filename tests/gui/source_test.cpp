// The kernel source panel's rows: what ran, as a diff against the chapter's code, with the
// notes where the chapter's text and the run part.
#include "fixtures.hpp"
#include "panels.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace pplab::ui {
namespace {

using Kind = SourceRow::Kind;

int index_of(const std::vector<SourceRow>& rows, Kind kind, const std::string& part) {
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].kind == kind && rows[i].text.find(part) != std::string::npos)
            return static_cast<int>(i);
    return -1;
}

TEST(SourceRows, TheMissingBarrierIsStruckWhereItStoodAndTheNoteSitsUnderItsLine) {
    Request r = test::request(Algorithm::ScanBlelloch, {1, 2, 3, 4}, 4);
    r.options.pitfall = Pitfall::NoFinalSync;
    const auto m = test::trace(r);
    const auto rows = source_rows(listing(m->request()), m->trace());
    const int removed = index_of(rows, Kind::Removed, "__syncthreads();");
    ASSERT_GE(removed, 0);
    EXPECT_EQ(rows[static_cast<std::size_t>(removed) - 1].text, "    }")
        << "after the downsweep's loop";
    EXPECT_EQ(rows[static_cast<std::size_t>(removed)].line, -1) << "a removed line has no number";
    const int comment = index_of(rows, Kind::Chapter, "The block total ends in s[blockDim.x - 1]");
    ASSERT_GE(comment, 0);
    const SourceRow& note = rows.at(static_cast<std::size_t>(comment) + 1);
    EXPECT_EQ(note.kind, Kind::Note);
    EXPECT_NE(note.text.find("s[3] holds 6"), std::string::npos) << note.text;
    // Numbers run over the listing's lines only: the removed line and the note take none.
    int last = 0;
    for (const SourceRow& row : rows)
        if (row.kind != Kind::Note && row.line >= 0) {
            EXPECT_EQ(row.line, last) << row.text;
            ++last;
        }
}

TEST(SourceRows, TheChaptersOwnKernelHasNoDiff) {
    const auto m = test::trace(test::request(Algorithm::HistPrivatised, {1, 2, 3}, 256));
    const auto rows = source_rows(listing(m->request()), m->trace());
    EXPECT_TRUE(std::none_of(rows.begin(), rows.end(), [](const SourceRow& row) {
        return row.kind == Kind::Removed || row.kind == Kind::Changed || row.kind == Kind::Pplab;
    })) << "at the chapter's BINS and TILE, histogramPrivatised is the chapter's code, unchanged";
}

} // namespace
} // namespace pplab::ui
