#include "experiments/region_of_privacy/compute.h"

#include <gtest/gtest.h>

#include <cmath>

namespace privbench {
namespace region_of_privacy {
namespace {

TEST(SummariseRate, BinomialFloorWithOneRepetition) {
  auto s = SummariseRate({0.05}, 10000);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_DOUBLE_EQ(s->mean, 0.05);
  EXPECT_DOUBLE_EQ(s->sd, 0.0);
  EXPECT_NEAR(s->se, std::sqrt(0.05 * 0.95 / 10000), 1e-15);
}

TEST(SummariseRate, BetweenRepetitionSdWhenLarger) {
  auto s = SummariseRate({0.1, 0.3}, 10000);
  ASSERT_TRUE(s.ok());
  EXPECT_DOUBLE_EQ(s->mean, 0.2);
  EXPECT_NEAR(s->sd, std::sqrt(0.02), 1e-15);
  EXPECT_NEAR(s->se, std::sqrt(0.02) / std::sqrt(2.0), 1e-15);
}

TEST(SummariseRate, RejectsBadInput) {
  EXPECT_EQ(SummariseRate({}, 10).message(), "values must be non-empty");
  EXPECT_EQ(SummariseRate({0.5}, 0).message(), "n must be >= 1, got 0");
  EXPECT_EQ(SummariseRate({1.5}, 10).message(), "values must be in [0, 1], got 1.5");
}

TEST(CheckRisesAsNoiseFalls, StrictRiseHolds) {
  auto c = CheckRisesAsNoiseFalls({100, 10, 1}, {0.01, 0.2, 0.9}, {0.01, 0.01, 0.01}, "acc", 100);
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_TRUE(c->holds);
  EXPECT_TRUE(c->strictly_increasing);
  EXPECT_NE(c->evidence.find("sigma 100: 1.00 +- 1.00"), std::string::npos) << c->evidence;
}

TEST(CheckRisesAsNoiseFalls, DipWithinNoiseStillHoldsButIsNotStrict) {
  // 0.050 -> 0.049 is a drop of 0.001 < 2 * sqrt(2) * 0.002.
  auto c =
      CheckRisesAsNoiseFalls({100, 10, 1}, {0.050, 0.049, 0.09}, {0.002, 0.002, 0.002}, "tpr", 100);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->holds);
  EXPECT_FALSE(c->strictly_increasing);
}

TEST(CheckRisesAsNoiseFalls, SignificantDropFails) {
  auto c = CheckRisesAsNoiseFalls({100, 10, 1}, {0.05, 0.30, 0.20}, {0.01, 0.01, 0.01}, "acc", 100);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->holds);
  EXPECT_NE(c->evidence.find("sigma 10 -> 1 drops by 10.00"), std::string::npos) << c->evidence;
}

TEST(CheckRisesAsNoiseFalls, FlatWithinNoiseFails) {
  // No overall rise beyond 2 se: (b) fails.
  auto c = CheckRisesAsNoiseFalls({100, 1}, {0.050, 0.052}, {0.002, 0.002}, "tpr", 100);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->holds);
  EXPECT_TRUE(c->strictly_increasing);
}

// The trend test: endpoints decide (z = (0.09 - 0.05) / sqrt(2) / 0.01 =
// 2.83, one-sided p 0.0023 <= 0.05); a dip at the last step is reported,
// not judged.
TEST(CheckTrendRisesAsNoiseFalls, SignificantRiseHoldsDespiteALastStepDip) {
  auto c = CheckTrendRisesAsNoiseFalls({100, 10, 1}, {0.05, 0.10, 0.09}, {0.01, 0.01, 0.01}, "tpr",
                                       100, 0.05, 0);
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_TRUE(c->holds) << c->evidence;
  EXPECT_FALSE(c->inconclusive);
  EXPECT_NEAR(c->z, 0.04 / (std::sqrt(2.0) * 0.01), 1e-12);
  EXPECT_NEAR(c->p_rise, 0.5 * std::erfc(c->z / std::sqrt(2.0)), 1e-15);
  EXPECT_DOUBLE_EQ(c->holds_fraction, 0.5);  // 1 of 2 steps rises
  EXPECT_NE(c->evidence.find("sigma 10 -> 1: -1.00 (z -0.71)"), std::string::npos) << c->evidence;
  EXPECT_NE(c->evidence.find("1 of 2 steps rise"), std::string::npos) << c->evidence;
}

