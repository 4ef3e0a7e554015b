#include "experiments/lib/bayes_width/bayes_width.h"

#include <cmath>
#include <limits>

#include "estimators/interval_registry.h"
#include "gtest/gtest.h"

namespace privbench {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

TEST(RegisteredWidthMethods, EveryRegisteredEstimatorInOrder) {
  auto methods = RegisteredWidthMethods(1e-5);
  ASSERT_TRUE(methods.ok()) << methods.message();
  const auto names = AllIntervalEstimatorNames();
  ASSERT_EQ(methods->size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    const WidthMethod& m = (*methods)[i];
    EXPECT_EQ(m.name, names[i]);
    auto est = MakeIntervalEstimator(m.name);
    ASSERT_TRUE(est.ok());
    EXPECT_EQ(m.one_sided, (*est)->one_sided());
    if ((*est)->requires_zero_delta()) {
      EXPECT_EQ(m.delta, 0.0);
      EXPECT_EQ(m.label, m.name + " (delta=0)");
    } else {
      EXPECT_EQ(m.delta, 1e-5);
      EXPECT_EQ(m.label, m.name);
    }
  }
}

TEST(RegisteredWidthMethods, RejectsBadDelta) {
  auto r = RegisteredWidthMethods(1.5);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("delta"), std::string::npos) << r.message();
}

TEST(FindPaperMethods, FindsThePapersThreeMethods) {
  auto methods = RegisteredWidthMethods(1e-5);
  ASSERT_TRUE(methods.ok());
  auto paper = FindPaperMethods(*methods);
  ASSERT_TRUE(paper.ok()) << paper.message();
  EXPECT_EQ((*methods)[paper->clopper_pearson].name, "clopper_pearson");
  EXPECT_EQ((*methods)[paper->jeffreys].name, "jeffreys");
  EXPECT_EQ((*methods)[paper->bayesian].name, "bayesian");
  std::vector<WidthMethod> without_jeffreys;
  for (const WidthMethod& m : *methods) {
    if (m.name != "jeffreys") without_jeffreys.push_back(m);
  }
  auto missing = FindPaperMethods(without_jeffreys);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("jeffreys"), std::string::npos) << missing.message();
}

TEST(BalancedCounts, RoundsHalfAwayFromZero) {
  // m = 25: 0.4 * 25 = 10 exactly; 0.1 * 25 = 2.5 -> 3.
  auto c = BalancedCounts(/*fpr=*/0.1, /*fnr=*/0.4, /*n=*/50);
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_EQ(c->fn, 10);
  EXPECT_EQ(c->tp, 15);
  EXPECT_EQ(c->fp, 3);
  EXPECT_EQ(c->tn, 22);
  // The paper's Fig. 4 setting at n = 1500: 300 errors of 750 on each side.
  auto d = BalancedCounts(0.4, 0.4, 1500);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->fn, 300);
  EXPECT_EQ(d->fp, 300);
  EXPECT_EQ(d->positives(), 750);
  EXPECT_EQ(d->negatives(), 750);
}

TEST(BalancedCounts, RejectsBadArguments) {
  for (int64_t n : {0, 1, 101, -4}) {
    auto r = BalancedCounts(0.4, 0.4, n);
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_NE(r.message().find("n must be even"), std::string::npos) << r.message();
  }
  auto f = BalancedCounts(1.2, 0.4, 100);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.message().find("fpr"), std::string::npos) << f.message();
  auto g = BalancedCounts(0.4, kNan, 100);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.message().find("fnr"), std::string::npos) << g.message();
}

TEST(EstimateAll, OneIntervalPerMethodOneSidedHaveNoUpper) {
  auto methods = RegisteredWidthMethods(1e-5);
  ASSERT_TRUE(methods.ok());
  auto c = BalancedCounts(0.4, 0.4, 1000);
  ASSERT_TRUE(c.ok());
  auto ivs = EstimateAll(*methods, *c, 0.1);
  ASSERT_TRUE(ivs.ok()) << ivs.message();
  ASSERT_EQ(ivs->size(), methods->size());
  for (size_t i = 0; i < ivs->size(); ++i) {
    const MethodInterval& iv = (*ivs)[i];
    EXPECT_GE(iv.lower, 0.0) << (*methods)[i].label;
    if ((*methods)[i].one_sided) {
      EXPECT_TRUE(std::isnan(iv.upper)) << (*methods)[i].label;
      EXPECT_TRUE(std::isnan(iv.width()));
    } else {
      EXPECT_GE(iv.upper, iv.lower) << (*methods)[i].label;
      // The true eps = ln(0.6 / 0.4) = 0.405 lies inside every two-sided
      // interval at these (expected) counts.
      EXPECT_LT(iv.lower, std::log(1.5)) << (*methods)[i].label;
      EXPECT_GT(iv.upper, std::log(1.5)) << (*methods)[i].label;
    }
  }
}

