#include "attacks/synthetic/feature_sets.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/stats.h"
#include "data_scripts/categorical_testing.h"

namespace privbench {
namespace {

// Their CorrelationsFeatureSet, spelt out: drop-first one-hot columns,
// Pearson correlation of every pair (core/stats Correlation), NaN as 0,
// strict upper triangle row-major.
std::vector<double> ReferenceCorrelations(const CategoricalTable& t, const CategoricalDomain& d) {
  std::vector<std::vector<double>> cols;
  for (int64_t j = 0; j < d.attributes(); ++j) {
    for (int32_t v = 1; v < d.sizes[j]; ++v) {
      cols.emplace_back();
      for (int64_t i = 0; i < t.n(); ++i) cols.back().push_back(t.at(i, j) == v ? 1.0 : 0.0);
    }
  }
  std::vector<double> out;
  for (size_t a = 0; a < cols.size(); ++a) {
    for (size_t b = a + 1; b < cols.size(); ++b) {
      const double r = Correlation(cols[a], cols[b]);
      out.push_back(std::isnan(r) ? 0.0 : r);
    }
  }
  return out;
}

const CategoricalTable kTiny = TableOf(3, {{0, 0, 1}, {2, 1, 1}, {2, 0, 0}, {0, 0, 1}});

TEST(FeatureSets, LengthsDependOnTheDomainOnly) {
  const CategoricalDomain dom = NumberedDomain({3, 2, 2});
  EXPECT_EQ(TableFeatureSize(dom, TableFeatureSet::kNaive), 9);
  EXPECT_EQ(TableFeatureSize(dom, TableFeatureSet::kHistogram), 7);
  EXPECT_EQ(TableFeatureSize(dom, TableFeatureSet::kCorrelations), 6);  // K = 4: 4 * 3 / 2
  const CategoricalDomain big = NumberedDomain({9, 2, 16, 7, 5, 3});
  EXPECT_EQ(TableFeatureSize(big, TableFeatureSet::kNaive), 18);
  EXPECT_EQ(TableFeatureSize(big, TableFeatureSet::kHistogram), 42);
  EXPECT_EQ(TableFeatureSize(big, TableFeatureSet::kCorrelations), 36 * 35 / 2);
  // One row or many: same lengths.
  for (const CategoricalTable& t : {TableOf(3, {{1, 1, 0}}), kTiny}) {
    EXPECT_EQ(NaiveFeatures(t, dom)->size(), 9u);
    EXPECT_EQ(HistogramFeatures(t, dom)->size(), 7u);
    EXPECT_EQ(CorrelationFeatures(t, dom)->size(), 6u);
  }
}

TEST(FeatureSets, NaiveOnATinyTable) {
  // Attribute 0 counts {2, 0, 2}: mode 0 (smallest of the tie), least 2
  // (largest of the tie), 2 distinct; attribute 1 {3, 1}; attribute 2 {1, 3}.
  auto f = NaiveFeatures(kTiny, NumberedDomain({3, 2, 2}));
  ASSERT_TRUE(f.ok()) << f.message();
  EXPECT_EQ(*f, (std::vector<double>{0, 0, 1, 2, 1, 0, 2, 2, 2}));
  // A constant column: mode = least = the one value, 1 distinct.
  auto g = NaiveFeatures(TableOf(3, {{1, 1, 0}, {1, 0, 0}}), NumberedDomain({3, 2, 2}));
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(*g, (std::vector<double>{1, 0, 0, 1, 1, 0, 1, 2, 1}));
}

TEST(FeatureSets, HistogramOnATinyTable) {
  auto f = HistogramFeatures(kTiny, NumberedDomain({3, 2, 2}));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(*f, (std::vector<double>{0.5, 0.0, 0.5, 0.75, 0.25, 0.25, 0.75}));
}

TEST(FeatureSets, CorrelationsOnATinyTable) {
  // Columns (a0=1, a0=2, a1=1, a2=1) = (0000, 0110, 0100, 1101): a0=1 is
  // constant (0); corr(0110, 0100) = 1/sqrt(3); corr(0110, 1101) = -1/sqrt(3);
  // corr(0100, 1101) = 1/3.
  const CategoricalDomain dom = NumberedDomain({3, 2, 2});
  auto f = CorrelationFeatures(kTiny, dom);
  ASSERT_TRUE(f.ok());
  const std::vector<double> want = {0, 0, 0, 1 / std::sqrt(3.0), -1 / std::sqrt(3.0), 1.0 / 3};
  ASSERT_EQ(f->size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR((*f)[i], want[i], 1e-12) << i;
}

TEST(FeatureSets, CorrelationsMatchTheSpeltOutDefinition) {
  const CategoricalDomain dom = NumberedDomain({4, 2, 5, 3});
  CategoricalTable t;
  t.d = 4;
  uint64_t x = 777;
  auto next = [&x](int32_t k) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int32_t>((x >> 33) % static_cast<uint64_t>(k));
  };
  for (int i = 0; i < 60; ++i) {
    const int32_t a = next(4);
    t.Append({a, a % 2, next(5), next(2)});  // attribute 1 follows 0; value 2 of 3 never occurs
  }
  auto f = CorrelationFeatures(t, dom);
  ASSERT_TRUE(f.ok());
  const std::vector<double> want = ReferenceCorrelations(t, dom);
  ASSERT_EQ(f->size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR((*f)[i], want[i], 1e-12) << i;
}

TEST(FeatureSets, ExtractorAppendsAndReusesBuffers) {
  const CategoricalDomain dom = NumberedDomain({3, 2, 2});
  auto e = TableFeatureExtractor::Make(dom);
  ASSERT_TRUE(e.ok());
  std::vector<double> out;
  TableFeatureExtractor ex = *e;
  ASSERT_TRUE(ex.Extract(TableFeatureSet::kHistogram, kTiny, &out).ok());
  ASSERT_TRUE(ex.Extract(TableFeatureSet::kCorrelations, kTiny, &out).ok());
  ASSERT_TRUE(ex.Extract(TableFeatureSet::kHistogram, TableOf(3, {{1, 1, 0}}), &out).ok());
  ASSERT_EQ(out.size(), 7u + 6u + 7u);
  EXPECT_EQ(std::vector<double>(out.begin() + 13, out.end()),
            (std::vector<double>{0, 1, 0, 0, 1, 1, 0}));
}

TEST(FeatureSets, ErrorsNameTheArgument) {
  const CategoricalDomain dom = NumberedDomain({3, 2, 2});
  auto empty = HistogramFeatures(TableOf(3, {}), dom);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.message().find("synthetic is empty"), std::string::npos) << empty.message();
  auto width = NaiveFeatures(TableOf(2, {{0, 0}}), dom);
  ASSERT_FALSE(width.ok());
  EXPECT_NE(width.message().find("synthetic has 2 attributes"), std::string::npos)
      << width.message();
  auto range = CorrelationFeatures(TableOf(3, {{0, 2, 0}}), dom);
  ASSERT_FALSE(range.ok());
  EXPECT_NE(range.message().find("attribute 'a1': code 2"), std::string::npos);
  CategoricalDomain bad = dom;
  bad.sizes[0] = 0;
  auto domain = TableFeatureExtractor::Make(bad);
  ASSERT_FALSE(domain.ok());
  EXPECT_NE(domain.message().find("domain"), std::string::npos) << domain.message();
}

}  // namespace
}  // namespace privbench
