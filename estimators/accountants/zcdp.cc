#include "estimators/accountants/zcdp.h"

#include <algorithm>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "core/format.h"
#include "estimators/accountants/accountant.h"
#include "estimators/accountants/factories.h"

namespace privbench {

double JayaramanEvansZcdpRho(double sigma, double q, int64_t steps) {
  const double epochs = static_cast<double>(steps) * q;
  return epochs / (2.0 * sigma * sigma);
}

double ZcdpToEpsilon(double rho, double delta) {
  return rho + 2.0 * std::sqrt(rho * -std::log(delta));
}

namespace {

// alpha - 1 = e^u is capped at e^kMaxLogAlphaMinusOne (zcdp.h, HOW).
constexpr double kMaxLogAlphaMinusOne = 700.0;

// ln(1 - 1/alpha) at alpha = 1 + e^u, accurate at both ends.
double LogOneMinusInverseAlpha(double u) {
  return u < 0.0 ? u - std::log1p(std::exp(u)) : -std::log1p(std::exp(-u));
}

// d/dalpha of ln delta(alpha): (2 alpha - 1) rho - eps + ln(1 - 1/alpha),
// increasing in u.
double Slope(double rho, double eps, double u) {
  const double t = std::exp(u);
  return (1.0 + 2.0 * t) * rho - eps + LogOneMinusInverseAlpha(u);
}

// ln delta(alpha) = (alpha-1)(alpha rho - eps) + (alpha-1) ln(1-1/alpha) - ln alpha.
double LogDeltaAt(double rho, double eps, double u) {
  const double t = std::exp(u);
  if (t == 0.0) return 0.0;  // alpha = 1 to double precision: delta = 1
  return t * ((1.0 + t) * rho - eps) + t * LogOneMinusInverseAlpha(u) - std::log1p(t);
}

boost::math::tools::eps_tolerance<double> Tolerance() {
  return boost::math::tools::eps_tolerance<double>(50);
}

// min over alpha > 1 of ln delta(alpha), capped at 0 (delta <= 1); rho > 0.
double LogCdpDelta(double rho, double eps) {
  // The slope is negative at u_lo: below (2 alpha - 1) rho - eps, so negative
  // at alpha = (1 + eps/rho)/2 when eps > rho; for u <= 0 at most
  // 3 rho - eps + u, so <= -1 at u = eps - 3 rho - 1 otherwise. (A tight
  // u_lo matters for huge rho, where the bracket would otherwise span 1e300.)
  // It is positive at alpha = (eps + 1)/(2 rho) + 2, i.e. at u_hi below.
  // Rounding in (1 + 2t) rho - eps can leave the first end's slope at ~0,
  // so step down until it is negative. (Every alpha gives a valid delta, so
  // a failed bracket costs tightness only.)
  double u_lo = eps > rho ? std::log((eps - rho) / (2.0 * rho)) - 1.0 : eps - 3.0 * rho - 1.0;
  for (int i = 0; i < 64 && Slope(rho, eps, u_lo) >= 0.0; ++i) u_lo -= 1.0 + std::fabs(u_lo);
  const double log_ratio = std::log(eps + 1.0) - std::log(2.0 * rho);
  double u_hi = log_ratio > 0.0 ? log_ratio + std::log1p(std::exp(-log_ratio))
                                : std::log1p(std::exp(log_ratio));
  u_hi = std::min(u_hi, kMaxLogAlphaMinusOne);
  double u = u_hi;
  if (Slope(rho, eps, u_lo) >= 0.0) {
    u = u_lo;
  } else if (Slope(rho, eps, u_hi) > 0.0) {
    std::uintmax_t iterations = 300;
    const auto bracket = boost::math::tools::toms748_solve(
        [&](double x) { return Slope(rho, eps, x); }, u_lo, u_hi, Tolerance(), iterations);
    u = 0.5 * (bracket.first + bracket.second);
  }
  return std::min(0.0, LogDeltaAt(rho, eps, u));
}

Status CheckRho(double rho) {
  if (!(std::isfinite(rho) && rho >= 0.0)) {
    return Error("rho must be finite and >= 0, got " + FormatDouble(rho));
  }
  return Status::Ok();
}

Status CheckEps(double eps) {
  if (!(std::isfinite(eps) && eps >= 0.0)) {
    return Error("eps must be finite and >= 0, got " + FormatDouble(eps));
  }
  return Status::Ok();
}

Status CheckOpenDelta(double delta) {
  if (!(delta > 0.0 && delta < 1.0)) {
    return Error("delta must be in (0, 1), got " + FormatDouble(delta));
  }
  return Status::Ok();
}

}  // namespace

Result<double> CdpDelta(double rho, double eps) {
  PB_RETURN_IF_ERROR(CheckRho(rho));
  PB_RETURN_IF_ERROR(CheckEps(eps));
  if (rho == 0.0) return 0.0;
  return std::exp(LogCdpDelta(rho, eps));
}

Result<double> CdpEpsilon(double rho, double delta) {
  PB_RETURN_IF_ERROR(CheckRho(rho));
  PB_RETURN_IF_ERROR(CheckOpenDelta(delta));
  if (rho == 0.0) return 0.0;
  const double log_delta = std::log(delta);
  const auto excess = [&](double eps) { return LogCdpDelta(rho, eps) - log_delta; };
  if (excess(0.0) <= 0.0) return 0.0;
  // Bun & Steinke's eps is valid (the factor it omits is <= 1); widen it in
  // case rounding put delta there a hair above the target.
  double hi = ZcdpToEpsilon(rho, delta);
  for (int i = 0; excess(hi) > 0.0; ++i) {
    if (i == 64) {
      return Error("internal error: no eps reaches delta=" + FormatDouble(delta) +
                   " at rho=" + FormatDouble(rho));
    }
    hi *= 1.0 + std::ldexp(1.0, -40 + i);
  }
  std::uintmax_t iterations = 300;
  const auto bracket = boost::math::tools::toms748_solve(excess, 0.0, hi, Tolerance(), iterations);
  return bracket.second;  // the end with delta(eps) <= delta
}

Result<double> CdpRho(double eps, double delta) {
  PB_RETURN_IF_ERROR(CheckEps(eps));
  PB_RETURN_IF_ERROR(CheckOpenDelta(delta));
  const double log_delta = std::log(delta);
  const auto excess = [&](double rho) { return LogCdpDelta(rho, eps) - log_delta; };
  // Bun & Steinke's inverse, (sqrt(eps + L) - sqrt(L))^2 with L = ln(1/delta),
  // is valid (delta <= target); at eps = 0 it is 0, so halve from 1.
  const double l = -std::log(delta);
  double lo = std::pow(std::sqrt(eps + l) - std::sqrt(l), 2);
  if (!(lo > 0.0) || excess(lo) > 0.0) {
    lo = std::max(lo, 1.0);
    while (lo > 0.0 && excess(lo) > 0.0) lo *= 0.5;
    if (lo == 0.0) return 0.0;  // no positive double is small enough
  }
  double hi = 2.0 * lo + 1.0;
  for (int i = 0; excess(hi) <= 0.0; ++i) {
    if (i == 2100 || !std::isfinite(hi)) {
      return Error("internal error: delta stays below " + FormatDouble(delta) +
                   " at eps=" + FormatDouble(eps));
    }
    lo = hi;
    hi *= 2.0;
  }
  std::uintmax_t iterations = 300;
  const auto bracket = boost::math::tools::toms748_solve(excess, lo, hi, Tolerance(), iterations);
  return bracket.first;  // the end with delta <= target
}

namespace {

class ZcdpAccountant final : public Accountant {
 public:
  std::string_view name() const override { return "zcdp"; }
  std::string_view description() const override {
    return "zCDP as Jayaraman & Evans 2019: rho = T q/(2 sigma^2) (no sampling amplification), "
           "eps = rho + 2 sqrt(rho ln(1/delta)) (Bun & Steinke 2016 Prop 1.3, 1.6, Lemma 1.7)";
  }

 protected:
  Result<AccountantResult> EpsilonImpl(const DpSgdAccounting& s) const override {
    return AccountantResult{ZcdpToEpsilon(JayaramanEvansZcdpRho(s.sigma, s.q, s.steps), s.delta),
                            {}};
  }
};

}  // namespace

std::unique_ptr<Accountant> MakeZcdpAccountant() { return std::make_unique<ZcdpAccountant>(); }

}  // namespace privbench
