// Unit tests of experiments/epsilon_star_distance/compute.h: the exact
// references grow with d, the biases are the means minus the references of
// the window used, and the RMSE is the plain formula.
#include "experiments/epsilon_star_distance/compute.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>
#include <xtensor/xtensor.hpp>

#include "core/stats.h"

namespace privbench::epsilon_star_distance {
namespace {

Config Small() {
  Config c;
  c.est = DefaultEstimationConfig(Scale::kTest);
  c.est.n = {100, 300};
  c.est.repetitions = 2;
  c.est.quantiles_per_distribution = 300;
  c.distances = {0, 2};
  return c;
}

TEST(DistancePopulationTest, ShapeOrLocationShift) {
  Config c;
  const GammaLoss shape = DistancePopulation(c, 2.0);
  EXPECT_EQ(shape.shape, 3.0);
  EXPECT_EQ(shape.offset, 0.0);
  EXPECT_EQ(DistancePopulationText(c), "Gamma(shape 1 + d, scale 1)");
  c.shift = "location";
  const GammaLoss loc = DistancePopulation(c, 2.0);
  EXPECT_EQ(loc.shape, 1.0);
  EXPECT_EQ(loc.offset, 2.0);
  EXPECT_EQ(DistancePopulationText(c), "Gamma(shape 1, scale 1) + d");
}

TEST(ComputeDistanceTest, ExactBiasAndSeeds) {
  const Config c = Small();
  auto r = ComputeDistance(c, 11, 2, true);
  auto again = ComputeDistance(c, 11, 1, true);
  ASSERT_TRUE(r.ok() && again.ok()) << r.message();
  EXPECT_EQ(r->values, again->values);
  ASSERT_EQ(r->exact.size(), 3u);
  for (const std::vector<double>& w : r->exact) {
    ASSERT_EQ(w.size(), 2u);
    EXPECT_NEAR(w[0], 0.0, 1e-9);
    EXPECT_GT(w[1], 0.5);
  }
  EXPECT_GT(r->exact[1][1], r->exact[0][1]);  // the wider clip window
  EXPECT_EQ(r->exact[2], r->exact[0]);        // common = rate by default
  ASSERT_EQ(r->values.shape()[0], 4u);        // D x N settings
  const size_t par = r->claim.parametric;
  // Setting (d = 2, n = 300) is s = 1 * 2 + 1.
  const auto mean_of = [&](size_t a) {
    const xt::xtensor<double, 1> x = Repetitions(r->values, 3, a, par);
    return Mean(std::vector<double>(x.begin(), x.end()));
  };
  EXPECT_EQ(r->Bias(0, par, 1, 1), mean_of(0) - r->exact[1][1]);
  EXPECT_EQ(r->Bias(1, par, 1, 1), mean_of(1) - r->exact[2][1]);
}

TEST(RmseTest, RootMeanSquaredError) {
  EXPECT_DOUBLE_EQ(Rmse(xt::xtensor<double, 1>{1.0, 3.0}, 2.0), 1.0);
  EXPECT_DOUBLE_EQ(Rmse(xt::xtensor<double, 1>{2.0, 2.0, 5.0}, 2.0), std::sqrt(3.0));
}

}  // namespace
}  // namespace privbench::epsilon_star_distance
