#include "numerics/normal.h"

#include <cmath>

#include "gtest/gtest.h"

namespace privbench {
namespace {

TEST(NormalTest, LogCdfMatchesDirectEvaluationWhereThatIsAccurate) {
  for (double z : {-29.0, -10.0, -3.0, -0.5, 0.0, 1.0, 4.0}) {
    EXPECT_NEAR(LogNormalCdf(z), std::log(NormalCdf(z)), 1e-13 * std::abs(std::log(NormalCdf(z))))
        << z;
  }
}

TEST(NormalTest, LogCdfIsContinuousAtTheSeriesSwitchAndFiniteFarOut) {
  // Both sides of z = -30 agree to near double precision.
  const double below = LogNormalCdf(std::nextafter(-30.0, -31.0)), at = LogNormalCdf(-30.0);
  EXPECT_NEAR(below, at, 1e-12 * std::abs(at));
  // Far tails: Phi underflows to 0, its log stays finite (~ -z^2/2).
  EXPECT_EQ(NormalCdf(-40.0), 0.0);
  EXPECT_NEAR(LogNormalCdf(-1e6) / (-0.5e12), 1.0, 1e-9);
  EXPECT_NEAR(LogNormalCdf(10.0), -7.619853024160473e-24, 1e-36);
  EXPECT_EQ(LogNormalCdf(-INFINITY), -INFINITY);
}

}  // namespace
}  // namespace privbench
