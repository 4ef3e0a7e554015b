// Tests for the numbers of study C4 (compute.h): the App. B.2
// goodness-of-fit procedure on synthetic data with a known answer, the
// study's analyses and the merged arrays' layout. Seeds are fixed; where a p-value
// is compared with a threshold the comment gives the probability that a
// correct implementation fails for a fresh seed.
#include "experiments/epsilon_star_gof/compute.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/seeding.h"
#include "estimators/fit/gaussian_mixture.h"

namespace privbench::epsilon_star_gof {
namespace {

std::vector<double> Draw(std::vector<double> w, std::vector<double> mu, std::vector<double> sd,
                         int64_t n, uint64_t seed) {
  GaussianMixture m;
  m.weights = std::move(w);
  m.means = std::move(mu);
  for (double s : sd) m.variances.push_back(s * s);
  Rng rng = MakeRng(seed, {});
  return SampleGaussianMixture(m, n, rng).value();
}

bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(GofGridTest, LayoutAndRanges) {
  const std::vector<double> x = Draw({1.0}, {0.0}, {1.0}, 3000, 1);
  GofOptions o;
  o.n_eval = {100, 400};
  o.max_components = 3;
  auto g = RunGofGrid(x, o, 7, nullptr);
  ASSERT_TRUE(g.ok()) << g.message();
  EXPECT_EQ(g->floor_count, 1);
  EXPECT_EQ(g->n_eval_count, 2);
  EXPECT_EQ(g->components, 3);
  EXPECT_EQ(g->fit_size, (std::vector<int64_t>{2900, 2600}));
  ASSERT_EQ(g->p_value.size(), 6u);
  for (size_t c = 0; c < 6; ++c) {
    EXPECT_GE(g->p_value[c], 0.0);
    EXPECT_LE(g->p_value[c], 1.0);
    EXPECT_EQ(g->p_value[c], g->p_exact[c]);                // primary = exact
    EXPECT_NEAR(g->p_asymptotic[c], g->p_exact[c], 0.003);  // ks_test.h bound at n >= 100
    EXPECT_GT(g->ks_statistic[c], 0.0);
    EXPECT_TRUE(std::isfinite(g->bic[c]));
    EXPECT_GE(g->active_components[c], 1);
  }
  // k = 1 is the Normal MLE: one EM iteration, converged.
  EXPECT_EQ(g->iterations[g->Index(0, 0, 1)], 1);
  EXPECT_EQ(g->converged[g->Index(0, 0, 1)], 1);
  // A Normal sample fits a Normal: the exact p-value at k = 1 is uniform
  // under H0, so each is below 0.001 with probability 0.001.
  EXPECT_GT(g->p_value[g->Index(0, 0, 1)], 0.001);
  EXPECT_GT(g->p_value[g->Index(0, 1, 1)], 0.001);
}

TEST(GofGridTest, DeterministicInTheSeed) {
  const std::vector<double> x = Draw({0.5, 0.5}, {0.0, 3.0}, {1.0, 0.5}, 2000, 2);
  GofOptions o;
  o.n_eval = {200};
  o.max_components = 2;
  auto a = RunGofGrid(x, o, 11, nullptr);
  auto b = RunGofGrid(x, o, 11, nullptr);
  auto c = RunGofGrid(x, o, 12, nullptr);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a->p_value, b->p_value);
  EXPECT_EQ(a->bic, b->bic);
  EXPECT_NE(a->p_value, c->p_value);
}

TEST(GofGridTest, TwoSeparatedModesRejectOneComponentNotTwo) {
  // Equal mixture of N(-5, 1) and N(5, 1): the single Normal (sd ~5.1) puts
  // mass between the modes where there is none; at n_eval = 1000 its KS
  // distance is ~0.15, p < 1e-8. Two components fit exactly: p uniform, so
  // p > 1e-3 fails with probability 1e-3.
  const std::vector<double> x = Draw({0.5, 0.5}, {-5.0, 5.0}, {1.0, 1.0}, 20000, 3);
  GofOptions o;
  o.n_eval = {1000};
  o.max_components = 2;
  o.primary = KsPValueMethod::kAsymptotic;
  auto g = RunGofGrid(x, o, 5, nullptr);
  ASSERT_TRUE(g.ok()) << g.message();
  EXPECT_LT(g->p_value[g->Index(0, 0, 1)], 1e-8);
  EXPECT_GT(g->p_value[g->Index(0, 0, 2)], 1e-3);
  EXPECT_EQ(g->p_value[g->Index(0, 0, 1)], g->p_asymptotic[g->Index(0, 0, 1)]);
  // The likelihood-based views agree: BIC and held-out log-likelihood
  // prefer k = 2, and so does the one-sample test.
  EXPECT_LT(g->bic[g->Index(0, 0, 2)], g->bic[g->Index(0, 0, 1)]);
  EXPECT_GT(g->heldout_log_likelihood[g->Index(0, 0, 2)],
            g->heldout_log_likelihood[g->Index(0, 0, 1)]);
  EXPECT_LT(g->p_one_sample[g->Index(0, 0, 1)], 1e-8);
}

TEST(GofGridTest, VarianceFloorsArePairedAnalyses) {
  // A spike of near-ties (sd 1e-5) next to a broad component: a floor of
  // 1e-6 (sd 1e-3) cannot follow the spike, a floor of 1e-12 can. The
  // evaluation set and the sampling stream are shared by both floors.
  const std::vector<double> x = Draw({0.6, 0.4}, {0.0, 0.5}, {1e-5, 0.2}, 20000, 6);
  GofOptions o;
  o.n_eval = {1000};
  o.max_components = 3;
  o.variance_floors = {1e-6, 1e-12};
  auto g = RunGofGrid(x, o, 9, nullptr);
  ASSERT_TRUE(g.ok()) << g.message();
  EXPECT_EQ(g->floor_count, 2);
  ASSERT_EQ(g->p_value.size(), 6u);
  // k = 1 does not depend on the floor (the data variance is far above it).
  EXPECT_EQ(g->p_value[g->Index(0, 0, 1)], g->p_value[g->Index(1, 0, 1)]);
  // At k = 2, the floored spike component spreads 60% of the mass over
  // +-1e-3 instead of +-1e-5: the draws straddle the spike and D is large
  // (p < 1e-8); with the small floor the fit is exact (p > 1e-3 with
  // probability 0.999 for a fresh seed).
  EXPECT_EQ(g->floored_components[g->Index(0, 0, 2)], 1);
  EXPECT_LT(g->p_value[g->Index(0, 0, 2)], 1e-8);
  EXPECT_EQ(g->floored_components[g->Index(1, 0, 2)], 0);
  EXPECT_GT(g->p_value[g->Index(1, 0, 2)], 1e-3);
}

TEST(GofGridTest, BadInputNamesTheParameter) {
  const std::vector<double> x = Draw({1.0}, {0.0}, {1.0}, 500, 4);
  GofOptions o;
  o.n_eval = {100, 490};
  o.max_components = 20;
  auto big = RunGofGrid(x, o, 1, nullptr);
  ASSERT_FALSE(big.ok());
  EXPECT_TRUE(Contains(big.message(), "n_eval 490")) << big.message();
  o.n_eval = {};
  EXPECT_TRUE(Contains(ValidateGofOptions(o).message(), "n_eval must list"));
  o.n_eval = {200, 100};
  EXPECT_TRUE(Contains(ValidateGofOptions(o).message(), "strictly increasing"));
  o.n_eval = {1};
  EXPECT_TRUE(Contains(ValidateGofOptions(o).message(), "n_eval must be >= 2"));
  o.n_eval = {100};
  o.max_components = 0;
  EXPECT_TRUE(Contains(ValidateGofOptions(o).message(), "max_components must be >= 1"));
  o.max_components = 2;
  o.em.tolerance = -1.0;
  EXPECT_TRUE(Contains(ValidateGofOptions(o).message(), "tolerance"));
  o.em.tolerance = 1e-3;
  o.variance_floors = {};
  EXPECT_TRUE(Contains(ValidateGofOptions(o).message(), "variance_floors must list"));
  o.variance_floors = {1e-6, 0.0};
  EXPECT_TRUE(Contains(ValidateGofOptions(o).message(), "variance_floors must be finite and > 0"));
  o.variance_floors = {1e-6, 1e-6};
  EXPECT_TRUE(Contains(ValidateGofOptions(o).message(), "distinct"));
  o.variance_floors = {1e-6};
  std::vector<double> with_nan = x;
  with_nan[3] = std::nan("");
  auto nan = RunGofGrid(with_nan, o, 1, nullptr);
  ASSERT_FALSE(nan.ok());
  EXPECT_TRUE(Contains(nan.message(), "values[3]")) << nan.message();
}

TEST(GofAggregatesTest, FractionAbove) {
  EXPECT_DOUBLE_EQ(FractionAbove({0.01, 0.05, 0.2, 0.9}, 0.05), 0.5);  // strictly above
  EXPECT_DOUBLE_EQ(FractionAbove({}, 0.05), 0.0);
}

TEST(GofStudyTest, AnalysesArePrimaryFloorSensitivityFloorsThenCarlini) {
  Config c;
  c.variance_floors = {1e-6, 1e-12};
  c.carlini_analysis = true;
  const std::vector<AnalysisSpec> a = Analyses(c);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].name, "app_b_floor1e-06");
  EXPECT_EQ(a[0].transform, "epsilon_star_logit");
  EXPECT_EQ(a[0].suffix, "");
  EXPECT_TRUE(Contains(a[0].label, "(primary)"));
  EXPECT_EQ(a[1].name, "app_b_floor1e-12");
  EXPECT_EQ(a[1].suffix, "_floor1e-12");
  EXPECT_EQ(a[1].floor, 1e-12);
  EXPECT_EQ(a[2].name, "carlini_logit_floor1e-06");
  EXPECT_EQ(a[2].transform, "carlini_logit");
  EXPECT_EQ(a[2].suffix, "_carlini_logit");
  EXPECT_EQ(a[2].floor, 1e-6);
  c.carlini_analysis = false;
  EXPECT_EQ(Analyses(c).size(), 2u);
}

