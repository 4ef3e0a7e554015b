// Tests for the empirical Epsilon* (Negoescu et al., PPAI-24, Def. 2 with
// eCDF rates, App. B.1 window (0.001, 0.999)).
#include "estimators/loss_samples/empirical.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <vector>

#include "core/seeding.h"
#include "estimators/loss_samples/exact.h"
#include "estimators/loss_samples/factories.h"

namespace privbench {
namespace {

double Empirical(const std::vector<double>& train, const std::vector<double>& population,
                 const EpsilonStarOptions& options) {
  auto r = MakeEmpiricalEpsilonStar()->Estimate(train, population, options);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : -1.0;
}

EpsilonStarOptions WithM(int64_t m, double delta = 0.0) {
  EpsilonStarOptions o;
  o.quantiles_per_distribution = m;
  o.delta = delta;
  return o;
}

// Hand-computed example (4 + 4 losses).
//   train      = {0.1, 0.2, 0.3, 0.6},  population = {0.25, 0.4, 0.5, 0.7}.
// With m >= n every sample value is a threshold. FPR = #{pop <= tau}/4,
// FNR = #{train > tau}/4, window (0.001, 0.999):
//   tau   FPR   FNR   term1=(1-FPR)/FNR  term2=(1-FNR)/FPR
//   0.1   0     3/4   -- dropped (FPR = 0)
//   0.2   0     2/4   -- dropped
//   0.25  1/4   2/4   1.5                2
//   0.3   1/4   1/4   3                  3      <- maximum
//   0.4   2/4   1/4   2                  1.5
//   0.5   3/4   1/4   1                  1
//   0.6   3/4   0     -- dropped (FNR = 0)
//   0.7   1     0     -- dropped
// Epsilon* = log 3. With delta = 0.1 the maximum is (0.9 - 0.25)/0.25 = 2.6
// at tau = 0.3 (the others: 1.3, 1.6, 1.6, 1.3, 0.6, 0.6): log 2.6.
const std::vector<double> kTrain = {0.1, 0.2, 0.3, 0.6};
const std::vector<double> kPopulation = {0.25, 0.4, 0.5, 0.7};

TEST(EmpiricalTest, HandComputedFourByFour) {
  EXPECT_NEAR(Empirical(kTrain, kPopulation, WithM(1000)), std::log(3.0), 1e-15);
  EXPECT_NEAR(Empirical(kTrain, kPopulation, WithM(1000, 0.1)), std::log(2.6), 1e-15);
  // The paper's default m = 10^6 reaches the same thresholds.
  EXPECT_NEAR(Empirical(kTrain, kPopulation, EpsilonStarOptions()), std::log(3.0), 1e-15);
  // Order of the input does not matter.
  EXPECT_NEAR(Empirical({0.6, 0.3, 0.1, 0.2}, {0.7, 0.25, 0.5, 0.4}, WithM(1000)), std::log(3.0),
              1e-15);
}

TEST(EmpiricalTest, HandComputedCoarseGrid) {
  // m = 1: the single level 1/2; lower quantile index ceil(4/2) - 1 = 1.
  // Population threshold 0.4: (FPR, FNR) = (1/2, 1/4): max(2, 1.5) = 2.
  // Train threshold 0.2: FPR = 0, dropped. Epsilon* = log 2.
  EXPECT_NEAR(Empirical(kTrain, kPopulation, WithM(1)), std::log(2.0), 1e-15);
}

TEST(EmpiricalTest, HandComputedWindow) {
  // rate_floor = 0.3 removes every row of the table above (each has a rate
  // of 1/4 or less, or 0): no threshold survives and Epsilon* = 0.
  EpsilonStarOptions o = WithM(1000);
  o.rate_floor = 0.3;
  EXPECT_EQ(Empirical(kTrain, kPopulation, o), 0.0);
  // rate_floor = 0.2 keeps the rows with rates in {1/4, 1/2, 3/4}: log 3.
  o.rate_floor = 0.2;
  EXPECT_NEAR(Empirical(kTrain, kPopulation, o), std::log(3.0), 1e-15);
  // rate_ceiling = 0.6 drops the rows with FPR = 3/4; the maximum stays 3.
  o.rate_ceiling = 0.6;
  EXPECT_NEAR(Empirical(kTrain, kPopulation, o), std::log(3.0), 1e-15);
}

TEST(EmpiricalTest, HandComputedTies) {
  // train {1,1,2,2}, population {1,2,2,3}:
  //   tau=1: FPR 1/4, FNR 2/4: term1 1.5, term2 2   <- maximum
  //   tau=2: FPR 3/4, FNR 0: dropped;  tau=3: FPR 1, dropped.
  EXPECT_NEAR(Empirical({1, 1, 2, 2}, {1, 2, 2, 3}, WithM(1000)), std::log(2.0), 1e-15);
}

TEST(EmpiricalTest, IdenticalSamplesGiveExactlyZero) {
  // Same vector: FPR(tau) + FNR(tau) = 1 at every threshold, so both terms
  // are <= 1.
  const std::vector<double> x = {0.5, 0.1, 0.9, 0.3, 0.3, 2.0};
  EXPECT_EQ(Empirical(x, x, WithM(1000)), 0.0);
}

// Reference implementation: thresholds listed one by one, rates counted by
// brute force.
double BruteForce(const std::vector<double>& train, const std::vector<double>& population,
                  const EpsilonStarOptions& o) {
  std::vector<double> st = train, sp = population;
  std::sort(st.begin(), st.end());
  std::sort(sp.begin(), sp.end());
  const int64_t m = o.quantiles_per_distribution;
  std::vector<double> thresholds;
  for (const auto* s : {&st, &sp}) {
    const int64_t n = static_cast<int64_t>(s->size());
    for (int64_t k = 1; k <= m; ++k) {
      // j = ceil(k n / (m+1)) - 1, the lower empirical quantile.
      const int64_t j = static_cast<int64_t>(std::ceil(static_cast<long double>(k) * n /
                                                       static_cast<long double>(m + 1))) -
                        1;
      thresholds.push_back((*s)[static_cast<size_t>(j)]);
    }
  }
  double best = 1.0;
  for (double tau : thresholds) {
    double pop_le = 0, train_gt = 0;
    for (double x : population) pop_le += (x <= tau);
    for (double x : train) train_gt += (x > tau);
    const double fpr = pop_le / static_cast<double>(population.size());
    const double fnr = train_gt / static_cast<double>(train.size());
    if (!(fpr > o.rate_floor && fpr < o.rate_ceiling && fnr > o.rate_floor &&
          fnr < o.rate_ceiling)) {
      continue;
    }
    best = std::max({best, (1 - o.delta - fpr) / fnr, (1 - o.delta - fnr) / fpr});
  }
  return std::log(best);
}

TEST(EmpiricalTest, MatchesBruteForceOnRandomSamplesWithTies) {
  // Random small samples on a coarse integer grid (many ties), unequal
  // sizes, every grid size from 1 to beyond n.
  Rng rng = MakeRng(17, {0});
  for (int trial = 0; trial < 60; ++trial) {
    boost::random::uniform_int_distribution<int> size(1, 40), value(0, 12), shift(0, 4);
    const int nt = size(rng), np = size(rng), s = shift(rng);
    std::vector<double> train(static_cast<size_t>(nt)), population(static_cast<size_t>(np));
    for (double& x : train) x = value(rng);
    for (double& x : population) x = value(rng) + s;
    for (int64_t m : {1, 2, 3, 5, 7, 13, 40, 41, 100}) {
      for (double delta : {0.0, 0.05}) {
        EpsilonStarOptions o = WithM(m, delta);
        o.rate_floor = trial % 2 ? 0.0 : 0.001;
        SCOPED_TRACE("trial " + std::to_string(trial) + " m " + std::to_string(m));
        EXPECT_NEAR(Empirical(train, population, o), BruteForce(train, population, o), 1e-12);
      }
    }
  }
}

TEST(EmpiricalTest, NonIncreasingInDelta) {
  double last = INFINITY;
  for (double delta : {0.0, 1e-5, 0.01, 0.1, 0.5}) {
    const double e = Empirical(kTrain, kPopulation, WithM(1000, delta));
    EXPECT_LE(e, last);
    last = e;
  }
}

// N(0,1) train vs N(3,1) population, window (0.001, 0.999): the exact value
// is log(Phi(3 - z_0.999) / 0.001) = 6.13999 (exact_test.cc). Over 30
// seeded runs at n = 10^5 the empirical value had mean 6.147 and sd 0.022,
// so |error| < 0.15 is ~6 sd: false-failure probability < 1e-8 (Normal
// approximation); the seed is fixed, so the test is deterministic.
TEST(EmpiricalTest, ApproachesExactForSeparatedGaussians) {
  const int n = 100000;
  Rng rng = MakeRng(2024, {1});
  boost::random::normal_distribution<double> z(0.0, 1.0);
  std::vector<double> train(n), population(n);
  for (double& x : train) x = z(rng);
  for (double& x : population) x = 3.0 + z(rng);
  auto exact =
      ExactEpsilonStar(*NormalLossDistribution(0, 1), *NormalLossDistribution(3, 1), WithM(100000));
  ASSERT_TRUE(exact.ok());
  EXPECT_NEAR(Empirical(train, population, WithM(n)), *exact, 0.15);
}

// Identical Gamma(1, 1) distributions (true Epsilon* = 0; study B2). Over
// 100 seeded runs (20 at n = 10^5) the empirical value had mean 0.85
// (sd 0.41) at n = 10^3 and mean 0.155 (sd 0.074) at n = 10^5. Means over
// 20 runs at n = 10^3 and 10 at n = 10^5 differ by 0.7 with sd 0.1, and the
// bound 0.4 on the n = 10^5 mean is 10 sd above 0.155: false-failure
// probability < 1e-6 for each check (Normal approximation). Fixed seeds.
TEST(EmpiricalTest, IdenticalDistributionsSmallAndShrinkingWithN) {
  auto mean_over = [](int n, int reps) {
    double sum = 0;
    for (int r = 0; r < reps; ++r) {
      Rng rng = MakeRng(99, {static_cast<uint64_t>(n), static_cast<uint64_t>(r)});
      boost::random::gamma_distribution<double> g(1.0, 1.0);
      std::vector<double> a(static_cast<size_t>(n)), b(static_cast<size_t>(n));
      for (double& x : a) x = g(rng);
      for (double& x : b) x = g(rng);
      sum += Empirical(a, b, WithM(100000));
    }
    return sum / reps;
  };
  const double small_n = mean_over(1000, 20), large_n = mean_over(100000, 10);
  EXPECT_LT(large_n, small_n);
  EXPECT_LT(large_n, 0.4);
  EXPECT_GT(small_n, 0.0);
}

}  // namespace
}  // namespace privbench
