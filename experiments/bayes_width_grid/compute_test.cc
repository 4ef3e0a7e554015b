#include "experiments/bayes_width_grid/compute.h"

#include <cmath>
#include <cstring>

#include "gtest/gtest.h"

namespace privbench::bayes_width_grid {
namespace {

Config TestConfig() {
  Config c;
  c.fpr_points = c.fnr_points = 8;  // 0.01, 0.15, ..., 0.99
  return c;
}

bool SameBytes(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(RateAxis, EvenlySpacedAndRounded) {
  const std::vector<double> v = RateAxis(0.01, 0.99, 50);
  ASSERT_EQ(v.size(), 50u);
  EXPECT_EQ(v.front(), 0.01);
  EXPECT_EQ(v[1], 0.03);
  EXPECT_EQ(v.back(), 0.99);
  EXPECT_EQ(RateAxis(0.2, 0.9, 1), (std::vector<double>{0.2}));
}

TEST(MakeGridLayout, BelowChanceTriangle) {
  auto g = MakeGridLayout(TestConfig());
  ASSERT_TRUE(g.ok()) << g.message();
  ASSERT_EQ(g->valid.size(), 64u);
  EXPECT_EQ(g->points.size(), 28u);
  for (int64_t p : g->points) EXPECT_LT(g->fpr[p / 8] + g->fnr[p % 8], 1.0);
  Config all = TestConfig();
  all.below_chance_only = false;
  EXPECT_EQ(MakeGridLayout(all)->points.size(), 64u);
  Config none = TestConfig();
  none.fpr_min = none.fnr_min = 0.6;
  none.fpr_max = none.fnr_max = 0.9;
  auto empty = MakeGridLayout(none);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.message().find("below_chance_only=false"), std::string::npos);
}

TEST(ComputeWidthGrid, NanOutsideAndReductionsFromWidths) {
  const Config c = TestConfig();
  auto w = ComputeWidthGrid(c, *MakeGridLayout(c), /*threads=*/2, /*progress=*/nullptr);
  ASSERT_TRUE(w.ok()) << w.message();
  EXPECT_EQ(w->fp_axis[1], 75);  // round(0.15 * 500)
  EXPECT_EQ(w->fn_axis[7], 495);
  const std::vector<double>& w_by = w->width[w->paper.bayesian];
  const std::vector<double>& w_cp = w->width[w->paper.clopper_pearson];
  for (size_t p = 0; p < 64; ++p) {
    if (!w->grid.valid[p]) {
      EXPECT_TRUE(std::isnan(w->true_eps[p]));
      EXPECT_TRUE(std::isnan(w_by[p]));
      EXPECT_TRUE(std::isnan(w->reduction_cp[p]));
      continue;
    }
    EXPECT_EQ(w->counts[p].fp, w->fp_axis[p / 8]);
    EXPECT_EQ(w->counts[p].fn, w->fn_axis[p % 8]);
    EXPECT_DOUBLE_EQ(w->reduction_cp[p], 100.0 * (1.0 - w_by[p] / w_cp[p]));
    EXPECT_GT(w->reduction_cp[p], 0.0);
    EXPECT_GT(w->reduction_jf[p], 0.0);
  }
  EXPECT_EQ(w->undefined_cp, 0);
  EXPECT_EQ(w->undefined_jf, 0);
}

TEST(ComputeWidthGrid, SameBytesOnOneAndTwoThreads) {
  const Config c = TestConfig();
  auto one = ComputeWidthGrid(c, *MakeGridLayout(c), 1, nullptr);
  auto two = ComputeWidthGrid(c, *MakeGridLayout(c), 2, nullptr);
  ASSERT_TRUE(one.ok() && two.ok());
  for (size_t m = 0; m < one->methods.size(); ++m) {
    EXPECT_TRUE(SameBytes(one->lower[m], two->lower[m])) << one->methods[m].name;
    EXPECT_TRUE(SameBytes(one->upper[m], two->upper[m])) << one->methods[m].name;
  }
}

TEST(ReportedBoxes, AllThenTheSubgrids) {
  const Config c = TestConfig();
  const std::vector<Box> boxes = ReportedBoxes(c, *MakeGridLayout(c));
  ASSERT_EQ(boxes.size(), 5u);
  EXPECT_EQ(boxes[0].name, "all");
  EXPECT_EQ(boxes[4].name, "fpr_0-0.1_fnr_0-0.5");
  EXPECT_EQ(boxes[0].fpr_hi, 0.99);
  EXPECT_EQ(boxes[1].name, "fpr_0-0.5_fnr_0-0.5");
  EXPECT_EQ(boxes[2].name, "fpr_0-0.1_fnr_0.5-1");
  EXPECT_EQ(BoxName(0.1, 0.4, 0.1, 0.4), "fpr_0.1-0.4_fnr_0.1-0.4");
}

TEST(SummarizeBox, CountsPointsAndViolations) {
  const Config c = TestConfig();
  auto w = ComputeWidthGrid(c, *MakeGridLayout(c), 2, nullptr);
  ASSERT_TRUE(w.ok());
  const std::vector<Box> boxes = ReportedBoxes(c, w->grid);
  const BoxSummary all = SummarizeBox(*w, boxes[0]);
  EXPECT_EQ(all.points, 28);
  EXPECT_EQ(all.violations, 0);
  EXPECT_EQ(all.first_violation, -1);
  EXPECT_EQ(all.vs_cp.count, 28);
  EXPECT_GT(all.vs_cp.min, 0.0);
  // Both rates in {0.01, 0.15, 0.29, 0.43}: 4 x 4 points, all below chance.
  EXPECT_EQ(SummarizeBox(*w, boxes[1]).points, 16);
  // Make the Bayesian interval wider than CP at the first point.
  WidthGrid worse = *w;
  worse.width[worse.paper.bayesian][0] = 1e9;
  const BoxSummary bad = SummarizeBox(worse, boxes[0]);
  EXPECT_EQ(bad.violations, 1);
  EXPECT_EQ(bad.first_violation, 0);
}

TEST(AnalyzeCorners, LargestDifferencesAtAVertex) {
  const Config c = TestConfig();
  auto w = ComputeWidthGrid(c, *MakeGridLayout(c), 2, nullptr);
  ASSERT_TRUE(w.ok());
  auto corners = AnalyzeCorners(*w);
  ASSERT_TRUE(corners.ok()) << corners.message();
  EXPECT_EQ(corners->diff_cp.count, 28);
  EXPECT_FALSE(corners->corner_cp.empty());
  EXPECT_FALSE(corners->corner_jeffreys.empty());
  WidthGrid nan = *w;
  for (double& x : nan.width[nan.paper.bayesian]) x = std::nan("");
  EXPECT_FALSE(AnalyzeCorners(nan).ok());
}

}  // namespace
}  // namespace privbench::bayes_width_grid
