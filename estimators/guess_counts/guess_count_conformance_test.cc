// Conformance of every registered guess-count estimator
// (AllGuessCountEstimatorNames()): bad input refused naming the argument,
// monotone in v, and VALIDITY: on a simulated eps-DP randomised-response
// guesser (each guess correct independently with probability
// e^eps/(1+e^eps), exactly eps-DP) the lower bound exceeds the true eps in
// at most a beta fraction of trials, checked against a binomial quantile.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/seeding.h"
#include "estimators/guess_counts/guess_count_estimator.h"
#include "estimators/guess_counts/guess_count_registry.h"

namespace privbench {
namespace {

class GuessCountConformance : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto est = MakeGuessCountEstimator(GetParam());
    ASSERT_TRUE(est.ok()) << est.message();
    est_ = std::move(est).value();
  }
  std::unique_ptr<GuessCountEstimator> est_;
};

TEST_P(GuessCountConformance, RefusesBadInputNamingTheArgument) {
  struct Case {
    GuessCounts c;
    double delta, beta;
    std::string prefix;
  };
  const std::vector<Case> cases = {
      {{0, 0, 0}, 0, 0.05, "m must be"},
      {{10, 11, 5}, 0, 0.05, "r must be"},
      {{10, -1, 0}, 0, 0.05, "r must be"},
      {{10, 5, 6}, 0, 0.05, "v must be"},
      {{10, 5, -1}, 0, 0.05, "v must be"},
      {{10, 5, 5}, -1e-9, 0.05, "delta must be"},
      {{10, 5, 5}, 1.0, 0.05, "delta must be"},
      {{10, 5, 5}, 0, 0.0, "beta must be"},
      {{10, 5, 5}, 0, 1.0, "beta must be"},
      {{10, 5, 5}, 0, std::nan(""), "beta must be"},
      // Beyond the work bound (2^62 canaries once took 109 s).
      {{(int64_t{1} << 53) + 1, 10, 5}, 0, 0.05, "m must be <= 2^53"},
  };
  for (const Case& k : cases) {
    auto r = est_->LowerBound(k.c, k.delta, k.beta);
    ASSERT_FALSE(r.ok()) << k.c.ToString();
    EXPECT_EQ(r.message().rfind(k.prefix, 0), 0u) << r.message();
  }
}

TEST_P(GuessCountConformance, MonotoneInV) {
  for (double delta : {0.0, 1e-5}) {
    double prev = 0;
    for (int64_t v = 0; v <= 200; v += 5) {
      auto r = est_->LowerBound({1000, 200, v}, delta, 0.05);
      ASSERT_TRUE(r.ok()) << r.message();
      EXPECT_GE(*r, prev) << "v=" << v << " delta=" << delta;
      prev = *r;
    }
  }
}

// Smallest c with P[Binomial(n, p) > c] <= tail.
int64_t BinomialQuantile(int64_t n, double p, double tail) {
  double cdf = 0;
  for (int64_t c = 0; c <= n; ++c) {
    cdf += std::exp(std::lgamma(n + 1.0) - std::lgamma(c + 1.0) - std::lgamma(n - c + 1.0) +
                    c * std::log(p) + (n - c) * std::log1p(-p));
    if (1 - cdf <= tail) return c;
  }
  return n;
}

TEST_P(GuessCountConformance, NeverExceedsTheTrueEpsBeyondBeta) {
  constexpr int64_t kTrials = 400;
  constexpr double kBeta = 0.05;
  // The exceedance count is at most Binomial(kTrials, kBeta) (the bound's
  // guarantee); the test fails by chance with probability <= 1e-6.
  const int64_t allowed = BinomialQuantile(kTrials, kBeta, 1e-6);
  for (double eps : {0.5, 1.0, 2.0, 4.0}) {
    for (int64_t r : {50, 400}) {
      std::mt19937_64 rng(
          DeriveSeed(20231, {static_cast<uint64_t>(eps * 10), static_cast<uint64_t>(r)}));
      std::bernoulli_distribution correct(1 / (1 + std::exp(-eps)));
      int64_t exceed = 0;
      for (int64_t t = 0; t < kTrials; ++t) {
        int64_t v = 0;
        for (int64_t i = 0; i < r; ++i) v += correct(rng) ? 1 : 0;
        auto lower = est_->LowerBound({1000, r, v}, 0.0, kBeta);
        ASSERT_TRUE(lower.ok()) << lower.message();
        if (*lower > eps) ++exceed;
      }
      EXPECT_LE(exceed, allowed) << "eps=" << eps << " r=" << r;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, GuessCountConformance,
                         ::testing::ValuesIn(AllGuessCountEstimatorNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace privbench
