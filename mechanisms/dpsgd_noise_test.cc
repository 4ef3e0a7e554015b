// Statistical test of the Gaussian noise scale of DP-SGD (tagged
// `statistical`; fixed seed, stated false-failure probability).
#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>

#include "mechanisms/dpsgd.h"
#include "mechanisms/testing.h"

namespace privbench {
namespace {

TEST(DpSgdNoiseTest, NoiseHasStdSigmaTimesClip) {
  // One DP-SGD step whose update is pure noise: a clip norm of 1e-12 makes
  // the clipped gradients negligible (<= 40 * 1e-12 in total), sigma = 2e12
  // makes the noise std sigma C = 2; with lr = normaliser = m = batch = N
  // and momentum 0 every coordinate moves by -(clipped part + N(0, 4)), so
  // z = change / 2 should be i.i.d. N(0, 1) over the 12,122 parameters.
  // False-failure probability 1e-6 in total: alpha/4 in each tail of the
  // chi-square test of sum z^2 (the scale) and of the normal test of sum z
  // (the centre).
  const testing::Blobs data = testing::TwoBlobs(40, 300, 2.0, 7);
  DpModel model = DpModel::Create(AdultMlpSpec(300, 40), 3).value();  // 12,122 parameters
  const auto before = testing::Snapshot(model);
  DpSgdConfig c;
  c.seed = 42;
  c.sampling = Sampling::kShuffle;
  c.batch_size = 40;
  c.epochs = 1;
  c.clip_norm = 1e-12;
  c.noise_multiplier = 2e12;
  c.learning_rate = 40.0;
  c.momentum = 0.0;
  auto r = TrainDpSgd(model, data.x, data.y, c);
  ASSERT_TRUE(r.ok()) << r.message();
  const torch::Tensor z = testing::ParameterChange(model, before) / 2.0;
  const double p = static_cast<double>(z.numel());
  const double ss = z.pow(2).sum().item<double>();
  boost::math::chi_squared_distribution<double> chi2(p);
  const double alpha = 1e-6;
  EXPECT_GT(ss, boost::math::quantile(chi2, alpha / 4));
  EXPECT_LT(ss, boost::math::quantile(boost::math::complement(chi2, alpha / 4)));
  // Mean: sum ~ N(0, p).
  const double zcrit = boost::math::quantile(
      boost::math::complement(boost::math::normal_distribution<double>(), alpha / 4));
  EXPECT_LT(std::abs(z.sum().item<double>()) / std::sqrt(p), zcrit);
  // Power: the acceptance band is within +-7% of p, so a noise std off by
  // sqrt(2) (sum z^2 near 2p or p/2) is far outside it.
  EXPECT_LT(boost::math::quantile(boost::math::complement(chi2, alpha / 4)), 1.1 * p);
}

}  // namespace
}  // namespace privbench
