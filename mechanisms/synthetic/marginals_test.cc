// Exact tests of the shared pieces: counts against data_scripts' Marginal1 /
// Marginal2, the support (domain_from_data), post-processing, draws, mutual
// information and the maximum spanning tree.
#include "mechanisms/synthetic/marginals.h"

#include <gtest/gtest.h>

#include <cmath>

#include "mechanisms/synthetic/testing.h"

namespace privbench {
namespace {

TEST(PairCountsTest, MatchesMarginal2InBothOrientations) {
  const CategoricalDomain domain = TestDomain({3, 4, 2, 5});
  Rng rng(1);
  const CategoricalTable data = TreeData(domain, {{0, 1}, {1, 3}}, 300, 0.5, rng);
  const PairCounts pairs(data, domain.sizes);
  for (int64_t a = 0; a < 4; ++a) {
    const std::vector<int64_t> m1 = Marginal1(data, domain, a);
    EXPECT_EQ(Counts1(data, domain.sizes, a), std::vector<double>(m1.begin(), m1.end()));
    for (int64_t b = 0; b < 4; ++b) {
      if (a == b) continue;
      const std::vector<int64_t> want = Marginal2(data, domain, a, b);
      EXPECT_EQ(pairs.Oriented(a, b), std::vector<double>(want.begin(), want.end())) << a << b;
    }
  }
  EXPECT_EQ(pairs.PairIndex(0, 1), 0);
  EXPECT_EQ(pairs.PairIndex(2, 3), 5);
}

TEST(ValueSupportTest, AllValuesUnlessFromData) {
  const CategoricalDomain domain = TestDomain({3, 2});
  CategoricalTable data = EmptyTable(domain);
  data.Append({0, 1});
  data.Append({2, 1});
  const auto all = ValueSupport(data, domain, false);
  EXPECT_EQ(all[0], (std::vector<char>{1, 1, 1}));
  EXPECT_EQ(all[1], (std::vector<char>{1, 1}));
  const auto seen = ValueSupport(data, domain, true);
  EXPECT_EQ(seen[0], (std::vector<char>{1, 0, 1}));
  EXPECT_EQ(seen[1], (std::vector<char>{0, 1}));
}

TEST(MeasureMarginalTest, NoNoiseOffTheSupport) {
  const std::vector<int32_t> sizes = {2, 3};
  const std::vector<std::vector<char>> support = {{1, 0}, {1, 1, 0}};
  Rng rng(2);
  const NoisyMarginal m = MeasureMarginal({0, 1}, {5, 5, 5, 0, 0, 0}, support, sizes,
                                          MarginalNoise::kLaplace, 3.0, rng);
  EXPECT_EQ(m.noise, MarginalNoise::kLaplace);
  EXPECT_EQ(m.scale, 3.0);
  EXPECT_NE(m.noisy_counts[0], 5.0);
  EXPECT_NE(m.noisy_counts[1], 5.0);
  EXPECT_EQ(m.noisy_counts[2], 0.0);                              // child value 2 unseen
  for (int c = 3; c < 6; ++c) EXPECT_EQ(m.noisy_counts[c], 0.0);  // parent value 1 unseen
}

TEST(ToDistributionTest, ClampsNormalisesAndFallsBackToUniform) {
  EXPECT_EQ(ToDistribution({-1, 3, 1}, {1, 1, 1}), (std::vector<double>{0, 0.75, 0.25}));
  EXPECT_EQ(ToDistribution({2, 3, 1}, {1, 0, 1}), (std::vector<double>{2.0 / 3, 0, 1.0 / 3}));
  EXPECT_EQ(ToDistribution({-1, -3, 0, -2}, {1, 1, 1, 1}), (std::vector<double>(4, 0.25)));
  EXPECT_EQ(ToDistribution({-1, 5, -3}, {1, 0, 1}), (std::vector<double>{0.5, 0, 0.5}));
}

TEST(DrawFromCdfTest, NeverDrawsZeroProbability) {
  const double p[4] = {0.0, 0.5, 0.0, 0.5};
  double cdf[4];
  CumulativeSums(p, 4, cdf);
  EXPECT_EQ(DrawFromCdf(cdf, 4, 0.0), 1);
  EXPECT_EQ(DrawFromCdf(cdf, 4, 0.4999), 1);
  EXPECT_EQ(DrawFromCdf(cdf, 4, 0.5), 3);
  EXPECT_EQ(DrawFromCdf(cdf, 4, std::nextafter(1.0, 0.0)), 3);
}

TEST(ExponentialMechanismTest, HugeEpsilonPicksTheBest) {
  Rng rng(3);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(ExponentialMechanism({1, 5, 2}, 1e6, 1.0, rng), 1);
}

TEST(MutualInformationTest, KnownValues) {
  const double independent[4] = {10, 10, 10, 10};
  EXPECT_NEAR(MutualInformationBits(independent, 2, 2), 0.0, 1e-12);
  const double copy[4] = {7, 0, 0, 7};
  EXPECT_NEAR(MutualInformationBits(copy, 2, 2), 1.0, 1e-12);
  const double copy3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  EXPECT_NEAR(MutualInformationBits(copy3, 3, 3), std::log2(3.0), 1e-12);
  const double empty[4] = {0, 0, 0, 0};
  EXPECT_EQ(MutualInformationBits(empty, 2, 2), 0.0);
}

TEST(MaximumSpanningTreeTest, KruskalOnKnownWeights) {
  // Pairs of 4: (0,1) (0,2) (0,3) (1,2) (1,3) (2,3).
  const std::vector<double> w = {5, 1, 1, 4, 0, 3};
  EXPECT_EQ(MaximumSpanningTree(4, w),
            (std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {1, 2}, {2, 3}}));
  EXPECT_TRUE(MaximumSpanningTree(1, {}).empty());
}

}  // namespace
}  // namespace privbench
