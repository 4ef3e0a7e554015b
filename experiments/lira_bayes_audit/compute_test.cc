#include "experiments/lira_bayes_audit/compute.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>

#include "attacks/lira.h"
#include "estimators/interval_registry.h"

namespace privbench {
namespace lira_bayes_audit {
namespace {

TEST(PlanGame, BaseExcludesChallengePointsAndIsFixed) {
  const std::vector<int64_t> challenge = {5, 9, 2, 40};
  auto g = PlanGame(64, challenge, 3, 0);
  ASSERT_TRUE(g.ok()) << g.message();
  EXPECT_EQ(g->base.size(), 32u);
  for (int64_t z : challenge) {
    EXPECT_FALSE(std::binary_search(g->base.begin(), g->base.end(), z));
  }
  EXPECT_EQ(std::set<int64_t>(g->base.begin(), g->base.end()).size(), 32u);
  ASSERT_EQ(g->bits.size(), 4u);
  for (int64_t i = 0; i < 4; ++i) {
    const std::vector<int64_t> rows = TargetTrainRows(*g, i);
    const bool has = std::binary_search(rows.begin(), rows.end(), challenge[i]);
    EXPECT_EQ(has, g->bits[i] == 1);
    EXPECT_EQ(rows.size(), 32u + g->bits[i]);
  }
  auto again = PlanGame(64, challenge, 3, 0);
  EXPECT_EQ(again->base, g->base);
  EXPECT_EQ(again->bits, g->bits);
  EXPECT_FALSE(PlanGame(64, {1, 1}, 3, 0).ok());       // not distinct
  EXPECT_FALSE(PlanGame(6, {0, 1, 2, 3}, 3, 0).ok());  // more trials than pool / 2
}

// Shadow m trains on pool point p iff keep[m * P + p]: the IN/OUT labels the
// LiRA statistics are split by are the rows the shadow was trained on.
TEST(ShadowTrainRows, HoldExactlyTheKeptPoolPoints) {
  const int64_t pool = 5, shadows = 3;
  const std::vector<uint8_t> keep = {1, 0, 1, 0, 0,  //
                                     0, 1, 0, 1, 1,  //
                                     0, 0, 0, 0, 0};
  for (int64_t m = 0; m < shadows; ++m) {
    const std::vector<int64_t> rows = ShadowTrainRows(keep, pool, m);
    for (int64_t p = 0; p < pool; ++p) {
      const bool trained = std::find(rows.begin(), rows.end(), p) != rows.end();
      EXPECT_EQ(trained, keep[static_cast<size_t>(m * pool + p)] == 1) << m << " " << p;
    }
  }
  EXPECT_EQ(ShadowTrainRows(keep, pool, 1), (std::vector<int64_t>{1, 3, 4}));
  EXPECT_TRUE(ShadowTrainRows(keep, pool, 2).empty());
}

TEST(PlanGame, MembersAreAboutHalf) {
  std::vector<int64_t> challenge(500);
  for (int64_t i = 0; i < 500; ++i) challenge[i] = i;
  auto g = PlanGame(1000, challenge, 11, 1);
  ASSERT_TRUE(g.ok());
  int members = 0;
  for (uint8_t b : g->bits) members += b;
  EXPECT_NEAR(members, 250, 45);  // Binomial(500, 1/2): 4 sd
}

TEST(SplitHalves, ExactlyHalfAndDeterministic) {
  const std::vector<uint8_t> h = SplitHalves(10, 4);
  EXPECT_EQ(std::count(h.begin(), h.end(), 1), 5);
  EXPECT_EQ(h, SplitHalves(10, 4));
  EXPECT_NE(SplitHalves(100, 4), SplitHalves(100, 5));
}

TEST(ApplicableMethods, SkipsZeroDeltaMethodsAtPositiveDelta) {
  auto at_pos = ApplicableMethods(1e-5);
  auto at_zero = ApplicableMethods(0.0);
  ASSERT_TRUE(at_pos.ok() && at_zero.ok());
  EXPECT_EQ(at_zero->size(), AllIntervalEstimatorNames().size());
  EXPECT_EQ(std::count(at_pos->begin(), at_pos->end(), "katz_log"), 0);
  EXPECT_EQ(std::count(at_pos->begin(), at_pos->end(), "bayesian"), 1);
  EXPECT_EQ(std::count(at_pos->begin(), at_pos->end(), "clopper_pearson"), 1);
}

// Shadows: every point vulnerable (IN ~ N(2, 0.5), OUT ~ N(0, 0.5)).
ShadowScores Shadows(int64_t m, int64_t p) {
  ShadowScores s;
  s.models = m;
  s.points = p;
  s.is_in = *BalancedHalves(m, p, 5);
  std::mt19937_64 rng(9);
  std::normal_distribution<double> z(0.0, 0.5);
  for (size_t i = 0; i < s.is_in.size(); ++i) s.phi.push_back((s.is_in[i] ? 2.0 : 0.0) + z(rng));
  return s;
}

TEST(ScoreTrials, MembersScoreHigher) {
  const ShadowScores s = Shadows(16, 40);
  std::vector<int64_t> challenge;
  for (int64_t i = 0; i < 20; ++i) challenge.push_back(2 * i);
  auto g = PlanGame(40, challenge, 1, 0);
  ASSERT_TRUE(g.ok());
  std::vector<double> phi;
  for (uint8_t b : g->bits) phi.push_back(b ? 2.0 : 0.0);
  auto t = ScoreTrials(s, *g, phi, LiraLocation::kMedian);
  ASSERT_TRUE(t.ok()) << t.message();
  for (size_t i = 0; i < phi.size(); ++i) {
    EXPECT_EQ(t->online[i] > 0, g->bits[i] == 1) << i;
    EXPECT_EQ(t->offline[i] > std::log(0.95), g->bits[i] == 1) << i;
  }
  EXPECT_FALSE(ScoreTrials(s, *g, {1.0}, LiraLocation::kMedian).ok());
  auto grid = BonferroniGrid(s, challenge, LiraLocation::kMedian, 5);
  ASSERT_TRUE(grid.ok());
  EXPECT_EQ(grid->size(), 5u);
  EXPECT_TRUE(std::is_sorted(grid->begin(), grid->end()));
  EXPECT_FALSE(BonferroniGrid(s, challenge, LiraLocation::kMedian, 0).ok());
}

TEST(Estimation, SelectionsAreRecomputableAndOrdered) {
  // 200 trials; members score ~ N(1.5, 1), non-members ~ N(0, 1).
  std::mt19937_64 rng(3);
  std::normal_distribution<double> z(0.0, 1.0);
  std::vector<double> scores;
  std::vector<uint8_t> bits;
  for (int i = 0; i < 200; ++i) {
    bits.push_back(static_cast<uint8_t>(i % 2));
    scores.push_back((i % 2 ? 1.5 : 0.0) + z(rng));
  }
  EstimateOptions o;
  o.threads = 2;
  auto table = EstimateAtEveryThreshold(scores, bits, o);
  ASSERT_TRUE(table.ok()) << table.message();
  EXPECT_EQ(table->roc.points.size(), 201u);
  const std::vector<double> grid = {-1.0, 0.0, 0.5, 1.0, 2.0};
  auto rows = SelectIntervals("s", scores, bits, *table, grid, o);
  ASSERT_TRUE(rows.ok()) << rows.message();
  ASSERT_EQ(rows->size(), 3 * table->methods.size());
  for (const IntervalRow& r : *rows) {
    auto m = MakeIntervalEstimator(r.method);
    auto e = (*m)->Estimate(r.counts, o.delta, r.level_alpha);
    ASSERT_TRUE(e.ok());
    EXPECT_DOUBLE_EQ(e->lower, r.lower) << r.method << " " << r.selection;
    EXPECT_GE(r.upper, r.lower);
    if (r.selection == "bonferroni") {
      EXPECT_DOUBLE_EQ(r.level_alpha, 0.1 / 5);
      EXPECT_NE(std::find(grid.begin(), grid.end(), r.threshold), grid.end());
    }
    if (r.selection == "split_half") {
      EXPECT_EQ(r.counts.tp + r.counts.fn + r.counts.fp + r.counts.tn, 100);
    }
  }
  // The paper's selection maximises over every threshold at level alpha, so its
  // lower bound is at least the Bonferroni one (fewer thresholds, level alpha / G).
  const size_t nm = table->methods.size();
  for (size_t m = 0; m < nm; ++m) {
    EXPECT_EQ((*rows)[m].selection, "max_lower");
    EXPECT_GE((*rows)[m].lower, (*rows)[2 * nm + m].lower) << table->methods[m];
    EXPECT_GT((*rows)[m].lower, 0.5) << table->methods[m];
  }
}

TEST(Accounting, CalibratesTheTargetEpsilon) {
  Config c;
  auto a = CalibrateNoise(c);
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_NEAR(a->epsilon, 8.0, 1e-6);
  EXPECT_EQ(a->n_train, 512);
  EXPECT_DOUBLE_EQ(a->q, 64.0 / 512.0);
  EXPECT_EQ(a->steps, 160);
  EXPECT_GT(a->sigma, 0.5);
  EXPECT_LT(a->sigma, 3.0);
}

TEST(Units, CoverEveryModelOnce) {
  Config c;
  c.shadows = 10;
  c.trials = 6;
  c.models_per_unit = 4;
  const auto s = ShadowUnits(c);
  ASSERT_EQ(s.size(), 6u);  // 2 settings x (4, 4, 2)
  EXPECT_EQ(s[2].count, 2);
  EXPECT_EQ(TargetUnits(c).size(), 4u);
  EXPECT_EQ(UnitId(MakeSettings(c), s[1], "shadows"), "shadows_no_dp_4+4");
  EXPECT_EQ(MakeSettings(c)[1].name, "dp_eps8");
}

}  // namespace
}  // namespace lira_bayes_audit
}  // namespace privbench

