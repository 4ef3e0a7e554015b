#include "experiments/katz_coverage/compute.h"

#include <cmath>
#include <limits>
#include <vector>

#include "estimators/intervals/katz_log.h"
#include "experiments/katz_coverage/config.h"
#include "gtest/gtest.h"

namespace privbench::katz_coverage {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Config SmallConfig() {
  Config c;
  c.p1 = {0.5, 0.2};
  c.p0 = {0.05, 0.2};
  c.n = {50, 200};
  c.trials = 30;
  return c;
}

TEST(Defaults, GridOfTheStudy) {
  EXPECT_EQ(DefaultRatioPairs().size(), 5u);
  EXPECT_EQ(DefaultRatioPairs()[0].p1, 0.5);
  EXPECT_EQ(DefaultRatioPairs()[0].p0, 0.05);
  EXPECT_EQ(DefaultSamplesPerSide(), (std::vector<int64_t>{100, 1000, 10000}));
}

TEST(MakeRatioSettings, PairMajorWithTarget) {
  const std::vector<RatioSetting> s = MakeRatioSettings(SmallConfig());
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[1].pair, 0);
  EXPECT_EQ(s[1].n, 200);
  EXPECT_EQ(s[2].pair, 1);
  EXPECT_DOUBLE_EQ(s[0].target(), std::log(10.0));
  EXPECT_EQ(s[3].target(), 0.0);
  EXPECT_EQ(s[0].Label(), "(p1 0.5, p0 0.05, N 50)");
}

TEST(MakeRatioMethods, NominalLevels) {
  auto m = MakeRatioMethods(0.05);
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m->size(), 4u);
  EXPECT_EQ((*m)[0].name, "katz_log");
  EXPECT_DOUBLE_EQ((*m)[0].nominal, 0.975);
  EXPECT_DOUBLE_EQ((*m)[1].nominal, 0.95);
  EXPECT_DOUBLE_EQ((*m)[2].nominal, 0.95);
  EXPECT_DOUBLE_EQ((*m)[3].nominal, 0.975);
  EXPECT_FALSE((*m)[0].guaranteed);
  EXPECT_TRUE((*m)[2].guaranteed);
  EXPECT_FALSE(MakeRatioMethods(1.0).ok());
  EXPECT_FALSE(MakeRatioBoundConstants(0.0).ok());
}

TEST(RatioLowerBounds, AgreesWithTheLibraryAndTheUncheckedPath) {
  auto k = MakeRatioBoundConstants(0.05);
  ASSERT_TRUE(k.ok());
  for (const auto& [n1, n0] :
       std::vector<std::pair<int64_t, int64_t>>{{60, 5}, {30, 30}, {100, 0}}) {
    auto b = RatioLowerBounds(n1, n0, 100, 0.05);
    ASSERT_TRUE(b.ok()) << b.message();
    ASSERT_EQ(b->size(), 4u);
    EXPECT_EQ(*b, RatioLowerBoundsUnchecked(n1, n0, 100, *k));
    EXPECT_NEAR(std::max(0.0, (*b)[0]), *KatzLogEpsLowerBound(n1, n0, 100, 0.05), 1e-12);
    EXPECT_LE((*b)[0], (*b)[1]);  // z_{alpha/2} below z_alpha
    EXPECT_LE((*b)[3], (*b)[2]);  // alpha/4 limits below alpha/2 ones
  }
  EXPECT_FALSE(RatioLowerBounds(101, 5, 100, 0.05).ok());
}

TEST(RatioLowerBounds, NoSuccessesOnDGivesMinusInfinity) {
  auto b = RatioLowerBounds(0, 5, 100, 0.05);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)[0], -kInf);
  EXPECT_EQ((*b)[2], -kInf);
  EXPECT_EQ((*b)[3], -kInf);
}

TEST(SummarizeRatioBounds, CoverageTightnessVacuous) {
  // target 1: covering -inf, 0.5, 1.0; missing 2.0.
  const RatioCoverageStats s =
      SummarizeRatioBounds(xt::xtensor<double, 1>{-kInf, 0.5, 1.0, 2.0}, 1.0);
  EXPECT_EQ(s.trials, 4);
  EXPECT_DOUBLE_EQ(s.coverage, 0.75);
  EXPECT_DOUBLE_EQ(s.frac_vacuous, 0.25);
  EXPECT_DOUBLE_EQ(s.mean_eps_bound, 3.5 / 4);
  EXPECT_DOUBLE_EQ(s.median_eps_bound, 0.75);
  EXPECT_DOUBLE_EQ(s.mean_eps_bound_covering, 1.5 / 3);
  EXPECT_DOUBLE_EQ(s.se, std::sqrt(0.75 * 0.25 / 4));
  EXPECT_TRUE(
      std::isnan(SummarizeRatioBounds(xt::xtensor<double, 1>{2.0}, 1.0).mean_eps_bound_covering));
}

TEST(RunRatioTrials, DoesNotDependOnThreads) {
  const Config c = SmallConfig();
  const auto settings = MakeRatioSettings(c);
  auto methods = MakeRatioMethods(c.alpha);
  ASSERT_TRUE(methods.ok());
  auto one = RunRatioTrials(c, settings, *methods, 5, 1, true);
  auto two = RunRatioTrials(c, settings, *methods, 5, 2, true);
  ASSERT_TRUE(one.ok());
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(one->n1, two->n1);
  EXPECT_EQ(one->n0, two->n0);
  for (size_t m = 0; m < methods->size(); ++m) {
    EXPECT_EQ(one->data[m].bounds, two->data[m].bounds);
    EXPECT_EQ(one->data[m].bounds.size(), settings.size() * c.trials);
  }
  for (size_t u = 0; u < one->n1.size(); ++u) {
    EXPECT_LE(one->n1.flat(u), settings[u / c.trials].n);
    EXPECT_LE(one->n0.flat(u), settings[u / c.trials].n);
  }
}

TEST(SummarizeRatioCoverage, OneEntryPerSetting) {
  const Config c = SmallConfig();
  const auto settings = MakeRatioSettings(c);
  auto methods = MakeRatioMethods(c.alpha);
  ASSERT_TRUE(methods.ok());
  auto run = RunRatioTrials(c, settings, *methods, 9, 2, true);
  ASSERT_TRUE(run.ok());
  SummarizeRatioCoverage(settings, *methods, c.trials, &run.value());
  for (const RatioMethodData& d : run->data) {
    ASSERT_EQ(d.stats.size(), settings.size());
    ASSERT_EQ(d.classes.size(), settings.size());
    for (const RatioCoverageStats& s : d.stats) EXPECT_EQ(s.trials, c.trials);
  }
}

TEST(DetectionCeiling, KatzAtOneEqualsCorollary) {
  Config c = SmallConfig();
  c.n = {1, 100};
  auto rows = DetectionCeiling(c);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 4u);  // (1, 1), (1, 0), (100, 1), (100, 0)
  EXPECT_EQ((*rows)[2].n, 100);
  EXPECT_EQ((*rows)[2].n0, 1);
  EXPECT_NEAR((*rows)[2].bounds[0], (*rows)[2].corollary, 1e-12);
  EXPECT_EQ((*rows)[3].n0, 0);
}

}  // namespace
}  // namespace privbench::katz_coverage
