#include "attacks/synthetic/distance_to_closest.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "data_scripts/categorical_testing.h"

namespace privbench {
namespace {

// Explicit one-hot Euclidean distance (reference for kOneHotL2).
double OneHotL2(const std::vector<int32_t>& a, const int32_t* b, const CategoricalDomain& dom) {
  double s = 0.0;
  for (int64_t j = 0; j < dom.attributes(); ++j) {
    for (int32_t v = 0; v < dom.sizes[j]; ++v) {
      const double diff = (a[j] == v ? 1.0 : 0.0) - (b[j] == v ? 1.0 : 0.0);
      s += diff * diff;
    }
  }
  return std::sqrt(s);
}

TEST(DistanceToClosest, HammingOnAHandMadeTable) {
  const CategoricalDomain dom = NumberedDomain({3, 2, 4});
  const CategoricalTable syn = TableOf(3, {{0, 0, 0}, {2, 1, 3}, {1, 1, 0}});
  auto d0 = DistanceToClosest({2, 1, 3}, syn, dom, DcrMetric::kHamming);  // an exact copy
  auto d1 = DistanceToClosest({1, 1, 3}, syn, dom, DcrMetric::kHamming);  // 1 from two rows
  auto d3 = DistanceToClosest({2, 0, 1}, syn, dom, DcrMetric::kHamming);  // 2 from row 0 and 1
  ASSERT_TRUE(d0.ok() && d1.ok() && d3.ok());
  EXPECT_EQ(*d0, 0.0);
  EXPECT_EQ(*d1, 1.0);
  EXPECT_EQ(*d3, 2.0);
  auto all_differ = DistanceToClosest({2, 0, 2}, TableOf(3, {{0, 1, 0}}), dom, DcrMetric::kHamming);
  ASSERT_TRUE(all_differ.ok());
  EXPECT_EQ(*all_differ, 3.0);
  auto score = DcrScore({1, 1, 3}, syn, dom, DcrMetric::kHamming);
  ASSERT_TRUE(score.ok());
  EXPECT_EQ(*score, -1.0);
}

TEST(DistanceToClosest, OneHotL2MatchesTheExplicitEncodingAndRanksAsHamming) {
  const CategoricalDomain dom = NumberedDomain({3, 2, 4, 5});
  CategoricalTable syn;
  syn.d = 4;
  uint64_t x = 12345;  // a small LCG: fixed table, no Rng needed
  auto next = [&x](int32_t k) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int32_t>((x >> 33) % static_cast<uint64_t>(k));
  };
  for (int i = 0; i < 30; ++i) syn.Append({next(3), next(2), next(4), next(5)});
  CategoricalTable targets;
  targets.d = 4;
  for (int i = 0; i < 40; ++i) targets.Append({next(3), next(2), next(4), next(5)});
  auto ham = DcrScores(targets, syn, dom, DcrMetric::kHamming);
  auto l2 = DcrScores(targets, syn, dom, DcrMetric::kOneHotL2);
  ASSERT_TRUE(ham.ok() && l2.ok());
  for (int64_t t = 0; t < targets.n(); ++t) {
    const std::vector<int32_t> target(targets.row(t), targets.row(t) + 4);
    double best = 1e300;
    for (int64_t i = 0; i < syn.n(); ++i) best = std::min(best, OneHotL2(target, syn.row(i), dom));
    EXPECT_NEAR(-(*l2)[t], best, 1e-12);
    EXPECT_NEAR((*l2)[t], -std::sqrt(-2.0 * (*ham)[t]), 1e-12);  // L2 = sqrt(2 Hamming)
    auto single = DcrScore(target, syn, dom, DcrMetric::kOneHotL2);
    ASSERT_TRUE(single.ok());
    EXPECT_EQ(*single, (*l2)[t]);
  }
  // Equal rankings: every pair of targets is ordered the same way.
  for (int64_t a = 0; a < targets.n(); ++a) {
    for (int64_t b = 0; b < targets.n(); ++b) {
      EXPECT_EQ((*ham)[a] < (*ham)[b], (*l2)[a] < (*l2)[b]);
      EXPECT_EQ((*ham)[a] == (*ham)[b], (*l2)[a] == (*l2)[b]);
    }
  }
}

TEST(DistanceToClosest, ErrorsNameTheArgument) {
  const CategoricalDomain dom = NumberedDomain({3, 2});
  const CategoricalTable syn = TableOf(2, {{0, 0}, {1, 1}});
  auto empty = DistanceToClosest({0, 0}, TableOf(2, {}), dom, DcrMetric::kHamming);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.message().find("synthetic"), std::string::npos) << empty.message();
  auto width = DistanceToClosest({0, 0}, TableOf(3, {{0, 0, 0}}), dom, DcrMetric::kHamming);
  ASSERT_FALSE(width.ok());
  EXPECT_NE(width.message().find("synthetic"), std::string::npos) << width.message();
  auto short_target = DistanceToClosest({0}, syn, dom, DcrMetric::kHamming);
  ASSERT_FALSE(short_target.ok());
  EXPECT_NE(short_target.message().find("target"), std::string::npos);
  auto range = DistanceToClosest({0, 2}, syn, dom, DcrMetric::kOneHotL2);
  ASSERT_FALSE(range.ok());
  EXPECT_NE(range.message().find("target attribute 'a1': code 2"), std::string::npos)
      << range.message();
  auto bad_targets = DcrScores(TableOf(2, {}), syn, dom, DcrMetric::kHamming);
  ASSERT_FALSE(bad_targets.ok());
  EXPECT_NE(bad_targets.message().find("targets"), std::string::npos);
}

}  // namespace
}  // namespace privbench
