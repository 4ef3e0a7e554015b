#include "experiments/katz_coverage/report.h"

#include <string>
#include <vector>

#include "experiments/katz_coverage/compute.h"
#include "experiments/katz_coverage/config.h"
#include "gtest/gtest.h"

namespace privbench::katz_coverage {
namespace {

struct Fixture {
  KatzCoverageConfig c;
  std::vector<RatioSetting> settings;
  std::vector<RatioMethod> methods;
  RatioRun run;
  std::vector<CeilingRow> ceiling;
};

Fixture SmallRun() {
  Fixture f;
  f.c.p1 = {0.5, 0.2};
  f.c.p0 = {0.05, 0.2};
  f.c.n = {100};
  f.c.trials = 50;
  f.settings = MakeRatioSettings(f.c);
  auto methods = MakeRatioMethods(f.c.alpha);
  EXPECT_TRUE(methods.ok());
  f.methods = methods.value();
  auto run = RunRatioTrials(f.c, f.settings, f.methods, 4, 2, true);
  EXPECT_TRUE(run.ok());
  f.run = std::move(run.value());
  SummarizeRatioCoverage(f.settings, f.methods, f.c.trials, &f.run);
  auto ceiling = DetectionCeiling(f.c);
  EXPECT_TRUE(ceiling.ok());
  f.ceiling = ceiling.value();
  return f;
}

TEST(RatioClaims, FourClaimsWithEvidence) {
  const Fixture f = SmallRun();
  const std::vector<Claim> claims = RatioClaims(f.c, f.settings, f.methods, f.run.data);
  const std::vector<std::string> ids = {
      "katz_coverage_katz_valid", "katz_coverage_katz_better_coverage",
      "katz_coverage_katz_tighter", "katz_coverage_cp_conservative"};
  ASSERT_EQ(claims.size(), ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(claims[i].id, ids[i]);
    EXPECT_GT(claims[i].evidence.size(), 20u) << ids[i];
  }
  // Tighter() notes the bounds at the detection ceiling of the largest N.
  EXPECT_NE(claims[2].evidence.find("At n1 = N = 100, n0 = 1"), std::string::npos);
}

TEST(RatioTables, NamesAndRowCounts) {
  const Fixture f = SmallRun();
  const std::vector<SummaryTable> t =
      RatioTables(f.c, f.settings, f.methods, f.run.data, f.ceiling);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].name, "coverage");
  EXPECT_EQ(t[1].name, "coverage_by_method");
  EXPECT_EQ(t[2].name, "detection_ceiling");
  EXPECT_EQ(t[0].columns[0].size(), f.settings.size() * f.methods.size());
  EXPECT_EQ(t[1].columns.size(), 4 + 2 * f.methods.size());
  EXPECT_EQ(t[2].columns[0].size(), 2u);  // N = 100 with n0 = 1 and 0
}

TEST(CountRatioNumbers, MinimumAndUnder) {
  RatioMethodData d;
  d.stats.resize(2);
  d.stats[0].coverage = 0.8;
  d.stats[1].coverage = 0.99;
  d.classes = {CoverageClass::kUnder, CoverageClass::kNear};
  const RatioNumbers n = CountRatioNumbers(d);
  EXPECT_EQ(n.min_coverage, 0.8);
  EXPECT_EQ(n.settings_under, 1);
}

}  // namespace
}  // namespace privbench::katz_coverage