TEST(GofStudyTest, MakeGofOptionsTakesTheConfig) {
  Config c;
  c.n_eval = {100, 200};
  c.max_components = 4;
  c.variance_floors = {1e-5, 1e-9};
  c.ks_method = "asymptotic";
  c.init = "kmeans++";
  auto o = MakeGofOptions(c);
  ASSERT_TRUE(o.ok()) << o.message();
  EXPECT_EQ(o->n_eval, c.n_eval);
  EXPECT_EQ(o->max_components, 4);
  EXPECT_EQ(o->em.variance_floor, 1e-5);
  EXPECT_EQ(o->primary, KsPValueMethod::kAsymptotic);
  EXPECT_EQ(o->em.init, MixtureInit::kKMeansPlusPlus);
  c.n_eval = {200, 100};
  EXPECT_TRUE(Contains(MakeGofOptions(c).message(), "strictly increasing"));
}

TEST(GofStudyTest, ConcatenateFieldStacksTheFloorAxis) {
  GofGrid a, b;
  a.p_value = {0.1, 0.2};
  b.p_value = {0.3};
  a.iterations = {1};
  b.iterations = {2, 3};
  EXPECT_EQ(ConcatenateField({a, b}, &GofGrid::p_value), (std::vector<double>{0.1, 0.2, 0.3}));
  EXPECT_EQ(ConcatenateField({a, b}, &GofGrid::iterations), (std::vector<int64_t>{1, 2, 3}));
}

