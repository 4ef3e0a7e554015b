// Tests for the ratio-term curves of study B1 (Negoescu et al., PPAI-24,
// App. B, Fig. 3).
#include "estimators/loss_samples/curves.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <vector>

#include "core/seeding.h"
#include "estimators/loss_samples/factories.h"

namespace privbench {
namespace {

EpsilonStarCurveOptions CurveOptions(int64_t m, double floor, double delta = 0.0) {
  EpsilonStarCurveOptions o;
  o.quantiles_per_distribution = m;
  o.rate_floor = floor;
  o.delta = delta;
  return o;
}

double CurveEpsilon(const EpsilonStarCurve& c) {
  double best = 1.0;
  for (size_t i = 0; i < c.size(); ++i) best = std::max({best, c.term1[i], c.term2[i]});
  return std::log(best);
}

void ExpectWellFormed(const EpsilonStarCurve& c, double floor, double delta) {
  ASSERT_EQ(c.fpr.size(), c.size());
  ASSERT_EQ(c.fnr.size(), c.size());
  ASSERT_EQ(c.term1.size(), c.size());
  ASSERT_EQ(c.term2.size(), c.size());
  for (size_t i = 0; i < c.size(); ++i) {
    if (i > 0) {
      ASSERT_LT(c.threshold[i - 1], c.threshold[i]);
    }
    ASSERT_GE(c.fpr[i], floor);
    ASSERT_GE(c.fnr[i], floor);
    ASSERT_NEAR(c.term1[i], (1 - delta - c.fpr[i]) / c.fnr[i], 1e-9 * std::abs(c.term1[i]));
    ASSERT_NEAR(c.term2[i], (1 - delta - c.fnr[i]) / c.fpr[i], 1e-9 * std::abs(c.term2[i]));
    if (i > 0) {  // FPR non-decreasing, FNR non-increasing in the threshold
      ASSERT_GE(c.fpr[i], c.fpr[i - 1]);
      ASSERT_LE(c.fnr[i], c.fnr[i - 1]);
    }
  }
}

TEST(EmpiricalCurveTest, HandComputedFourByFour) {
  // The example of empirical_test.cc: train {0.1, 0.2, 0.3, 0.6},
  // population {0.25, 0.4, 0.5, 0.7}. With floor 0.2 the thresholds with a
  // zero rate (0.1, 0.2, 0.6, 0.7) are dropped; the others are
  //   tau   FPR   FNR   term1  term2
  //   0.25  1/4   2/4   1.5    2
  //   0.3   1/4   1/4   3      3
  //   0.4   2/4   1/4   2      1.5
  //   0.5   3/4   1/4   1      1
  auto c = EmpiricalEpsilonStarCurve({0.6, 0.1, 0.3, 0.2}, {0.25, 0.4, 0.5, 0.7},
                                     CurveOptions(1000, 0.2));
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_EQ(c->threshold, (std::vector<double>{0.25, 0.3, 0.4, 0.5}));
  EXPECT_EQ(c->fpr, (std::vector<double>{0.25, 0.25, 0.5, 0.75}));
  EXPECT_EQ(c->fnr, (std::vector<double>{0.5, 0.25, 0.25, 0.25}));
  EXPECT_EQ(c->term1, (std::vector<double>{1.5, 3, 2, 1}));
  EXPECT_EQ(c->term2, (std::vector<double>{2, 3, 1.5, 1}));
  // delta shifts both numerators.
  auto d = EmpiricalEpsilonStarCurve({0.6, 0.1, 0.3, 0.2}, {0.25, 0.4, 0.5, 0.7},
                                     CurveOptions(1000, 0.2, 0.1));
  ASSERT_TRUE(d.ok());
  EXPECT_NEAR(d->term1[1], 2.6, 1e-15);
  // A floor of 0.3 keeps only rows with both rates >= 0.3: none.
  auto none = EmpiricalEpsilonStarCurve({0.6, 0.1, 0.3, 0.2}, {0.25, 0.4, 0.5, 0.7},
                                        CurveOptions(1000, 0.3));
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->size(), 0u);
}

TEST(ExactCurveTest, FigureThreeSettingIsConsistentWithExactEpsilonStar) {
  // Fig. 3a: train N(0,1), population N(3,1).
  const double floor = 1e-6;
  auto train = *NormalLossDistribution(0, 1), pop = *NormalLossDistribution(3, 1);
  auto c = ExactEpsilonStarCurve(train, pop, CurveOptions(10000, floor));
  ASSERT_TRUE(c.ok()) << c.message();
  ExpectWellFormed(*c, floor, 0.0);
  EXPECT_GT(c->size(), 10000u);
  // The curve's maximum is the grid maximum over rates >= floor; the exact
  // Epsilon* on the window (floor, 1) also evaluates the window end, so it
  // is at least as large, and the grid gets close to it.
  EpsilonStarOptions o;
  o.quantiles_per_distribution = 10000;
  o.rate_floor = floor;
  o.rate_ceiling = 1.0;
  auto e = ExactEpsilonStar(train, pop, o);
  ASSERT_TRUE(e.ok());
  EXPECT_LE(CurveEpsilon(*c), *e + 1e-12);
  EXPECT_GT(CurveEpsilon(*c), *e - 0.1);
  // Symmetric setting: term1 at threshold tau equals term2 at 3 - tau, so
  // the two maxima agree.
  const double max1 = *std::max_element(c->term1.begin(), c->term1.end());
  const double max2 = *std::max_element(c->term2.begin(), c->term2.end());
  EXPECT_NEAR(std::log(max1), std::log(max2), 1e-6);
}

TEST(EmpiricalCurveTest, SimulatedFigureThreeIsWellFormed) {
  // Fig. 3b: simulated losses; the curve's maximum equals the empirical
  // Epsilon* on the window (floor, 1) (the curve drops rates < floor, the
  // estimator rates <= floor; no sample rate equals floor here).
  Rng rng = MakeRng(3, {0});
  boost::random::normal_distribution<double> z(0.0, 1.0);
  std::vector<double> train(5000), population(7000);
  for (double& x : train) x = z(rng);
  for (double& x : population) x = 3 + z(rng);
  const double floor = 1e-4;
  auto c = EmpiricalEpsilonStarCurve(train, population, CurveOptions(10000, floor));
  ASSERT_TRUE(c.ok());
  ExpectWellFormed(*c, floor, 0.0);
  EpsilonStarOptions o;
  o.quantiles_per_distribution = 10000;
  o.rate_floor = floor;
  o.rate_ceiling = 1.0;
  auto e = MakeEmpiricalEpsilonStar()->Estimate(train, population, o);
  ASSERT_TRUE(e.ok());
  EXPECT_NEAR(CurveEpsilon(*c), *e, 1e-12);
}

TEST(CurveTest, RefusesBadInput) {
  auto n = *NormalLossDistribution(0, 1);
  EXPECT_EQ(ExactEpsilonStarCurve(n, n, CurveOptions(10, 0.0)).message(),
            "rate_floor must be in (0, 1), got 0");
  EXPECT_EQ(ExactEpsilonStarCurve(n, n, CurveOptions(0, 0.01)).message(),
            "quantiles_per_distribution must be in [1, 100000000], got 0");
  EXPECT_EQ(ExactEpsilonStarCurve(n, n, CurveOptions(10, 0.01, -1)).message(),
            "delta must be in [0, 1), got -1");
  KnownLossDistribution none;
  EXPECT_EQ(ExactEpsilonStarCurve(none, n, CurveOptions(10, 0.01)).message(),
            "train.cdf must be set");
  EXPECT_EQ(EmpiricalEpsilonStarCurve({}, {1.0}, CurveOptions(10, 0.01)).message(),
            "train_losses must be non-empty");
  EXPECT_EQ(EmpiricalEpsilonStarCurve({1.0}, {NAN}, CurveOptions(10, 0.01)).message(),
            "population_losses[0] must be finite, got nan");
}

}  // namespace
}  // namespace privbench
