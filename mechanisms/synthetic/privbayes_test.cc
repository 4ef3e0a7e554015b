// Tests of PrivBayes (degree 1): the mutual-information sensitivity, the
// Laplace scale of its d count tables, the network's shape and its
// recovery at a huge epsilon, the guarantee.
#include "mechanisms/synthetic/privbayes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "mechanisms/synthetic/chow_liu.h"
#include "mechanisms/synthetic/marginals.h"
#include "mechanisms/synthetic/testing.h"

namespace privbench {
namespace {

TEST(PrivBayesTest, MutualInformationSensitivity) {
  // n = 1000: (2/n) log2(500.5) + (999/1000) log2(1001/999).
  EXPECT_NEAR(PrivBayesMutualInformationSensitivity(1000),
              0.002 * std::log2(500.5) + 0.999 * std::log2(1001.0 / 999.0), 1e-15);
  EXPECT_NEAR(PrivBayesBinaryMutualInformationSensitivity(2), 1.0, 1e-15);
  // The general bound dominates the binary one (so it is used for every pair).
  for (int64_t n = 2; n <= 100000; n = n * 3 / 2 + 1) {
    EXPECT_GE(PrivBayesMutualInformationSensitivity(n),
              PrivBayesBinaryMutualInformationSensitivity(n))
        << n;
  }
  EXPECT_EQ(PrivBayesMutualInformationSensitivity(1), PrivBayesMutualInformationSensitivity(2));
  EXPECT_NEAR(PrivBayesLaplaceScale(6, 2.0, 0.3), 6 / (0.7 * 2.0), 1e-15);
}

// The network: a root first (its 1-way table), then d - 1 (parent, child)
// tables, each parent placed before its child, every attribute once.
void ExpectNetwork(const SynthesisOutput& out, int64_t d) {
  ASSERT_EQ(out.measurements.size(), static_cast<size_t>(d));
  ASSERT_EQ(out.structure.size(), static_cast<size_t>(d - 1));
  ASSERT_EQ(out.measurements[0].attributes.size(), 1u);
  std::set<int64_t> placed = {out.measurements[0].attributes[0]};
  for (int64_t k = 0; k < d - 1; ++k) {
    const auto [p, c] = out.structure[k];
    EXPECT_TRUE(placed.count(p)) << p;
    EXPECT_FALSE(placed.count(c)) << c;
    placed.insert(c);
    EXPECT_EQ(out.measurements[k + 1].attributes, (std::vector<int64_t>{p, c}));
  }
  EXPECT_EQ(placed.size(), static_cast<size_t>(d));
}

// Statistical: Laplace(b) noise of the d tables over 40 runs (>= 40 x (3 +
// 5 x 9) = 1,920 cells); mean square / (2 b^2) within 5 relative sd,
// sqrt(5 / N) <= 0.051:
// false-failure probability about 6e-7 by the normal approximation (fixed
// seed: deterministic). The root is drawn uniformly: over 40 runs several
// roots occur (each misses with probability (5/6)^40 < 7e-4).
TEST(PrivBayesTest, CountsHaveLaplaceScaleDOverOneMinusBetaEpsilon) {
  Rng rng(51);
  const auto [domain, data] = SixAttributeTree(400, 0.6, rng);
  SynthesizerOptions options;
  options.epsilon = 1.5;
  options.privbayes_structure_share = 0.4;
  const auto synth = MakePrivBayesSynthesizer(options);
  EXPECT_EQ(synth->name(), "privbayes");
  EXPECT_EQ(synth->guarantee().epsilon, 1.5);
  EXPECT_EQ(synth->guarantee().delta, 0.0);
  EXPECT_EQ(synth->guarantee().rho, 0.0);
  const double b = 6 / (0.6 * 1.5);
  const PairCounts pairs(data, domain.sizes);
  double ss = 0;
  int64_t cells = 0;
  std::set<int64_t> roots;
  for (int r = 0; r < 40; ++r) {
    const Result<SynthesisOutput> out = synth->Generate(data, domain, 20, rng);
    ASSERT_TRUE(out.ok()) << out.message();
    ExpectNetwork(*out, 6);
    roots.insert(out->measurements[0].attributes[0]);
    for (const NoisyMarginal& m : out->measurements) {
      EXPECT_EQ(m.noise, MarginalNoise::kLaplace);
      EXPECT_NEAR(m.scale, b, 1e-12);
      const std::vector<double> exact = m.attributes.size() == 1
                                            ? Counts1(data, domain.sizes, m.attributes[0])
                                            : pairs.Oriented(m.attributes[0], m.attributes[1]);
      for (size_t i = 0; i < exact.size(); ++i) {
        ss += (m.noisy_counts[i] - exact[i]) * (m.noisy_counts[i] - exact[i]);
        ++cells;
      }
    }
  }
  EXPECT_GE(cells, 1920);
  EXPECT_NEAR(ss / cells / (2 * b * b), 1.0, 5 * std::sqrt(5.0 / cells));
  EXPECT_GE(roots.size(), 2u);
}

// At a huge epsilon the exponential mechanism is the argmax: the greedy
// search is Prim's algorithm on mutual information, which finds the
// Chow-Liu tree, here the generating tree (chow_liu_test's margin).
TEST(PrivBayesTest, HugeEpsilonFindsTheChowLiuTree) {
  Rng rng(52);
  const auto [domain, data] = SixAttributeTree(3000, 0.8, rng);
  SynthesizerOptions options;
  options.epsilon = 1e9;
  const auto synth = MakePrivBayesSynthesizer(options);
  for (int r = 0; r < 5; ++r) {
    const Result<SynthesisOutput> out = synth->Generate(data, domain, 20, rng);
    ASSERT_TRUE(out.ok()) << out.message();
    ExpectNetwork(*out, 6);
    EXPECT_EQ(Undirected(out->structure), Undirected(kSixAttributeTree));
    EXPECT_EQ(Undirected(out->structure), Undirected(ChowLiuTree(data, domain)));
  }
}

}  // namespace
}  // namespace privbench
