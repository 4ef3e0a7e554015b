#include "estimators/accountants/zcdp.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>

#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "estimators/accountants/factories.h"
#include "estimators/accountants/gaussian_dp.h"

namespace privbench {
namespace {

TEST(ZcdpTest, JayaramanEvansRho) {
  // J&E: 100 epochs (T = 5000 at q = 0.02), rho = epochs / (2 sigma^2).
  EXPECT_DOUBLE_EQ(JayaramanEvansZcdpRho(2.0, 0.02, 5000), 100.0 / 8.0);
  EXPECT_DOUBLE_EQ(JayaramanEvansZcdpRho(1.0, 0.5, 3), 0.75);  // 1.5 epochs
}

TEST(ZcdpTest, BunSteinkeConversion) {
  // Bun & Steinke 2016, Prop. 1.3: eps = rho + 2 sqrt(rho ln(1/delta)).
  EXPECT_DOUBLE_EQ(ZcdpToEpsilon(0.5, 1e-5), 0.5 + 2.0 * std::sqrt(0.5 * std::log(1e5)));
  EXPECT_EQ(ZcdpToEpsilon(0.0, 1e-5), 0.0);
}

TEST(ZcdpTest, JayaramanEvansPurchase100Values) {
  // experiments/published_examples/README.md lists zCDP beside Table 1 (the paper no longer prints
  // it): rho = 100/(2 sigma^2), eps at delta = 1e-5, computed by hand.
  auto acc = MakeZcdpAccountant();
  const double sigmas[] = {136.67, 13.76, 6.99, 1.06, 0.44};
  const double expected[] = {0.353780, 3.75138, 7.88817, 89.7689, 367.322};
  for (int k = 0; k < 5; ++k) {
    auto r = acc->Epsilon(DpSgdAccounting{sigmas[k], 0.02, 5000, 1e-5, {}});
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_NEAR(r->epsilon / expected[k], 1.0, 1e-5) << sigmas[k];
    EXPECT_FALSE(r->order.has_value());
  }
}

// ------------------------------------------------ the optimal conversion

// Canonne, Kamath & Steinke's delta at one alpha, written out directly (not
// in the library's log-space form).
double DeltaAtAlpha(double rho, double eps, double alpha) {
  return std::exp((alpha - 1) * (alpha * rho - eps)) / alpha * std::pow(1 - 1 / alpha, alpha - 1);
}

// The independent computation: the minimum over a dense geometric grid of
// alpha - 1 in [1e-8, 1e8] (2000 points per decade), capped at 1.
double GridDelta(double rho, double eps) {
  double best = 1.0;
  for (int k = -16000; k <= 16000; ++k) {
    best = std::min(best, DeltaAtAlpha(rho, eps, 1.0 + std::pow(10.0, k / 2000.0)));
  }
  return best;
}

// Largest rho with GridDelta(rho, eps) <= delta, by bisection.
double GridRho(double eps, double delta) {
  double lo = 0.0, hi = eps + 10.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (GridDelta(mid, eps) <= delta ? lo : hi) = mid;
  }
  return lo;
}

double Value(const Result<double>& r) {
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : std::numeric_limits<double>::quiet_NaN();
}

TEST(CdpConversionTest, RefusesBadInputNamingTheArgument) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  const auto starts = [](const Result<double>& r, const std::string& prefix) {
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.message().rfind(prefix, 0), 0u) << r.message();
  };
  starts(CdpDelta(-1.0, 1.0), "rho must be finite and >= 0, got -1");
  starts(CdpDelta(inf, 1.0), "rho must be");
  starts(CdpDelta(1.0, nan), "eps must be finite and >= 0");
  starts(CdpDelta(1.0, -0.5), "eps must be");
  starts(CdpEpsilon(nan, 1e-5), "rho must be");
  starts(CdpEpsilon(1.0, 0.0), "delta must be in (0, 1), got 0");
  starts(CdpEpsilon(1.0, 1.0), "delta must be in (0, 1)");
  starts(CdpRho(-1e-9, 1e-5), "eps must be");
  starts(CdpRho(inf, 1e-5), "eps must be");
  starts(CdpRho(1.0, nan), "delta must be");
}

