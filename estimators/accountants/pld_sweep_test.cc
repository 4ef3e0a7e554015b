// Regression sweep of the pld accountant over sigma in [1e-6, 100], q in
// {0.001, 0.01, 0.1, 1} and T in {1, 100, 10000}: its eps must never fall
// below a valid LOWER bound on the true eps, must not increase with sigma,
// and calibration must reach large targets.
//
// The lower bound: T steps are at least as distinguishable as one (drop the
// other T - 1 outputs: post-processing), so eps_T(delta) >= eps_1(delta), the
// exact eps of ONE step of the Poisson-subsampled Gaussian in either
// direction. For one step the privacy loss is monotone in the output x, so
// the optimal test is a threshold on x and the hockey-stick divergence has a
// closed form (written here independently of pld.cc, from the definition):
//   remove (P = (1-q) N(0,s^2) + q N(1,s^2), Q = N(0,s^2)):
//     delta(eps) = q Phibar((c-1)/s) - (e^eps - 1 + q) Phibar(c/s),
//     c = 1/2 + s^2 ln((e^eps - 1 + q)/q);
//   add (P = N(0,s^2), Q = (1-q) N(0,s^2) + q N(1,s^2)), for eps < -ln(1-q):
//     delta(eps) = (1 - (1-q) e^eps) Phi(c/s) - q e^eps Phi((c-1)/s),
//     c = 1/2 + s^2 ln((e^-eps - 1 + q)/q)  (delta = 0 beyond).
// With q = 1 the T-step mechanism is exactly the Gaussian mechanism with
// mu = sqrt(T)/s (Balle & Wang 2018, Thm 8), a stronger check used too.
// Before the fix, q = 0.01, T = 100, delta = 1e-5 gave eps 1.008 at
// sigma = 0.035 (one step alone: ~490) and 0 at sigma = 1e-5.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/accountants/pld.h"

