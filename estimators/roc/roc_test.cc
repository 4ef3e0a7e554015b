#include "estimators/roc/roc.h"

#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>
#include <cmath>

#include "core/seeding.h"

namespace privbench {
namespace {

TEST(RocTest, HandComputedCurveWithTies) {
  // members 3, 2, 2; non-members 2, 1.
  auto roc = ComputeRoc({3, 2, 2}, {2, 1}).value();
  ASSERT_EQ(roc.points.size(), 4u);  // +inf, 3, 2, 1
  EXPECT_EQ(roc.points[1].counts.tp, 1);
  EXPECT_EQ(roc.points[1].counts.fp, 0);
  EXPECT_EQ(roc.points[2].counts.tp, 3);  // the tie at 2 is never split
  EXPECT_EQ(roc.points[2].counts.fp, 1);
  EXPECT_EQ(roc.points[3].counts.fp, 2);
  // Mann-Whitney: pairs (m, n): 3>2, 3>1, 2=2 (1/2), 2>1, 2=2 (1/2), 2>1 -> 5/6.
  EXPECT_NEAR(roc.auc, 5.0 / 6.0, 1e-15);
  EXPECT_EQ(BestAdvantage(roc).threshold, 2.0);  // 1 - 1/2 at 2 beats 1/3 - 0 at 3
  EXPECT_NEAR(BestAdvantage(roc).advantage(), 0.5, 1e-15);
  EXPECT_EQ(BestTprAtFpr(roc, 0.0).value().counts.tp, 1);
  EXPECT_EQ(BestTprAtFpr(roc, 0.5).value().counts.tp, 3);
}

TEST(RocTest, AucMatchesBruteForceAndGaussianTheory) {
  Rng rng = MakeRng(5, {1});
  boost::random::normal_distribution<double> normal;
  std::vector<double> m(2000), n(3000);
  for (double& x : m) x = std::round(10 * (normal(rng) + 1.0)) / 10;  // ties on purpose
  for (double& x : n) x = std::round(10 * normal(rng)) / 10;
  double pairs = 0;
  for (double a : m) {
    for (double b : n) pairs += a > b ? 1.0 : (a == b ? 0.5 : 0.0);
  }
  auto roc = ComputeRoc(m, n).value();
  EXPECT_NEAR(roc.auc, pairs / (m.size() * n.size()), 1e-12);
  // Phi(1/sqrt 2) = 0.760 for a unit shift; 2000 x 3000 samples: sd ~ 0.006.
  EXPECT_NEAR(roc.auc, 0.7602, 0.03);
  EXPECT_EQ(roc.points.front().counts.tp, 0);
  EXPECT_EQ(roc.points.back().counts.tp, 2000);
  EXPECT_EQ(roc.points.back().counts.fp, 3000);
}

TEST(RocTest, RefusesBadInput) {
  EXPECT_EQ(ComputeRoc({}, {1.0}).message(), "member_scores must be non-empty");
  EXPECT_FALSE(ComputeRoc({1.0}, {}).ok());
}

}  // namespace
}  // namespace privbench
