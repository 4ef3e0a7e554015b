// Tests of the tree model: fitted tables nonnegative and mutually
// consistent, exact inputs reproduced, the support respected, errors, and
// ancestral sampling.
#include "mechanisms/synthetic/tree_model.h"

#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>
#include <cmath>

#include "mechanisms/synthetic/marginals.h"
#include "mechanisms/synthetic/testing.h"

namespace privbench {
namespace {

const std::vector<std::pair<int64_t, int64_t>> kEdges = {{0, 1}, {1, 2}, {1, 3}};

// Exact (sigma = 0) or noisy measurements of every 1-way marginal and of
// the edges' 2-way marginals.
TreeMeasurements Measure(const CategoricalTable& data, const CategoricalDomain& domain,
                         double sigma, Rng& rng) {
  boost::random::normal_distribution<double> normal(0.0, 1.0);
  TreeMeasurements m;
  const double variance = sigma > 0 ? sigma * sigma : 1.0;
  for (int64_t j = 0; j < domain.attributes(); ++j) {
    m.one_way.push_back(Counts1(data, domain.sizes, j));
    for (double& c : m.one_way.back()) c += sigma * normal(rng);
    m.one_way_variance.push_back(variance);
  }
  const PairCounts pairs(data, domain.sizes);
  for (const auto& [a, b] : kEdges) {
    TreeMeasurements::Edge e;
    e.a = b;  // stored child-major: the model must orient it
    e.b = a;
    e.counts = pairs.Oriented(b, a);
    for (double& c : e.counts) c += sigma * normal(rng);
    e.variance = variance;
    m.edges.push_back(e);
  }
  return m;
}

void ExpectConsistent(const TreeModel& model, double tol) {
  for (size_t j = 0; j < model.sizes.size(); ++j) {
    double s = 0;
    for (double p : model.marginal[j]) {
      EXPECT_GE(p, 0.0);
      s += p;
    }
    EXPECT_NEAR(s, 1.0, 1e-12);
  }
  for (const auto& [p, c] : model.Edges()) {
    const int32_t kp = model.sizes[p], kc = model.sizes[c];
    std::vector<double> rows(kp, 0.0), cols(kc, 0.0);
    for (int32_t u = 0; u < kp; ++u) {
      double cond = 0;
      for (int32_t v = 0; v < kc; ++v) {
        const double t = model.joint[c][u * kc + v];
        EXPECT_GE(t, 0.0);
        EXPECT_GE(model.conditional[c][u * kc + v], 0.0);
        rows[u] += t;
        cols[v] += t;
        cond += model.conditional[c][u * kc + v];
      }
      EXPECT_NEAR(cond, 1.0, 1e-12);
    }
    for (int32_t u = 0; u < kp; ++u) EXPECT_NEAR(rows[u], model.marginal[p][u], tol) << p << c;
    for (int32_t v = 0; v < kc; ++v) EXPECT_NEAR(cols[v], model.marginal[c][v], tol) << p << c;
  }
}

TEST(TreeModelTest, NoisyTablesBecomeNonnegativeAndConsistent) {
  const CategoricalDomain domain = TestDomain({3, 4, 5, 2});
  Rng rng(11);
  const CategoricalTable data = TreeData(domain, kEdges, 400, 0.6, rng);
  for (double sigma : {1.0, 10.0, 60.0}) {
    const TreeMeasurements m = Measure(data, domain, sigma, rng);
    const Result<TreeModel> model = FitTreeModel(domain.sizes, {}, m, 0);
    ASSERT_TRUE(model.ok()) << model.message();
    EXPECT_EQ(model->order.front(), 0);
    EXPECT_EQ(Undirected(model->Edges()), Undirected(kEdges));
    EXPECT_EQ(model->parent, (std::vector<int64_t>{-1, 0, 1, 1}));
    ExpectConsistent(*model, 1e-7);
  }
}

TEST(TreeModelTest, ExactInputsGiveTheEmpiricalDistributions) {
  const CategoricalDomain domain = TestDomain({3, 4, 5, 2});
  Rng rng(12);
  const CategoricalTable data = TreeData(domain, kEdges, 500, 0.7, rng);
  const Result<TreeModel> model = FitTreeModel(domain.sizes, {}, Measure(data, domain, 0, rng), 2);
  ASSERT_TRUE(model.ok()) << model.message();
  EXPECT_EQ(model->root, 2);
  EXPECT_NEAR(model->total, 500.0, 1e-9);
  for (int64_t j = 0; j < 4; ++j) {
    const std::vector<double> c = Counts1(data, domain.sizes, j);
    for (int32_t v = 0; v < domain.sizes[j]; ++v) {
      EXPECT_NEAR(model->marginal[j][v], c[v] / 500.0, 1e-12);
    }
  }
  const PairCounts pairs(data, domain.sizes);
  for (const auto& [p, c] : model->Edges()) {
    const std::vector<double> t = pairs.Oriented(p, c);
    for (size_t i = 0; i < t.size(); ++i) EXPECT_NEAR(model->joint[c][i], t[i] / 500.0, 1e-12);
  }
}

TEST(TreeModelTest, SupportIsRespectedAndEmptyParentRowsAreUniform) {
  const std::vector<int32_t> sizes = {3, 3};
  TreeMeasurements m;
  m.one_way = {{10, -2, 5}, {}};
  m.one_way_variance = {1.0, 1.0};
  // Parent value 1 has no mass in the table; child value 2 is off the support.
  m.edges.push_back({0, 1, {4, 4, 9, 0, -1, 0, 3, 2, 9}, 1.0});
  const std::vector<std::vector<char>> support = {{1, 1, 1}, {1, 1, 0}};
  const Result<TreeModel> model = FitTreeModel(sizes, support, m, 0);
  ASSERT_TRUE(model.ok()) << model.message();
  EXPECT_EQ(model->marginal[1][2], 0.0);
  for (int32_t u = 0; u < 3; ++u) EXPECT_EQ(model->conditional[1][u * 3 + 2], 0.0);
  // Parent value 1: 1-way -2 (variance 1) and row sum -1 (variance 3) give a
  // negative estimate, clamped to 0; its conditional is uniform on {0, 1}.
  EXPECT_EQ(model->marginal[0][1], 0.0);
  EXPECT_EQ(model->conditional[1][3], 0.5);
  EXPECT_EQ(model->conditional[1][4], 0.5);
  ExpectConsistent(*model, 1e-7);
}

TEST(FitToMarginalsTest, FillsEmptyRowsAndFits) {
  std::vector<double> t = {1, 2, 0, 0, 0, 0};  // 3 x 2, rows 1 and 2 empty
  const std::vector<double> row = {0.2, 0.5, 0.3}, col = {0.6, 0.4};
  const int sweeps = FitToMarginals(t, row, col);
  EXPECT_GE(sweeps, 1);
  EXPECT_LT(sweeps, TreeModel::kIpfSweeps);
  for (int u = 0; u < 3; ++u) EXPECT_NEAR(t[2 * u] + t[2 * u + 1], row[u], 1e-8);
  for (int v = 0; v < 2; ++v) EXPECT_NEAR(t[v] + t[2 + v] + t[4 + v], col[v], 1e-8);
  std::vector<double> zero(6, -1.0);  // all clamped: the independence product
  EXPECT_EQ(FitToMarginals(zero, row, col), 0);
  EXPECT_NEAR(zero[3], 0.5 * 0.4, 1e-15);
}

TEST(TreeModelTest, BadMeasurementsAreErrorsNamingThem) {
  const std::vector<int32_t> sizes = {2, 2, 2};
  TreeMeasurements m;
  m.one_way = {{1, 1}, {1, 1}, {1, 1}};
  m.one_way_variance = {1, 1, 1};
  m.edges = {{0, 1, {1, 1, 1, 1}, 1.0}, {1, 0, {1, 1, 1, 1}, 1.0}};  // a cycle, 2 isolated
  Result<TreeModel> r = FitTreeModel(sizes, {}, m, 0);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("measurements"), std::string::npos) << r.message();
  EXPECT_NE(r.message().find("spanning tree"), std::string::npos) << r.message();
  m.edges[1] = {1, 2, {1, 1, 1}, 1.0};  // wrong size
  EXPECT_NE(FitTreeModel(sizes, {}, m, 0).message().find("measurements"), std::string::npos);
  m.edges[1] = {1, 2, {1, 1, 1, 1}, 0.0};  // variance 0
  EXPECT_NE(FitTreeModel(sizes, {}, m, 0).message().find("variance"), std::string::npos);
  m.edges[1].variance = 1.0;
  EXPECT_TRUE(FitTreeModel(sizes, {}, m, 0).ok());
  EXPECT_NE(FitTreeModel(sizes, {}, m, 3).message().find("root"), std::string::npos);
  TreeMeasurements lone;  // one attribute, never measured
  lone.one_way = {{}};
  lone.one_way_variance = {1.0};
  EXPECT_NE(FitTreeModel({2}, {}, lone, 0).message().find("not measured"), std::string::npos);
}

}  // namespace
}  // namespace privbench
