// The PLD accountant (pld.h): exact Gaussian curves without subsampling
// (Balle & Wang 2018, Thm 8), the upper-bound property and its derived
// error bound T h, monotone convergence under grid refinement, the
// published DP-SGD MNIST setting, delta/eps read-offs as inverses, the two
// directions, coarsening, and the registry and discretization plumbing.
#include "estimators/accountants/pld.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <vector>

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"

namespace privbench {
namespace {

double Phi(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// The Gaussian mechanism with sensitivity 1 and noise sigma (mu = 1/sigma;
// T-fold composition: mu = sqrt(T)/sigma) is (eps, delta)-DP exactly for
// delta = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Balle & Wang
// 2018, Thm 8).
// ln Phi(z), with the asymptotic series below z = -30 where erfc underflows.
double LogPhi(double z) {
  if (z > -30) return std::log(Phi(z));
  const double z2 = z * z;
  return -z2 / 2 - std::log(-z * std::sqrt(2 * M_PI)) +
         std::log1p(-1 / z2 + 3 / (z2 * z2) - 15 / (z2 * z2 * z2));
}

double GaussianDelta(double mu, double eps) {
  return Phi(-eps / mu + mu / 2) - std::exp(eps + LogPhi(-eps / mu - mu / 2));
}

// Its inverse in eps (decreasing), by bisection to 1e-13.
double GaussianEpsilon(double mu, double delta) {
  double lo = 0, hi = 1;
  while (GaussianDelta(mu, hi) > delta) hi *= 2;
  if (GaussianDelta(mu, 0) <= delta) return 0;
  while (hi - lo > 1e-13 * std::max(1.0, hi)) {
    const double mid = (lo + hi) / 2;
    (GaussianDelta(mu, mid) > delta ? lo : hi) = mid;
  }
  return hi;
}

DpSgdAccounting Setting(double sigma, double q, int64_t steps, double delta, double h = 0) {
  DpSgdAccounting s{sigma, q, steps, delta, {}};
  s.discretization = h;
  return s;
}

double Eps(const DpSgdAccounting& s) {
  auto r = PldEpsilon(s);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? r->epsilon : std::nan("");
}

// The DP-SGD MNIST setting of TF Privacy's tutorial: batch 256 of 60,000,
// noise 1.1, 60 epochs.
DpSgdAccounting Mnist(double h = 0) { return Setting(1.1, 256.0 / 60000, 14063, 1e-5, h); }

TEST(Pld, OneStepWithoutSubsamplingIsTheGaussianCurve) {
  constexpr double h = kDefaultPldDiscretization;
  for (double sigma : {0.5, 1.0, 2.0, 4.0}) {
    std::vector<PrivacyLossDistribution> plds;
    for (PldDirection dir : {PldDirection::kRemove, PldDirection::kAdd}) {
      auto d = DpSgdPld(Setting(sigma, 1.0, 1, 1e-5), dir);
      ASSERT_TRUE(d.ok()) << d.message();
      plds.push_back(*d);
    }
    for (double delta : {1e-2, 1e-5, 1e-9}) {
      const double exact = GaussianEpsilon(1 / sigma, delta);
      for (const auto& d : plds) {
        // An upper bound, within the derived bound T h (T = 1).
        const double pld = d.EpsilonForDelta(delta);
        EXPECT_GE(pld, exact - 1e-9) << "sigma=" << sigma << " delta=" << delta;
        EXPECT_LE(pld, exact + h) << "sigma=" << sigma << " delta=" << delta;
      }
    }
    for (double eps : {0.0, 0.5, 1.0, 3.0}) {
      for (const auto& d : plds) {
        const double pld = d.DeltaForEpsilon(eps);
        EXPECT_GE(pld, GaussianDelta(1 / sigma, eps) * (1 - 1e-9)) << sigma << " " << eps;
        if (eps >= h) {
          // (+1e-15: the tails put at +inf and the FFT's rounding.)
          EXPECT_LE(pld, GaussianDelta(1 / sigma, eps - h) + 1e-15) << sigma << " " << eps;
        }
      }
    }
  }
  // PldEpsilon and PldDelta agree with the curves too.
  EXPECT_NEAR(Eps(Setting(1.0, 1.0, 1, 1e-5)), GaussianEpsilon(1.0, 1e-5), h);
  auto d = PldDelta(Setting(1.0, 1.0, 1, 1e-5), 1.0);
  ASSERT_TRUE(d.ok()) << d.message();
  EXPECT_NEAR(*d / GaussianDelta(1.0, 1.0), 1.0, 1e-3);
}

// The grid's answer (both directions), bypassing PldEpsilon's closed form
// at q = 1, so that the FFT composition is checked against the exact curve.
struct GridAnswer {
  double epsilon = 0.0, interval = 0.0;
};
GridAnswer GridEpsilon(const DpSgdAccounting& s) {
  GridAnswer a;
  for (PldDirection dir : {PldDirection::kRemove, PldDirection::kAdd}) {
    auto d = DpSgdPld(s, dir);
    EXPECT_TRUE(d.ok()) << d.message();
    if (!d.ok()) return a;
    a.epsilon = std::max(a.epsilon, d->EpsilonForDelta(s.delta));
    a.interval = std::max(a.interval, d->interval);
  }
  return a;
}

TEST(Pld, ComposedGaussianWithinTheDerivedBound) {
  // q = 1: T steps at sigma are one Gaussian mechanism at sigma/sqrt(T).
  for (int64_t steps : {10, 100, 1000}) {
    for (double sigma : {2.0, 10.0, 30.0}) {
      const double exact = GaussianEpsilon(std::sqrt(static_cast<double>(steps)) / sigma, 1e-5);
      const GridAnswer r = GridEpsilon(Setting(sigma, 1.0, steps, 1e-5));
      EXPECT_GE(r.epsilon, exact - 1e-9) << steps << " " << sigma;
      EXPECT_LE(r.epsilon, exact + static_cast<double>(steps) * r.interval)
          << steps << " " << sigma;
      // In practice the error is second order: far below T h.
      EXPECT_LE(r.epsilon, exact + 1e-3) << steps << " " << sigma;
    }
  }
}

// At q = 1 PldEpsilon and PldDelta answer with the exact closed form (mu-GDP,
// gaussian_dp.h), at any number of steps: 2^63 - 1 once never returned.
TEST(Pld, FullBatchIsTheExactGaussianAtAnySteps) {
  for (int64_t steps : {int64_t{1}, int64_t{1000}, int64_t{1} << 40}) {
    const double mu = std::sqrt(static_cast<double>(steps)) / 2.0;
    auto r = PldEpsilon(Setting(2.0, 1.0, steps, 1e-5));
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_NEAR(r->epsilon / GaussianEpsilon(mu, 1e-5), 1.0, 1e-9) << steps;
    EXPECT_EQ(r->remove_epsilon, r->add_epsilon);
  }
  auto r = PldEpsilon(Setting(2.0, 1.0, std::numeric_limits<int64_t>::max(), 1e-5));
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_NEAR(r->epsilon / GaussianEpsilon(std::sqrt(9.223372036854775807e18) / 2.0, 1e-5), 1.0,
              1e-9);
  auto d = PldDelta(Setting(2.0, 1.0, 100, 1e-5), 3.0);
  ASSERT_TRUE(d.ok()) << d.message();
  EXPECT_NEAR(*d / GaussianDelta(5.0, 3.0), 1.0, 1e-9);
}

// Where T q (2 Phi(1/(2 sigma)) - 1) <= delta the outputs are within delta
// in total variation, so eps = 0 exactly, also where q is too small for the
// grid (q = 1e-60 once blamed delta with all the grid's mass at +inf).
TEST(Pld, TotalVariationBelowDeltaIsEpsilonZero) {
  for (double q : {1e-60, 1e-30, 1e-12}) {
    auto r = PldEpsilon(Setting(1.0, q, 1000, 1e-5));
    ASSERT_TRUE(r.ok()) << q << " " << r.message();
    EXPECT_EQ(r->epsilon, 0.0) << q;
  }
  // Just above the bound the grid answers (and eps is small but positive).
  auto r = PldEpsilon(Setting(1.0, 1e-6, 1000, 1e-5));
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_GT(r->epsilon, 0.0);
  EXPECT_LT(r->epsilon, 1e-3);
}

// Subsampled (q < 1) settings whose composed grid indices would overflow 64
// bits are refused naming steps, quickly (they once spun for hours).
TEST(Pld, StepsBeyondTheGridAreRefusedByName) {
  for (int64_t steps : {std::numeric_limits<int64_t>::max(), int64_t{1} << 62}) {
    auto r = PldEpsilon(Setting(2.0, 0.5, steps, 1e-5));
    ASSERT_FALSE(r.ok()) << steps;
    EXPECT_EQ(r.message().rfind("steps=", 0), 0u) << r.message();
  }
}

TEST(Pld, HalvingTheIntervalNeverRaisesEpsAndConverges) {
  std::vector<double> eps;
  for (double h : {8e-4, 4e-4, 2e-4, 1e-4, 5e-5}) eps.push_back(Eps(Mnist(h)));
  for (size_t k = 1; k < eps.size(); ++k) {
    EXPECT_LE(eps[k], eps[k - 1] + 1e-9) << k;
    if (k >= 2) {
      // Second-order convergence: each change at most half the previous one.
      EXPECT_LE(eps[k - 1] - eps[k], 0.5 * (eps[k - 2] - eps[k - 1]) + 1e-9) << k;
    }
  }
  std::printf("MNIST setting, eps at h = 8e-4 ... 5e-5: %.9f %.9f %.9f %.9f %.9f\n", eps[0], eps[1],
              eps[2], eps[3], eps[4]);
  EXPECT_LT(eps[3] - eps[4], 1e-3);
}

TEST(Pld, PublishedMnistSetting) {
  // TF Privacy's tutorial reports eps ~ 3.01 (RDP) for this setting; PLD
  // accountants report ~2.4. Our PLD at h = 1e-4 and its RDP:
  auto rdp = std::move(MakeAccountant("rdp")).value();
  const double rdp_eps = rdp->Epsilon(Mnist())->epsilon;
  const double pld_eps = Eps(Mnist());
  std::printf("MNIST setting: rdp %.6f, pld %.6f\n", rdp_eps, pld_eps);
  EXPECT_NEAR(rdp_eps, 3.01, 0.01);
  EXPECT_GT(pld_eps, 2.3);
  EXPECT_LT(pld_eps, 2.45);
  EXPECT_LT(pld_eps, 0.85 * rdp_eps);
}

TEST(Pld, DeltaAndEpsilonReadOffsAreInverse) {
  for (PldDirection dir : {PldDirection::kRemove, PldDirection::kAdd}) {
    auto d = DpSgdPld(Mnist(), dir);
    ASSERT_TRUE(d.ok()) << d.message();
    for (double delta : {1e-3, 1e-5, 1e-8}) {
      const double eps = d->EpsilonForDelta(delta);
      EXPECT_NEAR(d->DeltaForEpsilon(eps) / delta, 1.0, 1e-9) << delta;
      EXPECT_GT(d->DeltaForEpsilon(eps - 1e-3), delta);
    }
    double total = d->infinity_mass;
    for (double m : d->masses) total += m;
    EXPECT_NEAR(total, 1.0, 1e-9);
  }
}

TEST(Pld, ReportsTheWorseDirection) {
  auto r = PldEpsilon(Mnist());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->epsilon, std::max(r->remove_epsilon, r->add_epsilon));
  EXPECT_NE(r->remove_epsilon, r->add_epsilon);
  auto delta = PldDelta(Mnist(), r->epsilon);
  ASSERT_TRUE(delta.ok());
  EXPECT_NEAR(*delta / 1e-5, 1.0, 1e-9);
}

TEST(Pld, CoarsensLargeWindowsAndStaysAnUpperBound) {
  // q = 1, sigma = 0.5, T = 10,000: composed loss N(20000, 40000).
  const GridAnswer r = GridEpsilon(Setting(0.5, 1.0, 10000, 1e-5));
  EXPECT_GT(r.interval, kDefaultPldDiscretization);
  const double exact = GaussianEpsilon(200.0, 1e-5);
  EXPECT_GE(r.epsilon, exact - 1e-9);
  EXPECT_LE(r.epsilon, exact + 10000 * r.interval);
}

TEST(Pld, RefusesDeltaBelowItsTailMass) {
  auto r = PldEpsilon(Setting(1.0, 0.01, 1000, 1e-40));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message().rfind("delta=1e-40 is at or below", 0), 0u) << r.message();
  auto d = PldDelta(Setting(1.0, 0.01, 1000, 1e-5), -1);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.message().rfind("epsilon must be", 0), 0u) << d.message();
}

