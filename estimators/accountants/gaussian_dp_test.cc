#include "estimators/accountants/gaussian_dp.h"

#include <cmath>

#include "gtest/gtest.h"

namespace privbench {
namespace {

// Reference values from the same formula in 40-digit arithmetic (mpmath).
TEST(GaussianDpTest, DeltaMatchesHighPrecisionReference) {
  EXPECT_NEAR(GaussianDpDelta(1.0, 1.0).value(), 0.1269367375066439458, 1e-15);
  // mu = 500 (10^6 steps at sigma 2): both terms ~1e-5 and their difference
  // ~1e-23 at eps = 130,000; the log-space second term keeps it.
  EXPECT_NEAR(GaussianDpDelta(500.0, 130000.0).value() / 7.4689791213406105768e-24, 1.0, 1e-6);
}

TEST(GaussianDpTest, EpsilonInvertsTheProfile) {
  EXPECT_NEAR(GaussianDpEpsilon(1.25, 1e-6).value(), 6.3120601858013257574, 1e-9);
  EXPECT_NEAR(GaussianDpEpsilon(500.0, 1e-5).value(), 127131.44963905781979, 1e-6);
  // Round trip over a grid, and eps = 0 where delta(0) is already small.
  for (double mu : {1e-3, 0.1, 1.0, 7.0, 60.0}) {
    for (double delta : {1e-12, 1e-5, 0.1}) {
      const double eps = GaussianDpEpsilon(mu, delta).value();
      if (eps == 0.0) {
        EXPECT_LE(GaussianDpDelta(mu, 0.0).value(), delta);
        continue;
      }
      EXPECT_LE(GaussianDpDelta(mu, eps).value(), delta * (1 + 1e-9)) << mu << " " << delta;
      EXPECT_GT(GaussianDpDelta(mu, eps * (1 - 1e-9)).value(), delta * (1 - 1e-6))
          << mu << " " << delta;
    }
  }
}

TEST(GaussianDpTest, HugeMuIsAnsweredQuicklyOrRefusedByName) {
  // mu = 1e8: eps ~ mu^2 / 2 = 5e15, found by bisection in bounded steps.
  const Result<double> eps = GaussianDpEpsilon(1e8, 1e-5);
  ASSERT_TRUE(eps.ok()) << eps.message();
  EXPECT_NEAR(eps.value() / 5e15, 1.0, 1e-6);
  EXPECT_NE(GaussianDpEpsilon(1e200, 1e-5).message().find("mu="), std::string::npos);
  EXPECT_NE(GaussianDpEpsilon(0.0, 1e-5).message().find("mu must be"), std::string::npos);
  EXPECT_NE(GaussianDpEpsilon(1.0, 1.0).message().find("delta must be"), std::string::npos);
  EXPECT_NE(GaussianDpDelta(1.0, NAN).message().find("epsilon must be"), std::string::npos);
}

}  // namespace
}  // namespace privbench
