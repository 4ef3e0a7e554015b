#include "experiments/bayes_coverage/report.h"

#include <string>
#include <vector>

#include "experiments/bayes_coverage/compute.h"
#include "experiments/bayes_coverage/config.h"
#include "gtest/gtest.h"

namespace privbench::bayes_coverage {
namespace {

struct Fixture {
  Config c;
  Results r;
};

Fixture SmallRun() {
  Fixture f;
  f.c.fpr = {0.05, 0.5};
  f.c.fnr = {0.05, 0.5};
  f.c.n = {200};
  f.c.trials = 10;
  auto r = ComputeCoverage(f.c, 3, 2, true);
  EXPECT_TRUE(r.ok()) << r.message();
  f.r = std::move(r.value());
  return f;
}

TEST(CoverageClaims, SevenClaimsWithEvidence) {
  const Fixture f = SmallRun();
  const std::vector<Claim> claims = CoverageClaims(f.c, f.r);
  const std::vector<std::string> ids = {
      "bayes_coverage_cp_overcovers",       "bayes_coverage_jeffreys_overcovers",
      "bayes_coverage_bayes_near_nominal",  "bayes_coverage_bayes_lower_near_nominal",
      "bayes_coverage_bayes_narrowest",     "bayes_coverage_bayes_eps0_miss",
      "bayes_coverage_bayes_diagonal_limit"};
  ASSERT_EQ(claims.size(), ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(claims[i].id, ids[i]);
    EXPECT_GT(claims[i].evidence.size(), 20u) << ids[i];
    EXPECT_TRUE(claims[i].statement.empty()) << ids[i];  // claims.json has it
    EXPECT_TRUE(claims[i].source.empty()) << ids[i];
  }
  // The chance point is in the grid, so the eps = 0 claim is evaluated.
  EXPECT_EQ(claims[5].evidence.find("not evaluated"), std::string::npos);
}

TEST(CoverageClaims, ChancePointNotEvaluatedWithoutIt) {
  Fixture f = SmallRun();
  f.r.settings.pop_back();  // drop the (0.5, 0.5) setting
  for (MethodRun& d : f.r.run.data) {
    d.stats.pop_back();
    d.classes.pop_back();
  }
  const std::vector<Claim> claims = CoverageClaims(f.c, f.r);
  EXPECT_FALSE(claims[5].holds);
  EXPECT_EQ(claims[5].evidence.rfind("not evaluated", 0), 0u);
}

TEST(CoverageTables, NamesAndRowCounts) {
  const Fixture f = SmallRun();
  const auto tables = CoverageTables(f.c, f.r);
  ASSERT_TRUE(tables.ok()) << tables.message();
  const std::vector<SummaryTable>& t = *tables;
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].name, "coverage");
  EXPECT_EQ(t[1].name, "coverage_by_method");
  EXPECT_EQ(t[2].name, "width_by_method");
  EXPECT_EQ(t[3].name, "coverage_classes");
  // (0.05, 0.05) is diagonal with eps > 0: two rows (two-sided, one-sided)
  // with the closed-form limits; the chance point (0.5, 0.5) has none.
  EXPECT_EQ(t[4].name, "diagonal_limit");
  ASSERT_EQ(t[4].columns[0].size(), 2u);
  EXPECT_NEAR(t[4].columns[6].doubles[0], 0.7989, 1e-4);
  EXPECT_NEAR(t[4].columns[6].doubles[1], 0.6697, 1e-4);
  EXPECT_GT(t[4].columns[7].doubles[1], t[4].columns[6].doubles[1]);  // rho > 0 raises it
  EXPECT_EQ(t[0].columns[0].size(), f.r.settings.size() * f.r.methods.size());
  EXPECT_EQ(t[1].columns.size(), 4 + f.r.methods.size());
  EXPECT_EQ(t[1].columns.back().size(), f.r.settings.size());
  size_t two_sided = 0;
  for (const CoverageMethod& m : f.r.methods) two_sided += !m.one_sided;
  EXPECT_EQ(t[2].columns.size(), 4 + 2 * two_sided);
  EXPECT_EQ(t[3].columns[0].size(), f.r.methods.size());
}

}  // namespace
}  // namespace privbench::bayes_coverage
