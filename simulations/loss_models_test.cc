// Unit tests of simulations/loss_models.h: the exact distributions match
// their definitions (offsets shift CDF and quantile, Normal = Boost's), the
// samplers are deterministic in the seed and draw from the stated model,
// and validation names the parameter.
#include "simulations/loss_models.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/stats.h"

namespace privbench {
namespace {

TEST(NormalLossTest, TextAndValidation) {
  EXPECT_EQ(NormalLossText(NormalLoss{3.0, 1.0}), "N(3, 1^2)");
  EXPECT_EQ(NormalLossText(NormalLoss{-0.5, 2.5}), "N(-0.5, 2.5^2)");
  EXPECT_TRUE(CheckNormalLoss("train", NormalLoss{0.0, 1.0}).ok());
  Status bad_sd = CheckNormalLoss("train", NormalLoss{0.0, -1.0});
  ASSERT_FALSE(bad_sd.ok());
  EXPECT_EQ(bad_sd.message().rfind("train_sd", 0), 0u) << bad_sd.message();
  Status bad_mean = CheckNormalLoss("population", NormalLoss{NAN, 1.0});
  ASSERT_FALSE(bad_mean.ok());
  EXPECT_EQ(bad_mean.message().rfind("population_mean", 0), 0u) << bad_mean.message();
}

TEST(NormalLossTest, KnownDistributionIsTheNormal) {
  auto d = KnownNormalLoss(NormalLoss{3.0, 2.0});
  ASSERT_TRUE(d.ok());
  EXPECT_DOUBLE_EQ(d->cdf(3.0), 0.5);
  EXPECT_NEAR(d->cdf(5.0), 0.8413447460685429, 1e-15);
  EXPECT_NEAR(d->survival(5.0), 1.0 - 0.8413447460685429, 1e-15);
  EXPECT_NEAR(d->quantile(0.8413447460685429), 5.0, 1e-12);
  EXPECT_FALSE(KnownNormalLoss(NormalLoss{0.0, 0.0}).ok());
}

TEST(NormalLossTest, DrawsAreSeededAndFromTheModel) {
  Rng a = MakeRng(7, {1}), b = MakeRng(7, {1}), c = MakeRng(8, {1});
  const NormalLoss g{3.0, 2.0};
  const std::vector<double> x = DrawNormalLosses(g, 20000, a);
  EXPECT_EQ(x, DrawNormalLosses(g, 20000, b));
  EXPECT_NE(x, DrawNormalLosses(g, 20000, c));
  // Mean within 5 standard errors (2 / sqrt(20000) = 0.014), sd within 5%.
  EXPECT_NEAR(Mean(x), 3.0, 0.07);
  EXPECT_NEAR(SampleSd(x), 2.0, 0.1);
  EXPECT_TRUE(DrawNormalLosses(g, 0, a).empty());
}

TEST(GammaLossTest, TextAndValidation) {
  EXPECT_EQ(GammaLossText(GammaLoss{1.0, 1.0, 0.0}), "Gamma(shape 1, scale 1)");
  EXPECT_EQ(GammaLossText(GammaLoss{2.0, 0.5, 3.0}), "Gamma(shape 2, scale 0.5) + 3");
  EXPECT_TRUE(CheckGammaLoss("train", GammaLoss{}).ok());
  Status bad = CheckGammaLoss("population", GammaLoss{1.0, 0.0, 0.0});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message().rfind("population_scale", 0), 0u) << bad.message();
  EXPECT_FALSE(CheckGammaLoss("train", GammaLoss{1.0, 1.0, INFINITY}).ok());
}

TEST(GammaLossTest, OffsetShiftsCdfAndQuantile) {
  auto base = KnownGammaLoss(GammaLoss{2.0, 1.0, 0.0});
  auto shifted = KnownGammaLoss(GammaLoss{2.0, 1.0, 3.0});
  ASSERT_TRUE(base.ok() && shifted.ok());
  EXPECT_DOUBLE_EQ(shifted->cdf(4.5), base->cdf(1.5));
  EXPECT_DOUBLE_EQ(shifted->survival(4.5), base->survival(1.5));
  EXPECT_DOUBLE_EQ(shifted->quantile(0.3), base->quantile(0.3) + 3.0);
  EXPECT_EQ(shifted->cdf(2.0), 0.0);
}

TEST(GammaLossTest, DrawsAreSeededShiftedAndFromTheModel) {
  Rng a = MakeRng(5, {0}), b = MakeRng(5, {0});
  const GammaLoss g{2.0, 1.5, 1.0};
  const std::vector<double> x = DrawGammaLosses(g, 20000, a);
  EXPECT_EQ(x, DrawGammaLosses(g, 20000, b));
  EXPECT_GE(*std::min_element(x.begin(), x.end()), 1.0);
  // Mean offset + shape * scale = 4, sd sqrt(shape) * scale = 2.12; the
  // mean within 5 standard errors (0.015 each).
  EXPECT_NEAR(Mean(x), 4.0, 0.08);
  EXPECT_NEAR(SampleSd(x), std::sqrt(2.0) * 1.5, 0.1);
}

TEST(ExactGammaTest, IdenticalIsZeroAndWiderWindowIsLarger) {
  EpsilonStarOptions o;
  o.quantiles_per_distribution = 2000;
  const GammaLoss g{1.0, 1.0, 0.0};
  auto zero = ExactGammaEpsilonStar(g, g, o);
  ASSERT_TRUE(zero.ok());
  // 0 up to the rounding of the quantile/CDF round trip.
  EXPECT_NEAR(*zero, 0.0, 1e-9);
  const GammaLoss p{3.0, 1.0, 0.0};
  EpsilonStarOptions wide_window = o;
  wide_window.rate_floor = 1e-6;
  wide_window.rate_ceiling = 1.0 - 1e-6;
  auto narrow = ExactGammaEpsilonStar(g, p, o);
  auto wide = ExactGammaEpsilonStar(g, p, wide_window);
  ASSERT_TRUE(narrow.ok() && wide.ok());
  EXPECT_GT(*narrow, 0.0);
  EXPECT_GT(*wide, *narrow);
  // A location shift of the population moves it away: larger Epsilon*.
  auto shifted = ExactGammaEpsilonStar(g, GammaLoss{1.0, 1.0, 1.0}, o);
  ASSERT_TRUE(shifted.ok());
  EXPECT_GT(*shifted, 0.0);
  auto bad = ExactGammaEpsilonStar(GammaLoss{-1.0, 1.0, 0.0}, g, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("train_shape"), std::string::npos);
}

}  // namespace
}  // namespace privbench
