// Eps intervals from a box of rate confidence intervals (Clopper-Pearson,
// Jeffreys): the prior-work approach the Bayesian paper compares against
// (§2.5, §3.3 method 1 and 2).
//
// Two-sided at confidence 1 - alpha: each rate gets a two-sided interval at
// significance alpha/2 (union bound), and the eps interval is
// [min, max] of EpsFromRates over the box (exact, see eps_from_rates.h).
// One-sided at confidence 1 - alpha: the lower end of the two-sided
// interval at 2*alpha.
#ifndef PRIVBENCH_ESTIMATORS_RATE_BOX_METHOD_H_
#define PRIVBENCH_ESTIMATORS_RATE_BOX_METHOD_H_

#include "estimators/confusion_counts.h"
#include "estimators/eps_from_rates.h"
#include "estimators/interval_estimator.h"
#include "estimators/rate_intervals.h"

namespace privbench {

using RateIntervalFn = RateInterval (*)(int64_t k, int64_t n, double significance);

// The (FNR, FPR) box with each rate at two-sided significance `per_rate`.
RateBox MakeRateBox(const ConfusionCounts& c, double per_rate_significance, RateIntervalFn fn);

// The eps interval of the rate-box method (arguments already validated).
EpsInterval RateBoxEpsInterval(const ConfusionCounts& c, double delta, double alpha, bool one_sided,
                               RateIntervalFn fn);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_RATE_BOX_METHOD_H_
