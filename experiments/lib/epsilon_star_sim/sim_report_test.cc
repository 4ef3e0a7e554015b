// Unit tests of experiments/lib/epsilon_star_sim/sim_report.h: the texts of
// the two analyses and the sign-test claims (decided, inconclusive, nothing
// to test).
#include "experiments/lib/epsilon_star_sim/sim_report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace privbench {
namespace {

TEST(SimReportTest, AnalysisTexts) {
  EXPECT_EQ(AnalysisSuffix(0), "");
  EXPECT_EQ(AnalysisSuffix(1), "_common_window");
  EXPECT_EQ(AnalysisTitle(0), "each estimator on its own window");
  EXPECT_EQ(AnalysisTitle(1), "every estimator on a common window");
  SimAnalysis an{"primary", EpsilonStarOptions()};
  const std::string options = " Options: " + EpsilonStarOptionsText(an.options) + ".";
  EXPECT_EQ(AnalysisCaption(0, "Own windows.", an), "Own windows." + options);
  EXPECT_EQ(AnalysisCaption(1, "Own windows.", an),
            "Secondary analysis: rate and clip windows both [common_lo, common_hi]." + options);
  EXPECT_EQ(EstimatorGroup(an, "parametric"), "/primary/parametric");
}

// `greater` of `pairs` pairs with a > b, the others a < b.
SignTest Pairs(int greater, int pairs) {
  std::vector<double> a(pairs, 1.0), b(pairs, 0.0);
  for (int i = greater; i < pairs; ++i) b[i] = 2.0;
  return PairedSignTest(a, b);
}

TEST(SimReportTest, SignTestClaimDecided) {
  const JudgedClaim j = SignTestClaim("x", {Pairs(10, 10)}, true, "head", "pairs", "; tail");
  EXPECT_EQ(j.claim.id, "x");
  EXPECT_TRUE(j.claim.holds);
  EXPECT_FALSE(j.inconclusive);
  EXPECT_EQ(j.holds_fraction, 1.0);
  EXPECT_EQ(j.claim.evidence, "head; tail");
  const JudgedClaim no = SignTestClaim("x", {Pairs(0, 10)}, true, "head", "pairs", "");
  EXPECT_FALSE(no.claim.holds);
  EXPECT_FALSE(no.inconclusive);
  EXPECT_EQ(no.claim.evidence, "head");
}

TEST(SimReportTest, SignTestClaimInconclusiveAndInvalid) {
  const JudgedClaim j = SignTestClaim("x", {Pairs(2, 3)}, true, "head", "pairs", "; tail");
  EXPECT_FALSE(j.claim.holds);
  EXPECT_TRUE(j.inconclusive);
  EXPECT_EQ(j.claim.evidence, "head; INCONCLUSIVE: holds in 66.7% of the pairs; tail");
  EXPECT_FALSE(SignTestClaim("x", {Pairs(10, 10)}, false, "", "pairs", "").claim.holds);
}

}  // namespace
}  // namespace privbench
