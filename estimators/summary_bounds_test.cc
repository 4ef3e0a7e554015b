#include "estimators/summary_bounds.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace privbench {
namespace {

// that_which_we_call_private.txt Table 2, first three rows: the lower bound
// from the attack TPR at 5% FPR by Prop. 3, delta = 1e-5. Published to the
// shown digits: 0, 0.003, 0.006 (tolerance 0.0005, half a printed digit).
TEST(SummaryBoundsTest, ErlingssonTableTwoRows) {
  EXPECT_NEAR(EpsFromAdvantage(0.05 - 0.05, 1e-5).value(), 0.0, 5e-4);
  EXPECT_NEAR(EpsFromAdvantage(0.053 - 0.05, 1e-5).value(), 0.003, 5e-4);
  EXPECT_NEAR(EpsFromAdvantage(0.056 - 0.05, 1e-5).value(), 0.006, 5e-4);
  // Exactly: log((1 - 1e-5) / (1 - 0.003)).
  EXPECT_NEAR(EpsFromAdvantage(0.003, 1e-5).value(), std::log((1 - 1e-5) / 0.997), 1e-15);
}

TEST(SummaryBoundsTest, AdvantageEdges) {
  EXPECT_EQ(EpsFromAdvantage(-0.2, 0.0).value(), 0.0);
  EXPECT_TRUE(std::isinf(EpsFromAdvantage(1.0, 1e-5).value()));
  EXPECT_EQ(EpsFromAdvantage(1.5, 0.0).message(), "advantage must be in [-1, 1], got 1.5");
  EXPECT_FALSE(EpsFromAdvantage(std::nan(""), 0.0).ok());
}

TEST(SummaryBoundsTest, AccuracyBoundInvertsTheAccuracyCeiling) {
  // acc = (e^eps + delta) / (1 + e^eps) maps back to eps.
  for (double eps : {0.1, 1.0, 3.0}) {
    for (double delta : {0.0, 1e-5, 0.01}) {
      const double acc = (std::exp(eps) + delta) / (1 + std::exp(eps));
      EXPECT_NEAR(EpsFromAccuracy(acc, delta).value(), eps, 1e-9);
    }
  }
  EXPECT_EQ(EpsFromAccuracy(0.5, 0.0).value(), 0.0);
  EXPECT_EQ(EpsFromAccuracy(0.3, 0.0).value(), 0.0);
  EXPECT_TRUE(std::isinf(EpsFromAccuracy(1.0, 0.0).value()));
  EXPECT_EQ(EpsFromAccuracy(1.2, 0.0).message(), "accuracy must be in [0, 1], got 1.2");
}

TEST(SummaryBoundsTest, GroupPrivacy) {
  // Lemma 3.4's delta term is delta * sum_{j<k} e^{j eps}.
  const double eps = 0.7, delta = 1e-4;
  double sum = 0;
  for (int j = 0; j < 4; ++j) sum += std::exp(j * eps);
  EXPECT_NEAR(GroupDelta(eps, delta, 4).value(), delta * sum, 1e-15);
  EXPECT_DOUBLE_EQ(GroupDelta(0.0, delta, 4).value(), 4 * delta);
  EXPECT_DOUBLE_EQ(GroupDelta(eps, delta, 1).value(), delta);
  EXPECT_DOUBLE_EQ(EpsFromGroupBound(2.0, 4).value(), 0.5);
  EXPECT_EQ(EpsFromGroupBound(2.0, 0).message(), "k must be >= 1, got 0");
  EXPECT_FALSE(GroupDelta(-1.0, delta, 2).ok());
}

}  // namespace
}  // namespace privbench