// At q = 1 and sigma <= 1e-5 the pld accountant used to fail with "interval
// must be finite and > 0, got inf", a name the caller never wrote. Every
// answer there is now a number, and no message names the internal grid.
TEST(Pld, FullBatchSmallSigmaNamesNoInternalInterval) {
  for (double sigma : {1e-6, 1e-5, 1e-4}) {
    for (int64_t steps : {1, 100}) {
      for (double h : {0.0, 1e-2, 1.0}) {
        auto r = PldEpsilon(Setting(sigma, 1.0, steps, 1e-5, h));
        if (!r.ok()) {
          EXPECT_EQ(r.message().find("interval"), std::string::npos) << r.message();
          continue;
        }
        // The exact Gaussian bound at q = 1 is near steps / (2 sigma^2).
        EXPECT_GT(r->epsilon, 0.4 * static_cast<double>(steps) / (sigma * sigma))
            << sigma << " " << steps << " " << h;
      }
    }
  }
}

TEST(Pld, RegisteredWithItsDiscretization) {
  auto acc = MakeAccountant("pld");
  ASSERT_TRUE(acc.ok()) << acc.message();
  EXPECT_EQ((*acc)->Epsilon(Mnist())->epsilon, Eps(Mnist()));
  EXPECT_GT((*acc)->Epsilon(Mnist(1e-3))->epsilon, (*acc)->Epsilon(Mnist())->epsilon);
  auto bad = (*acc)->Epsilon(Mnist(-1));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message().rfind("discretization must be", 0), 0u) << bad.message();
  // And calibration through the registry.
  auto sigma = CalibrateSigma(**acc, 2.0, Mnist());
  ASSERT_TRUE(sigma.ok()) << sigma.message();
  DpSgdAccounting s = Mnist();
  s.sigma = *sigma;
  EXPECT_NEAR(Eps(s), 2.0, 2e-6);
}

