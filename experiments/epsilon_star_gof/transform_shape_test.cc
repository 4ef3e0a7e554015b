#include "experiments/epsilon_star_gof/transform_shape.h"

#include <cmath>
#include <random>

#include "gtest/gtest.h"

namespace privbench::epsilon_star_gof {
namespace {

TEST(SampleSkewness, KnownValues) {
  EXPECT_NEAR(SampleSkewness({1, 2, 3}), 0.0, 1e-15);
  // {0, 0, 3}: mean 1, m2 = 2, m3 = 2: g1 = 2 / 2^1.5.
  EXPECT_NEAR(SampleSkewness({0, 0, 3}), 2.0 / std::pow(2.0, 1.5), 1e-12);
  EXPECT_TRUE(std::isnan(SampleSkewness({1, 1, 1})));
  EXPECT_TRUE(std::isnan(SampleSkewness({1, 2})));
}

// Exponential "losses" (skewness 2): Carlini's logit(exp(-loss)) is
// -loss - log(1 - exp(-loss)), decreasing and far from affine; both
// transforms decrease in the loss.
TEST(MeasureTransformShape, ExponentialLosses) {
  std::mt19937_64 rng(7);
  std::exponential_distribution<double> e(1.0);
  std::vector<double> train(20000), population(20000);
  for (double& x : train) x = e(rng);
  for (double& x : population) x = e(rng);
  auto r = MeasureTransformShape(train, population);
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->size(), 2u);
  const TransformShape& s = (*r)[0];
  EXPECT_NEAR(s.skew_raw, 2.0, 0.2);
  EXPECT_LT(s.corr_app_b, 0.0);
  EXPECT_LT(s.corr_carlini, 0.0);
  EXPECT_GT(s.corr_carlini, -0.95);  // not affine
  EXPECT_LT(std::abs(s.skew_carlini), std::abs(s.skew_raw));
}

}  // namespace
}  // namespace privbench::epsilon_star_gof
