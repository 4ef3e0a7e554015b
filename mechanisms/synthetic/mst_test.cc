// Tests of MST: the zCDP budget of its three thirds, the noise scales (and
// the planted mst_unscaled_noise), the selected tree, the guarantee.
#include "mechanisms/synthetic/mst.h"

#include <gtest/gtest.h>

#include <cmath>

#include "mechanisms/synthetic/chow_liu.h"
#include "mechanisms/synthetic/marginals.h"
#include "mechanisms/synthetic/testing.h"

namespace privbench {
namespace {

// rho spent by a run: 1 / (2 sigma^2) per sensitivity-1 Gaussian
// measurement plus eps_r^2 / 8 per exponential-mechanism round.
double SpentRho(const SynthesisOutput& out, const MstCalibration& cal) {
  double rho = 0;
  for (const NoisyMarginal& m : out.measurements) {
    EXPECT_EQ(m.noise, MarginalNoise::kGaussian);
    rho += 1.0 / (2.0 * m.scale * m.scale);
  }
  return rho + static_cast<double>(out.structure.size()) * cal.selection_epsilon *
                   cal.selection_epsilon / 8.0;
}

SynthesisOutput RunMst(const SynthesizerOptions& options, const CategoricalTable& data,
                       const CategoricalDomain& domain, Rng& rng) {
  const Result<SynthesisOutput> out = MakeMstSynthesizer(options)->Generate(data, domain, 50, rng);
  EXPECT_TRUE(out.ok()) << out.message();
  return out.ok() ? *out : SynthesisOutput();
}

TEST(MstTest, TheThreeThirdsAddUpToRho) {
  Rng rng(41);
  const auto [domain, data] = SixAttributeTree(500, 0.6, rng);
  SynthesizerOptions options;
  options.rho = 0.37;
  options.epsilon = 2.5;
  options.delta = 1e-5;
  const SynthesisOutput out = RunMst(options, data, domain, rng);
  const MstCalibration cal = MstNoise(6, 0.37, false);
  ASSERT_EQ(out.measurements.size(), 11u);  // 6 one-way, then 5 two-way
  for (int j = 0; j < 6; ++j) {
    EXPECT_EQ(out.measurements[j].attributes, (std::vector<int64_t>{j}));
    EXPECT_NEAR(out.measurements[j].scale, std::sqrt(3 / (2 * 0.37)) * std::sqrt(6.0), 1e-12);
  }
  for (int k = 6; k < 11; ++k) {
    EXPECT_EQ(out.measurements[k].attributes.size(), 2u);
    EXPECT_NEAR(out.measurements[k].scale, std::sqrt(3 / (2 * 0.37)) * std::sqrt(5.0), 1e-12);
  }
  EXPECT_NEAR(cal.selection_epsilon, std::sqrt(8 * 0.37 / 3 / 5), 1e-15);
  EXPECT_EQ(out.structure.size(), 5u);
  EXPECT_NEAR(SpentRho(out, cal), 0.37, 1e-12);
  const SynthesizerGuarantee g = MakeMstSynthesizer(options)->guarantee();
  EXPECT_EQ(g.rho, 0.37);
  EXPECT_EQ(g.epsilon, 2.5);
  EXPECT_EQ(g.delta, 1e-5);
  EXPECT_EQ(g.mu, 0.0);
}

TEST(MstTest, UnscaledNoiseBugSpendsMore) {
  Rng rng(42);
  const auto [domain, data] = SixAttributeTree(500, 0.6, rng);
  SynthesizerOptions options;
  options.rho = 0.37;
  options.mst_unscaled_noise = true;
  const SynthesisOutput out = RunMst(options, data, domain, rng);
  for (const NoisyMarginal& m : out.measurements) {
    EXPECT_NEAR(m.scale, std::sqrt(3 / (2 * 0.37)), 1e-12);
  }
  // (a) d rho / 3, (b) rho / 3, (c) (d - 1) rho / 3: 2 d rho / 3.
  EXPECT_NEAR(SpentRho(out, MstNoise(6, 0.37, true)), 2 * 6 * 0.37 / 3, 1e-12);
  EXPECT_EQ(MakeMstSynthesizer(options)->guarantee().rho, 0.37);  // still claimed
}

// Statistical: Gaussian noise of the 1-way (40 runs x 25 cells = 1,000)
// and 2-way (40 runs x 5 edges x >= 9 cells) measurements; each mean square
// / sigma^2 within 5 relative sd, sqrt(2 / N) (<= 0.045 and 0.034): false-
// failure probability about 1e-6 each by the normal approximation (fixed
// seed: deterministic).
TEST(MstTest, MeasurementNoiseHasTheCalibratedSigma) {
  Rng rng(43);
  const auto [domain, data] = SixAttributeTree(300, 0.6, rng);
  SynthesizerOptions options;
  options.rho = 0.05;
  const MstCalibration cal = MstNoise(6, 0.05, false);
  double ss1 = 0, ss2 = 0;
  int64_t n1 = 0, n2 = 0;
  const PairCounts pairs(data, domain.sizes);
  for (int r = 0; r < 40; ++r) {
    const SynthesisOutput out = RunMst(options, data, domain, rng);
    for (const NoisyMarginal& m : out.measurements) {
      const std::vector<double> exact = m.attributes.size() == 1
                                            ? Counts1(data, domain.sizes, m.attributes[0])
                                            : pairs.Oriented(m.attributes[0], m.attributes[1]);
      ASSERT_EQ(exact.size(), m.noisy_counts.size());
      for (size_t i = 0; i < exact.size(); ++i) {
        const double e = m.noisy_counts[i] - exact[i];
        if (m.attributes.size() == 1) {
          ss1 += e * e;
          ++n1;
        } else {
          ss2 += e * e;
          ++n2;
        }
      }
    }
  }
  EXPECT_EQ(n1, 40 * 25);
  EXPECT_GE(n2, 40 * 5 * 9);
  const double s1 = cal.sigma_one_way * cal.sigma_one_way,
               s2 = cal.sigma_two_way * cal.sigma_two_way;
  EXPECT_NEAR(ss1 / n1 / s1, 1.0, 5 * std::sqrt(2.0 / n1));
  EXPECT_NEAR(ss2 / n2 / s2, 1.0, 5 * std::sqrt(2.0 / n2));
}

// With a huge rho the noise is negligible and each round picks the
// best-quality pair: the tree of strongly dependent tree data is recovered
// (each true edge's L1 distance from independence exceeds every non-edge's
// by hundreds of counts here; fixed seed: deterministic).
TEST(MstTest, HugeRhoSelectsTheGeneratingTree) {
  Rng rng(44);
  const auto [domain, data] = SixAttributeTree(3000, 0.8, rng);
  SynthesizerOptions options;
  options.rho = 1e6;
  const SynthesisOutput out = RunMst(options, data, domain, rng);
  EXPECT_EQ(Undirected(out.structure), Undirected(kSixAttributeTree));
  EXPECT_EQ(out.structure.front().first, 0);  // rooted at attribute 0
  ASSERT_TRUE(CheckTable(out.synthetic, domain).ok());
}

TEST(MstTest, OneAttributeSpendsOnlyTheFirstThird) {
  const CategoricalDomain domain = TestDomain({5});
  CategoricalTable data = EmptyTable(domain);
  for (int32_t v : {0, 1, 1, 4}) data.Append({v});
  Rng rng(45);
  SynthesizerOptions options;
  const SynthesisOutput out = RunMst(options, data, domain, rng);
  EXPECT_EQ(out.measurements.size(), 1u);
  EXPECT_TRUE(out.structure.empty());
  EXPECT_EQ(out.synthetic.n(), 50);
}

}  // namespace
}  // namespace privbench