namespace privbench {
namespace lira_bayes_audit {
namespace {

// Under the null (scores independent of membership: eps = 0), a valid
// selection puts a positive Clopper-Pearson lower bound at most alpha / 2 of
// the time (one side of a 1 - alpha interval); the paper's selection, the
// maximum over every threshold, does so far more often.
TEST(Estimation, ThePapersSelectionIsNotValidUnderTheNull) {
  constexpr int kReps = 400;
  int positive[3] = {0, 0, 0};
  std::mt19937_64 rng(17);
  std::normal_distribution<double> z(0.0, 1.0);
  EstimateOptions o;
  auto cp = MakeIntervalEstimator("clopper_pearson");
  ASSERT_TRUE(cp.ok());
  for (int rep = 0; rep < kReps; ++rep) {
    std::vector<double> scores;
    std::vector<uint8_t> bits;
    for (int i = 0; i < 256; ++i) {
      bits.push_back(static_cast<uint8_t>(rng() >> 63));
      scores.push_back(z(rng));
    }
    std::vector<double> member, non;
    for (size_t i = 0; i < bits.size(); ++i) (bits[i] ? member : non).push_back(scores[i]);
    RocTable t;
    t.roc = *ComputeRoc(member, non);
    t.methods = {"clopper_pearson"};
    t.lower.assign(1, {});
    t.upper.assign(1, {});
    for (const OperatingPoint& p : t.roc.points) {
      auto e = (*cp)->Estimate(p.counts, o.delta, o.alpha);
      ASSERT_TRUE(e.ok());
      t.lower[0].push_back(e->lower);
      t.upper[0].push_back(*e->upper);
    }
    o.split_seed = static_cast<uint64_t>(rep);
    auto rows = SelectIntervals("null", scores, bits, t, {-1.0, -0.5, 0.0, 0.5, 1.0}, o);
    ASSERT_TRUE(rows.ok()) << rows.message();
    for (size_t k = 0; k < 3; ++k) positive[k] += (*rows)[k].lower > 0;
  }
  // max_lower, split_half, bonferroni.
  // alpha / 2 = 5% of 400 is 20 (sd 4.4): more than 20 + 3 sd is a miss rate above nominal.
  EXPECT_GT(positive[0], 33) << "max_lower";
  EXPECT_LE(positive[1], kReps / 10) << "split_half";  // binomial slack over 5%
  EXPECT_LE(positive[2], kReps / 10) << "bonferroni";
  std::printf("null: positive CP lower bounds in %d / %d / %d of %d (max_lower / split / bonf)\n",
              positive[0], positive[1], positive[2], kReps);
}

}  // namespace
}  // namespace lira_bayes_audit
}  // namespace privbench