namespace privbench {
namespace {

// ln Phibar(z) = ln P(N(0,1) > z), with the asymptotic series above z = 30.
double LogUpper(double z) {
  if (z < 30) return std::log(0.5 * std::erfc(z / std::sqrt(2.0)));
  const double z2 = z * z;
  return -z2 / 2 - std::log(z * std::sqrt(2 * M_PI)) +
         std::log1p(-1 / z2 + 3 / (z2 * z2) - 15 / (z2 * z2 * z2));
}

// One step, remove direction.
double RemoveDelta(double s, double q, double eps) {
  const double log_a = eps + std::log1p(-(1 - q) * std::exp(-eps));  // ln(e^eps - 1 + q)
  const double c = 0.5 + s * s * (log_a - std::log(q));
  return q * std::exp(LogUpper((c - 1) / s)) - std::exp(log_a + LogUpper(c / s));
}

// One step, add direction (Phi(z) = Phibar(-z)).
double AddDelta(double s, double q, double eps) {
  const double v = std::exp(-eps) - 1 + q;
  if (!(v > 0)) return 0.0;
  const double c = 0.5 + s * s * (std::log(v) - std::log(q));
  return (1 - (1 - q) * std::exp(eps)) * std::exp(LogUpper(-c / s)) -
         q * std::exp(eps + LogUpper(-(c - 1) / s));
}

// The smallest eps >= 0 with delta_fn(eps) <= delta, by bisection (delta_fn
// decreases in eps).
template <typename F>
double SmallestEps(F delta_fn, double delta) {
  if (delta_fn(0.0) <= delta) return 0.0;
  double lo = 0.0, hi = 1.0;
  while (delta_fn(hi) > delta) hi *= 2;
  for (int k = 0; k < 200 && hi - lo > 1e-12 * hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    (delta_fn(mid) > delta ? lo : hi) = mid;
  }
  return lo;  // the lower end: a lower bound
}

// Exact Gaussian mechanism (q = 1): delta = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2).
double GaussianDelta(double mu, double eps) {
  return std::exp(LogUpper(eps / mu - mu / 2)) - std::exp(eps + LogUpper(eps / mu + mu / 2));
}

// A valid lower bound on the true eps of T steps at delta.
double LowerBound(double s, double q, int64_t steps, double delta) {
  double lower = std::max(SmallestEps([&](double e) { return RemoveDelta(s, q, e); }, delta),
                          SmallestEps([&](double e) { return AddDelta(s, q, e); }, delta));
  if (q == 1.0) {
    const double mu = std::sqrt(static_cast<double>(steps)) / s;
    lower = std::max(lower, SmallestEps([&](double e) { return GaussianDelta(mu, e); }, delta));
  }
  return lower;
}

constexpr double kDelta = 1e-5;

TEST(PldSweep, OneStepLowerBoundIsRight) {
  // The closed forms against known values: q = 1 is the Gaussian mechanism
  // (sigma = 1, delta = 1e-5: eps = 4.3772); remove and add coincide there.
  EXPECT_NEAR(LowerBound(1.0, 1.0, 1, kDelta), 4.3772, 1e-3);
  EXPECT_NEAR(SmallestEps([](double e) { return AddDelta(1.0, 1.0, e); }, kDelta), 4.3772, 1e-3);
  // Add's loss never exceeds -ln(1-q).
  EXPECT_LE(SmallestEps([](double e) { return AddDelta(1e-3, 0.01, e); }, kDelta),
            -std::log(0.99) + 1e-12);
  // Remove at q = 0.01, sigma = 0.035: the sampled step's loss is ~N(403, 29^2)
  // with probability q, so delta = 1e-5 needs its upper 1e-3 tail: ~490.
  const double one = SmallestEps([](double e) { return RemoveDelta(0.035, 0.01, e); }, kDelta);
  EXPECT_GT(one, 450);
  EXPECT_LT(one, 520);
}

// One (q, T) per case, so that the sweep shards (BUILD: shard_count).
class PldSweepCase : public ::testing::TestWithParam<std::tuple<double, int64_t>> {};

TEST_P(PldSweepCase, NeverBelowTheLowerBoundAndMonotoneInSigma) {
  const double q = std::get<0>(GetParam());
  const int64_t steps = std::get<1>(GetParam());
  const std::vector<double> sigmas = {1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.035, 0.1, 0.3, 1, 3, 10, 100};
  double previous = std::numeric_limits<double>::infinity();
  for (double sigma : sigmas) {
    const DpSgdAccounting s{sigma, q, steps, kDelta, {}};
    auto r = PldEpsilon(s);
    ASSERT_TRUE(r.ok()) << r.message();
    const double lower = LowerBound(sigma, q, steps, kDelta);
    EXPECT_GE(r->epsilon, lower * (1 - 1e-9) - 1e-9)
        << "sigma=" << sigma << " q=" << q << " T=" << steps;
    EXPECT_LE(r->epsilon, previous * (1 + 1e-9) + 1e-9)
        << "not monotone: sigma=" << sigma << " q=" << q << " T=" << steps;
    previous = r->epsilon;
    std::printf("q=%g T=%lld sigma=%g: pld %.6g, lower bound %.6g\n", q,
                static_cast<long long>(steps), sigma, r->epsilon, lower);
  }
}

INSTANTIATE_TEST_SUITE_P(Grid, PldSweepCase,
                         ::testing::Combine(::testing::Values(0.001, 0.01, 0.1, 1.0),
                                            ::testing::Values(int64_t{1}, int64_t{100},
                                                              int64_t{10000})));

TEST(PldSweep, RefusesSigmaBelowItsValidatedRange) {
  auto r = PldEpsilon(DpSgdAccounting{1e-7, 0.01, 100, kDelta, {}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("sigma=1e-07"), std::string::npos) << r.message();
  EXPECT_NE(r.message().find("sigma >= 1e-06"), std::string::npos) << r.message();
}

TEST(PldSweep, CalibratesLargeTargets) {
  auto acc = MakeAccountant("pld");
  ASSERT_TRUE(acc.ok()) << acc.message();
  const DpSgdAccounting setting{1.0, 0.01, 100, kDelta, {}};
  for (double target : {3000.0}) {
    auto sigma = CalibrateSigma(**acc, target, setting);
    ASSERT_TRUE(sigma.ok()) << sigma.message();
    DpSgdAccounting s = setting;
    s.sigma = *sigma;
    auto r = (*acc)->Epsilon(s);
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_NEAR(r->epsilon / target, 1.0, 1e-4) << target;
    EXPECT_GE(r->epsilon, LowerBound(*sigma, 0.01, 100, kDelta) * (1 - 1e-9));
  }
}

// Calibration round trips, small q and delta included: a valid request gets
// a sigma whose eps meets the target to the grid's accuracy, never a false "internal error" (q =
// 0.001, T = 30,000, delta = 1e-7, eps = 1.70928734 once reported a miss of -3.3e-7 in ln eps for a
// correct sigma, 0.8107005 against dp_accounting's exact root 0.8107002).
TEST(PldSweep, CalibrationRoundTripsNeverFailFalsely) {
  auto acc = MakeAccountant("pld");
  ASSERT_TRUE(acc.ok()) << acc.message();
  struct Case {
    double q;
    int64_t steps;
    double delta, target;
  };
  for (const Case& c : {Case{0.001, 30000, 1e-7, 1.70928734}, Case{1e-4, 1000, 1e-10, 0.5},
                        Case{0.01, 100, 1e-7, 8.0}, Case{0.1, 1000, 1e-5, 1.0},
                        Case{1e-3, 3000, 1e-9, 3.0}, Case{1.0, 50, 1e-6, 2.0}}) {
    const DpSgdAccounting setting{1.0, c.q, c.steps, c.delta, {}};
    auto sigma = CalibrateSigma(**acc, c.target, setting);
    ASSERT_TRUE(sigma.ok()) << sigma.message();
    DpSgdAccounting s = setting;
    s.sigma = *sigma;
    auto r = (*acc)->Epsilon(s);
    ASSERT_TRUE(r.ok()) << r.message();
    // The accepted miss in ln eps is 1e-7; where pld's eps jumps across the
    // target, the answer's eps is below it by less than one grid interval.
    EXPECT_LE(r->epsilon, c.target * (1 + 1e-7)) << c.q << " " << c.steps;
    EXPECT_GE(r->epsilon, c.target - kDefaultPldDiscretization) << c.q << " " << c.steps;
  }
}

}  // namespace
}  // namespace privbench
