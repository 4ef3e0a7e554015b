// Unit tests of experiments/epsilon_star_distance/report.h: table rows and
// the claims' criteria on hand-made results.
#include "experiments/epsilon_star_distance/report.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xview.hpp>

namespace privbench::epsilon_star_distance {
namespace {

Config Config2() {
  Config c;
  c.est = DefaultEstimationConfig(Scale::kTest);
  c.est.n = {100, 1000};
  c.est.repetitions = 2;
  c.distances = {0, 1};
  return c;
}

// d = 0: empirical 0.4, 0.2 vs parametric 0.1, 0.1 (overshoots more);
// d = 1 (exact 1 on every window): empirical 0.5, 0.8 (bias -0.5, -0.2),
// parametric 1.3, 1.3 (bias +0.3, not shrinking).
DistanceResults Fixture(const Config& c) {
  DistanceResults r;
  r.N = 2;
  r.names = {"empirical", "parametric"};
  r.claim = {0, 1};
  r.analyses = PrimaryAndCommonAnalyses(c.est);
  r.windows = MakeExactWindows(r.analyses[0].options, r.analyses[1].options);
  r.exact = {{0.0, 1.0}, {0.0, 1.0}, {0.0, 1.0}};
  // values(s, analysis, estimator, repetition): empirical e, parametric p,
  // the same in both analyses.
  const std::vector<std::pair<double, double>> units = {
      {0.4, 0.1}, {0.2, 0.1}, {0.5, 1.3}, {0.8, 1.3}};
  r.values = xt::zeros<double>({4, 2, 2, 2});
  for (size_t s = 0; s < 4; ++s) {
    xt::view(r.values, s, xt::all(), 0, xt::all()) = units[s].first;
    xt::view(r.values, s, xt::all(), 1, xt::all()) = units[s].second;
  }
  r.moments = Moments(r.values);
  r.bias = r.moments.mean;
  for (size_t s = 0; s < 4; ++s) xt::view(r.bias, s, xt::all(), xt::all()) -= r.exact[0][s / 2];
  return r;
}

TEST(DistanceReportTest, Tables) {
  const Config c = Config2();
  const DistanceResults r = Fixture(c);
  const Result<SummaryTable> exact = DistanceExactTable(c, r);
  ASSERT_TRUE(exact.ok()) << exact.message();
  EXPECT_EQ(exact->name, "distance_exact");
  EXPECT_EQ(exact->columns[1].doubles, (std::vector<double>{1.0, 2.0}));  // population shape
  EXPECT_EQ(exact->columns[5].doubles, (std::vector<double>{0.0, 1.0}));  // common window
  const Result<SummaryTable> t = DistanceTable(c, r, 1);
  ASSERT_TRUE(t.ok()) << t.message();
  EXPECT_EQ(t->name, "distance_common_window");
  EXPECT_EQ(t->columns[0].doubles.size(), 8u);  // D x N x E rows
  EXPECT_EQ(t->columns[1].ints, (std::vector<int64_t>{100, 100, 1000, 1000, 100, 100, 1000, 1000}));
  EXPECT_DOUBLE_EQ(t->columns[7].doubles[4], -0.5);
}

TEST(DistanceReportTest, ClaimsFollowTheirCriteria) {
  const Config c = Config2();
  const DistanceResults r = Fixture(c);
  // Two repetitions cannot make a sign test significant: inconclusive,
  // with empirical > parametric in 4 of 4 (n, repetition) pairs.
  const JudgedClaim d0 = D0OvershootsClaim(c, r, 0);
  EXPECT_FALSE(d0.claim.holds);
  EXPECT_TRUE(d0.inconclusive);
  EXPECT_DOUBLE_EQ(d0.holds_fraction, 1.0);
  // Likewise the undershoot claim: the fixture's empirical values are below
  // exact and parametric in every pair, but two repetitions decide nothing.
  const JudgedClaim under = UndershootsClaim(c, r, 0);
  EXPECT_FALSE(under.claim.holds);
  EXPECT_TRUE(under.inconclusive);
  EXPECT_DOUBLE_EQ(under.holds_fraction, 1.0);
  EXPECT_NE(under.claim.evidence.find("positive (overshoot) in 2 of 2 cases"), std::string::npos)
      << under.claim.evidence;
  // RMSE at d = 0, n = 1000: empirical 0.2 vs parametric 0.1; at d = 1,
  // n = 1000: empirical 0.2 vs parametric 0.3 (fails).
  const Claim accurate = MoreAccurateClaim(c, r, 0);
  EXPECT_FALSE(accurate.holds);
  EXPECT_NE(accurate.evidence.find("fails at d=1,n=1000;"), std::string::npos) << accurate.evidence;
  EXPECT_TRUE(accurate.statement.empty());  // from claims.json, not the report
  const Claim shrink = BiasesShrinkClaim(c, r, 1);
  EXPECT_FALSE(shrink.holds);
  EXPECT_EQ(shrink.id, "epsilon_star_distance_biases_shrink_with_n_common_window");
  EXPECT_NE(shrink.evidence.find("not decreasing: parametric d=0, parametric d=1"),
            std::string::npos)
      << shrink.evidence;
  Config no_zero = c;
  no_zero.distances = {1, 2};
  EXPECT_FALSE(D0OvershootsClaim(no_zero, r, 0).claim.holds);
  EXPECT_FALSE(D0OvershootsClaim(no_zero, r, 0).inconclusive);
}

// With 10 repetitions: 10 of 10 at both n holds (p = 1/1024 <= 0.025);
// 0 of 10 at one n does not hold; 7 of 10 is inconclusive.
TEST(DistanceReportTest, D0VerdictsFromTheSignTest) {
  Config c = Config2();
  c.est.repetitions = 10;
  DistanceResults r = Fixture(c);
  r.values = xt::zeros<double>({4, 2, 2, 10});
  auto set = [&](size_t s, int empirical_wins) {
    for (int k = 0; k < 10; ++k) {
      xt::view(r.values, s, xt::all(), 0, k) = k < empirical_wins ? 0.5 : 0.1;
      xt::view(r.values, s, xt::all(), 1, k) = 0.3;
    }
  };
  set(0, 10);
  set(1, 10);
  EXPECT_TRUE(D0OvershootsClaim(c, r, 0).claim.holds);
  EXPECT_FALSE(D0OvershootsClaim(c, r, 0).inconclusive);
  set(1, 0);
  EXPECT_FALSE(D0OvershootsClaim(c, r, 0).claim.holds);
  EXPECT_FALSE(D0OvershootsClaim(c, r, 0).inconclusive);
  set(1, 7);
  const JudgedClaim j = D0OvershootsClaim(c, r, 0);
  EXPECT_FALSE(j.claim.holds);
  EXPECT_TRUE(j.inconclusive);
  EXPECT_DOUBLE_EQ(j.holds_fraction, 17.0 / 20);
}

}  // namespace
}  // namespace privbench::epsilon_star_distance
