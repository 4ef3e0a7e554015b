// one_run_fdp (one_run_fdp.h): the recursion against a direct
// transcription, zero at chance accuracy, monotonicity, root accuracy, the
// relation to Steinke, Nasr & Jagielski's bound (one_run), and validity by
// simulation: a mu-GDP mechanism (Gaussian scores) and an (eps, delta)-DP
// one (randomised response that reveals with probability delta).
#include "estimators/guess_counts/one_run_fdp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include "core/seeding.h"
#include "estimators/guess_counts/guess_count_registry.h"
#include "numerics/normal.h"

namespace privbench {
namespace {

std::unique_ptr<GuessCountEstimator> Make(const char* name) {
  return std::move(MakeGuessCountEstimator(name)).value();
}

double Value(const Result<double>& r) {
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : std::nan("");
}

// The recursion as the authors' reference code writes it (full arrays, no
// early exit), with the cap at 1; B^-1 given as a function.
bool DirectRejects(const GuessCounts& c, double beta, const std::function<double(double)>& inv) {
  const double m = c.m, guesses = c.r;
  std::vector<double> h(c.v + 1), r(c.v + 1);
  r[c.v] = beta * c.v / m;
  h[c.v] = beta * (guesses - c.v) / m;
  for (int64_t i = c.v - 1; i >= 0; --i) {
    h[i] = std::max(h[i + 1], inv(r[i + 1]));
    r[i] = std::min(1.0, r[i + 1] + i / (guesses - i) * (h[i] - h[i + 1]));
  }
  return r[0] + h[0] > guesses / m;
}

// Phi^-1 by bisection on NormalCdf (independent of the library's erfc_inv).
double Quantile(double y) {
  double lo = -40, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (NormalCdf(mid) < y ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

TEST(OneRunFdp, RecursionMatchesADirectTranscription) {
  for (GuessCounts c : {GuessCounts{1000, 100, 80}, GuessCounts{1000, 200, 130},
                        GuessCounts{100, 100, 100}, GuessCounts{5000, 60, 41}}) {
    for (double beta : {0.05, 0.01}) {
      for (double mu : {0.0, 0.1, 0.3, 0.6, 1.0, 2.0}) {
        const auto inv = [mu](double y) { return y >= 1 ? 1.0 : NormalCdf(Quantile(y) - mu); };
        EXPECT_EQ(OneRunRejectsGaussianDp(c, mu, beta), DirectRejects(c, beta, inv))
            << c.ToString() << " mu=" << mu;
      }
      for (double eps : {0.0, 0.2, 0.5, 1.0, 2.0, 4.0}) {
        for (double delta : {0.0, 1e-5, 0.05}) {
          const auto inv = [=](double y) {
            return std::max(
                {0.0, (y - delta) * std::exp(-eps), 1 - delta - std::exp(eps) * (1 - y)});
          };
          EXPECT_EQ(OneRunRejectsApproximateDp(c, eps, delta, beta), DirectRejects(c, beta, inv))
              << c.ToString() << " eps=" << eps << " delta=" << delta;
        }
      }
    }
  }
}

TEST(OneRunFdp, ZeroAtChanceAccuracyOrBelow) {
  auto est = Make("one_run_fdp");
  for (int64_t m : {10, 1000, 100000}) {
    for (int64_t r : {int64_t{0}, int64_t{1}, int64_t{10}, m / 2, m}) {
      for (int64_t v : {int64_t{0}, r / 4, r / 2}) {
        const GuessCounts c{m, r, v};
        EXPECT_EQ(Value(OneRunGaussianDpMuLowerBound(c, 0.05)), 0.0) << c.ToString();
        EXPECT_EQ(Value(OneRunGaussianDpEpsilonLowerBound(c, 1e-5, 0.05)), 0.0) << c.ToString();
        for (double delta : {0.0, 1e-5}) {
          EXPECT_EQ(Value(est->LowerBound(c, delta, 0.05)), 0.0) << c.ToString();
        }
      }
    }
  }
}

TEST(OneRunFdp, MonotoneInV) {
  auto est = Make("one_run_fdp");
  for (int64_t r : {50, 200, 1000}) {
    double prev_mu = 0, prev_eps = 0;
    for (int64_t v = 0; v <= r; ++v) {
      const double mu = Value(OneRunGaussianDpMuLowerBound({1000, r, v}, 0.05));
      const double eps = Value(est->LowerBound({1000, r, v}, 1e-5, 0.05));
      EXPECT_GE(mu, prev_mu) << "r=" << r << " v=" << v;
      EXPECT_GE(eps, prev_eps) << "r=" << r << " v=" << v;
      prev_mu = mu;
      prev_eps = eps;
    }
    EXPECT_GT(prev_mu, 0.9) << r;  // all correct
  }
}

TEST(OneRunFdp, RootsAccurateTo1e6) {
  for (GuessCounts c : {GuessCounts{1000, 200, 170}, GuessCounts{1000, 100, 100}}) {
    const double mu = Value(OneRunGaussianDpMuLowerBound(c, 0.05));
    ASSERT_GT(mu, 0.3);
    EXPECT_TRUE(OneRunRejectsGaussianDp(c, mu, 0.05));
    EXPECT_FALSE(OneRunRejectsGaussianDp(c, mu + 1e-6, 0.05));
    const double eps = Value(Make("one_run_fdp")->LowerBound(c, 1e-5, 0.05));
    ASSERT_GT(eps, 0.5);
    EXPECT_TRUE(OneRunRejectsApproximateDp(c, eps, 1e-5, 0.05));
    EXPECT_FALSE(OneRunRejectsApproximateDp(c, eps + 1e-6, 1e-5, 0.05));
  }
}

TEST(OneRunFdp, RefusesBadInputNamingTheArgument) {
  const auto starts = [](const Result<double>& r, const std::string& prefix) {
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.message().rfind(prefix, 0), 0u) << r.message();
  };
  starts(OneRunGaussianDpMuLowerBound({0, 0, 0}, 0.05), "m must be");
  starts(OneRunGaussianDpMuLowerBound({10, 5, 6}, 0.05), "v must be");
  starts(OneRunGaussianDpMuLowerBound({10, 5, 5}, 1.0), "beta must be");
  starts(OneRunGaussianDpEpsilonLowerBound({10, 5, 5}, 0.0, 0.05), "delta must be in (0, 1)");
  const GuessCounts huge{int64_t{1} << 40, 20'000'000, 10'000'001};
  starts(OneRunGaussianDpMuLowerBound(huge, 0.05), "v must be <= 10000000");
  starts(Make("one_run_fdp")->LowerBound(huge, 0.0, 0.05), "v must be <= 10000000");
}

// The paper's claim (abstract): the f-DP analysis gives tighter empirical
// eps than Steinke et al.'s (eps, delta) analysis. What holds on this grid
// (m up to 1e5, r up to 5000, v from r/2 to r in steps of r/20, delta in
// 1e-10..0.1, beta in 1e-4..0.05; the numbers are printed):
//  - with the Gaussian curve as the hypothesis, eps(delta) from mu_lower is
//    at least Steinke's wherever Steinke's is >= 0.1; nearer chance accuracy
//    it can be lower (a handful of points, by at most 25%);
//  - applied to the (eps, delta) curve itself (one_run_fdp) the recursion
//    is at most 0.02 below Steinke's bound (its slack at delta ~ 0) and far
//    above it where m delta is not small (Steinke's delta term, 2 m delta
//    times a tail ratio, is crude there: e.g. m = 1e5, r = v = 5000,
//    delta = 1e-3, beta = 0.05 gives 0 there and 7.27 here).
TEST(OneRunFdp, RelationToSteinkeNasrJagielski) {
  auto steinke = Make("one_run");
  auto fdp = Make("one_run_fdp");
  int gaussian_below = 0, fdp_above = 0, points = 0;
  double worst_ratio = 1e9, worst_shortfall = 0, best_gain = 0;
  for (int64_t m : {100, 1000, 10000, 100000}) {
    for (int64_t r : {10, 50, 100, 500, 1000, 5000}) {
      if (r > m) continue;
      for (int k = 0; k <= 10; ++k) {
        const int64_t v = r / 2 + (r - r / 2) * k / 10;
        for (double delta : {1e-10, 1e-5, 1e-3, 1e-1}) {
          for (double beta : {0.05, 0.01, 1e-4}) {
            const GuessCounts c{m, r, v};
            const double s = Value(steinke->LowerBound(c, delta, beta));
            const double g = Value(OneRunGaussianDpEpsilonLowerBound(c, delta, beta));
            const double f = Value(fdp->LowerBound(c, delta, beta));
            ++points;
            if (s >= 0.1) {
              EXPECT_GE(g, s - 1e-6) << c.ToString() << " " << delta << " " << beta;
            }
            if (g < s - 1e-6) ++gaussian_below;
            if (s > 0) worst_ratio = std::min(worst_ratio, g / s);
            EXPECT_GE(f, s - 0.02) << c.ToString() << " " << delta << " " << beta;
            worst_shortfall = std::max(worst_shortfall, s - f);
            best_gain = std::max(best_gain, f - s);
            if (f > s + 1e-6) ++fdp_above;
          }
        }
      }
    }
  }
  std::printf(
      "%d settings. Gaussian f-DP eps below Steinke's at %d (worst ratio %.3f). "
      "(eps,delta) f-DP at most %.4f below Steinke's, above it at %d (by up to %.3f)\n",
      points, gaussian_below, worst_ratio, worst_shortfall, fdp_above, best_gain);
  EXPECT_GE(worst_ratio, 0.75);
  EXPECT_GT(fdp_above, points / 20);
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

// One run of the game: m canaries with fair-coin inclusion, scores drawn by
// `score(included, rng)`, "in" for the k highest and "out" for the k lowest
// scores (ties broken by an independent uniform key); returns v of r = 2k.
template <class Score>
GuessCounts PlayOneRun(int64_t m, int64_t k, const Score& score, std::mt19937_64& rng) {
  std::bernoulli_distribution coin(0.5);
  std::uniform_real_distribution<double> jitter(0.0, 1.0);
  std::vector<std::pair<std::pair<double, double>, bool>> canaries(m);
  for (auto& c : canaries) {
    c.second = coin(rng);
    c.first = {score(c.second, rng), jitter(rng)};
  }
  std::sort(canaries.begin(), canaries.end());
  int64_t v = 0;
  for (int64_t i = 0; i < k; ++i) v += canaries[i].second ? 0 : 1;      // "out"
  for (int64_t i = m - k; i < m; ++i) v += canaries[i].second ? 1 : 0;  // "in"
  return {m, 2 * k, v};
}

constexpr int64_t kTrials = 400;
constexpr double kBeta = 0.05;

// VALIDITY for Gaussian DP: scores N(mu, 1) if included, N(0, 1) if not, so
// each canary's inclusion is exactly mu-GDP. The lower bound may exceed
// the true mu in at most a beta fraction of runs: the exceedance count is
// at most Binomial(kTrials, beta), and the test fails by chance with
// probability <= 1e-6 per setting (9 settings).
TEST(OneRunFdp, GaussianMuLowerBoundCoverage) {
  const int64_t allowed = BinomialQuantile(kTrials, kBeta, 1e-6);
  for (double mu : {0.5, 1.0, 2.0}) {
    for (int64_t k : {10, 50, 200}) {
      std::mt19937_64 rng(
          DeriveSeed(24102235, {static_cast<uint64_t>(mu * 10), static_cast<uint64_t>(k)}));
      std::normal_distribution<double> noise(0.0, 1.0);
      const auto score = [&](bool in, std::mt19937_64& g) { return (in ? mu : 0.0) + noise(g); };
      int64_t exceed = 0;
      double mean = 0;
      for (int64_t t = 0; t < kTrials; ++t) {
        const GuessCounts c = PlayOneRun(1000, k, score, rng);
        const double lower = Value(OneRunGaussianDpMuLowerBound(c, kBeta));
        mean += lower / kTrials;
        if (lower > mu) ++exceed;
      }
      std::printf("mu=%g k+=k-=%ld: mean mu_lower %.3f, exceeded %ld of %ld (allowed %ld)\n", mu,
                  static_cast<long>(k), mean, static_cast<long>(exceed), static_cast<long>(kTrials),
                  static_cast<long>(allowed));
      EXPECT_LE(exceed, allowed) << "mu=" << mu << " k=" << k;
    }
  }
}

// VALIDITY for (eps, delta)-DP at a delta that matters: each canary's
// score reveals its inclusion with probability delta and is otherwise an
// eps-randomised-response bit, an (eps, delta)-DP release (its privacy
// profile meets f_{eps,delta} at the corner). Same binomial criterion.
TEST(OneRunFdp, ApproximateDpLowerBoundCoverage) {
  const int64_t allowed = BinomialQuantile(kTrials, kBeta, 1e-6);
  auto est = Make("one_run_fdp");
  constexpr double kDelta = 0.05;
  for (double eps : {0.5, 1.0, 2.0}) {
    for (int64_t k : {25, 200}) {
      std::mt19937_64 rng(
          DeriveSeed(24102236, {static_cast<uint64_t>(eps * 10), static_cast<uint64_t>(k)}));
      std::bernoulli_distribution reveal(kDelta), truthful(1 / (1 + std::exp(-eps)));
      const auto score = [&](bool in, std::mt19937_64& g) {
        if (reveal(g)) return in ? 2.0 : -1.0;
        return (truthful(g) ? in : !in) ? 1.0 : 0.0;
      };
      int64_t exceed = 0;
      for (int64_t t = 0; t < kTrials; ++t) {
        const GuessCounts c = PlayOneRun(1000, k, score, rng);
        if (Value(est->LowerBound(c, kDelta, kBeta)) > eps) ++exceed;
      }
      EXPECT_LE(exceed, allowed) << "eps=" << eps << " k=" << k;
    }
  }
}

// Why the Gaussian eps(delta) is not registered as a guess-count
// estimator: for eps-DP randomised response (not a Gaussian trade-off) at
// its typical outcome it exceeds the true eps, while one_run_fdp does not.
TEST(OneRunFdp, GaussianEpsilonIsNoBoundForOtherMechanisms) {
  const double eps = 1.0;
  const GuessCounts typical{1000, 400, static_cast<int64_t>(400 / (1 + std::exp(-eps)))};
  EXPECT_GT(Value(OneRunGaussianDpEpsilonLowerBound(typical, 1e-5, 0.05)), eps);
  EXPECT_LE(Value(Make("one_run_fdp")->LowerBound(typical, 1e-5, 0.05)), eps);
}

}  // namespace
}  // namespace privbench
