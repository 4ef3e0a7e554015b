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

TEST(MakeCoverageSettings, PairMajor) {
  const std::vector<CoverageSetting> s = MakeCoverageSettings(SmallConfig());
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[1].pair, 0);
  EXPECT_EQ(s[1].n, 200);
  EXPECT_EQ(s[2].pair, 1);
  EXPECT_EQ(s[2].fpr, 0.5);
  EXPECT_EQ(s[0].positives(), 50);
  EXPECT_EQ(s[0].negatives(), 50);
  EXPECT_EQ(s[0].Label(), "(FPR 0.05, FNR 0.05, n 100)");
}

TEST(MakeCoverageMethods, EveryRegisteredEstimator) {
  auto methods = MakeCoverageMethods(1e-5);
  ASSERT_TRUE(methods.ok());
  bool saw_katz = false;
  for (const CoverageMethod& m : *methods) {
    EXPECT_NE(m.estimator, nullptr);
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
  EXPECT_FALSE(MakeCoverageMethods(1.5).ok());
}

TEST(IntervalCovers, TwoAndOneSided) {
  const double up = 2.0;
  EXPECT_TRUE(IntervalCovers(1.0, &up, 1.5));
  EXPECT_TRUE(IntervalCovers(1.0, &up, 2.0));
  EXPECT_FALSE(IntervalCovers(1.0, &up, 2.5));
  EXPECT_FALSE(IntervalCovers(1.0, &up, 0.5));
  EXPECT_TRUE(IntervalCovers(1.0, nullptr, 9.0));
}

TEST(SummarizeIntervals, TwoSided) {
  // truth 1: covered, above the truth, below the truth, infinite and covering.
  const std::vector<double> lo = {0.5, 1.5, 0.0, 0.8};
  const std::vector<double> hi = {2.0, 3.0, 0.9, kInf};
  const IntervalCoverageStats s = SummarizeIntervals(lo, hi, 1.0);
  EXPECT_EQ(s.trials, 4);
  EXPECT_DOUBLE_EQ(s.coverage, 0.5);
  EXPECT_DOUBLE_EQ(s.miss_low, 0.25);
  EXPECT_DOUBLE_EQ(s.miss_high, 0.25);
  EXPECT_EQ(s.infinite, 1);
  EXPECT_DOUBLE_EQ(s.frac_infinite, 0.25);
  EXPECT_DOUBLE_EQ(s.mean_width, (1.5 + 1.5 + 0.9) / 3);
  EXPECT_DOUBLE_EQ(s.mean_lower, 2.8 / 4);
  EXPECT_DOUBLE_EQ(s.median_lower, 0.65);  // mean of the two middle values
  EXPECT_DOUBLE_EQ(s.se, std::sqrt(0.25 / 4));
}

TEST(SummarizeIntervals, OneSidedHasNoWidth) {
  const IntervalCoverageStats s = SummarizeIntervals({0.5, 2.0, 0.1}, {}, 1.0);
  EXPECT_DOUBLE_EQ(s.coverage, 2.0 / 3);
  EXPECT_EQ(s.miss_high, 0.0);
  EXPECT_TRUE(std::isnan(s.mean_width));
  EXPECT_DOUBLE_EQ(s.median_lower, 0.5);
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

TEST(Row, SliceOfASettingMajorArray) {
  EXPECT_EQ(Row({1, 2, 3, 4, 5, 6}, 1, 3), (std::vector<double>{4, 5, 6}));
}

TEST(RunCoverageTrials, DoesNotDependOnThreads) {
  const Config c = SmallConfig();
  const auto settings = MakeCoverageSettings(c);
  auto methods = MakeCoverageMethods(c.delta);
  ASSERT_TRUE(methods.ok());
  auto one = RunCoverageTrials(c, settings, *methods, 42, 1, true);
  auto two = RunCoverageTrials(c, settings, *methods, 42, 2, true);
  ASSERT_TRUE(one.ok());
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(one->fn, two->fn);
  EXPECT_EQ(one->fp, two->fp);
  ASSERT_EQ(one->data.size(), methods->size());
  for (size_t m = 0; m < methods->size(); ++m) {
    EXPECT_EQ(one->data[m].lower, two->data[m].lower);
    EXPECT_EQ(one->data[m].upper, two->data[m].upper);
    EXPECT_EQ(one->data[m].lower.size(), settings.size() * c.trials);
    EXPECT_EQ(one->data[m].upper.empty(), (*methods)[m].one_sided);
  }
  for (size_t u = 0; u < one->fn.size(); ++u) {
    const int64_t n = settings[u / c.trials].n;
    EXPECT_GE(one->fn[u], 0);
    EXPECT_LE(one->fn[u], n / 2);
  }
}

TEST(SummarizeCoverage, TruthAtEachMethodsDelta) {
  const Config c = SmallConfig();
  const auto settings = MakeCoverageSettings(c);
  auto methods = MakeCoverageMethods(c.delta);
  ASSERT_TRUE(methods.ok());
  auto run = RunCoverageTrials(c, settings, *methods, 7, 2, true);
  ASSERT_TRUE(run.ok());
  SummarizeCoverage(c, settings, *methods, &run.value());
  for (size_t m = 0; m < methods->size(); ++m) {
    const MethodData& d = run->data[m];
    ASSERT_EQ(d.stats.size(), settings.size());
    ASSERT_EQ(d.classes.size(), settings.size());
    for (size_t s = 0; s < settings.size(); ++s) {
      EXPECT_EQ(d.truth[s],
                EpsFromRatesUnchecked(settings[s].fnr, settings[s].fpr, (*methods)[m].delta));
      EXPECT_EQ(d.stats[s].trials, c.trials);
      EXPECT_GE(d.stats[s].coverage, 0.0);
      EXPECT_LE(d.stats[s].coverage, 1.0);
    }
    EXPECT_EQ(d.truth[2], 0.0);  // FPR = FNR = 0.5: chance
  }
}

}  // namespace
}  // namespace privbench::bayes_coverage
