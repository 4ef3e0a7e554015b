// one_run (one_run.h): the perfect guesser's closed form, the delta term
// against a brute-force maximum, root accuracy, monotonicity in v and in
// delta, and the theorem's p-value as a function of eps.
#include "estimators/guess_counts/one_run.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "estimators/guess_counts/guess_count_registry.h"

namespace privbench {
namespace {

std::unique_ptr<GuessCountEstimator> OneRun() {
  return std::move(MakeGuessCountEstimator("one_run")).value();
}

double Lower(const GuessCounts& c, double delta, double beta) {
  auto r = OneRun()->LowerBound(c, delta, beta);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : std::nan("");
}

// P[Binomial(r, q) = k] by lgamma.
double Pmf(int64_t r, double q, int64_t k) {
  return std::exp(std::lgamma(r + 1.0) - std::lgamma(k + 1.0) - std::lgamma(r - k + 1.0) +
                  k * std::log(q) + (r - k) * std::log1p(-q));
}

// p(eps) with the delta term's max found by a full scan over i.
double BruteForcePValue(const GuessCounts& c, double eps, double delta) {
  const double q = 1 / (1 + std::exp(-eps));
  double f = 0;
  for (int64_t k = c.v; k <= c.r; ++k) f += Pmf(c.r, q, k);
  double sum = 0, best = 0;
  for (int64_t i = 1; i <= c.v; ++i) {
    sum += Pmf(c.r, q, c.v - i);
    best = std::max(best, sum / static_cast<double>(i));
  }
  return std::min(1.0, f + 2.0 * static_cast<double>(c.m) * delta * best);
}

TEST(OneRun, PerfectGuesserAtDeltaZeroMatchesTheClosedForm) {
  // v = r: p(eps) = q^r, so eps = ln(b / (1 - b)) with b = beta^(1/r).
  for (int64_t r : {1, 5, 30, 100, 1000, 100000}) {
    for (double beta : {0.05, 0.01, 1e-6}) {
      const double b = std::pow(beta, 1.0 / static_cast<double>(r));
      const double closed = b <= 0.5 ? 0.0 : std::log(b / (1 - b));
      EXPECT_NEAR(Lower({2 * r, r, r}, 0.0, beta), closed, 1e-6) << r << " " << beta;
    }
  }
}

TEST(OneRun, PValueMatchesBruteForce) {
  for (GuessCounts c :
       {GuessCounts{100, 40, 30}, GuessCounts{1000, 200, 150}, GuessCounts{1000, 200, 80},
        GuessCounts{500, 500, 400}, GuessCounts{1000, 50, 50}}) {
    for (double eps : {0.0, 0.3, 1.0, 2.5, 6.0}) {
      for (double delta : {0.0, 1e-5, 1e-3}) {
        const double want = BruteForcePValue(c, eps, delta);
        EXPECT_NEAR(OneRunPValue(c, eps, delta), want, 1e-12 + 1e-9 * want)
            << c.ToString() << " eps=" << eps << " delta=" << delta;
      }
    }
  }
}

TEST(OneRun, RootAccurateTo1e6) {
  for (double delta : {0.0, 1e-5}) {
    const GuessCounts c{1000, 200, 170};
    const double eps = Lower(c, delta, 0.05);
    ASSERT_GT(eps, 0.5);
    EXPECT_LT(OneRunPValue(c, eps, delta), 0.05);
    EXPECT_GE(OneRunPValue(c, eps + 1e-6, delta), 0.05);
  }
}

TEST(OneRun, ZeroWhenEvenEpsZeroIsNotRejected) {
  EXPECT_EQ(Lower({1000, 100, 50}, 0.0, 0.05), 0.0);  // chance accuracy
  EXPECT_EQ(Lower({1000, 0, 0}, 0.0, 0.05), 0.0);     // no guesses
  EXPECT_EQ(Lower({1000, 10, 2}, 1e-5, 0.05), 0.0);   // worse than chance
}

TEST(OneRun, MonotoneInVAndDelta) {
  const int64_t m = 1000, r = 100;
  double prev = 0;
  for (int64_t v = 0; v <= r; ++v) {
    const double eps = Lower({m, r, v}, 1e-5, 0.05);
    EXPECT_GE(eps, prev) << "v=" << v;
    prev = eps;
  }
  EXPECT_GT(prev, 3.0);
  prev = 1e9;
  for (double delta : {0.0, 1e-8, 1e-6, 1e-4, 1e-3}) {
    const double eps = Lower({m, r, 90}, delta, 0.05);
    EXPECT_LE(eps, prev) << delta;
    prev = eps;
  }
}

TEST(OneRun, LargeCountsAreFinite) {
  const double eps = Lower({1000000, 100000, 90000}, 1e-5, 0.05);
  EXPECT_TRUE(std::isfinite(eps));
  EXPECT_GT(eps, 2.0);
  EXPECT_LT(eps, std::log(9.0));  // below the plug-in ln(0.9/0.1)
}

}  // namespace
}  // namespace privbench
