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
  EXPECT_TRUE((*m)[3].one_sided);
  EXPECT_EQ((*m)[3].label, "clopper_pearson_ratio_strict");
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

TEST(ComputeRatioCoverage, GridTargetAndBounds) {
  const Config c = SmallConfig();
  auto r = ComputeRatioCoverage(c, 5, 2, true);
  ASSERT_TRUE(r.ok()) << r.message();
  const std::vector<CoverageSetting>& s = r->settings;
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].label, "(p1 0.5, p0 0.05, N 50)");
  EXPECT_DOUBLE_EQ(LogRatio(s[0]), std::log(10.0));
  EXPECT_EQ(LogRatio(s[3]), 0.0);
  ASSERT_EQ(r->run.data.size(), 4u);
  for (const MethodRun& d : r->run.data) {
    for (size_t i = 0; i < s.size(); ++i) EXPECT_EQ(d.stats[i].truth, LogRatio(s[i]));
  }
  // Every trial's bounds are those of its counts (n1, n0).
  for (size_t u : {size_t{0}, size_t{31}, size_t{119}}) {
    auto b = RatioLowerBounds(r->run.counts[0][u], r->run.counts[1][u], s[u / c.trials].n, c.alpha);
    ASSERT_TRUE(b.ok());
    for (size_t m = 0; m < 4; ++m) EXPECT_EQ(r->run.data[m].lower[u], (*b)[m]);
  }
  EXPECT_EQ(r->ceiling.size(), 4u);
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
