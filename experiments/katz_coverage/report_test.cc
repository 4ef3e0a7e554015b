#include "experiments/katz_coverage/report.h"

#include <string>
#include <vector>

#include "experiments/katz_coverage/compute.h"
#include "experiments/katz_coverage/config.h"
#include "gtest/gtest.h"

namespace privbench::katz_coverage {
namespace {

struct Fixture {
  Config c;
  Results r;
};

Fixture SmallRun() {
  Fixture f;
  f.c.p1 = {0.5, 0.2};
  f.c.p0 = {0.05, 0.2};
  f.c.n = {100};
  f.c.trials = 50;
  auto r = ComputeRatioCoverage(f.c, 4, 2, true);
  EXPECT_TRUE(r.ok()) << r.message();
  f.r = std::move(r.value());
  return f;
}

TEST(RatioClaims, FourClaimsWithEvidence) {
  const Fixture f = SmallRun();
  const std::vector<Claim> claims = RatioClaims(f.c, f.r);
  const std::vector<std::string> ids = {
      "katz_coverage_katz_valid", "katz_coverage_katz_better_coverage",
      "katz_coverage_katz_tighter", "katz_coverage_cp_conservative"};
  ASSERT_EQ(claims.size(), ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(claims[i].id, ids[i]);
    EXPECT_GT(claims[i].evidence.size(), 20u) << ids[i];
    EXPECT_TRUE(claims[i].statement.empty()) << ids[i];  // claims.json has it
    EXPECT_TRUE(claims[i].source.empty()) << ids[i];
  }
  // Tighter() notes the bounds at the detection ceiling of the largest N.
  EXPECT_NE(claims[2].evidence.find("At n1 = N = 100, n0 = 1"), std::string::npos);
}

TEST(RatioTables, NamesAndRowCounts) {
  const Fixture f = SmallRun();
  const auto tables = RatioTables(f.c, f.r);
  ASSERT_TRUE(tables.ok()) << tables.message();
  const std::vector<SummaryTable>& t = *tables;
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].name, "coverage");
  EXPECT_EQ(t[1].name, "coverage_by_method");
  EXPECT_EQ(t[2].name, "detection_ceiling");
  EXPECT_EQ(t[0].columns[0].size(), f.r.settings.size() * f.r.methods.size());
  EXPECT_EQ(t[1].columns.size(), 4 + 2 * f.r.methods.size());
  EXPECT_EQ(t[1].columns.back().size(), f.r.settings.size());
  EXPECT_EQ(t[1].columns.back().name, "clopper_pearson_ratio_strict mean bound");
  EXPECT_EQ(t[2].columns[0].size(), 2u);  // N = 100 with n0 = 1 and 0
  EXPECT_EQ(t[2].columns.size(), 4 + f.r.methods.size());
}

}  // namespace
}  // namespace privbench::katz_coverage
