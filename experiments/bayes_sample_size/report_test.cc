#include "experiments/bayes_sample_size/report.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace privbench::bayes_sample_size {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Three two-sided methods (CP, Jeffreys, Bayesian) and one one-sided, on the
// grid n = 100, 200, 300 with the given widths per method.
SampleSizeCurves Curves(const std::vector<std::vector<double>>& widths,
                        const std::vector<SamplesNeeded>& needed) {
  SampleSizeCurves r;
  r.methods = {{"clopper_pearson", "clopper_pearson", false, 1e-5},
               {"jeffreys", "jeffreys", false, 1e-5},
               {"bayesian", "bayesian", false, 1e-5},
               {"katz_log_one_sided", "katz_log_one_sided (delta=0)", true, 0.0}};
  r.n = {100, 200, 300};
  r.counts.assign(3, ConfusionCounts{});
  r.point_eps.assign(3, 0.4);
  for (const auto& w : widths) {
    r.width.push_back(w);
    r.lower.push_back({0.1, 0.1, 0.1});
    r.upper.push_back({0.1 + w[0], 0.1 + w[1], 0.1 + w[2]});
  }
  r.width.push_back({kNan, kNan, kNan});
  r.lower.push_back({0.2, 0.2, 0.2});
  r.upper.push_back({kNan, kNan, kNan});
  r.needed = needed;
  r.needed.push_back({});
  r.true_eps = 0.405;
  r.target_width = 0.3;
  return r;
}

Config GridConfig() {
  Config c;
  c.n_min = 100;
  c.n_max = 300;
  c.n_step = 100;
  return c;
}

const PaperMethods kPaper = {0, 1, 2};

TEST(NeededText, NumberOrNotReached) {
  EXPECT_EQ(NeededText(1500, 3000), "1500");
  EXPECT_EQ(NeededText(-1, 3000), "> 3000 (not reached)");
}

TEST(EndpointSampleSizes, PicksOnTheGridEachOnce) {
  Config c;
  c.n_min = 500;
  c.n_max = 1500;
  c.n_step = 500;
  EXPECT_EQ(EndpointSampleSizes(c, {500, 1000, 1500}), (std::vector<int64_t>{500, 1000, 1500}));
  EXPECT_EQ(EndpointSampleSizes(GridConfig(), {100, 200, 300}), (std::vector<int64_t>{100, 300}));
}

TEST(Tables, OneRowPerMethodAndPerPick) {
  const SampleSizeCurves r = Curves({{0.5, 0.4, 0.35}, {0.45, 0.35, 0.3}, {0.3, 0.2, 0.1}},
                                    {{-1, -1}, {300, 300}, {100, 100}});
  const SummaryTable needed = SamplesNeededTable(GridConfig(), r).value();
  EXPECT_EQ(needed.name, "samples_needed");
  ASSERT_EQ(needed.columns[3].name, "samples_needed");
  EXPECT_EQ(needed.columns[3].strings,
            (std::vector<std::string>{"> 300 (not reached)", "300", "100", "n/a"}));
  EXPECT_NE(needed.caption.find("stays <= 0.3 to the end"), std::string::npos) << needed.caption;
  const SummaryTable ends = EndpointsTable(GridConfig(), r).value();
  EXPECT_EQ(ends.columns[1].ints, (std::vector<int64_t>{100, 100, 100, 100, 300, 300, 300, 300}));
  EXPECT_EQ(ends.columns[4].doubles[6], 0.1);  // Bayesian width at n = 300
}

TEST(CpToBayesianSampleRatio, NaNUnlessBothReachTheTarget) {
  EXPECT_DOUBLE_EQ(
      CpToBayesianSampleRatio(
          Curves({{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, {{300, 300}, {200, 200}, {100, 100}}), kPaper),
      3.0);
  EXPECT_TRUE(std::isnan(CpToBayesianSampleRatio(
      Curves({{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, {{-1, -1}, {200, 200}, {100, 100}}), kPaper)));
}

TEST(SampleSizeClaims, HoldWhenBayesianIsNarrowestAndFewest) {
  const SampleSizeCurves r = Curves({{0.9, 0.5, 0.35}, {0.8, 0.45, 0.32}, {0.6, 0.3, 0.2}},
                                    {{-1, -1}, {-1, -1}, {200, 200}});
  const std::vector<Claim> claims = SampleSizeClaims(GridConfig(), r, kPaper);
  ASSERT_EQ(claims.size(), 4u);
  EXPECT_EQ(claims[0].id, "bayes_sample_size_bayesian_fewest");
  EXPECT_TRUE(claims[0].holds);
  EXPECT_FALSE(claims[1].holds);  // Jeffreys reaches nothing: not "marginally fewer"
  EXPECT_NE(claims[1].evidence.find("saves n/a"), std::string::npos) << claims[1].evidence;
  EXPECT_FALSE(claims[2].holds);  // 200 is not over 500
  EXPECT_TRUE(claims[3].holds);
  EXPECT_NE(claims[3].evidence.find("0 of 3 grid n"), std::string::npos) << claims[3].evidence;
}

TEST(SampleSizeClaims, ViolationsAreCounted) {
  const SampleSizeCurves r = Curves({{0.9, 0.5, 0.35}, {0.8, 0.45, 0.3}, {0.6, 0.5, 0.2}},
                                    {{1000, 1000}, {900, 900}, {600, 600}});
  const std::vector<Claim> claims = SampleSizeClaims(GridConfig(), r, kPaper);
  EXPECT_TRUE(claims[0].holds);
  EXPECT_TRUE(claims[1].holds);  // saves 10%
  EXPECT_NE(claims[1].evidence.find("saves 10%"), std::string::npos) << claims[1].evidence;
  EXPECT_TRUE(claims[2].holds);
  EXPECT_FALSE(claims[3].holds);
  EXPECT_NE(claims[3].evidence.find("1 of 3 grid n"), std::string::npos) << claims[3].evidence;
  EXPECT_NE(claims[3].evidence.find("(first at n = 200)"), std::string::npos);
}

}  // namespace
}  // namespace privbench::bayes_sample_size
