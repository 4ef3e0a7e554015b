// The last-iterate heuristic (Steinke et al., "The Last Iterate Advantage",
// ICLR 2025): its exact special cases, an independent quadrature of the
// hockey-stick divergence it computes, and the paper's qualitative claims
// (never above the composition-based analysis; equal to it at T = 1 and at
// q = 1; far below it for small q and many steps).
#include "estimators/accountants/last_iterate_heuristic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/accountants/gaussian_dp.h"
#include "estimators/accountants/pld.h"

namespace privbench {
namespace {

DpSgdAccounting Setting(double sigma, double q, int64_t steps, double delta) {
  return DpSgdAccounting{sigma, q, steps, delta, {}};
}

double Heuristic(const DpSgdAccounting& s) {
  auto r = LastIterateHeuristicEpsilon(s);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? r->epsilon : std::nan("");
}

double Pld(const DpSgdAccounting& s) {
  auto r = PldEpsilon(s);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? r->epsilon : std::nan("");
}

// q = 1: T Gaussian steps with sensitivity 1 and noise sigma each sum to
// one Gaussian mechanism with sensitivity T and noise sigma sqrt(T), i.e.
// (sqrt(T)/sigma)-GDP, whose exact eps(delta) is GaussianDpEpsilon.
TEST(LastIterateHeuristic, FullBatchIsTheGaussianMechanism) {
  for (double sigma : {0.5, 1.0, 2.0, 8.0}) {
    for (int64_t steps : {1, 10, 1000}) {
      for (double delta : {1e-10, 1e-6, 1e-2}) {
        const DpSgdAccounting s = Setting(sigma, 1.0, steps, delta);
        const double mu = std::sqrt(static_cast<double>(steps)) / sigma;
        const double exact = GaussianDpEpsilon(mu, delta).value();
        EXPECT_NEAR(Heuristic(s), exact, 1e-9 * exact + 1e-12) << s.ToString();
      }
    }
  }
}

// The same against 40-digit references (mpmath, gaussian_dp_test.cc) of
// the Gaussian curve at mu = 1.25 and mu = 500 (eps ~ 1.3e5), reached with
// one step (sigma = 1/mu) and with many (sigma = sqrt(T)/mu).
TEST(LastIterateHeuristic, FullBatchMatchesHighPrecisionReferences) {
  EXPECT_NEAR(Heuristic(Setting(0.8, 1.0, 1, 1e-6)), 6.3120601858013257574, 1e-9);
  EXPECT_NEAR(Heuristic(Setting(0.002, 1.0, 1, 1e-5)), 127131.44963905781979, 1e-6);
  EXPECT_NEAR(Heuristic(Setting(1.0, 1.0, 250000, 1e-5)), 127131.44963905781979, 1e-6);
}

// T = 1: the last iterate is the only iterate, so the heuristic is one step
// of the sampled Gaussian mechanism exactly. The pld accountant bounds that
// from above within its grid interval h = 1e-4 (pld.h: eps_true <= eps_pld
// <= eps_true + T h).
TEST(LastIterateHeuristic, OneStepIsTheSampledGaussianStep) {
  for (double sigma : {0.5, 1.0, 2.0}) {
    for (double q : {0.01, 0.1, 0.5}) {
      for (double delta : {1e-8, 1e-5}) {
        const DpSgdAccounting s = Setting(sigma, q, 1, delta);
        const double pld = Pld(s);
        const double h = Heuristic(s);
        EXPECT_LE(h, pld * (1 + 1e-12)) << s.ToString();
        EXPECT_GE(h, pld - 1e-4) << s.ToString();
      }
    }
  }
  // Small noise, where the target's component lies far from the rest (eps in
  // the hundreds to millions): pld's grid is coarsened there, and its
  // reported interval bounds the gap.
  for (double sigma : {1e-2, 1e-3}) {
    const DpSgdAccounting s = Setting(sigma, 0.3, 1, 1e-5);
    auto pld = PldEpsilon(s);
    ASSERT_TRUE(pld.ok()) << pld.message();
    const double h = Heuristic(s);
    EXPECT_LE(h, pld->epsilon * (1 + 1e-12)) << s.ToString();
    EXPECT_GE(h, pld->epsilon - pld->interval) << s.ToString() << " interval " << pld->interval;
  }
}

// delta(eps) by brute force: the two hockey-stick integrals
// int (p - e^eps q)_+ and int (q - e^eps p)_+ of the densities themselves
// (binomial weights by lgamma, every one of the T+1 components), by the
// midpoint rule on a fine grid. Independent of the half-line reduction.
double QuadratureDelta(double sigma, double q, int T, double eps) {
  const double s = sigma * std::sqrt(static_cast<double>(T));
  std::vector<double> w(T + 1);
  for (int k = 0; k <= T; ++k) {
    w[k] = std::exp(std::lgamma(T + 1.0) - std::lgamma(k + 1.0) - std::lgamma(T - k + 1.0) +
                    k * std::log(q) + (T - k) * std::log1p(-q));
  }
  const double lo = -12 * s, hi = T + 12 * s, dx = (hi - lo) / 2e6;
  const double norm = 1 / (s * std::sqrt(2 * M_PI)), e = std::exp(eps);
  double with_vs_without = 0, without_vs_with = 0;
  for (double x = lo + dx / 2; x < hi; x += dx) {
    double p = 0;
    for (int k = 0; k <= T; ++k) p += w[k] * std::exp(-0.5 * (x - k) * (x - k) / (s * s));
    p *= norm;
    const double qd = norm * std::exp(-0.5 * x * x / (s * s));
    with_vs_without += std::max(0.0, p - e * qd) * dx;
    without_vs_with += std::max(0.0, qd - e * p) * dx;
  }
  return std::max(with_vs_without, without_vs_with);
}

TEST(LastIterateHeuristic, DeltaMatchesQuadrature) {
  struct Case {
    double sigma, q;
    int steps;
  };
  for (const Case c : {Case{1.0, 0.1, 10}, Case{0.5, 0.3, 4}, Case{2.0, 0.05, 40}}) {
    for (double eps : {0.0, 0.1, 0.5, 1.5}) {
      const DpSgdAccounting s = Setting(c.sigma, c.q, c.steps, 1e-5);
      const double want = QuadratureDelta(c.sigma, c.q, c.steps, eps);
      const double got = LastIterateHeuristicDelta(s, eps).value();
      EXPECT_NEAR(got, want, 1e-7 * want + 1e-12) << s.ToString() << " eps=" << eps;
    }
  }
}

// eps(delta) and delta(eps) are inverses: delta(eps(delta)) = delta.
TEST(LastIterateHeuristic, EpsilonInvertsDelta) {
  for (double sigma : {0.3, 1.0, 3.0}) {
    for (double q : {0.001, 0.05, 0.7}) {
      for (int64_t steps : {1, 50, 3000}) {
        for (double delta : {1e-12, 1e-6, 1e-3}) {
          const DpSgdAccounting s = Setting(sigma, q, steps, delta);
          const double eps = Heuristic(s);
          if (eps == 0) {
            EXPECT_LE(LastIterateHeuristicDelta(s, 0).value(), delta * (1 + 1e-9));
            continue;
          }
          EXPECT_NEAR(LastIterateHeuristicDelta(s, eps).value() / delta, 1.0, 1e-6)
              << s.ToString() << " eps=" << eps;
        }
      }
    }
  }
}

// The paper's central claim: releasing only the last iterate is no worse
// than releasing all of them, so the heuristic never exceeds the true eps of
// the composition, which pld bounds from above.
TEST(LastIterateHeuristic, NeverAboveTheComposedBound) {
  for (double sigma : {0.6, 1.0, 2.0}) {
    for (double q : {0.01, 0.1, 1.0}) {
      for (int64_t steps : {1, 10, 100, 1000}) {
        const DpSgdAccounting s = Setting(sigma, q, steps, 1e-6);
        EXPECT_LE(Heuristic(s), Pld(s) * (1 + 1e-9)) << s.ToString();
      }
    }
  }
}

// Fig. 1's axes (eps at delta = 1e-6 against the number of steps T): the
// heuristic beside the composed pld bound, printed for the record. Fig. 1's
// own (q, sigma) could not be read from the material available to this
// project, so the settings below are ours, and only what the paper states
// in words is asserted: the two agree at T = 1 (one step is its own last
// iterate) and at q = 1 (full batch: the sum of the steps is sufficient),
// and with subsampling the heuristic lies clearly below the composed bound
// once T >= 10 (the last-iterate advantage; measured ratios 0.39-0.93 here,
// asserted < 0.95).
TEST(LastIterateHeuristic, EpsilonAgainstStepsAtDeltaOneInAMillion) {
  const int64_t steps[] = {1, 10, 100, 1000, 10000};
  for (double q : {0.01, 0.1, 1.0}) {
    for (double sigma : {1.0, 2.0}) {
      std::printf("q=%g sigma=%g delta=1e-6:", q, sigma);
      for (int64_t t : steps) {
        const DpSgdAccounting s = Setting(sigma, q, t, 1e-6);
        const double h = Heuristic(s), composed = Pld(s);
        std::printf("  T=%lld %.4g (pld %.4g)", static_cast<long long>(t), h, composed);
        const double ratio = h / composed;
        if (q == 1.0) {
          EXPECT_NEAR(ratio, 1.0, 1e-9) << s.ToString();
        } else if (t == 1) {
          EXPECT_NEAR(ratio, 1.0, 1e-3) << s.ToString();
        } else {
          EXPECT_LT(ratio, 0.95) << s.ToString();
        }
      }
      std::printf("\n");
    }
  }
}

// The heuristic is NOT monotone in T (per the paper's public ICLR reviews,
// its authors discuss this): with
// small q and sigma, more steps add noise sigma^2 per step while the target
// is rarely sampled, and the spread of Binomial(T, q) blurs the single
// sampled step that is easy to see at T = 1. At q = 0.01, sigma = 1,
// delta = 1e-6: T = 1 gives 0.364, T = 10 gives 0.230, T = 100 gives 0.492.
// (It is nonincreasing in sigma: more noise per step is post-processing,
// adding the same independent Gaussian to both distributions.)
TEST(LastIterateHeuristic, NotMonotoneInStepsButMonotoneInSigma) {
  const double one = Heuristic(Setting(1.0, 0.01, 1, 1e-6));
  const double ten = Heuristic(Setting(1.0, 0.01, 10, 1e-6));
  const double hundred = Heuristic(Setting(1.0, 0.01, 100, 1e-6));
  EXPECT_LT(ten, 0.8 * one);
  EXPECT_GT(hundred, one);
  for (int64_t t : {1, 10, 100}) {
    double previous = INFINITY;
    for (double sigma = 0.2; sigma < 50; sigma *= 1.7) {
      const double e = Heuristic(Setting(sigma, 0.01, t, 1e-6));
      EXPECT_LT(e, previous) << "T=" << t << " sigma=" << sigma;
      previous = e;
    }
  }
}

// An independent implementation: Google's dp_accounting 0.4.4, whose
// mixture-of-Gaussians PLD is the heuristic's pair of distributions
// (anchor_values/last_iterate_dp_accounting.py regenerates these values).
// Its discretization is pessimistic by a few 1e-7 relative; the agreement
// measured here is below 2e-7.
TEST(LastIterateHeuristic, MatchesDpAccountingPld) {
  struct Reference {
    double sigma, q;
    int64_t steps;
    double eps;
  };
  const Reference references[] = {
      {1.0, 0.01, 1, 0.36394785767459986},  {1.0, 0.01, 10, 0.2296613200084733},
      {1.0, 0.01, 100, 0.4921410677880427}, {1.0, 0.1, 100, 6.120082761438107},
      {2.0, 0.1, 1000, 8.623323548519897},  {1.0, 1.0, 10, 19.423656476983325},
  };
  for (const Reference& r : references) {
    const DpSgdAccounting s = Setting(r.sigma, r.q, r.steps, 1e-6);
    const double ours = Heuristic(s);
    EXPECT_LE(ours, r.eps * (1 + 1e-12)) << s.ToString();  // the anchor is pessimistic
    EXPECT_NEAR(ours / r.eps, 1.0, 1e-6) << s.ToString();
  }
}

TEST(LastIterateHeuristic, RegisteredAsAHeuristic) {
  auto acc = MakeAccountant("last_iterate_heuristic");
  ASSERT_TRUE(acc.ok()) << acc.message();
  EXPECT_EQ((*acc)->name(), "last_iterate_heuristic");
  EXPECT_EQ((*acc)->description().rfind("HEURISTIC, NOT an upper bound", 0), 0u);
  EXPECT_FALSE((*acc)->uses_orders());
  const DpSgdAccounting s = Setting(1.1, 0.01, 500, 1e-5);
  EXPECT_EQ((*acc)->Epsilon(s)->epsilon, Heuristic(s));
}

TEST(LastIterateHeuristic, RefusesWorkBeyondItsBoundNamingSteps) {
  auto r = LastIterateHeuristicEpsilon(Setting(1.0, 0.5, 1000000000, 1e-5));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message().rfind("steps=1000000000 at q=0.5 is beyond", 0), 0u) << r.message();
  // Full batch has no binomial spread: any steps below 2^53.
  EXPECT_TRUE(LastIterateHeuristicEpsilon(Setting(1.0, 1.0, 1000000000, 1e-5)).ok());
  auto d = LastIterateHeuristicDelta(Setting(1.0, 0.5, 10, 1e-5), -1.0);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.message(), "epsilon must be finite and >= 0, got -1");
}

}  // namespace
}  // namespace privbench