// Work bounds on discretization: below kMinPldDiscretization the grid was
// silently coarsened to 2^21 points and the answer took seconds (1e-300:
// 6.4 s); calibration, which evaluates the accountant 10-20 times, takes
// kMinCalibratedDiscretization or coarser. Both name discretization.
TEST(Pld, DiscretizationBelowItsWorkBoundIsRefusedNamingIt) {
  for (double h : {5e-324, 1e-300, 1e-15, 9e-6}) {
    auto r = PldEpsilon(Setting(1.1, 0.01, 1000, 1e-5, h));
    ASSERT_FALSE(r.ok()) << h;
    EXPECT_EQ(r.message().rfind("discretization must be >= 1e-05", 0), 0u) << r.message();
  }
  EXPECT_GT(Eps(Setting(1.1, 0.01, 10, 1e-5, kMinPldDiscretization)), 0.0);
  // q = 1 has no grid: the closed form answers at any discretization.
  EXPECT_GT(Eps(Setting(1.1, 1.0, 10, 1e-5, 1e-5)), 0.0);
  auto acc = MakeAccountant("pld").value();
  auto cal = CalibrateSigma(*acc, 2.0, Setting(1.0, 0.01, 1000, 1e-5, 1e-5));
  ASSERT_FALSE(cal.ok());
  EXPECT_EQ(cal.message().rfind("discretization must be >= 1e-04 for calibration", 0), 0u)
      << cal.message();
}

// delta within kMassTolerance (1e-6) of 1 is not resolved by the grid: at q
// = 1 - 1e-16 calibrate bisected for minutes on noise. Refused naming delta
// unless the total-variation bound already gives eps = 0.
TEST(Pld, DeltaWithinTheMassToleranceOfOneIsRefusedNamingIt) {
  const double almost_one = 0.9999999999999999;
  auto r = PldEpsilon(Setting(0.03, almost_one, 10, almost_one, 1e-3));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message().rfind("delta must be <= 1 - 1e-06", 0), 0u) << r.message();
  EXPECT_EQ(Eps(Setting(1.0, 0.01, 10, almost_one, 1e-3)), 0.0);  // TV bound: eps = 0
  EXPECT_TRUE(PldEpsilon(Setting(0.5, 0.5, 10, 1.0 - 2e-6, 1e-3)).ok());
}

}  // namespace
}  // namespace privbench
