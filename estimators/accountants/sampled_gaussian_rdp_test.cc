#include "estimators/accountants/sampled_gaussian_rdp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace privbench {
namespace {

double Rdp(double q, double sigma, double alpha,
           RdpSeriesSummation summation = RdpSeriesSummation::kAccelerated) {
  auto r = SampledGaussianRdp(q, sigma, alpha, summation);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : std::numeric_limits<double>::quiet_NaN();
}

// Independent reference: ln A from A - 1 by adaptive Gauss-Kronrod quadrature of the
// defining integral (MTZ 2019, Sec. 3.3),
//   A - 1 = E_{z~N(0,s^2)} [(1 + u)^alpha - 1 - alpha u],  u = q (e^{(2z-1)/(2s^2)} - 1);
// the alpha u term has mean 0 (E[mu1/mu0] = 1) and makes the integrand >= 0
// (convexity), so nothing cancels.
double LogAByQuadrature(double q, double sigma, double alpha) {
  const double s2 = sigma * sigma;
  auto integrand = [&](double z) {
    const double log_phi = -z * z / (2 * s2) - std::log(std::sqrt(2 * M_PI) * sigma);
    const double u = q * std::expm1((2 * z - 1) / (2 * s2));
    double f;
    if (std::abs(u) < 1e-2) {  // sum_{k>=2} C(alpha, k) u^k
      double c = alpha * (alpha - 1) / 2, p = u * u;
      f = 0;
      for (int k = 2; k < 14; ++k) {
        f += c * p;
        c *= (alpha - k) / (k + 1);
        p *= u;
      }
    } else if (u > 1.0) {
      return std::exp(log_phi + alpha * std::log1p(u)) - std::exp(log_phi) * (1 + alpha * u);
    } else {
      f = std::expm1(alpha * std::log1p(u)) - alpha * u;
    }
    return std::exp(log_phi) * f;
  };
  const double lo = -14 * sigma, hi = alpha + 14 * sigma;
  // Split at 0, 1/2 and alpha so that both bumps are resolved.
  std::vector<double> cuts = {lo, 0.0, 0.5, alpha, hi};
  std::sort(cuts.begin(), cuts.end());
  double a_minus_1 = 0;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    a_minus_1 += boost::math::quadrature::gauss_kronrod<double, 31>::integrate(
        integrand, cuts[k], cuts[k + 1], 10, 1e-13);
  }
  return std::log1p(a_minus_1);
}

double LogA(double q, double sigma, double alpha,
            RdpSeriesSummation summation = RdpSeriesSummation::kAccelerated) {
  auto r = SampledGaussianLogA(q, sigma, alpha, summation);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : std::numeric_limits<double>::quiet_NaN();
}

