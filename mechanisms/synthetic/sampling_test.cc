// Statistical tests of the draws the synthesizers share: the exponential
// mechanism's frequencies and ancestral sampling from a tree model. Each
// states its false-failure probability.
#include <gtest/gtest.h>

#include <cmath>

#include "mechanisms/synthetic/marginals.h"
#include "mechanisms/synthetic/testing.h"
#include "mechanisms/synthetic/tree_model.h"

namespace privbench {
namespace {

const std::vector<std::pair<int64_t, int64_t>> kEdges = {{0, 1}, {1, 2}, {1, 3}};

// Exact measurements of every 1-way marginal and of the edges' tables.
TreeMeasurements Measure(const CategoricalTable& data, const CategoricalDomain& domain) {
  TreeMeasurements m;
  for (int64_t j = 0; j < domain.attributes(); ++j) {
    m.one_way.push_back(Counts1(data, domain.sizes, j));
    m.one_way_variance.push_back(1.0);
  }
  const PairCounts pairs(data, domain.sizes);
  for (const auto& [a, b] : kEdges) m.edges.push_back({a, b, pairs.Oriented(a, b), 1.0});
  return m;
}

// Statistical: with epsilon 2 and sensitivity 1 the probabilities are
// proportional to exp(q), (1, e, e^2) / sum. 20,000 draws; each frequency
// within 5 standard deviations (sd <= 0.0036): false-failure probability
// below 3 * 6e-7 by the normal approximation (fixed seed, so deterministic).
TEST(ExponentialMechanismTest, FrequenciesFollowExpOfHalfEpsilonQuality) {
  Rng rng(4);
  const int draws = 20000;
  std::vector<int> hits(3, 0);
  for (int i = 0; i < draws; ++i) ++hits[ExponentialMechanism({0, 1, 2}, 2.0, 1.0, rng)];
  const double z = 1 + std::exp(1.0) + std::exp(2.0);
  for (int k = 0; k < 3; ++k) {
    const double p = std::exp(static_cast<double>(k)) / z;
    const double sd = std::sqrt(p * (1 - p) / draws);
    EXPECT_NEAR(hits[k] / static_cast<double>(draws), p, 5 * sd) << k;
  }
}

// Statistical: 40,000 rows from the exact model of a 4-attribute table;
// every pair frequency of the tree edges within 5 standard deviations of
// the model's joint (sd <= 0.0025): false-failure probability below 61 *
// 6e-7 = 4e-5 by the normal approximation (fixed seed: deterministic).
TEST(SampleTreeModelTest, RowsFollowTheModelAndRepeatWithTheSeed) {
  const CategoricalDomain domain = TestDomain({3, 4, 5, 2});
  Rng rng(13);
  const CategoricalTable data = TreeData(domain, kEdges, 300, 0.7, rng);
  const Result<TreeModel> model = FitTreeModel(domain.sizes, {}, Measure(data, domain), 0);
  ASSERT_TRUE(model.ok()) << model.message();
  const int64_t n = 40000;
  Rng a(5), b(5);
  const CategoricalTable rows = SampleTreeModel(*model, n, a);
  EXPECT_EQ(rows.values, SampleTreeModel(*model, n, b).values);
  ASSERT_TRUE(CheckTable(rows, domain).ok());
  const PairCounts pairs(rows, domain.sizes);
  for (const auto& [p, c] : model->Edges()) {
    const std::vector<double> t = pairs.Oriented(p, c);
    for (size_t i = 0; i < t.size(); ++i) {
      const double q = model->joint[c][i];
      EXPECT_NEAR(t[i] / n, q, 5 * std::sqrt(q * (1 - q) / n) + 1e-12) << p << c << i;
    }
  }
}

}  // namespace
}  // namespace privbench