// With 2 repetitions (1 degree of freedom) the same z = 2.83 is not
// significant: P(T_1 >= 2.83) = 0.108.
TEST(CheckTrendRisesAsNoiseFalls, FewRepetitionsReferToStudentsT) {
  auto c = CheckTrendRisesAsNoiseFalls({100, 10, 1}, {0.05, 0.10, 0.09}, {0.01, 0.01, 0.01}, "tpr",
                                       100, 0.05, 1);
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_NEAR(c->p_rise, 0.5 - std::atan(c->z) / M_PI, 1e-12);  // t_1 is Cauchy
  EXPECT_TRUE(c->inconclusive) << c->evidence;
  EXPECT_NE(c->evidence.find("Student's t, 1 df"), std::string::npos) << c->evidence;
}

TEST(CheckTrendRisesAsNoiseFalls, UndecidedIsInconclusiveAndAFallDoesNotHold) {
  // z = 0.01 / (sqrt(2) 0.01) = 0.71: neither direction at 0.05.
  auto flat = CheckTrendRisesAsNoiseFalls({100, 1}, {0.05, 0.06}, {0.01, 0.01}, "t", 100, 0.05, 0);
  ASSERT_TRUE(flat.ok());
  EXPECT_TRUE(flat->inconclusive);
  EXPECT_FALSE(flat->holds);
  auto fall = CheckTrendRisesAsNoiseFalls({100, 1}, {0.09, 0.05}, {0.01, 0.01}, "t", 100, 0.05, 0);
  ASSERT_TRUE(fall.ok());
  EXPECT_FALSE(fall->inconclusive);
  EXPECT_FALSE(fall->holds);
  EXPECT_FALSE(CheckTrendRisesAsNoiseFalls({100, 1}, {0.05, 0.06}, {0.01}, "t", 100, 0.05, 0).ok());
  EXPECT_FALSE(
      CheckTrendRisesAsNoiseFalls({100, 1}, {0.05, 0.06}, {0.01, 0.01}, "t", 100, 0, 0).ok());
}

TEST(CheckRisesAsNoiseFalls, RejectsBadShapes) {
  EXPECT_FALSE(CheckRisesAsNoiseFalls({1}, {0.5}, {0.1}, "x", 1).ok());
  EXPECT_EQ(CheckRisesAsNoiseFalls({2, 1}, {0.5}, {0.1, 0.1}, "x", 1).message(),
            "x: 1 values for 2 noise levels");
  EXPECT_FALSE(CheckRisesAsNoiseFalls({2, 1}, {0.5, NAN}, {0.1, 0.1}, "x", 1).ok());
  EXPECT_FALSE(CheckRisesAsNoiseFalls({2, 1}, {0.5, 0.6}, {0.1, -0.1}, "x", 1).ok());
}

TEST(CheckBelow, HoldsAndReportsTheSmallestRatio) {
  auto c = CheckBelow({10, 1}, {0.01, 0.5}, {0.05, 10.0}, "lo", "up");
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_TRUE(c->holds);
  EXPECT_DOUBLE_EQ(c->min_ratio, 5.0);
}

TEST(CheckBelow, ZeroLowerBoundHasInfiniteRatio) {
  auto c = CheckBelow({10, 1}, {0.0, 0.0}, {0.05, 10.0}, "lo", "up");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->holds);
  EXPECT_TRUE(std::isinf(c->min_ratio));
}

TEST(CheckBelow, ViolationIsReported) {
  auto c = CheckBelow({10, 1}, {0.1, 0.5}, {0.05, 10.0}, "lo", "up");
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->holds);
  EXPECT_NE(c->evidence.find("VIOLATED"), std::string::npos);
  EXPECT_FALSE(CheckBelow({10, 1}, {0.1, NAN}, {0.05, 10.0}, "lo", "up").ok());
}