// The series' terms near i = 0 sum to ~1, so ln A has an absolute precision
// of ~1e-16 whatever its size (as in TF Privacy): compare ln A to
// 1e-15 absolute plus `rel` relative.
::testing::AssertionResult LogANear(double value, double reference, double rel) {
  const double tol = 1e-15 + rel * std::abs(reference);
  if (std::abs(value - reference) <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "ln A = " << value << " vs " << reference
                                       << ", difference " << value - reference << " > " << tol;
}

TEST(SampledGaussianRdpTest, FullBatchIsTheGaussianMechanism) {
  // q = 1: rdp = alpha / (2 sigma^2) (Mironov 2017, Prop. 7).
  for (double alpha : {1.01, 1.5, 2.0, 7.0, 100.5, 4096.0}) {
    EXPECT_DOUBLE_EQ(Rdp(1.0, 0.8, alpha), alpha / (2 * 0.64)) << alpha;
  }
}

TEST(SampledGaussianRdpTest, IntegerOrdersMatchClosedForms) {
  for (double q : {1e-4, 0.02, 0.3, 0.9}) {
    for (double sigma : {0.3, 1.0, 7.0, 136.67}) {
      // alpha = 2: A = 1 + q^2 (e^{1/s^2} - 1).
      const double a2 = std::log1p(q * q * std::expm1(1 / (sigma * sigma)));
      EXPECT_NEAR(Rdp(q, sigma, 2.0) / a2, 1.0, 1e-12) << q << " " << sigma;
      // alpha = 3: A = (1-q)^3 + 3q(1-q)^2 + 3q^2(1-q) e^{1/s^2} + q^3 e^{3/s^2}, i.e.
      // A - 1 = 3 q^2 (1-q) (e^{1/s^2} - 1) + q^3 (e^{3/s^2} - 1).
      const double a3 = std::log1p(3 * q * q * (1 - q) * std::expm1(1 / (sigma * sigma)) +
                                   q * q * q * std::expm1(3 / (sigma * sigma))) /
                        2;
      EXPECT_NEAR(Rdp(q, sigma, 3.0) / a3, 1.0, 1e-12) << q << " " << sigma;
    }
  }
}

TEST(SampledGaussianRdpTest, LargeIntegerOrdersMatchAPlainSum) {
  // The block-skipping sum against a plain long-double log-sum-exp.
  for (double sigma : {0.7, 5.0, 50.0}) {
    for (int n : {64, 1000, 4096}) {
      const double q = 0.02;
      std::vector<long double> t(n + 1);
      long double m = -INFINITY;
      for (int i = 0; i <= n; ++i) {
        t[i] = std::lgamma(n + 1.0L) - std::lgamma(i + 1.0L) - std::lgamma(n - i + 1.0L) +
               i * std::log(static_cast<long double>(q)) + (n - i) * std::log1p(-q) +
               (static_cast<long double>(i) * i - i) / (2.0L * sigma * sigma);
        m = std::max(m, t[i]);
      }
      long double s = 0;
      for (int i = 0; i <= n; ++i) s += std::exp(t[i] - m);
      const double expected = static_cast<double>((m + std::log(s)) / (n - 1));
      EXPECT_NEAR(Rdp(q, sigma, n) / expected, 1.0, 1e-10) << sigma << " " << n;
    }
  }
}

TEST(SampledGaussianRdpTest, FractionalOrdersMatchQuadrature) {
  for (double q : {0.02, 0.3, 0.7}) {
    for (double sigma : {0.44, 1.06, 6.99, 50.0}) {
      for (double alpha : {1.01, 1.3, 2.5, 4.5, 7.5}) {
        EXPECT_TRUE(LogANear(LogA(q, sigma, alpha), LogAByQuadrature(q, sigma, alpha), 1e-13))
            << "q=" << q << " sigma=" << sigma << " alpha=" << alpha;
      }
    }
  }
  // Where A - 1 is not tiny this is also a tight relative check on rdp.
  EXPECT_NEAR(Rdp(0.02, 0.44, 1.3) / (LogAByQuadrature(0.02, 0.44, 1.3) / 0.3), 1.0, 1e-12);
}

TEST(SampledGaussianRdpTest, AcceleratedTailMatchesPlainSummation) {
  for (double q : {1e-3, 0.02, 0.3, 0.5, 0.9}) {
    for (double sigma : {0.3, 1.0, 5.0, 50.0}) {
      for (double alpha : {1.05, 1.5, 3.5, 10.5}) {
        EXPECT_TRUE(LogANear(LogA(q, sigma, alpha),
                             LogA(q, sigma, alpha, RdpSeriesSummation::kPlain), 1e-13))
            << "q=" << q << " sigma=" << sigma << " alpha=" << alpha;
      }
    }
  }
}

TEST(SampledGaussianRdpTest, FractionalSeriesIsContinuousAcrossIntegers) {
  // The series at alpha = k +- 1e-9 against the exact integer sum at k.
  for (double sigma : {0.5, 2.0, 20.0}) {
    for (int k : {2, 3, 10}) {
      const double exact = Rdp(0.05, sigma, k);
      EXPECT_NEAR(Rdp(0.05, sigma, k - 1e-9) / exact, 1.0, 1e-6) << sigma << " " << k;
      EXPECT_NEAR(Rdp(0.05, sigma, k + 1e-9) / exact, 1.0, 1e-6) << sigma << " " << k;
    }
  }
}

TEST(SampledGaussianRdpTest, SummingAbsoluteValuesOverstates) {
  // A known trap: the alternating terms must keep their sign.
  // At J&E's sigma = 136.67, q = 0.02 the overstatement is ~130x at alpha = 1.5.
  const double signed_rdp = Rdp(0.02, 136.67, 1.5);
  const double abs_rdp = Rdp(0.02, 136.67, 1.5, RdpSeriesSummation::kAbsoluteValues);
  EXPECT_NEAR(signed_rdp, 1.60615e-8, 1e-13);
  EXPECT_GT(abs_rdp / signed_rdp, 100.0);
  // And it always overstates (never understates) at fractional orders.
  for (double sigma : {0.44, 1.06, 6.99}) {
    for (double alpha : {1.25, 1.75, 2.5, 4.5}) {
      EXPECT_GT(Rdp(0.02, sigma, alpha, RdpSeriesSummation::kAbsoluteValues),
                Rdp(0.02, sigma, alpha))
          << sigma << " " << alpha;
    }
  }
}

TEST(SampledGaussianRdpTest, NondecreasingInTheOrder) {
  // Monotonicity of Rényi divergence, which the order pruning relies on.
  for (double sigma : {0.3, 1.06, 13.76, 500.0}) {
    double prev = 0;
    for (double alpha : DefaultRdpOrders()) {
      const double r = Rdp(0.02, sigma, alpha);
      EXPECT_GE(r, prev * (1 - 1e-9)) << sigma << " " << alpha;
      prev = r;
    }
  }
}

TEST(SampledGaussianRdpTest, RejectsBadArgumentsNamingThem) {
  EXPECT_EQ(SampledGaussianRdp(0.0, 1.0, 2.0).message(), "q must be in (0, 1], got 0");
  EXPECT_EQ(SampledGaussianRdp(0.1, -1.0, 2.0).message(), "sigma must be finite and > 0, got -1");
  EXPECT_EQ(SampledGaussianRdp(0.1, 1.0, 1.0).message(), "alpha must be in (1, 1048576], got 1");
  EXPECT_EQ(SampledGaussianRdp(0.1, 1.0, 2e6).message(),
            "alpha must be in (1, 1048576], got 2e+06");
  DpSgdAccounting s{1.0, 0.02, 10, 1e-5, {2.0, 4e6}};
  EXPECT_EQ(SampledGaussianRdpEpsilon(s, RdpConversion::kClassic).message(),
            "orders[1] must be in (1, 1048576], got 4e+06");
}

TEST(RdpConversionTest, ClassicAndImprovedFormulas) {
  // Mironov 2017 Prop. 3.
  EXPECT_DOUBLE_EQ(RdpToEpsilon(0.3, 11.0, 1e-5, RdpConversion::kClassic),
                   0.3 + std::log(1e5) / 10.0);
  // Canonne, Kamath & Steinke 2020 Prop. 12 / Balle et al. 2020 Thm 21.
  EXPECT_DOUBLE_EQ(RdpToEpsilon(0.3, 11.0, 1e-5, RdpConversion::kImproved),
                   0.3 + std::log(10.0 / 11.0) - (std::log(1e-5) + std::log(11.0)) / 10.0);
  // Improved <= classic at every order; clamped at 0.
  for (double alpha : {1.01, 1.5, 2.0, 32.0, 1e4}) {
    EXPECT_LT(RdpToEpsilon(1.0, alpha, 1e-5, RdpConversion::kImproved),
              RdpToEpsilon(1.0, alpha, 1e-5, RdpConversion::kClassic));
  }
  EXPECT_EQ(RdpToEpsilon(0.0, 1e4, 0.5, RdpConversion::kImproved), 0.0);
}

// The pruned order scan must return exactly the brute-force minimum.
TEST(RdpEpsilonTest, PruningFindsTheBruteForceMinimum) {
  for (RdpConversion conv : {RdpConversion::kClassic, RdpConversion::kImproved}) {
    for (double q : {0.001, 0.02, 0.25, 1.0}) {
      for (double sigma : {0.3, 0.44, 0.8, 1.06, 3.0, 13.76, 136.67, 2000.0}) {
        for (int64_t steps : {1, 100, 5000}) {
          for (const std::vector<double>& orders :
               {DefaultRdpOrders(), TableOneRdpOrders(), std::vector<double>{3.5, 1.2, 40, 7}}) {
            DpSgdAccounting s{sigma, q, steps, 1e-5, orders};
            double best = INFINITY, best_order = 0;
            for (double alpha : orders) {
              const double e = RdpToEpsilon(steps * Rdp(q, sigma, alpha), alpha, 1e-5, conv);
              if (e < best || (e == best && alpha < best_order)) best = e, best_order = alpha;
            }
            auto r = SampledGaussianRdpEpsilon(s, conv);
            ASSERT_TRUE(r.ok()) << r.message();
            EXPECT_EQ(r->epsilon, best) << s.ToString();
            EXPECT_EQ(*r->order, best_order) << s.ToString();
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace privbench
