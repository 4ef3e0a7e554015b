// Unit tests of experiments/epsilon_star_identical/report.h: the table has
// one row per (n, estimator) plus an exact row per n, and the claims follow
// their criteria, on hand-made results.
#include "experiments/epsilon_star_identical/report.h"

#include <gtest/gtest.h>

namespace privbench::epsilon_star_identical {
namespace {

Config Config2() {
  Config c;
  c.est = DefaultEstimationConfig(Scale::kTest);
  c.est.n = {100, 1000};
  c.est.repetitions = 2;
  return c;
}

// Empirical means 0.4 -> 0.2, parametric 0.1 -> 0.15 (closer, not shrinking).
IdenticalResults Fixture(const Config& c) {
  IdenticalResults r;
  r.names = {"empirical", "parametric"};
  r.claim = {0, 1};
  r.analyses = PrimaryAndCommonAnalyses(c.est);
  r.windows = MakeExactWindows(r.analyses[0].options, r.analyses[1].options);
  r.exact = {0.0, 0.0, 0.0};
  // values(n, analysis, estimator, repetition); both analyses alike
  r.values = ReplicateValues{{{{0.3, 0.5}, {0.1, 0.1}}, {{0.3, 0.5}, {0.1, 0.1}}},
                             {{{0.1, 0.3}, {0.1, 0.2}}, {{0.1, 0.3}, {0.1, 0.2}}}};
  r.moments = Moments(r.values);
  return r;
}

TEST(IdenticalReportTest, TableRows) {
  const Config c = Config2();
  const Result<SummaryTable> built = IdenticalTable(c, Fixture(c), 0);
  ASSERT_TRUE(built.ok()) << built.message();
  const SummaryTable& t = *built;
  EXPECT_EQ(t.name, "identical_primary");
  EXPECT_EQ(t.columns[1].strings, (std::vector<std::string>{"empirical", "parametric", "exact",
                                                            "empirical", "parametric", "exact"}));
  EXPECT_EQ(t.columns[2].strings[0], "(0.001, 0.999)");
  EXPECT_EQ(t.columns[2].strings[1], "[1e-06, 0.999999]");
  const Result<SummaryTable> common = IdenticalTable(c, Fixture(c), 1);
  ASSERT_TRUE(common.ok()) << common.message();
  EXPECT_EQ(common->columns[2].strings[1], "(0.001, 0.999)");
  EXPECT_EQ(t.columns[0].ints, (std::vector<int64_t>{100, 100, 100, 1000, 1000, 1000}));
  EXPECT_EQ(t.columns[4].doubles[0], 0.4);
}

TEST(IdenticalReportTest, ClaimsFollowTheirCriteria) {
  const Config c = Config2();
  const IdenticalResults r = Fixture(c);
  // Two repetitions cannot make a sign test significant: inconclusive.
  const JudgedClaim judged = ParametricCloserClaim(c, r, 0);
  const Claim& closer = judged.claim;
  EXPECT_FALSE(closer.holds);
  EXPECT_TRUE(judged.inconclusive);
  EXPECT_EQ(closer.id, "epsilon_star_identical_parametric_closer");
  EXPECT_NE(closer.evidence.find("n=100: empirical 0.4 +- 0.14 vs parametric 0.1 +- 0"),
            std::string::npos)
      << closer.evidence;
  const Claim shrink = BothShrinkClaim(c, r, 1);
  EXPECT_FALSE(shrink.holds);
  EXPECT_EQ(shrink.id, "epsilon_star_identical_both_shrink_common_window");
  EXPECT_NE(shrink.evidence.find("parametric 0.1 -> 0.15 (NOT strictly decreasing)"),
            std::string::npos)
      << shrink.evidence;
  // The statement and source come from claims.json, not the report.
  EXPECT_TRUE(shrink.statement.empty());
  EXPECT_TRUE(closer.source.empty());
}

}  // namespace
}  // namespace privbench::epsilon_star_identical
