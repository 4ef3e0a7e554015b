#include "experiments/bayes_coverage/diagonal_limit.h"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>

namespace privbench::bayes_coverage {
namespace {

constexpr double kTail = 9.0;  // |z| beyond which phi is negligible

double Phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
double PhiInv(double p) { return boost::math::quantile(boost::math::normal(), p); }
double phi(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI); }

template <typename F>
double Integrate(F f, double a, double b) {
  if (!(b > a)) return 0.0;
  return boost::math::quadrature::gauss_kronrod<double, 61>::integrate(f, a, b, 15, 1e-10);
}

// P(Phi2(Y1, Y2; rho) >= w) for (Y1, Y2) standard bivariate Normal with
// correlation rho: for each y1 with Phi(y1) > w, Phi2 increases in y2, so
// the event is Y2 >= y2*(y1), found by bisection.
double ProbabilityCdfAtLeast(double w, double rho) {
  if (w <= 0.0) return 1.0;
  if (w >= 1.0) return 0.0;
  const double s = std::sqrt(1.0 - rho * rho);
  auto threshold = [&](double y1) {
    double lo = -kTail - 30.0, hi = kTail + 30.0;
    for (int i = 0; i < 100; ++i) {
      const double mid = 0.5 * (lo + hi);
      (BivariateNormalCdf(y1, mid, rho) >= w ? hi : lo) = mid;
    }
    return hi;
  };
  auto integrand = [&](double y1) { return phi(y1) * (1.0 - Phi((threshold(y1) - rho * y1) / s)); };
  return Integrate(integrand, PhiInv(w), kTail);
}

}  // namespace

double ProductOfUniformsCdf(double w) {
  if (w <= 0.0) return 0.0;
  if (w >= 1.0) return 1.0;
  return w - w * std::log(w);
}

double IndependentOneSidedLimit(double alpha) { return 1.0 - ProductOfUniformsCdf(alpha); }

double IndependentTwoSidedLimit(double alpha) {
  return ProductOfUniformsCdf(1.0 - alpha / 2) - ProductOfUniformsCdf(alpha / 2);
}

double DiagonalTermCorrelation(double r) {
  return 2.0 * r * (1.0 - r) / (r * r + (1.0 - r) * (1.0 - r));
}

double BivariateNormalCdf(double h, double k, double rho) {
  if (rho == 0.0) return Phi(h) * Phi(k);
  const double s = std::sqrt(1.0 - rho * rho);
  return Integrate([&](double z) { return phi(z) * Phi((k - rho * z) / s); }, -kTail,
                   std::min(h, kTail));
}

CoverageLimit DiagonalCoverageLimit(double alpha, double rho) {
  CoverageLimit out;
  out.one_sided = ProbabilityCdfAtLeast(alpha, rho);
  out.two_sided = ProbabilityCdfAtLeast(alpha / 2, rho) - ProbabilityCdfAtLeast(1 - alpha / 2, rho);
  return out;
}

}  // namespace privbench::bayes_coverage