// Smirnov's limit: mean sqrt(pi/8) and tail exp(-2 x^2) of sup of a
// Brownian bridge, scaled by sqrt((m+n)/(mn)).
TEST(NullBestAdvantage, KnownValuesForTenThousandEach) {
  auto mean = NullMeanBestAdvantage(10000, 10000);
  ASSERT_TRUE(mean.ok());
  EXPECT_NEAR(*mean, 0.626657 * std::sqrt(2e-4), 1e-6);  // 0.008862
  auto q = NullQuantileBestAdvantage(10000, 10000, 0.95);
  ASSERT_TRUE(q.ok());
  EXPECT_NEAR(*q, std::sqrt(std::log(20.0) / 2.0) * std::sqrt(2e-4), 1e-12);  // 0.01731
  EXPECT_FALSE(NullMeanBestAdvantage(0, 10).ok());
  EXPECT_FALSE(NullQuantileBestAdvantage(10, 10, 1.0).ok());
}

TEST(NoiseText, ShortestRoundTrip) {
  EXPECT_EQ(NoiseText(136.67), "136.67");
  EXPECT_EQ(NoiseText(0.44), "0.44");
  EXPECT_EQ(NoiseText(1.0), "1");
}

TEST(SummariseRate, MeanAndSdAsCoreStats) {
  // Three repetitions: sd = sqrt(((0.1-0.2)^2 + 0 + (0.3-0.2)^2) / 2) = 0.1.
  auto s = SummariseRate({0.1, 0.2, 0.3}, 100);
  ASSERT_TRUE(s.ok());
  EXPECT_NEAR(s->mean, 0.2, 1e-15);
  EXPECT_NEAR(s->sd, 0.1, 1e-15);
  EXPECT_NEAR(s->se, 0.1 / std::sqrt(3.0), 1e-15);
}

TEST(Units, SortedNoiseIsLargestFirst) {
  EXPECT_EQ(SortedNoise({1.06, 136.67, 0.44, 13.76}),
            (std::vector<double>{136.67, 13.76, 1.06, 0.44}));
}

TEST(Units, RepetitionMajorWithTheBaselineFirst) {
  const std::vector<UnitKey> keys = MakeUnits(2, 2);
  ASSERT_EQ(keys.size(), 6u);
  const std::vector<double> noise = {13.76, 0.44};
  std::vector<std::string> ids;
  for (const UnitKey& k : keys) ids.push_back(UnitId(noise, k));
  EXPECT_EQ(ids,
            (std::vector<std::string>{"baseline_rep=0", "sigma=13.76_rep=0", "sigma=0.44_rep=0",
                                      "baseline_rep=1", "sigma=13.76_rep=1", "sigma=0.44_rep=1"}));
}

TEST(AttackModel, SeparatedLossesGiveFullAdvantage) {
  // Every member loss below every non-member loss: the best threshold
  // separates them (advantage 1, so Prop. 3 is infinite at delta 0).
  auto a = AttackModel({0.1, 0.2, 0.3, 0.4}, {1.0, 2.0, 3.0, 4.0}, 0.05, 1e-5);
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_DOUBLE_EQ(a->best_advantage, 1.0);
  EXPECT_DOUBLE_EQ(a->best_tpr, 1.0);
  EXPECT_DOUBLE_EQ(a->best_fpr, 0.0);
  EXPECT_DOUBLE_EQ(a->tpr_at_target, 1.0);
  EXPECT_DOUBLE_EQ(a->members_recovered, 4.0);
  EXPECT_DOUBLE_EQ(a->auc, 1.0);
}

TEST(AttackModel, Prop3LowerBoundOfTheAdvantage) {
  // Members {0.1, 0.3}, non-members {0.2, 0.4}: best advantage 1/2.
  auto a = AttackModel({0.1, 0.3}, {0.2, 0.4}, 0.05, 1e-5);
  ASSERT_TRUE(a.ok());
  EXPECT_DOUBLE_EQ(a->best_advantage, 0.5);
  EXPECT_NEAR(a->eps_lower_best, std::log((1 - 1e-5) / 0.5), 1e-12);
  EXPECT_FALSE(AttackModel({}, {0.2}, 0.05, 1e-5).ok());
}

