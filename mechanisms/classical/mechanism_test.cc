// Distribution tests of the classical mechanisms (mechanism.h). Each
// statistical test states its false-failure probability: the
// Dvoretzky-Kiefer-Wolfowitz inequality with Massart's constant,
// P(sup |F_n - F| > t) <= 2 exp(-2 n t^2), is exact for every n, so the
// threshold t = sqrt(ln(2 / beta) / (2n)) fails a correct sampler with
// probability at most beta = 1e-4 per test; binomial checks use a normal
// approximation at 4.4 standard errors (two-sided about 1e-5). Seeds are
// fixed, so a run is deterministic; the stated probabilities say how
// unlikely a correct implementation would be to fail for a random seed.
#include "mechanisms/classical/mechanism.h"

#include <algorithm>
#include <boost/math/distributions/gamma.hpp>
#include <boost/math/distributions/laplace.hpp>
#include <cmath>
#include <functional>

#include "core/seeding.h"
#include "gtest/gtest.h"
#include "mechanisms/classical/data.h"
#include "mechanisms/classical/logistic.h"
#include "mechanisms/classical/logistic_regression.h"
#include "mechanisms/classical/random_forest.h"

namespace privbench {
namespace {

constexpr double kBeta = 1e-4;

double DkwThreshold(size_t n) { return std::sqrt(std::log(2 / kBeta) / (2.0 * n)); }

double KsDistance(std::vector<double> v, const std::function<double(double)>& cdf) {
  std::sort(v.begin(), v.end());
  const double n = static_cast<double>(v.size());
  double worst = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const double f = cdf(v[i]);
    worst = std::max({worst, std::fabs(f - i / n), std::fabs(f - (i + 1) / n)});
  }
  return worst;
}

BinaryData SmallData() {
  BinaryData d;
  d.d = 2;
  Rng rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < 60; ++i) {
    const double a = u(rng), b = u(rng);
    d.Append({a, b}, a + 0.5 * b + 0.3 * u(rng) > 0 ? 1 : 0);
  }
  return d;
}

std::vector<std::vector<double>> Draws(const ClassicalMechanism& m, const BinaryData& d, int count,
                                       uint64_t seed) {
  const DataBounds bounds = BoundsOf(d);
  auto sampler = m.Prepare(d, bounds, {0.2, -0.1});
  EXPECT_TRUE(sampler.ok()) << sampler.message();
  Rng rng(seed);
  std::vector<std::vector<double>> out(count, std::vector<double>((*sampler)->dim()));
  for (auto& row : out) EXPECT_TRUE((*sampler)->Draw(rng, row.data()).ok());
  return out;
}

TEST(MechanismTest, RegistryRejectsBadArguments) {
  MechanismOptions o;
  EXPECT_NE(MakeClassicalMechanism("svm", o).message().find("mechanism must be one of"),
            std::string::npos);
  o.eps = 0;
  EXPECT_NE(MakeClassicalMechanism("nb", o).message().find("eps"), std::string::npos);
  o.eps = 1;
  o.variant = "expose_counts";
  EXPECT_FALSE(MakeClassicalMechanism("rf", o).ok());
  EXPECT_TRUE(MakeClassicalMechanism("nb", o).ok());
}

// Output perturbation: ||w_priv - w*|| ~ Gamma(d + 1, 2 / (n lambda eps)).
TEST(MechanismTest, OutputPerturbationNoiseNormIsGamma) {
  const BinaryData d = SmallData();
  MechanismOptions o;
  o.eps = 0.7;
  auto m = MakeClassicalMechanism("lr_output", o);
  const LogisticProblem p = LrProblem(d, BoundsOf(d), 0);
  auto fit = FitLogistic(p, {}, {});
  ASSERT_TRUE(fit.ok());
  std::vector<double> norms;
  for (const auto& w : Draws(**m, d, 4000, 1)) {
    double s = 0;
    for (int j = 0; j < 3; ++j) s += (w[j] - fit->w[j]) * (w[j] - fit->w[j]);
    norms.push_back(std::sqrt(s));
  }
  boost::math::gamma_distribution<double> g(3, 2 / (60 * p.lambda * o.eps));
  EXPECT_LT(KsDistance(norms, [&](double x) { return boost::math::cdf(g, x); }),
            DkwThreshold(norms.size()));
}

