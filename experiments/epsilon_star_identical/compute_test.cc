// Unit tests of experiments/epsilon_star_identical/compute.h: the exact
// references are 0, the values are seeded and thread-independent, and the
// moments summarise the values.
#include "experiments/epsilon_star_identical/compute.h"

#include <gtest/gtest.h>

#include <vector>
#include <xtensor/xtensor.hpp>

#include "core/stats.h"

namespace privbench::epsilon_star_identical {
namespace {

Config Small() {
  Config c;
  c.est = DefaultEstimationConfig(Scale::kTest);
  c.est.n = {100, 300};
  c.est.repetitions = 2;
  c.est.quantiles_per_distribution = 300;
  return c;
}

TEST(ComputeIdenticalTest, ExactIsZeroOnEveryWindow) {
  auto r = ComputeIdentical(Small(), 5, 2, true);
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->exact.size(), 3u);
  for (double x : r->exact) EXPECT_NEAR(x, 0.0, 1e-9);
  EXPECT_EQ(r->names[r->claim.empirical], "empirical");
  EXPECT_EQ(r->names[r->claim.parametric], "parametric");
}

TEST(ComputeIdenticalTest, SeededThreadIndependentAndSummarised) {
  auto one = ComputeIdentical(Small(), 5, 1, true);
  auto two = ComputeIdentical(Small(), 5, 2, true);
  auto other = ComputeIdentical(Small(), 6, 2, true);
  ASSERT_TRUE(one.ok() && two.ok() && other.ok());
  EXPECT_EQ(one->values, two->values);
  EXPECT_NE(one->values, other->values);
  ASSERT_EQ(one->values.shape()[0], 2u);  // (n, analysis, estimator, repetition)
  const size_t e = one->claim.parametric;
  const auto reps = [&](size_t i, size_t a) {
    const xt::xtensor<double, 1> x = Repetitions(one->values, i, a, e);
    return std::vector<double>(x.begin(), x.end());
  };
  EXPECT_EQ(one->moments.mean(0, 1, e), Mean(reps(0, 1)));
  EXPECT_EQ(one->moments.sd(1, 0, e), SampleSd(reps(1, 0)));
  // The parametric primary window [1e-6, 1 - 1e-6] contains the common one.
  for (size_t i = 0; i < 2; ++i) {
    for (size_t k = 0; k < 2; ++k) {
      EXPECT_GE(one->values(i, 0, e, k), one->values(i, 1, e, k) - 1e-12);
    }
  }
}

}  // namespace
}  // namespace privbench::epsilon_star_identical
