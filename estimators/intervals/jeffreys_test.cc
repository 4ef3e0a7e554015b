#include <gtest/gtest.h>

#include <cmath>

#include "estimators/interval_registry.h"

namespace privbench {
namespace {

EpsInterval Estimate(const char* name, ConfusionCounts c, double delta, double alpha) {
  auto r = MakeIntervalEstimator(name).value()->Estimate(c, delta, alpha);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : EpsInterval{};
}

// Bayesian paper Sec. 3.2 worked example, 95%: the min/max of Eq. 1 over the
// two-sided Jeffreys rectangle is [0.321, 1.456] (+-0.002).
TEST(JeffreysTest, WorkedExampleRectangle) {
  const EpsInterval r = Estimate("jeffreys", {65, 35, 25, 75}, 0.05, 0.05);
  EXPECT_NEAR(r.lower, 0.321, 0.002);
  EXPECT_NEAR(*r.upper, 1.456, 0.002);
}

// Bayesian paper Sec. 3.1: perfect attack, 2000 trials, delta = 1e-5, 90%:
// 6.25 with one-sided Jeffreys intervals. Printed with two decimals, so the
// tolerance is half a unit of the last digit (+-0.005; the computed value
// is 6.2543, which prints as 6.25). Jeffreys' k = 0
// convention sets the lower limit to 0; the upper limit is the posterior
// quantile.
TEST(JeffreysTest, PerfectAttackOneSided) {
  EXPECT_NEAR(Estimate("jeffreys_one_sided", {1000, 0, 0, 1000}, 1e-5, 0.1).lower, 6.25, 0.005);
}

// privacy-estimates README case: Jeffreys gives no bound, (0, inf).
TEST(JeffreysTest, PrivacyEstimatesReadmeGivesNoBound) {
  const EpsInterval r = Estimate("jeffreys", {487, 0, 512, 1}, 1e-5, 0.1);
  EXPECT_EQ(r.lower, 0.0);
  EXPECT_TRUE(std::isinf(*r.upper));
}

// Jeffreys rate intervals are narrower than Clopper-Pearson's, so the eps
// interval is nested inside CP's here.
TEST(JeffreysTest, NarrowerThanClopperPearson) {
  const ConfusionCounts c{300, 200, 200, 300};
  const EpsInterval j = Estimate("jeffreys", c, 1e-5, 0.1);
  const EpsInterval cp = Estimate("clopper_pearson", c, 1e-5, 0.1);
  EXPECT_GT(j.lower, cp.lower);
  EXPECT_LT(*j.upper, *cp.upper);
}

}  // namespace
}  // namespace privbench
