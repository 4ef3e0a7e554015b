// Jeffreys rate boxes -> eps interval (Bayesian paper §3.1, Eq. 2).
//
// Estimates: as clopper_pearson, but each rate's interval is the
// equal-tailed Jeffreys interval (posterior quantiles under a Beta(1/2,
// 1/2) prior), with lower = 0 when k = 0 and upper = 1 when k = n. Not
// guaranteed to reach nominal coverage for every rate, but close and
// recommended for one-sided use (Cai 2005).
//   jeffreys            two-sided interval at confidence 1 - alpha
//   jeffreys_one_sided  lower bound at confidence 1 - alpha
#include <memory>

#include "estimators/interval_estimator.h"
#include "estimators/intervals/factories.h"
#include "estimators/rate_box_method.h"

namespace privbench {
namespace {

constexpr RateBoxKind kJeffreys = {
    "jeffreys",
    "jeffreys_one_sided",
    "Jeffreys rate box, union bound; min/max of Eq. 1 over the box (Bayesian paper Sec. 3.1)",
    "Jeffreys rate upper limits, union bound; lower bound (Bayesian paper Sec. 3.1)",
    &JeffreysRate,
    RateLimitFns{&JeffreysLower, &JeffreysUpper}};

}  // namespace

std::unique_ptr<IntervalEstimator> MakeJeffreys() { return MakeRateBoxEstimator(kJeffreys, false); }
std::unique_ptr<IntervalEstimator> MakeJeffreysOneSided() {
  return MakeRateBoxEstimator(kJeffreys, true);
}

}  // namespace privbench
