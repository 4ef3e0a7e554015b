#include "experiments/bayes_coverage/compute.h"

#include <cmath>
#include <limits>
#include <vector>

#include "estimators/eps_from_rates.h"
#include "experiments/bayes_coverage/config.h"
#include "gtest/gtest.h"

namespace privbench::bayes_coverage {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Config SmallConfig() {
  Config c;
  c.fpr = {0.05, 0.5};
  c.fnr = {0.05, 0.5};
  c.n = {100, 200};
  c.trials = 6;
  return c;
}

TEST(Defaults, GridOfTheStudy) {
  EXPECT_EQ(DefaultCoverageRatePairs().size(), 6u);
  EXPECT_EQ(DefaultCoverageRatePairs().back().fpr, 0.5);
  EXPECT_EQ(DefaultCoverageTrialCounts(), (std::vector<int64_t>{200, 1000, 5000}));
}

TEST(MakeCoverageMethods, EveryRegisteredEstimator) {
  auto methods = MakeCoverageMethods(1e-5, 0.1);
  ASSERT_TRUE(methods.ok());
  bool saw_katz = false;
  for (const CoverageMethod& m : *methods) {
    EXPECT_DOUBLE_EQ(m.nominal, 0.9);
    EXPECT_FALSE(m.description.empty());
    if (m.name == "katz_log") {
      saw_katz = true;
      EXPECT_EQ(m.delta, 0.0);
      EXPECT_EQ(m.label, "katz_log (delta=0)");
    }
    if (m.name == "bayesian") {
      EXPECT_EQ(m.delta, 1e-5);
      EXPECT_FALSE(m.one_sided);
    }
  }
  EXPECT_TRUE(saw_katz);
  EXPECT_FALSE(MakeCoverageMethods(1.5, 0.1).ok());
}

TEST(ComparePairedWidths, OnlyTrialsWhereBothAreFinite) {
  const PairedWidths p = ComparePairedWidths({0, 0, 0}, {1, kInf, 2}, {0, 0, 0}, {3, 4, kInf});
  EXPECT_EQ(p.both_finite, 1);
  EXPECT_DOUBLE_EQ(p.mean_a, 1.0);
  EXPECT_DOUBLE_EQ(p.mean_b, 3.0);
  EXPECT_DOUBLE_EQ(p.frac_infinite_a, 1.0 / 3);
  EXPECT_DOUBLE_EQ(p.frac_infinite_b, 1.0 / 3);
  EXPECT_TRUE(std::isnan(ComparePairedWidths({0}, {kInf}, {0}, {1}).mean_a));
}

TEST(ComputeCoverage, GridAndTruthAtEachMethodsDelta) {
  const Config c = SmallConfig();
  auto r = ComputeCoverage(c, 42, 2, true);
  ASSERT_TRUE(r.ok()) << r.message();
  const std::vector<CoverageSetting>& s = r->settings;
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].label, "(FPR 0.05, FNR 0.05, n 100)");
  EXPECT_EQ(Positives(s[0]), 50);
  EXPECT_EQ(Negatives(s[0]), 50);
  for (size_t m = 0; m < r->methods.size(); ++m) {
    const MethodRun& d = r->run.data[m];
    EXPECT_EQ(d.upper.empty(), r->methods[m].one_sided);
    for (size_t i = 0; i < s.size(); ++i) {
      EXPECT_EQ(d.stats[i].truth, EpsFromRatesUnchecked(s[i].y, s[i].x, r->methods[m].delta));
    }
    EXPECT_EQ(d.stats[2].truth, 0.0);  // FPR = FNR = 0.5: chance
  }
  for (size_t u = 0; u < r->run.counts[0].size(); ++u) {
    EXPECT_LE(r->run.counts[0][u], Positives(s[u / c.trials]));  // FN
  }
}

}  // namespace
}  // namespace privbench::bayes_coverage