TEST(CdpConversionTest, EdgeCases) {
  EXPECT_EQ(Value(CdpDelta(0.0, 0.0)), 0.0);
  EXPECT_EQ(Value(CdpDelta(0.0, 3.0)), 0.0);
  EXPECT_EQ(Value(CdpEpsilon(0.0, 1e-5)), 0.0);
  // delta(0) of a tiny rho is already below a large delta target.
  EXPECT_EQ(Value(CdpEpsilon(1e-12, 0.5)), 0.0);
  // Huge and tiny rho: finite, between the exact Gaussian's eps and Bun & Steinke's.
  for (double rho : {1e-300, 1e-30, 1e-8, 1e4, 1e8, 1e30, 1e300}) {
    for (double delta : {1e-300, 1e-10, 0.3}) {
      const double eps = Value(CdpEpsilon(rho, delta));
      EXPECT_TRUE(std::isfinite(eps)) << rho << " " << delta;
      // (At rho = 1e300 the sqrt term is below one ulp of rho and delta(eps)
      // jumps from 1 to 0 within a few ulps: the solver stops within 1e-12.)
      EXPECT_LE(eps, ZcdpToEpsilon(rho, delta) * (1 + 1e-12)) << rho << " " << delta;
      if (rho >= 1e-8 && rho <= 1e8) {
        EXPECT_GE(eps, Value(GaussianDpEpsilon(std::sqrt(2 * rho), delta)) * (1 - 1e-9))
            << rho << " " << delta;
      }
    }
  }
  EXPECT_EQ(Value(CdpDelta(1e6, 0.0)), 1.0);   // the bound is vacuous there
  EXPECT_GT(Value(CdpRho(0.0, 1e-5)), 0.0);    // eps = 0 still allows some rho
  EXPECT_EQ(Value(CdpRho(0.0, 1e-300)), 0.0);  // ... unless delta is below every double rho's
}

TEST(CdpConversionTest, DeltaMatchesABruteForceGridOverAlpha) {
  for (double rho : {1e-4, 0.01, 0.1, 0.5, 2.0, 10.0, 100.0}) {
    for (double eps : {0.0, 0.1, 1.0, 3.0, 10.0, 100.0}) {
      const double delta = Value(CdpDelta(rho, eps));
      const double grid = GridDelta(rho, eps);
      // The exact infimum is at most the grid's minimum, and the grid (2000
      // points per decade of alpha - 1) comes within 1e-4 relative of it.
      EXPECT_LE(delta, grid * (1 + 1e-12)) << rho << " " << eps;
      EXPECT_GE(delta, grid * (1 - 1e-4)) << rho << " " << eps;
    }
  }
}

TEST(CdpConversionTest, NeverAboveBunSteinke) {
  for (double rho : {1e-6, 1e-3, 0.05, 0.5, 1.0, 5.0, 50.0, 1e3, 1e5}) {
    double prev = 0.0;
    for (double delta : {0.5, 1e-2, 1e-5, 1e-10, 1e-50}) {
      const double eps = Value(CdpEpsilon(rho, delta));
      EXPECT_LE(eps, ZcdpToEpsilon(rho, delta)) << rho << " " << delta;
      EXPECT_GE(eps, prev) << rho << " " << delta;  // decreasing in delta
      prev = eps;
      // And it is the smallest eps: delta(eps) = delta where eps > 0.
      if (eps > 0) {
        EXPECT_NEAR(Value(CdpDelta(rho, eps)) / delta, 1.0, 1e-9) << rho;
      }
    }
  }
}

