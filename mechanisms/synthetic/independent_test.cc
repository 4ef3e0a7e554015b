// Tests of the independent-histogram synthesizers: exact marginals
// reproduced, the Laplace and Gaussian noise scales (and the planted
// laplace_half_scale), the guarantees.
#include "mechanisms/synthetic/independent.h"

#include <gtest/gtest.h>

#include <cmath>

#include "mechanisms/synthetic/testing.h"

namespace privbench {
namespace {

// Statistical: 60,000 rows from the exact marginals of a 2,000-row table;
// each of the 12 value frequencies within 5 standard deviations (sd <=
// 0.0021) of the data's: false-failure probability below 12 * 6e-7 by the
// normal approximation (fixed seeds: deterministic).
TEST(IndependentTest, NonPrivateReproducesTheMarginals) {
  const CategoricalDomain domain = TestDomain({3, 5, 4});
  Rng rng(21);
  const CategoricalTable data = TreeData(domain, {{0, 1}, {1, 2}}, 2000, 0.6, rng);
  const auto synth = MakeIndependentSynthesizer(MarginalNoise::kNone, SynthesizerOptions());
  EXPECT_EQ(synth->name(), "independent");
  EXPECT_FALSE(synth->guarantee().is_private());
  const int64_t n = 60000;
  const Result<SynthesisOutput> out = synth->Generate(data, domain, n, rng);
  ASSERT_TRUE(out.ok()) << out.message();
  EXPECT_TRUE(out->measurements.empty());
  EXPECT_TRUE(out->structure.empty());
  for (int64_t j = 0; j < 3; ++j) {
    const std::vector<int64_t> want = Marginal1(data, domain, j);
    const std::vector<int64_t> got = Marginal1(out->synthetic, domain, j);
    for (int32_t v = 0; v < domain.sizes[j]; ++v) {
      const double p = want[v] / 2000.0;
      EXPECT_NEAR(got[v] / static_cast<double>(n), p, 5 * std::sqrt(p * (1 - p) / n));
    }
  }
}

// Noise of every measured cell (noisy - exact) over `runs` calls on a 10 x
// 10-value domain (100 cells a call).
std::vector<double> NoiseSamples(const Synthesizer& synth, int runs, double* scale) {
  const CategoricalDomain domain = TestDomain(std::vector<int32_t>(10, 10));
  Rng rng(22);
  const CategoricalTable data = TreeData(domain, {{0, 1}, {2, 3}}, 200, 0.5, rng);
  std::vector<double> noise;
  for (int r = 0; r < runs; ++r) {
    const Result<SynthesisOutput> out = synth.Generate(data, domain, 1, rng);
    EXPECT_TRUE(out.ok()) << out.message();
    if (!out.ok()) break;
    EXPECT_EQ(out->measurements.size(), 10u);
    for (const NoisyMarginal& m : out->measurements) {
      const std::vector<int64_t> exact = Marginal1(data, domain, m.attributes[0]);
      for (size_t v = 0; v < exact.size(); ++v) noise.push_back(m.noisy_counts[v] - exact[v]);
      *scale = m.scale;
    }
  }
  return noise;
}

double MeanSquare(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v * v;
  return s / static_cast<double>(x.size());
}

// Statistical: 20,000 Laplace(b) noises; their mean square estimates 2 b^2
// with relative sd sqrt((kurtosis - 1) / N) = sqrt(5 / N) = 0.016 (Laplace
// kurtosis 6). Accepting within 5 sd: false-failure probability about 6e-7
// per check by the normal approximation (fixed seed: deterministic). A
// halved scale gives ratio 0.25, far outside.
TEST(IndependentTest, LaplaceNoiseHasScaleDOverEpsilonAndTheBugHalvesIt) {
  for (bool half : {false, true}) {
    SynthesizerOptions options;
    options.epsilon = 2.0;
    options.laplace_half_scale = half;
    const auto synth = MakeIndependentSynthesizer(MarginalNoise::kLaplace, options);
    EXPECT_EQ(synth->name(), "independent_laplace");
    EXPECT_EQ(synth->guarantee().epsilon, 2.0);  // the bug still claims epsilon
    EXPECT_EQ(synth->guarantee().delta, 0.0);
    const double b = half ? 10.0 / 4.0 : 10.0 / 2.0;
    EXPECT_EQ(IndependentLaplaceScale(10, 2.0, half), b);
    double reported = 0;
    const std::vector<double> noise = NoiseSamples(*synth, 200, &reported);
    ASSERT_EQ(noise.size(), 20000u);
    EXPECT_EQ(reported, b);
    EXPECT_NEAR(MeanSquare(noise) / (2 * b * b), 1.0, 5 * std::sqrt(5.0 / 20000)) << half;
  }
}

// Statistical: 20,000 N(0, sigma^2) noises; mean square / sigma^2 has
// relative sd sqrt(2 / N) = 0.01; within 5 sd: false-failure probability
// about 6e-7 (normal approximation; fixed seed: deterministic).
TEST(IndependentTest, GaussianNoiseHasSigmaSqrtDOverTwoRho) {
  SynthesizerOptions options;
  options.rho = 0.2;
  options.epsilon = 3.0;
  options.delta = 1e-6;
  const auto synth = MakeIndependentSynthesizer(MarginalNoise::kGaussian, options);
  EXPECT_EQ(synth->name(), "independent_gaussian");
  const SynthesizerGuarantee g = synth->guarantee();
  EXPECT_EQ(g.rho, 0.2);
  EXPECT_EQ(g.epsilon, 3.0);
  EXPECT_EQ(g.delta, 1e-6);
  EXPECT_NEAR(g.mu, std::sqrt(0.4), 1e-15);
  const double sigma = std::sqrt(10 / 0.4);
  EXPECT_NEAR(IndependentGaussianSigma(10, 0.2), sigma, 1e-12);
  double reported = 0;
  const std::vector<double> noise = NoiseSamples(*synth, 200, &reported);
  EXPECT_NEAR(reported, sigma, 1e-12);
  EXPECT_NEAR(MeanSquare(noise) / (sigma * sigma), 1.0, 5 * std::sqrt(2.0 / 20000));
  // zCDP of d sensitivity-1 (L2) histograms: d / (2 sigma^2) = rho.
  EXPECT_NEAR(10 / (2 * sigma * sigma), 0.2, 1e-12);
}

// The measurements of `runs` calls on a 10 x 10-value domain, with the
// noise (noisy - exact) of each cell per measurement index.
std::vector<std::vector<double>> NoiseByMeasurement(const Synthesizer& synth, int runs,
                                                    std::vector<NoisyMarginal>* last) {
  const CategoricalDomain domain = TestDomain(std::vector<int32_t>(10, 10));
  Rng rng(24);
  const CategoricalTable data = TreeData(domain, {{0, 1}, {2, 3}}, 200, 0.5, rng);
  std::vector<std::vector<double>> noise;
  for (int r = 0; r < runs; ++r) {
    const Result<SynthesisOutput> out = synth.Generate(data, domain, 1, rng);
    EXPECT_TRUE(out.ok()) << out.message();
    if (!out.ok()) break;
    noise.resize(out->measurements.size());
    for (size_t k = 0; k < out->measurements.size(); ++k) {
      const NoisyMarginal& m = out->measurements[k];
      const std::vector<int64_t> exact = Marginal1(data, domain, m.attributes[0]);
      for (size_t v = 0; v < exact.size(); ++v) noise[k].push_back(m.noisy_counts[v] - exact[v]);
    }
    *last = out->measurements;
  }
  return noise;
}

// The planted first-marginal bugs. Statistical: 2,000 noises of the first
// marginal (200 calls x 10 cells); the mean square over its expectation
// (2 b^2 Laplace, sigma^2 Gaussian) has relative sd at most sqrt(5 / 2000)
// = 0.05; within 5 sd (false-failure probability about 6e-7 per check,
// normal approximation; fixed seed: deterministic). A fraction of 1/2 gives
// 0.25, far outside. The guarantee still claims the budget.
TEST(IndependentTest, FirstMarginalNoiseFractionScalesTheFirstAttributeOnly) {
  for (MarginalNoise noise : {MarginalNoise::kLaplace, MarginalNoise::kGaussian}) {
    SynthesizerOptions options;
    options.epsilon = 2.0;
    options.rho = 0.2;
    options.first_marginal_noise_fraction = 0.5;
    const auto synth = MakeIndependentSynthesizer(noise, options);
    EXPECT_EQ(synth->guarantee().epsilon, 2.0);
    const double scale = noise == MarginalNoise::kLaplace ? IndependentLaplaceScale(10, 2.0, false)
                                                          : IndependentGaussianSigma(10, 0.2);
    std::vector<NoisyMarginal> last;
    const std::vector<std::vector<double>> by = NoiseByMeasurement(*synth, 200, &last);
    ASSERT_EQ(last.size(), 10u);
    EXPECT_DOUBLE_EQ(last[0].scale, scale / 2);
    EXPECT_DOUBLE_EQ(last[1].scale, scale);
    const double k = noise == MarginalNoise::kLaplace ? 2.0 : 1.0;  // E noise^2 / scale^2
    EXPECT_NEAR(MeanSquare(by[0]) / (k * scale * scale / 4), 1.0, 5 * std::sqrt(5.0 / 2000));
    EXPECT_NEAR(MeanSquare(by[1]) / (k * scale * scale), 1.0, 5 * std::sqrt(5.0 / 2000));
  }
}

// double_spent_marginal: the first attribute is measured twice at the full
// per-marginal scale, with independent noise (the two copies' noises are
// uncorrelated: |correlation| of 2,000 pairs below 5 / sqrt(2000) = 0.11),
// the others once.
TEST(IndependentTest, DoubleSpentMarginalMeasuresTheFirstAttributeTwice) {
  for (MarginalNoise noise : {MarginalNoise::kLaplace, MarginalNoise::kGaussian}) {
    SynthesizerOptions options;
    options.epsilon = 2.0;
    options.rho = 0.2;
    options.double_spent_marginal = true;
    const auto synth = MakeIndependentSynthesizer(noise, options);
    std::vector<NoisyMarginal> last;
    const std::vector<std::vector<double>> by = NoiseByMeasurement(*synth, 200, &last);
    ASSERT_EQ(last.size(), 11u);
    EXPECT_EQ(last[0].attributes, std::vector<int64_t>{0});
    EXPECT_EQ(last[1].attributes, std::vector<int64_t>{0});
    EXPECT_EQ(last[2].attributes, std::vector<int64_t>{1});
    EXPECT_EQ(last[0].scale, last[2].scale);
    EXPECT_EQ(last[1].scale, last[2].scale);
    double cross = 0;
    for (size_t i = 0; i < by[0].size(); ++i) cross += by[0][i] * by[1][i];
    const double correlation = cross / std::sqrt(MeanSquare(by[0]) * MeanSquare(by[1])) /
                               static_cast<double>(by[0].size());
    EXPECT_LT(std::fabs(correlation), 5 / std::sqrt(2000.0)) << correlation;
  }
}

TEST(IndependentTest, NothingLeftAfterClampingIsUniform) {
  // One row; epsilon tiny: the noisy histograms are often all negative and
  // then uniform. Every value of a 3-value attribute must still appear.
  const CategoricalDomain domain = TestDomain({3});
  CategoricalTable data = EmptyTable(domain);
  data.Append(std::vector<int32_t>{0});
  SynthesizerOptions options;
  options.epsilon = 1e-3;
  const auto synth = MakeIndependentSynthesizer(MarginalNoise::kLaplace, options);
  Rng rng(23);
  std::vector<int> seen(3, 0);
  for (int r = 0; r < 30; ++r) {
    const Result<SynthesisOutput> out = synth->Generate(data, domain, 50, rng);
    ASSERT_TRUE(out.ok());
    for (int32_t v : out->synthetic.values) seen[v] = 1;
  }
  EXPECT_EQ(seen, (std::vector<int>{1, 1, 1}));
}

}  // namespace
}  // namespace privbench
