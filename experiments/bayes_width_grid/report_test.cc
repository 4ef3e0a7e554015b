#include "experiments/bayes_width_grid/report.h"

#include "gtest/gtest.h"

namespace privbench::bayes_width_grid {
namespace {

Config TestConfig() {
  Config c;
  c.fpr_points = c.fnr_points = 8;  // 0.01, 0.15, ..., 0.99
  return c;
}

WidthGrid TestGrid() {
  const Config c = TestConfig();
  auto w = ComputeWidthGrid(c, *MakeGridLayout(c), 2, nullptr);
  EXPECT_TRUE(w.ok()) << w.message();
  return *w;
}

TEST(GridText, DescribesTheGrid) {
  EXPECT_EQ(GridText(TestConfig(), 28),
            "n = 1000 (500 + 500), alpha = 0.1, delta = 1e-05; FPR 0.01..0.99 (8 points), FNR "
            "0.01..0.99 (8 points), only FPR + FNR < 1; 28 grid points evaluated");
  Config all = TestConfig();
  all.below_chance_only = false;
  EXPECT_EQ(GridText(all, 64).find("only FPR"), std::string::npos);
}

TEST(PointText, RatesOfThePoint) {
  const WidthGrid w = TestGrid();
  EXPECT_EQ(PointText(w, 0 * 8 + 6), "(FPR 0.01, FNR 0.85)");
  EXPECT_EQ(PointText(w, 2 * 8 + 1), "(FPR 0.29, FNR 0.15)");
}

TEST(ReductionRangesTable, OneRowPerBox) {
  const Config c = TestConfig();
  const WidthGrid w = TestGrid();
  const std::vector<Box> boxes = ReportedBoxes(c, w.grid);
  std::vector<BoxSummary> summaries;
  for (const Box& b : boxes) summaries.push_back(SummarizeBox(w, b));
  const SummaryTable t = ReductionRangesTable(c, w, boxes, summaries).value();
  EXPECT_EQ(t.name, "reduction_ranges");
  ASSERT_EQ(t.columns.size(), 11u);
  EXPECT_EQ(t.columns[0].strings[0], "all");
  EXPECT_EQ(t.columns[1].strings[0], "[0.01, 0.99]");
  EXPECT_EQ(t.columns[3].ints[0], 28);
  EXPECT_EQ(t.columns[10].strings, (std::vector<std::string>{"yes", "yes", "yes", "yes", "yes"}));
  // A violation is described with its point and widths.
  WidthGrid worse = w;
  worse.width[worse.paper.bayesian][0] = 100.0;
  summaries[0] = SummarizeBox(worse, boxes[0]);
  const SummaryTable bad = ReductionRangesTable(c, worse, boxes, summaries).value();
  EXPECT_EQ(
      bad.columns[10].strings[0].rfind("no: 1 points, e.g. (FPR 0.01, FNR 0.01): Bayesian 100,", 0),
      0u)
      << bad.columns[10].strings[0];
}

TEST(WidthsTable, TwoSidedMethodsOnly) {
  const WidthGrid w = TestGrid();
  const SummaryTable t = WidthsTable(TestConfig(), w).value();
  size_t two_sided = 0;
  for (const WidthMethod& m : w.methods) two_sided += !m.one_sided;
  ASSERT_EQ(t.columns[0].strings.size(), two_sided);
  for (size_t r = 0; r < two_sided; ++r) {
    EXPECT_LE(t.columns[1].doubles[r], t.columns[2].doubles[r]);
    EXPECT_LE(t.columns[2].doubles[r], t.columns[3].doubles[r]);
  }
}

TEST(Claims, NarrowestAndCorners) {
  const Config c = TestConfig();
  const WidthGrid w = TestGrid();
  const BoxSummary all = SummarizeBox(w, ReportedBoxes(c, w.grid)[0]);
  const Claim narrowest = NarrowestClaim(c, w, all);
  EXPECT_EQ(narrowest.id, "bayes_width_grid_bayesian_narrowest");
  EXPECT_TRUE(narrowest.holds);
  EXPECT_EQ(narrowest.evidence.rfind("0 of 28 grid points", 0), 0u) << narrowest.evidence;
  auto corners = AnalyzeCorners(w);
  ASSERT_TRUE(corners.ok());
  const Claim claim = CornersClaim(w, all, *corners);
  EXPECT_EQ(claim.id, "bayes_width_grid_corners");
  EXPECT_TRUE(claim.holds);
  EXPECT_NE(claim.evidence.find("corner: "), std::string::npos) << claim.evidence;
}

// The reading claims follow the boxes' ranges: a box whose range is moved
// onto the published one reproduces it, one moved away does not.
TEST(Claims, ReadingsFollowTheBoxRanges) {
  const Config c = TestConfig();
  const WidthGrid w = TestGrid();
  const std::vector<Box> boxes = ReportedBoxes(c, w.grid);
  std::vector<BoxSummary> s;
  for (const Box& b : boxes) s.push_back(SummarizeBox(w, b));
  for (BoxSummary& b : s) {
    b.vs_jeffreys = {0.0, 10.0, 1};
    b.vs_cp = {0.0, 10.0, 1};
    b.vs_cp_half_alpha = {0.0, 10.0, 1};
  }
  std::vector<Claim> claims = ReadingClaims(w, boxes, s);
  ASSERT_EQ(claims.size(), 3u);
  EXPECT_EQ(claims[0].id, "bayes_width_grid_jeffreys_range_low_fpr");
  EXPECT_EQ(claims[1].id, "bayes_width_grid_cp_range_same_confidence");
  EXPECT_EQ(claims[2].id, "bayes_width_grid_cp_range_cp_at_half_alpha");
  for (const Claim& claim : claims) EXPECT_FALSE(claim.holds) << claim.id;
  s[4].vs_jeffreys = {17.5, 34.5, 3};  // the low-FPR box, within 3 points
  s[2].vs_cp = {38.0, 49.5, 3};
  s[0].vs_cp_half_alpha = {34.2, 49.6, 3};
  claims = ReadingClaims(w, boxes, s);
  for (const Claim& claim : claims) EXPECT_TRUE(claim.holds) << claim.id;
  EXPECT_NE(claims[2].evidence.find("boxes that reproduce 36-52%: all"), std::string::npos)
      << claims[2].evidence;
  s[4].vs_jeffreys = {16.9, 32.0, 3};  // 3.1 points off
  EXPECT_FALSE(ReadingClaims(w, boxes, s)[0].holds);
}

TEST(WidthGridLostParameters, EndsWithThisRun) {
  const std::string text = WidthGridLostParameters(TestConfig(), 28);
  EXPECT_EQ(text.rfind("Fig. 5's grid", 0), 0u);
  EXPECT_NE(text.find("This run: n = 1000"), std::string::npos);
}

}  // namespace
}  // namespace privbench::bayes_width_grid
