#include "estimators/intervals/katz_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "estimators/interval_registry.h"

namespace privbench {
namespace {

// ML-Audit Corollary 4.0.1: with N = 10000 samples and alpha = 0.05 the
// highest detectable eps is ln(N) - z_{alpha/2} sqrt(1 - 1/N) = 7.25
// (+-0.002 on the printed 7.25).
// The largest lower end over all counts: the paper's ceiling at alpha =
// 0.05, more than it at alpha = 0.001 (a small n0 > 0) and at alpha = 0.1
// (n0 = 0 with the Haldane rule), never less than any count's lower end.
TEST(KatzLogLargest, IsTheMaximumOverCounts) {
  EXPECT_NEAR(KatzLogLargestLowerBound(10000, 0.05).value(), KatzLogCeiling(10000, 0.05).value(),
              1e-12);
  EXPECT_NEAR(KatzLogLargestLowerBound(1000, 0.05).value(), KatzLogCeiling(1000, 0.05).value(),
              1e-12);
  EXPECT_GT(KatzLogLargestLowerBound(10000, 0.001).value(),
            KatzLogCeiling(10000, 0.001).value() + 0.2);
  EXPECT_GT(KatzLogLargestLowerBound(1000, 0.1).value(), KatzLogCeiling(1000, 0.1).value());
  for (const double alpha : {0.001, 0.05, 0.1, 0.5}) {
    const double largest = KatzLogLargestLowerBound(200, alpha).value();
    for (int64_t n1 = 0; n1 <= 200; n1 += 7) {
      for (int64_t n0 = 0; n0 <= 200; n0 += 3) {
        EXPECT_LE(KatzLogEpsLowerBound(n1, n0, 200, alpha).value(), largest + 1e-12);
      }
    }
  }
  EXPECT_FALSE(KatzLogLargestLowerBound(0, 0.05).ok());
  EXPECT_FALSE(KatzLogLargestLowerBound(10, 0).ok());
}

TEST(KatzLogTest, CorollaryCeiling) {
  EXPECT_NEAR(KatzLogCeiling(10000, 0.05).value(), 7.25, 0.002);
  // The ceiling is the lower bound at n1 = N, n0 = 1.
  EXPECT_NEAR(KatzLogEpsLowerBound(10000, 1, 10000, 0.05).value(),
              KatzLogCeiling(10000, 0.05).value(), 1e-12);
}

// Lemma A.3 by hand: n1 = 600, n0 = 200 of N = 1000, alpha = 0.05:
// log(3) - 1.959964 * sqrt(1/600 - 1/1000 + 1/200 - 1/1000).
TEST(KatzLogTest, LemmaA3ByHand) {
  const double want =
      std::log(3.0) - 1.959963984540054 * std::sqrt(1.0 / 600 - 1e-3 + 1.0 / 200 - 1e-3);
  EXPECT_NEAR(KatzLogEpsLowerBound(600, 200, 1000, 0.05).value(), want, 1e-12);
}

TEST(KatzLogTest, ZeroCounts) {
  // n0 = 0: the point estimate is infinite; the lower end uses the
  // Haldane-Anscombe correction, the upper end is +inf.
  const LogRatioInterval r = KatzLogInterval(100, 100, 0, 100, 1.96);
  EXPECT_TRUE(std::isfinite(r.lo));
  EXPECT_TRUE(std::isinf(r.hi));
  EXPECT_EQ(KatzLogEpsLowerBound(0, 10, 100, 0.05).value(), 0.0);
}

// The zero-count rule is monotone: a zero count is at least as strong
// evidence as a count of one (Haldane alone gave 10000/0 -> 7.13 below
// 10000/1 -> 7.25), for the lower end in n0 and the upper end in n1, over a
// grid of counts; perfect separation reaches exactly the ceiling.
TEST(KatzLogTest, ZeroCountRuleIsMonotone) {
  EXPECT_NEAR(KatzLogEpsLowerBound(10000, 0, 10000, 0.05).value(),
              KatzLogCeiling(10000, 0.05).value(), 1e-12);
  for (int64_t n : {10, 100, 10000}) {
    for (int64_t n1 = 1; n1 <= n; n1 += std::max<int64_t>(1, n / 7)) {
      for (double z : {1.0, 1.959963984540054, 3.290526731491926}) {
        const LogRatioInterval zero = KatzLogInterval(n1, n, 0, n, z);
        const LogRatioInterval one = KatzLogInterval(n1, n, 1, n, z);
        EXPECT_GE(zero.lo, one.lo) << n1 << "/0 vs " << n1 << "/1 of " << n << " z " << z;
        const LogRatioInterval zero1 = KatzLogInterval(0, n, n1, n, z);
        const LogRatioInterval one1 = KatzLogInterval(1, n, n1, n, z);
        EXPECT_LE(zero1.hi, one1.hi) << "0/" << n1 << " vs 1/" << n1 << " of " << n;
      }
    }
  }
}

TEST(KatzLogTest, RefusesBadInputAndDeltaAboveZero) {
  EXPECT_EQ(KatzLogEpsLowerBound(5, 3, 4, 0.05).message(), "n1 must be <= n, got n1=5 n=4");
  EXPECT_EQ(KatzLogEpsLowerBound(1, 1, 0, 0.05).message(), "n must be >= 1, got 0");
  EXPECT_EQ(KatzLogEpsLowerBound(1, 1, 10, 1.0).message(), "alpha must be in (0, 1), got 1");
  auto est = MakeIntervalEstimator("katz_log").value();
  auto r = est->Estimate({10, 0, 0, 10}, 1e-5, 0.1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("delta = 0 only"), std::string::npos);
}

TEST(KatzLogTest, EstimatorCoversBothDirections) {
  // TPR/FPR = 0.9/0.1 and TNR/FNR = 0.9/0.1: both directions give log 9.
  auto est = MakeIntervalEstimator("katz_log").value();
  const EpsInterval r = *est->Estimate({900, 100, 100, 900}, 0.0, 0.1);
  EXPECT_LT(r.lower, std::log(9.0));
  EXPECT_GT(*r.upper, std::log(9.0));
  // An inverted test is as informative as the test itself.
  const EpsInterval inv = *est->Estimate({100, 900, 900, 100}, 0.0, 0.1);
  EXPECT_NEAR(inv.lower, r.lower, 1e-12);
  EXPECT_NEAR(*inv.upper, *r.upper, 1e-12);
}

}  // namespace
}  // namespace privbench
