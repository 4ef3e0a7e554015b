#include "experiments/published_examples/compute.h"

#include <cmath>

#include "estimators/accountants/accountant_registry.h"
#include "estimators/interval_registry.h"
#include "gtest/gtest.h"

namespace privbench::published_examples {
namespace {

TEST(EstimateWithEvery, OneRowPerRegisteredEstimator) {
  const ConfusionCounts c{65, 35, 25, 75};
  auto every = EstimateWithEvery(c, 0.05, 0.05);
  ASSERT_TRUE(every.ok()) << every.message();
  const auto names = AllIntervalEstimatorNames();
  ASSERT_EQ(every->method, names);
  ASSERT_EQ(every->lower.size(), names.size());
  ASSERT_EQ(every->kind.size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    auto est = MakeIntervalEstimator(names[i]);
    ASSERT_TRUE(est.ok());
    if ((*est)->requires_zero_delta()) {
      EXPECT_EQ(every->kind[i], "n/a: defined for delta = 0 only");
      EXPECT_TRUE(std::isnan(every->lower[i]));
    } else if ((*est)->one_sided()) {
      EXPECT_EQ(every->kind[i], "one-sided lower bound");
      EXPECT_TRUE(std::isnan(every->upper[i]));
    } else {
      EXPECT_EQ(every->kind[i], "two-sided");
      EXPECT_LT(every->lower[i], every->upper[i]);
    }
  }
}

// The published values these must come near are in
// experiments/published_examples/claims.json; here only what they are made of.
TEST(ComputeWorkedExample, PaperIntervalsAndMasses) {
  auto w = ComputeWorkedExample();
  ASSERT_TRUE(w.ok()) << w.message();
  EXPECT_EQ(w->paper.method, (std::vector<std::string>{"bayesian", "jeffreys", "clopper_pearson"}));
  // Sec. 3.2: Bayesian [0.522, 1.268], CP [0.295, 1.489]; the Bayesian
  // interval is the narrowest.
  EXPECT_NEAR(w->paper.interval[0].lower, 0.522, 0.002);
  EXPECT_NEAR(w->paper.interval[2].lower, 0.295, 0.002);
  EXPECT_NEAR(*w->paper.interval[2].upper, 1.489, 0.002);
  // The rectangle of per-rate intervals at alpha/2 = 0.025 has mass
  // (1 - 0.025)^2 by construction.
  EXPECT_NEAR(w->rectangle_mass, 100 * 0.975 * 0.975, 0.01);
  EXPECT_GT(w->region_mass, w->rectangle_mass);
  EXPECT_LT(w->region_mass, 100.0);
}

TEST(ComputeFootnoteOne, CornerAndDroppedTerm) {
  const FootnoteOne f = ComputeFootnoteOne();
  EXPECT_EQ(f.box.fpr_lo, 0.0);
  EXPECT_NEAR(f.corner, 3.124, 0.002);
  EXPECT_NEAR(f.dropped_term, 1.736, 0.002);
  EXPECT_DOUBLE_EQ(f.dropped_term, std::log((1.0 - 1e-5) / f.box.fnr_hi));
  EXPECT_LE(f.exact_min, f.corner);
}

TEST(ComputePerfectAttack, MoreTrialsGiveHigherBounds) {
  auto p = ComputePerfectAttack();
  ASSERT_TRUE(p.ok()) << p.message();
  ASSERT_EQ(p->method.size(), 8u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(p->trials[i], 1000);
    EXPECT_EQ(p->trials[i + 4], 2000);
    EXPECT_EQ(p->method[i], p->method[i + 4]);
    EXPECT_LT(p->lower[i], p->lower[i + 4]) << p->method[i];
  }
  EXPECT_NEAR(p->lower[4], 5.6, 0.01);  // two-sided CP at 2000 trials (fn. 3)
}

TEST(ComputeReadmeExample, RectangleMethodsAreUnbounded) {
  auto r = ComputeReadmeExample();
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_TRUE(std::isinf(*r->paper.interval[1].upper));  // jeffreys
  EXPECT_TRUE(std::isinf(*r->paper.interval[2].upper));  // clopper_pearson
  EXPECT_TRUE(std::isfinite(*r->paper.interval[0].upper));
}

TEST(ComputeCeilingAndAdvantage, TableTwoRows) {
  auto c = ComputeCeilingAndAdvantage();
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_NEAR(c->katz_ceiling, 7.25, 0.002);
  ASSERT_EQ(c->eps_lower.size(), 5u);
  ASSERT_EQ(c->noise_multiplier.size(), 5u);
  EXPECT_NEAR(c->eps_lower[0], 0.0, 1e-4);  // TPR = FPR: no advantage
  for (size_t i = 1; i < 5; ++i) EXPECT_GT(c->eps_lower[i], c->eps_lower[i - 1]);
}

TEST(ComputeAccountantTable, EveryAccountantAtEveryMultiplier) {
  auto a = ComputeAccountantTable();
  ASSERT_TRUE(a.ok()) << a.message();
  const auto names = UpperBoundAccountantNames();
  ASSERT_EQ(a->row.size(), 5 * names.size());
  for (size_t i = 0; i < a->row.size(); ++i) {
    EXPECT_EQ(a->row[i], static_cast<int64_t>(i / names.size()) + 1);
    EXPECT_EQ(a->accountant[i], names[i % names.size()]);
    EXPECT_GT(a->epsilon[i], 0.0);
    // Less noise (later rows), larger eps.
    if (i >= names.size()) {
      EXPECT_GT(a->epsilon[i], a->epsilon[i - names.size()]);
    }
  }
}

}  // namespace
}  // namespace privbench::published_examples