// Objective perturbation: the output's first-order condition gives back the
// noise, b = -n (grad of the regularised loss at w), whose norm must be
// Gamma(d + 1, 2 / eps').
TEST(MechanismTest, ObjectivePerturbationRecoversGammaNoise) {
  const BinaryData d = SmallData();
  MechanismOptions o;
  o.eps = 2;
  auto m = MakeClassicalMechanism("lr_objective", o);
  LogisticProblem p = LrProblem(d, BoundsOf(d), 0);
  const ObjectiveBudget budget = ObjectivePerturbationBudget(o.eps, 60, p.lambda);
  EXPECT_NEAR(budget.eps_prime, 2 - std::log(1.5625), 1e-12);  // n lambda = 1, c = 1/4
  p.lambda += budget.delta_reg;
  std::vector<double> norms;
  for (const auto& w : Draws(**m, d, 1500, 2)) {
    std::vector<double> g(3, 0.0);
    for (int i = 0; i < 60; ++i) {
      const double* z = p.x.data() + 3 * i;
      const double t = p.sign[i] * (z[0] * w[0] + z[1] * w[1] + z[2] * w[2]);
      for (int j = 0; j < 3; ++j) g[j] += -p.sign[i] * Sigmoid(-t) * z[j] / 60;
    }
    double s = 0;
    for (int j = 0; j < 3; ++j) s += std::pow(60 * (g[j] + p.lambda * w[j]), 2);
    norms.push_back(std::sqrt(s));
  }
  boost::math::gamma_distribution<double> g(3, 2 / budget.eps_prime);
  EXPECT_LT(KsDistance(norms, [&](double x) { return boost::math::cdf(g, x); }),
            DkwThreshold(norms.size()));
}

TEST(MechanismTest, ObjectiveBudgetAddsRegulariserWhenEpsIsSmall) {
  const ObjectiveBudget b = ObjectivePerturbationBudget(0.1, 100, 0.01);
  EXPECT_DOUBLE_EQ(b.eps_prime, 0.05);
  EXPECT_NEAR(b.delta_reg, 0.25 / (100 * (std::exp(0.025) - 1)) - 0.01, 1e-15);
}

// Naive Bayes: class 0's first noisy mean is the mean plus Laplace(width /
// (n_0 eps / (3d))); the exposed counts sum to n exactly (bug 1).
TEST(MechanismTest, NaiveBayesMeanNoiseIsLaplaceAndBugExposesN) {
  const BinaryData d = SmallData();
  const DataBounds bounds = BoundsOf(d);
  double n0 = 0, sum = 0;
  for (int i = 0; i < d.n(); ++i) {
    if (d.y[i] == 0) n0 += 1, sum += d.row(i)[0];
  }
  MechanismOptions o;
  o.eps = 1.5;
  auto m = MakeClassicalMechanism("nb", o);
  std::vector<double> v;
  for (const auto& t : Draws(**m, d, 4000, 3)) v.push_back(t[0] - sum / n0);
  boost::math::laplace_distribution<double> lap(0, (bounds.hi[0] - bounds.lo[0]) / (n0 * 0.25));
  EXPECT_LT(KsDistance(v, [&](double x) { return boost::math::cdf(lap, x); }),
            DkwThreshold(v.size()));
  o.variant = "expose_counts";
  auto bug = MakeClassicalMechanism("nb", o);
  for (const auto& t : Draws(**bug, d, 50, 4)) EXPECT_NEAR(t[9] + t[10], 60, 1e-9);
}

// Monotonic permute-and-flip on two counts with gap g picks the worse class
// with probability exp(-eps g) / 2.
TEST(MechanismTest, PermuteAndFlipProbabilities) {
  Rng rng(5);
  const int trials = 200000;
  for (double gap : {0.0, 1.0, 3.0}) {
    int worse = 0;
    for (int i = 0; i < trials; ++i) worse += PermuteAndFlip(rng, 10, 10 + gap, 0.8) == 0;
    const double p = gap == 0 ? 0.5 : std::exp(-0.8 * gap) / 2;
    EXPECT_NEAR(worse / double(trials), p, 4.4 * std::sqrt(p * (1 - p) / trials)) << gap;
  }
}

TEST(MechanismTest, BallsInBinsDepth) {
  EXPECT_EQ(BallsInBinsDepth(4), 2);    // iris
  EXPECT_EQ(BallsInBinsDepth(30), 11);  // breast cancer
  EXPECT_EQ(BallsInBinsDepth(108), 15);
}

// A forest whose trees all hold every row (one tree) and depth 1 on one
// feature: the leaf of x* holds the rows on x*'s side of a uniform split;
// with eps large the label is the majority there. Checks the summary's size
// and values.
TEST(MechanismTest, ForestSummaryIsOneLabelPerTree) {
  const BinaryData d = SmallData();
  MechanismOptions o;
  o.eps = 1;
  auto m = MakeClassicalMechanism("rf", o);
  for (const auto& t : Draws(**m, d, 20, 6)) {
    ASSERT_EQ(t.size(), 10u);
    for (double v : t) EXPECT_TRUE(v == 0 || v == 1);
  }
}

}  // namespace
}  // namespace privbench
