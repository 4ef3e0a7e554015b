#include "estimators/accountants/gaussian_dp.h"

#include <algorithm>
#include <cmath>

#include "core/format.h"
#include "numerics/normal.h"

namespace privbench {

namespace {

Status CheckMu(double mu) {
  if (!(std::isfinite(mu) && mu > 0.0)) {
    return Error("mu must be finite and > 0, got " + FormatDouble(mu));
  }
  return Status::Ok();
}

// The exact profile; clamped at 0 against rounding where both terms vanish.
double DeltaOf(double mu, double eps) {
  const double first = NormalCdf(-eps / mu + mu / 2);
  const double second = std::exp(eps + LogNormalCdf(-eps / mu - mu / 2));
  return std::max(first - second, 0.0);
}

}  // namespace

Result<double> GaussianDpDelta(double mu, double epsilon) {
  PB_RETURN_IF_ERROR(CheckMu(mu));
  if (!(std::isfinite(epsilon) && epsilon >= 0.0)) {
    return Error("epsilon must be finite and >= 0, got " + FormatDouble(epsilon));
  }
  return DeltaOf(mu, epsilon);
}

Result<double> GaussianDpEpsilon(double mu, double delta) {
  PB_RETURN_IF_ERROR(CheckMu(mu));
  if (!(delta > 0.0 && delta < 1.0)) {
    return Error("delta must be in (0, 1), got " + FormatDouble(delta));
  }
  if (DeltaOf(mu, 0.0) <= delta) return 0.0;
  // eps <= mu^2/2 + mu z with Phi(-z) = delta/2 bounds the answer; doubling
  // from 1 reaches it in at most ~1,030 steps for any finite mu.
  double lo = 0.0, hi = 1.0;
  while (DeltaOf(mu, hi) > delta) {
    lo = hi;
    hi *= 2.0;
    if (!std::isfinite(hi)) {
      return Error("mu=" + FormatDouble(mu) +
                   " needs an eps beyond the double range at delta=" + FormatDouble(delta));
    }
  }
  for (int i = 0; i < 1100 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = lo + (hi - lo) / 2;
    (DeltaOf(mu, mid) > delta ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace privbench
