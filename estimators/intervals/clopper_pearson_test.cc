#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "estimators/eps_from_rates.h"
#include "estimators/interval_registry.h"
#include "estimators/rate_box_method.h"

namespace privbench {
namespace {

EpsInterval Estimate(const char* name, ConfusionCounts c, double delta, double alpha) {
  auto est = MakeIntervalEstimator(name).value();
  auto r = est->Estimate(c, delta, alpha);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : EpsInterval{};
}

// Bayesian paper Sec. 3.2 worked example: FN=35, TP=65, FP=25, TN=75,
// delta = 0.05, 95%: Clopper-Pearson rectangle gives [0.295, 1.489] (+-0.002).
TEST(ClopperPearsonTest, WorkedExampleRectangle) {
  const EpsInterval r = Estimate("clopper_pearson", {65, 35, 25, 75}, 0.05, 0.05);
  EXPECT_NEAR(r.lower, 0.295, 0.002);
  EXPECT_NEAR(*r.upper, 1.489, 0.002);
}

// Bayesian paper Sec. 3.1: a perfect attack over 2000 trials (1000 + 1000),
// delta = 1e-5, 90%: 5.6 with two-sided CP and 5.81 with one-sided CP
// (+-0.002 on the printed digits: 5.6 is printed to one decimal, so +-0.05).
TEST(ClopperPearsonTest, PerfectAttackTwoThousandTrials) {
  EXPECT_NEAR(Estimate("clopper_pearson", {1000, 0, 0, 1000}, 1e-5, 0.1).lower, 5.6, 0.05);
  EXPECT_NEAR(Estimate("clopper_pearson_one_sided", {1000, 0, 0, 1000}, 1e-5, 0.1).lower, 5.81,
              0.002);
  // Exactly: the upper CP limit for 0 of 1000 at 0.975 is 1 - 0.025^(1/1000).
  const double fnr_hi = -std::expm1(std::log(0.025) / 1000);
  EXPECT_NEAR(Estimate("clopper_pearson", {1000, 0, 0, 1000}, 1e-5, 0.1).lower,
              std::log((1 - 1e-5 - fnr_hi) / fnr_hi), 1e-9);
}

// Bayesian paper footnote 1: TP, FP, TN, FN = 90, 0, 100, 10, delta = 1e-5,
// 90% two-sided CP. Eq. 1 at (FNR+, FPR+) is 3.124, which is also the exact
// minimum over the rectangle. The paper's "minimum 1.736 at (FNR+, 0)" is
// ln((1 - delta - 0)/FNR+): it drops the term whose denominator is 0.
TEST(ClopperPearsonTest, FootnoteOne) {
  const ConfusionCounts c{90, 10, 0, 100};
  EXPECT_NEAR(Estimate("clopper_pearson", c, 1e-5, 0.1).lower, 3.124, 0.002);
  const RateBox box = MakeRateBox(c, 0.05, &ClopperPearsonRate);
  EXPECT_EQ(box.fpr_lo, 0.0);
  EXPECT_NEAR(EpsFromRatesUnchecked(box.fnr_hi, box.fpr_hi, 1e-5), 3.124, 0.002);
  EXPECT_NEAR(std::log((1 - 1e-5 - 0.0) / box.fnr_hi), 1.736, 0.002);  // the paper's value
  EXPECT_TRUE(std::isinf(EpsFromRatesUnchecked(box.fnr_hi, 0.0, 1e-5)));
}

// privacy-estimates README: TP=487, TN=1, FP=512, FN=0, alpha=0.1,
// delta=1e-5: Clopper-Pearson gives no bound, (0, inf).
TEST(ClopperPearsonTest, PrivacyEstimatesReadmeGivesNoBound) {
  const EpsInterval r = Estimate("clopper_pearson", {487, 0, 512, 1}, 1e-5, 0.1);
  EXPECT_EQ(r.lower, 0.0);
  EXPECT_TRUE(std::isinf(*r.upper));
}

}  // namespace
}  // namespace privbench
