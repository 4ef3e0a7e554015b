// Tests of the Chow-Liu synthesizer: the tree of data drawn from a known
// tree is recovered, oriented from attribute 0, and its pair frequencies
// reproduced.
#include "mechanisms/synthetic/chow_liu.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "mechanisms/synthetic/marginals.h"
#include "mechanisms/synthetic/testing.h"

namespace privbench {
namespace {

// Statistical: with strength 0.8 each true edge carries well over 0.5 bit
// of mutual information more than any non-edge (data processing
// inequality with noise at every step); with 3,000 rows the plug-in
// estimates err by about 0.01 bit, so the recovery fails with negligible
// probability (fixed seed: deterministic).
TEST(ChowLiuTest, RecoversTheTreeOfTreeData) {
  Rng rng(31);
  const auto [domain, data] = SixAttributeTree(3000, 0.8, rng);
  EXPECT_EQ(Undirected(ChowLiuTree(data, domain)), Undirected(kSixAttributeTree));
  const auto synth = MakeChowLiuSynthesizer(SynthesizerOptions());
  EXPECT_EQ(synth->name(), "chow_liu");
  EXPECT_FALSE(synth->guarantee().is_private());
  const Result<SynthesisOutput> out = synth->Generate(data, domain, 100, rng);
  ASSERT_TRUE(out.ok()) << out.message();
  EXPECT_TRUE(out->measurements.empty());
  // Rooted at 0 and oriented away from it: exactly the generating edges.
  std::vector<std::pair<int64_t, int64_t>> oriented = out->structure, want = kSixAttributeTree;
  std::sort(oriented.begin(), oriented.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(oriented, want);
}

// Statistical: 40,000 synthetic rows; each cell of the edge (1, 2)'s table
// within 5 sd (<= 0.0025) of the data's frequency: false-failure probability
// below 15 * 6e-7 (normal approximation; fixed seed: deterministic).
TEST(ChowLiuTest, ReproducesEdgeFrequencies) {
  Rng rng(32);
  const auto [domain, data] = SixAttributeTree(1000, 0.8, rng);
  const auto synth = MakeChowLiuSynthesizer(SynthesizerOptions());
  const int64_t n = 40000;
  const Result<SynthesisOutput> out = synth->Generate(data, domain, n, rng);
  ASSERT_TRUE(out.ok()) << out.message();
  const std::vector<int64_t> want = Marginal2(data, domain, 1, 2);
  const std::vector<int64_t> got = Marginal2(out->synthetic, domain, 1, 2);
  for (size_t i = 0; i < want.size(); ++i) {
    const double p = want[i] / 1000.0;
    EXPECT_NEAR(got[i] / static_cast<double>(n), p, 5 * std::sqrt(p * (1 - p) / n) + 1e-12) << i;
  }
  // Non-private: a pair of values that never occurs is never produced.
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] == 0) {
      EXPECT_EQ(got[i], 0) << i;
    }
  }
}

}  // namespace
}  // namespace privbench
