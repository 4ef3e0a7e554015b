#include "estimators/rate_intervals.h"

#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <exception>
#include <limits>

// Upper limits use the complementary inverse ibetac_inv(a, b, s/2) rather
// than ibeta_inv(a, b, 1 - s/2): no cancellation for small s.

namespace privbench {

namespace {

// x with I_x(a, b) = p by bisection in t = ln x over [ln(denorm_min), 0],
// comparing the forward CDF only (which Boost evaluates accurately even
// where I_x is ~1e-300). Bisection in ln x gives x to a relative 1e-16
// after ~70 halvings of the 745-wide range; 200 is a safe cap.
double LowerQuantileByBisection(double a, double b, double p) {
  double lo = std::log(std::numeric_limits<double>::denorm_min()), hi = 0.0;
  if (boost::math::ibeta(a, b, std::exp(lo)) >= p) return 0.0;  // below every double
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    if (boost::math::ibeta(a, b, std::exp(mid)) < p) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return std::exp(0.5 * (lo + hi));
}

}  // namespace

double BetaLowerQuantile(double a, double b, double p) {
  try {
    const double x = boost::math::ibeta_inv(a, b, p);
    // Boost can also return 0 for a tail far below 1e-16 without throwing
    // (ibeta_inv(13, 16, 2.5e-251)), where the quantile is a positive
    // double: a wrong limit, and one that breaks the limits' monotonicity
    // in the count that the score auditor's exact search relies on.
    if (x <= 0.0 && p > 0.0) return LowerQuantileByBisection(a, b, p);
    return x;
  } catch (const std::exception&) {
    // Boost's Newton/Halley iteration fails to converge for tail masses far
    // below 1e-16 with small shape parameters (e.g. a = 2, b = 4, p = 5e-101);
    // the quantile itself is well defined and representable.
    return LowerQuantileByBisection(a, b, p);
  }
}

double BetaUpperQuantile(double a, double b, double p) {
  try {
    const double x = boost::math::ibetac_inv(a, b, p);
    // As above, mirrored: 1 returned for a tiny tail.
    if (x >= 1.0 && p > 0.0) return 1.0 - LowerQuantileByBisection(b, a, p);
    return x;
  } catch (const std::exception&) {
    // 1 - I_x(a, b) = I_{1-x}(b, a): the mirrored lower quantile.
    return 1.0 - LowerQuantileByBisection(b, a, p);
  }
}

// n - k in integers: in doubles, n - k rounds to 0 for n > 2^53 (e.g.
// k = 2^62, n = 2^62 + 90), and Boost refused the shape b = 0.
double ClopperPearsonLower(int64_t k, int64_t n, double s) {
  if (k == 0) return 0.0;
  return BetaLowerQuantile(static_cast<double>(k), static_cast<double>(n - k) + 1.0, s / 2);
}

double ClopperPearsonUpper(int64_t k, int64_t n, double s) {
  if (k == n) return 1.0;
  return BetaUpperQuantile(static_cast<double>(k) + 1.0, static_cast<double>(n - k), s / 2);
}

RateInterval ClopperPearsonRate(int64_t k, int64_t n, double s) {
  return RateInterval{ClopperPearsonLower(k, n, s), ClopperPearsonUpper(k, n, s)};
}

double JeffreysLower(int64_t k, int64_t n, double s) {
  if (k == 0) return 0.0;
  return BetaLowerQuantile(static_cast<double>(k) + 0.5, static_cast<double>(n - k) + 0.5, s / 2);
}

double JeffreysUpper(int64_t k, int64_t n, double s) {
  if (k == n) return 1.0;
  return BetaUpperQuantile(static_cast<double>(k) + 0.5, static_cast<double>(n - k) + 0.5, s / 2);
}

RateInterval JeffreysRate(int64_t k, int64_t n, double s) {
  return RateInterval{JeffreysLower(k, n, s), JeffreysUpper(k, n, s)};
}

}  // namespace privbench
