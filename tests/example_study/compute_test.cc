#include "tests/example_study/compute.h"

#include <gtest/gtest.h>

#include <cmath>

namespace privbench::example_study {
namespace {

TEST(ExampleStudy, SameSeedSameCountsAndTheEstimateIsNearEps) {
  Config c;
  c.trials = 100000;
  const ResponseCounts a = SimulateRandomizedResponse(c, 7), b = SimulateRandomizedResponse(c, 7);
  EXPECT_EQ(a.ones_given_one, b.ones_given_one);
  EXPECT_EQ(a.ones_given_zero, b.ones_given_zero);
  // Fails with probability < 1e-4 (a 4-sigma band of the delta method).
  EXPECT_NEAR(EmpiricalEpsilon(a), c.eps, 4 * EmpiricalEpsilonStandardError(a));
}

TEST(ExampleStudy, EstimateOfKnownCounts) {
  const ResponseCounts r{75, 25, 100};
  EXPECT_DOUBLE_EQ(EmpiricalEpsilon(r), std::log(3.0));
  EXPECT_DOUBLE_EQ(EmpiricalEpsilonStandardError(r), std::sqrt(0.25 / 75 + 0.75 / 25));
}

}  // namespace
}  // namespace privbench::example_study
