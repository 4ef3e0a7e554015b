#include "estimators/roc/roc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

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

// BestTprAtFpr's binary searches pick the point a linear scan picks (the
// largest TPR with FPR <= the level, the first such point on ties), on
// ROCs with ties in both scores, at levels on and between the ROC's FPRs.
TEST(RocTest, BestTprAtFprIsTheLinearScansChoice) {
  Rng rng = MakeRng(5, {2});
  boost::random::normal_distribution<double> normal;
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> m(30 + 7 * trial), n(25 + 5 * trial);
    for (double& x : m) x = std::round(4 * (normal(rng) + 0.5)) / 4;
    for (double& x : n) x = std::round(4 * normal(rng)) / 4;
    const RocCurve roc = ComputeRoc(m, n).value();
    std::vector<double> levels = {0.0, 1.0, 1e-9, 0.001, 0.01, 0.1, 0.5};
    for (const OperatingPoint& p : roc.points) levels.push_back(p.fpr());
    for (const double level : levels) {
      const OperatingPoint* want = &roc.points.front();
      for (const OperatingPoint& p : roc.points) {
        if (p.fpr() > level) break;
        if (p.tpr() > want->tpr()) want = &p;
      }
      const OperatingPoint got = BestTprAtFpr(roc, level).value();
      EXPECT_EQ(got.threshold, want->threshold) << "trial " << trial << " level " << level;
      EXPECT_EQ(got.counts.tp, want->counts.tp) << "trial " << trial << " level " << level;
      EXPECT_EQ(got.counts.fp, want->counts.fp) << "trial " << trial << " level " << level;
    }
  }
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

// The radix sort against std::sort: every sign, exponent and tie, the
// extremes of the double range, -0.0 beside +0.0; origin maps back.
TEST(RocTest, SortDescendingMatchesStdSortAndKeepsOrigins) {
  Rng rng = MakeRng(34, {1});
  boost::random::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> x = {0.0,     -0.0, 1e308, -1e308, 5e-324,
                           -5e-324, 2.0,  2.0,   -3.5,   std::numeric_limits<double>::min()};
  for (int i = 0; i < 70000; ++i) {  // past 65,536: the 11-bit digits
    const double v = normal(rng);
    x.push_back(i % 3 == 0 ? std::round(v * 8) / 8 : v * std::pow(10.0, i % 40 - 20));
  }
  std::vector<double> sorted;
  std::vector<uint64_t> origin;
  SortDescending(x, &sorted, &origin);
  std::vector<double> want = x;
  std::sort(want.begin(), want.end(), std::greater<double>());
  ASSERT_EQ(sorted.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(sorted[i], want[i]) << i;  // -0.0 == 0.0
    EXPECT_EQ(std::signbit(sorted[i]), std::signbit(x[origin[i]])) << i;
    EXPECT_EQ(sorted[i], x[origin[i]]) << i;
  }
  std::vector<double> no_origin;
  SortDescending(x, &no_origin, nullptr);
  EXPECT_EQ(no_origin, sorted);
  SortDescending({}, &no_origin, nullptr);
  EXPECT_TRUE(no_origin.empty());
}

// The halves sorted apart and merged: the same bits as SortDescending of
// all, and of each half alone (-0.0 and +0.0 keep their order), at a size
// on each side of the 11-bit digits' threshold.
TEST(RocTest, SortHalvesDescendingIsSortDescendingOfEachPart) {
  for (int n : {7, 70000}) {
    Rng rng = MakeRng(34, {2, static_cast<uint64_t>(n)});
    boost::random::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> x = {0.0, -0.0, 2.0, 2.0, -0.0};
    std::vector<uint8_t> in_first = {1, 0, 1, 0, 1};
    for (int i = 0; i < n; ++i) {
      x.push_back(i % 4 == 0 ? std::round(normal(rng) * 4) / 4 : normal(rng));
      in_first.push_back(static_cast<uint8_t>(rng() % 2));
    }
    std::vector<double> first_in, second_in;
    for (size_t i = 0; i < x.size(); ++i) (in_first[i] ? first_in : second_in).push_back(x[i]);
    std::vector<double> first, second, all, want_first, want_second, want_all;
    SortHalvesDescending(x, in_first, &first, &second, &all);
    SortDescending(first_in, &want_first, nullptr);
    SortDescending(second_in, &want_second, nullptr);
    SortDescending(x, &want_all, nullptr);
    auto bits = [](const std::vector<double>& v) {
      std::vector<uint64_t> b(v.size());
      std::memcpy(b.data(), v.data(), v.size() * sizeof(double));
      return b;
    };
    EXPECT_EQ(bits(first), bits(want_first)) << n;
    EXPECT_EQ(bits(second), bits(want_second)) << n;
    EXPECT_EQ(bits(all), bits(want_all)) << n;
  }
}

// RocOfDescending on sorted scores is ComputeRoc, point for point.
TEST(RocTest, RocOfDescendingIsComputeRoc) {
  const std::vector<double> m = {5, 3, 3, 1, -2}, n = {4, 3, 0, 0, -2, -7};
  std::vector<double> ms = m, ns = n;
  std::sort(ms.begin(), ms.end(), std::greater<double>());
  std::sort(ns.begin(), ns.end(), std::greater<double>());
  const RocCurve a = ComputeRoc(m, n).value(), b = RocOfDescending(ms, ns);
  ASSERT_EQ(a.points.size(), 8u);  // +inf, 5, 4, 3, 1, 0, -2, -7
  ASSERT_EQ(b.points.size(), a.points.size());
  for (size_t i = 0; i < a.points.size(); ++i) {
    EXPECT_EQ(a.points[i].threshold, b.points[i].threshold);
    EXPECT_EQ(a.points[i].counts.ToString(), b.points[i].counts.ToString());
  }
  EXPECT_EQ(a.auc, b.auc);
  EXPECT_EQ(b.points[3].counts.tp, 3);  // the tie at 3 is never split
  EXPECT_EQ(b.points[3].counts.fp, 2);
}

}  // namespace
}  // namespace privbench