// A grid of one private level and the baseline, two repetitions each.
ModelGrid TwoLevelGrid() {
  ModelGrid g(2, std::vector<Model>(2));
  const double acc[2][2] = {{0.9, 0.8}, {0.4, 0.6}};
  const double tpr[2][2] = {{0.2, 0.3}, {0.06, 0.04}};
  const double best[2][2] = {{0.5, 0.3}, {0.1, 0.2}};
  for (int l = 0; l < 2; ++l) {
    for (int r = 0; r < 2; ++r) {
      Model& m = g[l][r];
      m.train_accuracy = acc[l][r];
      m.population_accuracy = acc[l][r] / 2;
      m.train_loss = {1.0 + l, 3.0 + l};
      m.attack.tpr_at_target = tpr[l][r];
      m.attack.fpr_at_target = 0.05;
      m.attack.best_advantage = best[l][r];
      m.attack.eps_lower_best = best[l][r] + r;
      m.attack.members_recovered = 100.0 * tpr[l][r];
    }
  }
  return g;
}

Bounds FixedBounds() {
  Bounds b;
  for (const char* name : {"naive", "advanced", "zcdp", "rdp", "pld"}) b.table_one[name] = 10.0;
  b.table_one["rdp"] = 2.0;
  b.rdp_default = 1.5;
  return b;
}

TEST(Aggregate, MeansOverRepetitionsAndRelativeAccuracy) {
  auto a = Aggregate(TwoLevelGrid(), {FixedBounds()}, 100, 100, 1e-5);
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_NEAR(a->base_acc.mean, 0.85, 1e-15);
  EXPECT_NEAR(a->base_population_accuracy, 0.425, 1e-15);
  ASSERT_EQ(a->acc_mean.size(), 1u);
  EXPECT_NEAR(a->acc_mean[0], 0.5, 1e-15);
  EXPECT_NEAR(a->acc_rel[0], 0.5 / 0.85, 1e-15);
  EXPECT_NEAR(a->tpr_mean[0], 0.05, 1e-15);
  EXPECT_NEAR(a->loss_mean[0], 3.0, 1e-15);  // mean of the mean train losses (2 + 4) / 2
  EXPECT_NEAR(a->best_mean[0], 0.15, 1e-15);
  EXPECT_NEAR(a->target_adv_mean[0], 0.0, 1e-15);
  EXPECT_NEAR(a->recovered[0], 5.0, 1e-12);
  EXPECT_NEAR(a->eps_lo_best[0], std::log((1 - 1e-5) / 0.85), 1e-12);
  EXPECT_DOUBLE_EQ(a->eps_lo_best_max_rep[0], 1.2);  // max(0.1 + 0, 0.2 + 1)
  EXPECT_DOUBLE_EQ(a->eps_rdp[0], 2.0);
  EXPECT_DOUBLE_EQ(a->eps_rdp_best[0], 1.5);  // the smaller of the two order lists
  EXPECT_DOUBLE_EQ(a->eps_naive[0], 10.0);
}

TEST(Aggregate, NeedsOneBoundPerPrivateLevel) {
  EXPECT_FALSE(Aggregate(TwoLevelGrid(), {}, 100, 100, 1e-5).ok());
}

TEST(AccountLevels, RefusesRepetitionsWithDifferentSteps) {
  ModelGrid g = TwoLevelGrid();
  for (Model& m : g[1]) {
    m.eps_reportable = true;
    m.q = 0.02;
    m.steps = 100;
    m.accounting_sigma = 1.0;
  }
  auto ok = AccountLevels(g, {1.0}, 1e-5);
  ASSERT_TRUE(ok.ok()) << ok.message();
  ASSERT_EQ(ok->size(), 1u);
  // The region uses the smaller RDP bound; RDP beats naive composition.
  EXPECT_LE((*ok)[0].rdp_best(), (*ok)[0].table_one.at("rdp"));
  EXPECT_LT((*ok)[0].table_one.at("rdp"), (*ok)[0].table_one.at("naive"));
  g[1][1].steps = 101;
  EXPECT_FALSE(AccountLevels(g, {1.0}, 1e-5).ok());
  g[1][1].steps = 100;
  g[1][1].eps_reportable = false;
  EXPECT_FALSE(AccountLevels(g, {1.0}, 1e-5).ok());
}

}  // namespace
}  // namespace region_of_privacy
}  // namespace privbench
