#include "experiments/region_of_privacy_analysis.h"

#include <gtest/gtest.h>

#include <cmath>

namespace privbench {
namespace {

TEST(SummariseRate, BinomialFloorWithOneRepetition) {
  auto s = SummariseRate({0.05}, 10000);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_DOUBLE_EQ(s->mean, 0.05);
  EXPECT_DOUBLE_EQ(s->sd, 0.0);
  EXPECT_NEAR(s->se, std::sqrt(0.05 * 0.95 / 10000), 1e-15);
}

TEST(SummariseRate, BetweenRepetitionSdWhenLarger) {
  auto s = SummariseRate({0.1, 0.3}, 10000);
  ASSERT_TRUE(s.ok());
  EXPECT_DOUBLE_EQ(s->mean, 0.2);
  EXPECT_NEAR(s->sd, std::sqrt(0.02), 1e-15);
  EXPECT_NEAR(s->se, std::sqrt(0.02) / std::sqrt(2.0), 1e-15);
}

TEST(SummariseRate, RejectsBadInput) {
  EXPECT_EQ(SummariseRate({}, 10).message(), "values must be non-empty");
  EXPECT_EQ(SummariseRate({0.5}, 0).message(), "n must be >= 1, got 0");
  EXPECT_EQ(SummariseRate({1.5}, 10).message(), "values must be in [0, 1], got 1.5");
}

TEST(CheckRisesAsNoiseFalls, StrictRiseHolds) {
  auto c = CheckRisesAsNoiseFalls({100, 10, 1}, {0.01, 0.2, 0.9}, {0.01, 0.01, 0.01}, "acc", 100);
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_TRUE(c->holds);
  EXPECT_TRUE(c->strictly_increasing);
  EXPECT_NE(c->evidence.find("sigma 100: 1.00 +- 1.00"), std::string::npos) << c->evidence;
}

TEST(CheckRisesAsNoiseFalls, DipWithinNoiseStillHoldsButIsNotStrict) {
  // 0.050 -> 0.049 is a drop of 0.001 < 2 * sqrt(2) * 0.002.
  auto c =
      CheckRisesAsNoiseFalls({100, 10, 1}, {0.050, 0.049, 0.09}, {0.002, 0.002, 0.002}, "tpr", 100);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->holds);
  EXPECT_FALSE(c->strictly_increasing);
}

TEST(CheckRisesAsNoiseFalls, SignificantDropFails) {
  auto c = CheckRisesAsNoiseFalls({100, 10, 1}, {0.05, 0.30, 0.20}, {0.01, 0.01, 0.01}, "acc", 100);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->holds);
  EXPECT_NE(c->evidence.find("sigma 10 -> 1 drops by 10.00"), std::string::npos) << c->evidence;
}

TEST(CheckRisesAsNoiseFalls, FlatWithinNoiseFails) {
  // No overall rise beyond 2 se: (b) fails.
  auto c = CheckRisesAsNoiseFalls({100, 1}, {0.050, 0.052}, {0.002, 0.002}, "tpr", 100);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->holds);
  EXPECT_TRUE(c->strictly_increasing);
}

TEST(CheckRisesAsNoiseFalls, RejectsBadShapes) {
  EXPECT_FALSE(CheckRisesAsNoiseFalls({1}, {0.5}, {0.1}, "x", 1).ok());
  EXPECT_EQ(CheckRisesAsNoiseFalls({2, 1}, {0.5}, {0.1, 0.1}, "x", 1).message(),
            "x: 1 values for 2 noise levels");
  EXPECT_FALSE(CheckRisesAsNoiseFalls({2, 1}, {0.5, NAN}, {0.1, 0.1}, "x", 1).ok());
  EXPECT_FALSE(CheckRisesAsNoiseFalls({2, 1}, {0.5, 0.6}, {0.1, -0.1}, "x", 1).ok());
}

TEST(CheckBelow, HoldsAndReportsTheSmallestRatio) {
  auto c = CheckBelow({10, 1}, {0.01, 0.5}, {0.05, 10.0}, "lo", "up");
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_TRUE(c->holds);
  EXPECT_DOUBLE_EQ(c->min_ratio, 5.0);
}

TEST(CheckBelow, ZeroLowerBoundHasInfiniteRatio) {
  auto c = CheckBelow({10, 1}, {0.0, 0.0}, {0.05, 10.0}, "lo", "up");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->holds);
  EXPECT_TRUE(std::isinf(c->min_ratio));
}

TEST(CheckBelow, ViolationIsReported) {
  auto c = CheckBelow({10, 1}, {0.1, 0.5}, {0.05, 10.0}, "lo", "up");
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->holds);
  EXPECT_NE(c->evidence.find("VIOLATED"), std::string::npos);
  EXPECT_FALSE(CheckBelow({10, 1}, {0.1, NAN}, {0.05, 10.0}, "lo", "up").ok());
}

// Smirnov's limit: mean sqrt(pi/8) and tail exp(-2 x^2) of sup of a
// Brownian bridge, scaled by sqrt((m+n)/(mn)).
TEST(NullBestAdvantage, KnownValuesForTenThousandEach) {
  auto mean = NullMeanBestAdvantage(10000, 10000);
  ASSERT_TRUE(mean.ok());
  EXPECT_NEAR(*mean, 0.626657 * std::sqrt(2e-4), 1e-6);  // 0.008862
  auto q = NullQuantileBestAdvantage(10000, 10000, 0.95);
  ASSERT_TRUE(q.ok());
  EXPECT_NEAR(*q, std::sqrt(std::log(20.0) / 2.0) * std::sqrt(2e-4), 1e-12);  // 0.01731
  EXPECT_FALSE(NullMeanBestAdvantage(0, 10).ok());
  EXPECT_FALSE(NullQuantileBestAdvantage(10, 10, 1.0).ok());
}

TEST(NoiseText, ShortestRoundTrip) {
  EXPECT_EQ(NoiseText(136.67), "136.67");
  EXPECT_EQ(NoiseText(0.44), "0.44");
  EXPECT_EQ(NoiseText(1.0), "1");
}

}  // namespace
}  // namespace privbench
