#include "attacks/synthetic/marginal_white_box.h"

#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/seeding.h"
#include "data_scripts/categorical_testing.h"

namespace privbench {
namespace {

// Exact counts of the marginal over `attributes` (1 or 2) of `table`.
std::vector<double> ExactCounts(const CategoricalTable& table, const CategoricalDomain& dom,
                                const std::vector<int64_t>& attributes) {
  std::vector<int64_t> c = attributes.size() == 1
                               ? Marginal1(table, dom, attributes[0])
                               : Marginal2(table, dom, attributes[0], attributes[1]);
  return std::vector<double>(c.begin(), c.end());
}

NoisyMarginal Measurement(std::vector<int64_t> attributes, std::vector<double> counts,
                          MarginalNoise noise, double scale) {
  NoisyMarginal m;
  m.attributes = std::move(attributes);
  m.noisy_counts = std::move(counts);
  m.noise = noise;
  m.scale = scale;
  return m;
}

TEST(MarginalWhiteBox, GaussianLlrIsNormalWithTheStatedMeansAndVariance) {
  // Known D- (60 random rows), a target, 4 one-way and 2 two-way Gaussian
  // measurements with sigma = 2: mu^2 = 6 / 4 = 1.5. Under "in" the LLR is
  // N(+mu^2/2, mu^2), under "out" N(-mu^2/2, mu^2). T = 4000 games per world
  // (fixed seed). Checks: each mean within 5 sd (mu / sqrt(T)) of +-mu^2/2,
  // their difference within 5 sd (mu sqrt(2 / T)) of mu^2, each sample
  // variance within 12% of mu^2 (5.4 sd of a sample variance, sqrt(2 / T) =
  // 2.2%). A correct LLR fails one of these with probability below 1e-5.
  const CategoricalDomain dom = NumberedDomain({3, 4, 2, 5});
  Rng rng = MakeRng(2024, {1});
  CategoricalTable d_minus;
  d_minus.d = 4;
  for (int i = 0; i < 60; ++i) {
    std::vector<int32_t> row(4);
    for (int j = 0; j < 4; ++j) {
      row[j] = boost::random::uniform_int_distribution<int32_t>(0, dom.sizes[j] - 1)(rng);
    }
    d_minus.Append(row);
  }
  const std::vector<int32_t> target = {1, 3, 0, 4};
  CategoricalTable d_in = d_minus;
  d_in.Append(target);
  const std::vector<std::vector<int64_t>> sets = {{0}, {1}, {2}, {3}, {0, 1}, {3, 2}};
  const double sigma = 2.0;
  std::vector<NoisyMarginal> exact_in, exact_out;
  for (const auto& s : sets) {
    exact_in.push_back(Measurement(s, ExactCounts(d_in, dom, s), MarginalNoise::kGaussian, sigma));
    exact_out.push_back(
        Measurement(s, ExactCounts(d_minus, dom, s), MarginalNoise::kGaussian, sigma));
  }
  auto mu = GaussianWhiteBoxMu(exact_in);
  ASSERT_TRUE(mu.ok());
  EXPECT_NEAR(*mu, std::sqrt(1.5), 1e-12);
  auto reference = KnownDMinusReference(exact_in, target, dom, d_minus);
  ASSERT_TRUE(reference.ok()) << reference.message();
  const int trials = 4000;
  boost::random::normal_distribution<double> noise(0.0, sigma);
  double sum[2] = {0, 0}, sum2[2] = {0, 0};
  for (int world = 0; world < 2; ++world) {
    for (int t = 0; t < trials; ++t) {
      std::vector<NoisyMarginal> m = world == 1 ? exact_in : exact_out;
      for (NoisyMarginal& x : m) {
        for (double& c : x.noisy_counts) c += noise(rng);
      }
      auto llr = MarginalWhiteBoxLlr(m, target, dom, *reference);
      ASSERT_TRUE(llr.ok()) << llr.message();
      sum[world] += *llr;
      sum2[world] += *llr * *llr;
    }
  }
  const double mu2 = 1.5, T = trials;
  const double mean_out = sum[0] / T, mean_in = sum[1] / T;
  EXPECT_NEAR(mean_in, mu2 / 2, 5 * std::sqrt(mu2 / T));
  EXPECT_NEAR(mean_out, -mu2 / 2, 5 * std::sqrt(mu2 / T));
  EXPECT_NEAR(mean_in - mean_out, mu2, 5 * std::sqrt(2 * mu2 / T));
  for (int world = 0; world < 2; ++world) {
    const double mean = sum[world] / T;
    const double var = (sum2[world] - T * mean * mean) / (T - 1);
    EXPECT_NEAR(var / mu2, 1.0, 0.12) << world;
  }
}

TEST(MarginalWhiteBox, LaplaceAndExactValuesByHand) {
  const CategoricalDomain dom = NumberedDomain({2, 3});
  const CategoricalTable d_minus = TableOf(2, {{0, 2}, {1, 2}, {0, 1}, {0, 2}});
  const std::vector<int32_t> target = {0, 2};
  // Target cells: attribute 0 value 0 (count 3), pair (0, 2) at index 2 (count 2).
  std::vector<NoisyMarginal> m = {
      Measurement({0}, {3.3, 7.0}, MarginalNoise::kLaplace, 2.0),
      Measurement({0, 1}, {0, 0, 5.0, 0, 0, 0}, MarginalNoise::kLaplace, 4.0)};
  auto ref = KnownDMinusReference(m, target, dom, d_minus);
  ASSERT_TRUE(ref.ok()) << ref.message();
  EXPECT_EQ(ref->count, (std::vector<double>{3.0, 2.0}));
  EXPECT_EQ(ref->variance, (std::vector<double>{0.0, 0.0}));
  // (|0.3| - |-0.7|) / 2 + (|3| - |2|) / 4 = -0.2 + 0.25.
  auto llr = MarginalWhiteBoxLlr(m, target, dom, *ref);
  ASSERT_TRUE(llr.ok()) << llr.message();
  EXPECT_NEAR(*llr, 0.05, 1e-12);
  // Reversed attribute order: (1, 0), attribute 1 major: cell 2 * 2 + 0 = 4.
  std::vector<NoisyMarginal> r = {
      Measurement({1, 0}, {0, 0, 0, 0, 1.5, 0}, MarginalNoise::kGaussian, 0.5)};
  auto rref = KnownDMinusReference(r, target, dom, d_minus);
  ASSERT_TRUE(rref.ok());
  EXPECT_EQ(rref->count, std::vector<double>{2.0});
  auto rllr = MarginalWhiteBoxLlr(r, target, dom, *rref);
  ASSERT_TRUE(rllr.ok());
  EXPECT_NEAR(*rllr, (1.5 - 2.0 - 0.5) / 0.25, 1e-12);
  // No noise: exact counts decide.
  std::vector<NoisyMarginal> in = {Measurement({0}, {4, 1}, MarginalNoise::kNone, 0.0)};
  std::vector<NoisyMarginal> out = {Measurement({0}, {3, 1}, MarginalNoise::kNone, 0.0)};
  EXPECT_EQ(*MarginalWhiteBoxLlr(in, target, dom, TargetCellReference{{3.0}, {0.0}}),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(*MarginalWhiteBoxLlr(out, target, dom, TargetCellReference{{3.0}, {0.0}}),
            -std::numeric_limits<double>::infinity());
  std::vector<NoisyMarginal> both = {in[0], out[0]};
  auto disagree = MarginalWhiteBoxLlr(both, target, dom, TargetCellReference{{3, 3}, {0, 0}});
  ASSERT_FALSE(disagree.ok());
  EXPECT_NE(disagree.message().find("disagree"), std::string::npos);
}

TEST(MarginalWhiteBox, AuxiliaryReferenceAddsTheSamplingVariance) {
  const CategoricalDomain dom = NumberedDomain({2, 3});
  const CategoricalTable aux = TableOf(2, {{0, 2}, {1, 2}, {1, 1}, {1, 0}});  // p(a0 = 0) = 1/4
  const std::vector<int32_t> target = {0, 2};
  std::vector<NoisyMarginal> m = {Measurement({0}, {30.0, 70.0}, MarginalNoise::kGaussian, 3.0),
                                  Measurement({0}, {30.0, 70.0}, MarginalNoise::kLaplace, 3.0)};
  auto ref = AuxiliaryReference(m, target, dom, aux, 100);
  ASSERT_TRUE(ref.ok()) << ref.message();
  EXPECT_EQ(ref->count, (std::vector<double>{25.0, 25.0}));
  EXPECT_EQ(ref->variance, (std::vector<double>{18.75, 18.75}));
  auto llr = MarginalWhiteBoxLlr(m, target, dom, *ref);
  ASSERT_TRUE(llr.ok());
  EXPECT_NEAR(*llr, 4.5 / (9.0 + 18.75) + 4.5 / (18.0 + 18.75), 1e-12);
}

TEST(MarginalWhiteBox, ErrorsNameTheArgument) {
  const CategoricalDomain dom = NumberedDomain({2, 3});
  const CategoricalTable d_minus = TableOf(2, {{0, 2}});
  const std::vector<int32_t> target = {0, 2};
  const std::vector<NoisyMarginal> ok = {
      Measurement({0}, {1.0, 0.0}, MarginalNoise::kGaussian, 1.0)};
  auto empty = KnownDMinusReference({}, target, dom, d_minus);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.message().find("measurements is empty"), std::string::npos);
  auto cells = KnownDMinusReference(
      {Measurement({0, 1}, {1.0, 0.0}, MarginalNoise::kGaussian, 1.0)}, target, dom, d_minus);
  ASSERT_FALSE(cells.ok());
  EXPECT_NE(cells.message().find("measurements[0] has 2 noisy counts"), std::string::npos)
      << cells.message();
  auto attr = KnownDMinusReference({Measurement({2}, {1.0, 0.0}, MarginalNoise::kGaussian, 1.0)},
                                   target, dom, d_minus);
  ASSERT_FALSE(attr.ok());
  EXPECT_NE(attr.message().find("measurements[0] attribute 2"), std::string::npos);
  auto scale = KnownDMinusReference({Measurement({0}, {1.0, 0.0}, MarginalNoise::kLaplace, 0.0)},
                                    target, dom, d_minus);
  ASSERT_FALSE(scale.ok());
  EXPECT_NE(scale.message().find("scale"), std::string::npos);
  auto code = KnownDMinusReference(ok, {0, 3}, dom, d_minus);
  ASSERT_FALSE(code.ok());
  EXPECT_NE(code.message().find("target attribute 'a1': code 3"), std::string::npos)
      << code.message();
  auto width = KnownDMinusReference(ok, target, dom, TableOf(3, {{0, 0, 0}}));
  ASSERT_FALSE(width.ok());
  EXPECT_NE(width.message().find("d_minus"), std::string::npos);
  auto aux = AuxiliaryReference(ok, target, dom, TableOf(2, {}), 10);
  ASSERT_FALSE(aux.ok());
  EXPECT_NE(aux.message().find("auxiliary is empty"), std::string::npos);
  auto n_minus = AuxiliaryReference(ok, target, dom, d_minus, -1);
  ASSERT_FALSE(n_minus.ok());
  EXPECT_NE(n_minus.message().find("n_minus"), std::string::npos);
  auto ref = MarginalWhiteBoxLlr(ok, target, dom, TargetCellReference{{1.0, 2.0}, {0.0, 0.0}});
  ASSERT_FALSE(ref.ok());
  EXPECT_NE(ref.message().find("reference"), std::string::npos);
  auto var = MarginalWhiteBoxLlr(ok, target, dom, TargetCellReference{{1.0}, {-1.0}});
  ASSERT_FALSE(var.ok());
  EXPECT_NE(var.message().find("reference.variance[0]"), std::string::npos);
  auto mu = GaussianWhiteBoxMu({Measurement({0}, {1.0, 0.0}, MarginalNoise::kLaplace, 1.0)});
  ASSERT_FALSE(mu.ok());
  EXPECT_NE(mu.message().find("measurements[0]"), std::string::npos);
}

}  // namespace
}  // namespace privbench
