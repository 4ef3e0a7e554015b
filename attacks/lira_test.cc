#include "attacks/lira.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/seeding.h"

namespace privbench {
namespace {

TEST(LogitScaledConfidence, MatchesTheSoftmaxDefinition) {
  const std::vector<double> logits = {2.0, 0.5, -1.0, 0.0, 3.0, 1.0};
  const std::vector<int64_t> labels = {0, 2};
  auto phi = LogitScaledConfidence(logits, labels, 3);
  ASSERT_TRUE(phi.ok()) << phi.message();
  for (size_t i = 0; i < 2; ++i) {
    double sum = 0.0;
    for (int k = 0; k < 3; ++k) sum += std::exp(logits[i * 3 + k]);
    const double p = std::exp(logits[i * 3 + labels[i]]) / sum;
    EXPECT_NEAR((*phi)[i], std::log(p) - std::log(1.0 - p), 1e-12);
  }
}

TEST(LogitScaledConfidence, StaysFiniteForConfidentLogits) {
  // p_y = 1 - 1e-300 in float64 would be 1; the logit form keeps it finite.
  auto phi = LogitScaledConfidence({800.0, 0.0}, {0}, 2);
  ASSERT_TRUE(phi.ok());
  EXPECT_DOUBLE_EQ((*phi)[0], 800.0);
}

TEST(LogitScaledConfidence, RejectsBadInput) {
  EXPECT_FALSE(LogitScaledConfidence({1.0, 2.0}, {2}, 2).ok());
  EXPECT_FALSE(LogitScaledConfidence({1.0, 2.0, 3.0}, {0}, 2).ok());
  EXPECT_FALSE(LogitScaledConfidence({1.0}, {0}, 1).ok());
}

TEST(BalancedHalves, EveryPointIsInForExactlyHalfTheShadows) {
  auto keep = BalancedHalves(16, 200, 7);
  ASSERT_TRUE(keep.ok());
  int64_t total = 0;
  for (int64_t p = 0; p < 200; ++p) {
    int64_t in = 0;
    for (int64_t m = 0; m < 16; ++m) in += (*keep)[m * 200 + p];
    EXPECT_EQ(in, 8) << "point " << p;
    total += in;
  }
  EXPECT_EQ(total, 1600);
  auto again = BalancedHalves(16, 200, 7);
  EXPECT_EQ(*keep, *again);
  auto other = BalancedHalves(16, 200, 8);
  EXPECT_NE(*keep, *other);
  EXPECT_FALSE(BalancedHalves(3, 10, 0).ok());
  EXPECT_FALSE(BalancedHalves(4, 0, 0).ok());
}

// Shadows where points 0..vulnerable-1 have phi ~ N(3, 0.5) IN and N(0, 0.5)
// OUT, the others N(0, 1) either way.
ShadowScores Synthetic(int64_t models, int64_t points, int64_t vulnerable, uint64_t seed) {
  ShadowScores s;
  s.models = models;
  s.points = points;
  s.is_in = *BalancedHalves(models, points, seed);
  Rng rng = MakeRng(seed, {99});
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int64_t m = 0; m < models; ++m) {
    for (int64_t p = 0; p < points; ++p) {
      const bool in = s.is_in[m * points + p];
      const double z = normal(rng);
      s.phi.push_back(p < vulnerable ? (in ? 3.0 : 0.0) + 0.5 * z : z);
    }
  }
  return s;
}

TEST(FitLira, MedianLocationAndPopulationStd) {
  ShadowScores s;
  s.models = 4;
  s.points = 1;
  s.phi = {1.0, 3.0, 10.0, 0.0};
  s.is_in = {1, 1, 0, 0};
  auto fit = FitLira(s, {}, LiraLocation::kMedian, true);
  ASSERT_TRUE(fit.ok()) << fit.message();
  EXPECT_DOUBLE_EQ((*fit)[0].mu_in, 2.0);
  EXPECT_DOUBLE_EQ((*fit)[0].s_in, 1.0);
  EXPECT_DOUBLE_EQ((*fit)[0].mu_out, 5.0);
  EXPECT_DOUBLE_EQ((*fit)[0].s_out, 5.0);
  auto mean = FitLira(s, {0, 2}, LiraLocation::kMean, true);
  ASSERT_TRUE(mean.ok());
  EXPECT_DOUBLE_EQ((*mean)[0].mu_in, 1.0);
  EXPECT_DOUBLE_EQ((*mean)[0].s_in, kMinLiraStd);                      // one IN shadow: floored
  EXPECT_FALSE(FitLira(s, {0, 1}, LiraLocation::kMedian, true).ok());  // no OUT
  EXPECT_FALSE(FitLira(s, {2, 3}, LiraLocation::kMedian, true).ok());  // no IN online
  EXPECT_TRUE(FitLira(s, {2, 3}, LiraLocation::kMedian, false).ok());  // offline: fine
}

TEST(LiraScores, LikelihoodRatioAndOneSidedTest) {
  LiraGaussians g{2.0, 1.0, 0.0, 1.0, 8, 8};
  EXPECT_NEAR(LiraOnlineScore(g, 1.0), 0.0, 1e-12);  // half-way: equal likelihoods
  EXPECT_NEAR(LiraOnlineScore(g, 3.0), 4.0, 1e-12);  // (-(1)^2 + 3^2) / 2
  EXPECT_LT(LiraOnlineScore(g, 0.0), LiraOnlineScore(g, 0.5));
  EXPECT_NEAR(LiraOfflineScore(g, 0.0), std::log(0.5), 1e-12);
  EXPECT_NEAR(LiraOfflineScore(g, -40.0), -804.6084420137538, 1e-6);  // finite deep tail
  EXPECT_NEAR(LiraOfflineScore(g, -10.0), -53.23128515051247, 1e-9);
  // The two tail formulas meet at z = -30.
  EXPECT_NEAR(LiraOfflineScore(g, -30.0 - 1e-9), LiraOfflineScore(g, -30.0 + 1e-9), 1e-6);
  EXPECT_LT(LiraOfflineScore(g, 5.0), 0.0);
  EXPECT_GT(LiraOfflineScore(g, 5.0), LiraOfflineScore(g, 1.0));
}

TEST(LiraScores, OnlineAttackSeparatesVulnerablePoints) {
  const ShadowScores s = Synthetic(64, 10, 10, 3);
  auto fit = FitLira(s, {}, LiraLocation::kMedian, true);
  ASSERT_TRUE(fit.ok());
  EXPECT_NEAR((*fit)[0].mu_in, 3.0, 0.4);
  EXPECT_NEAR((*fit)[0].mu_out, 0.0, 0.4);
  EXPECT_NEAR((*fit)[0].s_in, 0.5, 0.2);
  EXPECT_GT(LiraOnlineScore((*fit)[0], 3.0), 5.0);
  EXPECT_LT(LiraOnlineScore((*fit)[0], 0.0), -5.0);
}

TEST(BestBalancedAccuracy, AndAuc) {
  EXPECT_DOUBLE_EQ(BestBalancedAccuracy({3, 4}, {1, 2}), 1.0);
  EXPECT_DOUBLE_EQ(MannWhitneyAuc({3, 4}, {1, 2}), 1.0);
  EXPECT_DOUBLE_EQ(BestBalancedAccuracy({1, 2}, {3, 4}), 0.5);  // flag nobody
  EXPECT_DOUBLE_EQ(MannWhitneyAuc({1, 2}, {3, 4}), 0.0);
  EXPECT_DOUBLE_EQ(MannWhitneyAuc({1}, {1}), 0.5);
  EXPECT_DOUBLE_EQ(BestBalancedAccuracy({1}, {1}), 0.5);  // ties never split
  EXPECT_DOUBLE_EQ(BestBalancedAccuracy({2, 0}, {1, -1}), 0.75);
}

TEST(SelectWorst, FindsTheVulnerablePoints) {
  const ShadowScores s = Synthetic(40, 30, 5, 11);
  for (SelectionWeight w : {SelectionWeight::kAccuracy, SelectionWeight::kAuc}) {
    SelectWorstOptions o;
    o.k = 5;
    o.weight = w;
    auto r = SelectWorst(s, o);
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(r->fit_models, 32);
    std::vector<int64_t> sel = r->selected;
    std::sort(sel.begin(), sel.end());
    EXPECT_EQ(sel, (std::vector<int64_t>{0, 1, 2, 3, 4}));
    EXPECT_DOUBLE_EQ(r->weights[0].weight, 1.0);
  }
}

TEST(SelectWorst, RejectsBadArguments) {
  const ShadowScores s = Synthetic(10, 6, 2, 1);
  SelectWorstOptions o;
  o.fit_fraction = 1.0;
  auto r = SelectWorst(s, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("fit_fraction"), std::string::npos);
  o.fit_fraction = 0.0;
  EXPECT_FALSE(SelectWorst(s, o).ok());
  o.fit_fraction = 0.8;
  o.k = 0;
  r = SelectWorst(s, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("k must"), std::string::npos);
  o.k = 7;
  EXPECT_FALSE(SelectWorst(s, o).ok());
}

}  // namespace
}  // namespace privbench
