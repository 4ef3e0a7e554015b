#include "estimators/eps_from_rates.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/validate.h"

namespace privbench {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// log(num / den) as a constraint on eps: none if num <= 0, +inf if den == 0.
double LogRatioConstraint(double num, double den) {
  if (!(num > 0.0)) return 0.0;
  if (!(den > 0.0)) return kInf;
  return std::log(num / den);
}
}  // namespace

double EpsBetterThanChance(double x, double y, double delta) {
  return std::max(
      {0.0, LogRatioConstraint(1.0 - delta - y, x), LogRatioConstraint(1.0 - delta - x, y)});
}

double EpsWorseThanChance(double x, double y, double delta) {
  return std::max(
      {0.0, LogRatioConstraint(x - delta, 1.0 - y), LogRatioConstraint(y - delta, 1.0 - x)});
}

double EpsFromRatesUnchecked(double x, double y, double delta) {
  return std::max(EpsBetterThanChance(x, y, delta), EpsWorseThanChance(x, y, delta));
}

Result<double> EpsFromRates(double fnr, double fpr, double delta) {
  PB_RETURN_IF_ERROR(CheckProbability("fnr", fnr));
  PB_RETURN_IF_ERROR(CheckProbability("fpr", fpr));
  PB_RETURN_IF_ERROR(CheckDelta(delta));
  return EpsFromRatesUnchecked(fnr, fpr, delta);
}

double EpsBelowBand(double fnr, double fpr, double delta) {
  return fnr + fpr < 1.0 - delta ? EpsFromRatesUnchecked(fnr, fpr, delta) : 0.0;
}

double EpsAboveBand(double fnr, double fpr, double delta) {
  return fnr + fpr > 1.0 + delta ? EpsFromRatesUnchecked(fnr, fpr, delta) : 0.0;
}

double MinEpsOverBox(const RateBox& b, double delta) {
  // At most one of the two is non-zero: lo <= hi, so hi below the band puts
  // lo below it too.
  return std::max(EpsBelowBand(b.fnr_hi, b.fpr_hi, delta), EpsAboveBand(b.fnr_lo, b.fpr_lo, delta));
}

double MaxEpsOverBox(const RateBox& b, double delta) {
  return std::max({EpsFromRatesUnchecked(b.fnr_lo, b.fpr_lo, delta),
                   EpsFromRatesUnchecked(b.fnr_lo, b.fpr_hi, delta),
                   EpsFromRatesUnchecked(b.fnr_hi, b.fpr_lo, delta),
                   EpsFromRatesUnchecked(b.fnr_hi, b.fpr_hi, delta)});
}

}  // namespace privbench