TEST(EstimateAll, ErrorNamesTheMethod) {
  auto methods = RegisteredWidthMethods(1e-5);
  ASSERT_TRUE(methods.ok());
  auto ivs = EstimateAll(*methods, ConfusionCounts{10, 10, 10, 10}, 1.5);
  ASSERT_FALSE(ivs.ok());
  EXPECT_NE(ivs.message().find((*methods)[0].label), std::string::npos) << ivs.message();
  EXPECT_NE(ivs.message().find("alpha"), std::string::npos) << ivs.message();
}

TEST(FindSamplesNeeded, FirstAndStaysDiffer) {
  const std::vector<int64_t> n = {100, 200, 300, 400, 500};
  // Dips below the target at 200, back above at 300, stays below from 400.
  const std::vector<double> w = {0.5, 0.29, 0.31, 0.3, 0.2};
  auto r = FindSamplesNeeded(n, w, 0.3);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->first, 200);
  EXPECT_EQ(r->stays, 400);
}

TEST(FindSamplesNeeded, NeverOrAlways) {
  const std::vector<int64_t> n = {2, 4, 6};
  auto never = FindSamplesNeeded(n, {1.0, kInf, 0.5}, 0.3);
  ASSERT_TRUE(never.ok());
  EXPECT_EQ(never->first, -1);
  EXPECT_EQ(never->stays, -1);
  auto last_nan = FindSamplesNeeded(n, {0.1, 0.1, kNan}, 0.3);
  ASSERT_TRUE(last_nan.ok());
  EXPECT_EQ(last_nan->first, 2);
  EXPECT_EQ(last_nan->stays, -1);
  auto always = FindSamplesNeeded(n, {0.1, 0.2, 0.3}, 0.3);
  ASSERT_TRUE(always.ok());
  EXPECT_EQ(always->first, 2);
  EXPECT_EQ(always->stays, 2);
}

TEST(FindSamplesNeeded, RejectsBadGrids) {
  EXPECT_FALSE(FindSamplesNeeded({}, {}, 0.3).ok());
  EXPECT_FALSE(FindSamplesNeeded({1, 2}, {0.1}, 0.3).ok());
  auto r = FindSamplesNeeded({4, 2}, {0.1, 0.1}, 0.3);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("increasing"), std::string::npos);
  EXPECT_FALSE(FindSamplesNeeded({2, 4}, {0.1, 0.1}, kNan).ok());
}

TEST(WidthReductionPercent, Cases) {
  EXPECT_DOUBLE_EQ(WidthReductionPercent(0.6, 1.0), 40.0);
  EXPECT_DOUBLE_EQ(WidthReductionPercent(1.2, 1.0), -20.0);
  EXPECT_DOUBLE_EQ(WidthReductionPercent(0.5, kInf), 100.0);
  EXPECT_EQ(WidthReductionPercent(kInf, 1.0), -kInf);
  EXPECT_TRUE(std::isnan(WidthReductionPercent(kInf, kInf)));
  EXPECT_TRUE(std::isnan(WidthReductionPercent(kNan, 1.0)));
  EXPECT_TRUE(std::isnan(WidthReductionPercent(0.5, 0.0)));
}

TEST(RangeOfFinite, SkipsNonFiniteAndMasked) {
  const std::vector<double> xs = {3.0, kNan, -1.0, kInf, 7.0, 2.0};
  auto all = RangeOfFinite(xs);
  EXPECT_EQ(all.count, 4);
  EXPECT_EQ(all.min, -1.0);
  EXPECT_EQ(all.argmin, 2);
  EXPECT_EQ(all.max, 7.0);
  EXPECT_EQ(all.argmax, 4);
  auto masked = RangeOfFinite(xs, {true, true, false, true, false, true});
  EXPECT_EQ(masked.count, 2);
  EXPECT_EQ(masked.min, 2.0);
  EXPECT_EQ(masked.max, 3.0);
  auto none = RangeOfFinite({kNan});
  EXPECT_EQ(none.count, 0);
  EXPECT_TRUE(std::isnan(none.min));
}

}  // namespace
}  // namespace privbench
