#include "attacks/synthetic/targeted_queries.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "core/seeding.h"
#include "data_scripts/categorical_testing.h"

namespace privbench {
namespace {

TEST(TargetedQueries, FractionsOnATinyTable) {
  const CategoricalDomain dom = NumberedDomain({3, 2, 2});
  const CategoricalTable syn = TableOf(3, {{0, 0, 1}, {2, 1, 1}, {2, 0, 0}, {0, 0, 1}});
  const std::vector<int32_t> target = {0, 0, 1};
  const std::vector<AttributeSubset> subsets = {{0}, {1}, {2}, {0, 1}, {1, 2}, {0, 1, 2}, {0, 2}};
  auto q = TargetedQueryFractions(target, subsets, syn, dom);
  ASSERT_TRUE(q.ok()) << q.message();
  EXPECT_EQ(*q, (std::vector<double>{0.5, 0.75, 0.75, 0.5, 0.5, 0.5, 0.5}));
  auto other = TargetedQueryFractions({1, 1, 0}, subsets, syn, dom);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(*other, (std::vector<double>{0.0, 0.25, 0.25, 0.0, 0.0, 0.0, 0.0}));
}

TEST(TargetedQueries, MoreThan64AttributesUseSeveralMaskWords) {
  const CategoricalDomain dom = NumberedDomain(std::vector<int32_t>(70, 2));
  std::vector<int32_t> target(70, 0), row(70, 0);
  row[69] = 1;  // differs only on the last attribute (second mask word)
  CategoricalTable syn;
  syn.d = 70;
  syn.Append(row);
  syn.Append(target);
  auto q = TargetedQueryFractions(target, {{0, 69}, {1, 68}, {69}}, syn, dom);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(*q, (std::vector<double>{0.5, 1.0, 0.5}));
}

TEST(TargetedQueries, DrawsDistinctSortedSubsetsPerOrderDeterministically) {
  const CategoricalDomain dom = NumberedDomain(std::vector<int32_t>(12, 3));
  Rng rng = MakeRng(7, {1});
  auto s = DrawQuerySubsets(dom, {1, 2, 3}, 20, rng);
  ASSERT_TRUE(s.ok()) << s.message();
  // Order 1 has only C(12, 1) = 12 subsets: all of them, in order.
  ASSERT_EQ(s->size(), 12u + 20u + 20u);
  for (int64_t j = 0; j < 12; ++j) EXPECT_EQ((*s)[j], AttributeSubset{j});
  for (size_t k : {2u, 3u}) {
    const size_t begin = 12 + (k - 2) * 20;
    std::set<AttributeSubset> seen;
    for (size_t i = begin; i < begin + 20; ++i) {
      const AttributeSubset& q = (*s)[i];
      ASSERT_EQ(q.size(), k);
      for (size_t a = 0; a < k; ++a) {
        EXPECT_TRUE(q[a] >= 0 && q[a] < 12);
        if (a > 0) {
          EXPECT_LT(q[a - 1], q[a]);
        }
      }
      seen.insert(q);
    }
    EXPECT_EQ(seen.size(), 20u);
  }
  Rng again = MakeRng(7, {1});
  EXPECT_EQ(*DrawQuerySubsets(dom, {1, 2, 3}, 20, again), *s);
  Rng other = MakeRng(8, {1});
  EXPECT_NE(*DrawQuerySubsets(dom, {1, 2, 3}, 20, other), *s);
}

TEST(TargetedQueries, EveryPairIsEquallyLikely) {
  // One pair of 4 attributes (6 pairs) drawn 6000 times: each about 1000
  // (sd 29); a 6-sd band around all six fails with probability about 1e-8
  // (fixed seed: the outcome is deterministic).
  const CategoricalDomain dom = NumberedDomain({2, 2, 2, 2});
  Rng rng = MakeRng(11, {});
  std::vector<int> hits(16, 0);
  for (int i = 0; i < 6000; ++i) {
    auto s = DrawQuerySubsets(dom, {2}, 1, rng);
    ASSERT_TRUE(s.ok());
    ++hits[(*s)[0][0] * 4 + (*s)[0][1]];
  }
  for (int a = 0; a < 4; ++a) {
    for (int b = a + 1; b < 4; ++b) EXPECT_NEAR(hits[a * 4 + b], 1000, 6 * 29) << a << b;
  }
}

TEST(TargetedQueries, AllSubsetsAreLexicographic) {
  const CategoricalDomain dom = NumberedDomain({2, 2, 2, 2});
  auto one = AllQuerySubsets(dom, 1);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(*one, (std::vector<AttributeSubset>{{0}, {1}, {2}, {3}}));
  auto two = AllQuerySubsets(dom, 2);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(*two, (std::vector<AttributeSubset>{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}));
  auto three = AllQuerySubsets(dom, 3);
  ASSERT_TRUE(three.ok());
  EXPECT_EQ(*three, (std::vector<AttributeSubset>{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}));
}

TEST(TargetedQueries, ErrorsNameTheArgument) {
  const CategoricalDomain dom = NumberedDomain({3, 2, 2});
  const CategoricalTable syn = TableOf(3, {{0, 0, 1}});
  Rng rng = MakeRng(1, {});
  auto order = DrawQuerySubsets(dom, {1, 4}, 3, rng);
  ASSERT_FALSE(order.ok());
  EXPECT_NE(order.message().find("orders[1] = 4"), std::string::npos) << order.message();
  EXPECT_FALSE(DrawQuerySubsets(dom, {2, 2}, 3, rng).ok());
  auto count = DrawQuerySubsets(dom, {1}, 0, rng);
  ASSERT_FALSE(count.ok());
  EXPECT_NE(count.message().find("count"), std::string::npos);
  auto target = TargetedQueryFractions({0, 0, 2}, {{0}}, syn, dom);
  ASSERT_FALSE(target.ok());
  EXPECT_NE(target.message().find("target attribute 'a2': code 2"), std::string::npos)
      << target.message();
  auto width = TargetedQueryFractions({0, 0}, {{0}}, syn, dom);
  ASSERT_FALSE(width.ok());
  EXPECT_NE(width.message().find("target"), std::string::npos);
  auto subset = TargetedQueryFractions({0, 0, 1}, {{0}, {2, 1}}, syn, dom);
  ASSERT_FALSE(subset.ok());
  EXPECT_NE(subset.message().find("subsets[1]"), std::string::npos) << subset.message();
  auto empty = TargetedQueryFractions({0, 0, 1}, {{0}}, TableOf(3, {}), dom);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.message().find("synthetic is empty"), std::string::npos);
  auto mismatch = TargetedQueryFractions({0, 0, 1}, {{0}}, TableOf(2, {{0, 0}}), dom);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_NE(mismatch.message().find("synthetic"), std::string::npos);
}

}  // namespace
}  // namespace privbench
