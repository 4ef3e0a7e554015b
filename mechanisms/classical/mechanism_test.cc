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
#include <cstdio>
#include <functional>
#include <string>

#include "core/seeding.h"
#include "gtest/gtest.h"
#include "mechanisms/classical/data.h"
#include "mechanisms/classical/logistic_regression.h"
#include "mechanisms/classical/naive_bayes.h"
#include "mechanisms/classical/random_forest.h"
#include "numerics/logistic.h"

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

// Rows of one-hot blocks in {-1, +1} (as Adult's after scaling): the
// objective's rows are stored compressed (shift + sparse).
BinaryData OneHotData() {
  BinaryData d;
  d.d = 12;
  Rng rng(5);
  for (int i = 0; i < 200; ++i) {
    std::vector<double> x(12, -1.0);
    int score = 0;
    for (int block = 0; block < 3; ++block) {
      const int hot = static_cast<int>(rng() % 4);
      x[4 * block + hot] = 1;
      score += hot == 0 ? 1 : 0;
    }
    d.Append(x, score + static_cast<int>(rng() % 2) >= 2 ? 1 : 0);
  }
  return d;
}

// DrawMany against `count` calls of Draw from the same seed: the same rng
// stream is consumed (equal states after), and the draws agree to `bound`
// (0: bit for bit). Returns the largest difference.
double DrawManyVsDraw(const ClassicalMechanism& m, const BinaryData& d, int64_t count,
                      double bound) {
  const DataBounds bounds = BoundsOf(d);
  auto one = m.Prepare(d, bounds, {0.2, -0.1});
  auto many = m.Prepare(d, bounds, {0.2, -0.1});
  EXPECT_TRUE(one.ok() && many.ok());
  const int64_t dim = (*one)->dim();
  std::vector<double> a(count * dim), b(count * dim);
  Rng ra(17), rb(17);
  for (int64_t i = 0; i < count; ++i) EXPECT_TRUE((*one)->Draw(ra, a.data() + i * dim).ok());
  const Status st = (*many)->DrawMany(rb, count, b.data());
  EXPECT_TRUE(st.ok()) << st.message();
  EXPECT_TRUE(ra == rb) << m.Describe();
  double worst = 0;
  for (int64_t k = 0; k < count * dim; ++k) worst = std::max(worst, std::fabs(a[k] - b[k]));
  EXPECT_LE(worst, bound) << m.Describe();
  return worst;
}

TEST(MechanismTest, DrawManyGivesTheDrawsOfDraw) {
  const BinaryData small = SmallData(), onehot = OneHotData();
  EXPECT_TRUE(LrProblem(onehot, BoundsOf(onehot), 0).compressed());
  MechanismOptions o;
  o.eps = 1;
  for (const char* name : {"lr_output", "nb", "rf"}) {  // the default: Draw k times
    auto m = MakeClassicalMechanism(name, o);
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(DrawManyVsDraw(**m, small, 30, 0), 0) << name;
  }
  // lr_objective: each draw solved to gradient norm < 1e-8 both ways, so the
  // two lie within 2e-8 / (lambda + Delta) of each other (lambda = 1/n).
  for (const char* variant : {"", "diffprivlib_0_5"}) {
    for (double eps : {0.2, 1.0, 8.0}) {
      o.eps = eps;
      o.variant = variant;
      auto m = MakeClassicalMechanism("lr_objective", o);
      ASSERT_TRUE(m.ok());
      for (const BinaryData* d : {&small, &onehot}) {
        const double bound = 2e-8 * static_cast<double>(d->n());
        const double worst = DrawManyVsDraw(**m, *d, 40, bound);
        std::printf("lr_objective %s eps %g n %lld: max |DrawMany - Draw| %.3g\n", variant, eps,
                    static_cast<long long>(d->n()), worst);
      }
    }
  }
}

TEST(MechanismTest, DrawManyNamesBadArguments) {
  const BinaryData d = SmallData();
  MechanismOptions o;
  for (const char* name : {"lr_objective", "lr_output"}) {
    auto m = MakeClassicalMechanism(name, o);
    ASSERT_TRUE(m.ok());
    auto sampler = (*m)->Prepare(d, BoundsOf(d), {0.2, -0.1});
    ASSERT_TRUE(sampler.ok());
    Rng rng(1);
    std::vector<double> out(3);
    EXPECT_NE((*sampler)->DrawMany(rng, 0, out.data()).message().find("k must be >= 1"),
              std::string::npos);
    EXPECT_NE((*sampler)->DrawMany(rng, -1, out.data()).message().find("k must be >= 1"),
              std::string::npos);
    EXPECT_NE((*sampler)->DrawMany(rng, 1, nullptr).message().find("out must not be null"),
              std::string::npos);
  }
}

TEST(MechanismTest, ObjectiveBudgetAddsRegulariserWhenEpsIsSmall) {
  const ObjectiveBudget b = ObjectivePerturbationBudget(0.1, 100, 0.01);
  EXPECT_DOUBLE_EQ(b.eps_prime, 0.05);
  EXPECT_NEAR(b.delta_reg, 0.25 / (100 * (std::exp(0.025) - 1)) - 0.01, 1e-15);
}

// Naive Bayes (naive_bayes.h): each release's noise, recovered from the
// release, is Laplace with the stated scale (count 3/eps, shifted sum
// w (3d)/eps, squared deviations s (3d)/eps, the last standardised by its
// draw's s); the summary is the release's means; the exposed counts sum to n
// exactly (bug 1).
TEST(MechanismTest, NaiveBayesReleasesLaplaceNoisedStatisticsAndBugExposesN) {
  const BinaryData d = SmallData();
  const DataBounds bounds = BoundsOf(d);
  const NbClassStatistics stats = NbStatisticsOf(d, bounds, 0);
  const double eps = 1.5, w = bounds.hi[0] - bounds.lo[0];
  Rng rng(3);
  std::vector<double> count, sum, square;
  for (int draw = 0; draw < 4000; ++draw) {
    const NbRelease r = DrawNbRelease(stats, bounds, eps, rng);
    count.push_back(r.noisy_count - stats.count);
    sum.push_back(r.noisy_shifted_sum[0] - stats.shifted_sum[0]);
    const double m = std::clamp(r.mean[0], bounds.lo[0], bounds.hi[0]);
    const double s = std::pow(std::max(m - bounds.lo[0], bounds.hi[0] - m), 2);
    square.push_back((r.noisy_square_dev[0] - r.exact_square_dev[0]) / s);
    if (draw == 0) {
      double direct = 0;
      for (int i = 0; i < d.n(); ++i) {
        if (d.y[i] == 0) direct += std::pow(d.row(i)[0] - m, 2);
      }
      EXPECT_NEAR(r.exact_square_dev[0], direct, 1e-9);
    }
  }
  const double per_feature = eps / 3 / 2;
  const std::pair<std::vector<double>*, double> laws[] = {
      {&count, 3 / eps}, {&sum, w / per_feature}, {&square, 1 / per_feature}};
  for (const auto& [values, scale] : laws) {
    boost::math::laplace_distribution<double> lap(0, scale);
    EXPECT_LT(KsDistance(*values, [&](double x) { return boost::math::cdf(lap, x); }),
              DkwThreshold(values->size()))
        << "scale " << scale;
  }
  MechanismOptions o;
  o.eps = eps;
  auto m = MakeClassicalMechanism("nb", o);
  const std::vector<double> first = Draws(**m, d, 1, 9)[0];
  Rng same(9);
  EXPECT_EQ(first[0], DrawNbRelease(stats, bounds, eps, same).mean[0]);
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