// Arrays whose value at (m, r, s, f, i, k) encodes its coordinates.
GofArrays CodedArrays() {
  GofArrays g;
  g.R = 2;
  g.S = 1;
  g.A = 1;
  g.I = 2;
  g.K = 3;
  std::vector<double>& p = g.d["p_value"];
  std::vector<double>& bic = g.d["bic"];
  for (int64_t m = 0; m < g.M; ++m) {
    for (int64_t r = 0; r < g.R; ++r) {
      for (int64_t i = 0; i < g.I; ++i) {
        for (int64_t k = 1; k <= g.K; ++k) {
          p.push_back(static_cast<double>(1000 * m + 100 * r + 10 * i + k));
          // BIC smallest at k = 2 for r = 0, at k = 3 for r = 1.
          bic.push_back(r == 0 ? std::fabs(static_cast<double>(k) - 2.0) : -static_cast<double>(k));
        }
      }
    }
  }
  return g;
}

TEST(GofArraysTest, LayoutAndSelections) {
  const GofArrays g = CodedArrays();
  EXPECT_EQ(g.d.at("p_value")[g.At(1, 1, 0, 0, 1, 3)], 1113.0);
  EXPECT_EQ(g.P(0, 0, 0, 1, 1), (std::vector<double>{1, 11, 101, 111}));
  EXPECT_EQ(g.P(1, 0, 0, 2, 3, "p_value", 1), (std::vector<double>{1012, 1013, 1112, 1113}));
  const std::vector<double> both = g.Both(0, 0, 3, 3);
  EXPECT_EQ(both, (std::vector<double>{3, 13, 103, 113, 1003, 1013, 1103, 1113}));
  EXPECT_EQ(BicBestK(g, 0, 0, 0, 0, 0), 2);
  EXPECT_EQ(BicBestK(g, 0, 1, 0, 0, 1), 3);
  EXPECT_EQ(BigK(g), 3);
  GofArrays big = g;
  big.K = 20;
  EXPECT_EQ(BigK(big), 10);
}

}  // namespace
}  // namespace privbench::epsilon_star_gof
