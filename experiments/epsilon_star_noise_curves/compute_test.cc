// Unit tests of experiments/epsilon_star_noise_curves/compute.h: the exact
// rates at given thresholds, the maxima, the log errors by region, the
// 90th percentile, and the seeded end-to-end computation.
#include "experiments/epsilon_star_noise_curves/compute.h"

#include <gtest/gtest.h>

#include <cmath>

namespace privbench::epsilon_star_noise_curves {
namespace {

Config Small() {
  Config c;
  c.n = 400;
  c.quantiles_per_distribution = 400;
  return c;
}

TEST(ExactRatesAtTest, RatesAndTermsOfTheKnownDistributions) {
  auto t = KnownNormalLoss(NormalLoss{0.0, 1.0});
  auto p = KnownNormalLoss(NormalLoss{3.0, 1.0});
  ASSERT_TRUE(t.ok() && p.ok());
  auto x = ExactRatesAt(*t, *p, 0.0, {1.5});
  ASSERT_TRUE(x.ok());
  // Midway between the means: FPR = FNR = Phi(-1.5).
  const double phi = 0.5 * std::erfc(1.5 / std::sqrt(2.0));
  EXPECT_NEAR(x->fpr[0], phi, 1e-15);
  EXPECT_NEAR(x->fnr[0], phi, 1e-15);
  EXPECT_NEAR(x->term1[0], (1.0 - phi) / phi, 1e-10);
  EXPECT_NEAR(x->term2[0], (1.0 - phi) / phi, 1e-10);
}

TEST(MaxOfTest, LargestTermAndItsDenominatorRate) {
  EpsilonStarCurve c;
  c.threshold = {1.0, 2.0, 3.0};
  c.fpr = {0.1, 0.5, 0.9};
  c.fnr = {0.8, 0.4, 0.05};
  c.term1 = {1.0, 2.0, 1.5};
  c.term2 = {9.0, 1.0, 0.2};
  const TermMax m1 = MaxOf(c, true);
  EXPECT_EQ(m1.value, 2.0);
  EXPECT_EQ(m1.threshold, 2.0);
  EXPECT_EQ(m1.denominator_rate, 0.4);  // FNR
  const TermMax m2 = MaxOf(c, false);
  EXPECT_EQ(m2.value, 9.0);
  EXPECT_EQ(m2.denominator_rate, 0.1);  // FPR
  const TermMax none = MaxOf(EpsilonStarCurve{}, true);
  EXPECT_TRUE(std::isinf(none.value) && std::isnan(none.threshold));
}

TEST(LogErrorsTest, SplitByExactDenominatorRate) {
  NoiseCurves r;
  r.empirical.term1 = {2.0, 1.0, 4.0, -1.0};
  r.empirical.term2 = {1.0, 1.0, 1.0, 1.0};
  r.exact_term1 = {1.0, 1.0, 1.0, 1.0};
  r.exact_term2 = {1.0, 1.0, 1.0, 1.0};
  r.exact_fnr = {0.005, 0.5, 0.05, 0.001};  // ends, centre, neither, ends (term <= 0)
  r.exact_fpr = {0.5, 0.5, 0.5, 0.5};
  r.empirical.threshold = {1, 2, 3, 4};
  const LogErrorsByRegion e = LogErrors(r, true);
  ASSERT_EQ(e.ends.size(), 1u);
  EXPECT_DOUBLE_EQ(e.ends[0], std::log(2.0));
  ASSERT_EQ(e.centre.size(), 1u);
  EXPECT_EQ(e.centre[0], 0.0);
  EXPECT_EQ(LogErrors(r, false).centre.size(), 4u);
}

TEST(LowerP90Test, OrderStatisticWithoutInterpolation) {
  EXPECT_TRUE(std::isnan(LowerP90({})));
  EXPECT_EQ(LowerP90({3.0}), 3.0);
  // k = 10: index floor(0.9 * 9) = 8 of the sorted values.
  EXPECT_EQ(LowerP90({9, 8, 7, 6, 5, 4, 3, 2, 1, 0}), 8.0);
}

TEST(ComputeNoiseCurvesTest, SeededAndConsistent) {
  auto a = ComputeNoiseCurves(Small(), 7, 1);
  auto b = ComputeNoiseCurves(Small(), 7, 2);
  auto other = ComputeNoiseCurves(Small(), 8, 1);
  ASSERT_TRUE(a.ok() && b.ok() && other.ok()) << a.message();
  EXPECT_EQ(a->train_losses, b->train_losses);
  EXPECT_EQ(a->empirical.term1, b->empirical.term1);
  EXPECT_EQ(a->exact.term2, b->exact.term2);
  EXPECT_NE(a->train_losses, other->train_losses);
  EXPECT_EQ(a->train_losses.size(), 400u);
  EXPECT_EQ(a->exact_fpr.size(), a->empirical.size());
  EXPECT_GT(a->exact.size(), 10u);
}

TEST(ComputeNoiseCurvesTest, NoThresholdLeftIsAnError) {
  Config c = Small();
  c.rate_floor = 0.6;  // no threshold has both rates >= 0.6
  auto r = ComputeNoiseCurves(c, 7, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("rate_floor"), std::string::npos);
}

}  // namespace
}  // namespace privbench::epsilon_star_noise_curves
