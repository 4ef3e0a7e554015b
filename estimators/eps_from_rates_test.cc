#include "estimators/eps_from_rates.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace privbench {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(EpsFromRatesTest, BetterThanChanceIsEquationOne) {
  // Bayesian paper Eq. 1 at FNR = 0.35, FPR = 0.25, delta = 0.05.
  const double want =
      std::max(std::log((1 - 0.05 - 0.25) / 0.35), std::log((1 - 0.05 - 0.35) / 0.25));
  EXPECT_NEAR(EpsFromRates(0.35, 0.25, 0.05).value(), want, 1e-15);
}

TEST(EpsFromRatesTest, WorseThanChanceIsTheComplement) {
  EXPECT_NEAR(EpsFromRates(0.8, 0.9, 1e-5).value(), EpsFromRates(0.2, 0.1, 1e-5).value(), 1e-15);
}

TEST(EpsFromRatesTest, CornersAreExact) {
  EXPECT_EQ(EpsFromRates(0.0, 0.0, 1e-5).value(), kInf);  // perfect attack
  EXPECT_EQ(EpsFromRates(0.1, 0.0, 1e-5).value(), kInf);  // (1-d-0.1)/0 term
  EXPECT_EQ(EpsFromRates(1.0, 1.0, 1e-5).value(), kInf);  // perfectly inverted
  // Chance line and the delta band give 0.
  EXPECT_EQ(EpsFromRates(0.5, 0.5, 0.0).value(), 0.0);
  EXPECT_EQ(EpsFromRates(1.0, 0.0, 0.0).value(), 0.0);
  EXPECT_EQ(EpsFromRates(0.0, 1.0, 0.0).value(), 0.0);
  // With FNR = 1 - delta exactly, log((1-delta-FNR)/FPR) has a zero
  // numerator: no constraint, even at FPR = 0.
  EXPECT_EQ(EpsFromRates(1.0 - 0.25, 0.0, 0.25).value(), 0.0);
}

TEST(EpsFromRatesTest, RefusesBadInput) {
  EXPECT_EQ(EpsFromRates(1.5, 0.1, 0.0).message(), "fnr must be in [0, 1], got 1.5");
  EXPECT_EQ(EpsFromRates(0.1, -0.1, 0.0).message(), "fpr must be in [0, 1], got -0.1");
  EXPECT_EQ(EpsFromRates(0.1, 0.1, 1.0).message(), "delta must be in [0, 1), got 1");
  EXPECT_FALSE(EpsFromRates(std::nan(""), 0.1, 0.0).ok());
}

TEST(BoxTest, MinimumOverBoxMatchesBruteForce) {
  const double delta = 1e-3;
  const RateBox boxes[] = {
      {0.1, 0.3, 0.2, 0.35},    // below the band: corner (hi, hi)
      {0.6, 0.9, 0.7, 0.8},     // above the band: corner (lo, lo)
      {0.3, 0.6, 0.3, 0.6},     // meets the band: 0
      {0.0, 0.05, 0.0, 0.02},   // touches the corner
      {0.01, 0.2, 0.85, 0.99},  // off-diagonal corner region
  };
  for (const RateBox& b : boxes) {
    double lo = kInf, hi = 0.0;
    const int n = 400;
    for (int i = 0; i <= n; ++i) {
      for (int j = 0; j <= n; ++j) {
        const double x = b.fnr_lo + (b.fnr_hi - b.fnr_lo) * i / n;
        const double y = b.fpr_lo + (b.fpr_hi - b.fpr_lo) * j / n;
        const double e = EpsFromRatesUnchecked(x, y, delta);
        lo = std::min(lo, e);
        hi = std::max(hi, e);
      }
    }
    EXPECT_NEAR(MinEpsOverBox(b, delta), lo, 1e-12);
    if (std::isinf(hi)) {
      EXPECT_TRUE(std::isinf(MaxEpsOverBox(b, delta)));
    } else {
      EXPECT_NEAR(MaxEpsOverBox(b, delta), hi, 1e-12);
    }
  }
}

TEST(BoxTest, FootnoteOneMinimumIsTheUpperCorner) {
  // A box with FPR_lo = 0 below the band: the exact minimum is at
  // (FNR+, FPR+), not at (FNR+, 0) where a term is infinite.
  const RateBox b{0.05, 0.17, 0.0, 0.03};
  EXPECT_DOUBLE_EQ(MinEpsOverBox(b, 1e-5), EpsFromRatesUnchecked(0.17, 0.03, 1e-5));
}

}  // namespace
}  // namespace privbench