TEST(CdpConversionTest, RhoAtEpsOneDeltaOnePercent) {
  // The largest rho guaranteeing (1, 1e-2)-DP: the optimal conversion
  // against inverting Bun & Steinke's rho + 2 sqrt(rho ln(1/delta)) = 1.
  const double optimal = Value(CdpRho(1.0, 1e-2));
  const double grid = GridRho(1.0, 1e-2);
  const double l = std::log(100.0);
  const double bun_steinke = std::pow(std::sqrt(1.0 + l) - std::sqrt(l), 2);
  std::printf("rho for (1, 1e-2)-DP: optimal %.6f (grid over alpha %.6f), Bun-Steinke %.6f\n",
              optimal, grid, bun_steinke);
  EXPECT_NEAR(optimal / grid, 1.0, 1e-4);
  EXPECT_NEAR(ZcdpToEpsilon(bun_steinke, 1e-2), 1.0, 1e-12);
  EXPECT_NEAR(optimal, 0.103, 5e-4);
  EXPECT_NEAR(bun_steinke, 0.049, 5e-4);
}

TEST(CdpConversionTest, RoundTrips) {
  for (double rho : {1e-5, 1e-3, 0.03, 0.2, 1.0, 7.0, 60.0, 500.0, 1e4}) {
    for (double delta : {0.2, 1e-3, 1e-5, 1e-9, 1e-20}) {
      const double eps = Value(CdpEpsilon(rho, delta));
      if (eps == 0.0) continue;  // rho is then below CdpRho(0, delta)
      EXPECT_NEAR(Value(CdpRho(eps, delta)) / rho, 1.0, 1e-9) << rho << " " << delta;
    }
  }
  for (double eps : {0.01, 0.5, 1.0, 4.0, 30.0, 300.0}) {
    for (double delta : {0.2, 1e-5, 1e-12}) {
      const double rho = Value(CdpRho(eps, delta));
      EXPECT_NEAR(Value(CdpEpsilon(rho, delta)) / eps, 1.0, 1e-9) << eps << " " << delta;
    }
  }
}

TEST(CdpConversionTest, NeverBelowTheExactGaussianMechanism) {
  // The Gaussian mechanism (sensitivity 1, noise sigma) is exactly
  // 1/(2 sigma^2)-zCDP and exactly (1/sigma)-GDP (Balle & Wang 2018): any
  // valid conversion gives at least its exact eps(delta).
  for (double sigma : {0.05, 0.3, 0.7, 1.0, 2.0, 5.0, 20.0, 100.0}) {
    for (double delta : {0.1, 1e-3, 1e-5, 1e-10}) {
      const double cks = Value(CdpEpsilon(1 / (2 * sigma * sigma), delta));
      const double exact = Value(GaussianDpEpsilon(1 / sigma, delta));
      EXPECT_GE(cks, exact * (1 - 1e-9)) << sigma << " " << delta;
      EXPECT_LE(cks, ZcdpToEpsilon(1 / (2 * sigma * sigma), delta)) << sigma << " " << delta;
    }
  }
}

TEST(CdpConversionTest, OptimalAccountantConvertsTheSameRho) {
  auto zcdp = MakeZcdpAccountant();
  auto optimal = std::move(MakeAccountant("zcdp_optimal")).value();
  for (double sigma : {136.67, 13.76, 6.99, 1.06, 0.44}) {
    const DpSgdAccounting s{sigma, 0.02, 5000, 1e-5, {}};
    auto a = zcdp->Epsilon(s);
    auto b = optimal->Epsilon(s);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(b->epsilon, Value(CdpEpsilon(JayaramanEvansZcdpRho(sigma, 0.02, 5000), 1e-5)));
    EXPECT_LT(b->epsilon, a->epsilon) << sigma;
    std::printf("sigma=%g: zcdp %.6g, zcdp_optimal %.6g\n", sigma, a->epsilon, b->epsilon);
  }
}

}  // namespace
}  // namespace privbench
