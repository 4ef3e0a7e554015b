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

#include <memory>
#include <string_view>

#include "estimators/confusion_counts.h"
#include "estimators/eps_from_rates.h"
#include "estimators/interval_estimator.h"
#include "estimators/rate_intervals.h"

namespace privbench {

using RateIntervalFn = RateInterval (*)(int64_t k, int64_t n, double significance);

// The (FNR, FPR) box with each rate at two-sided significance `per_rate`.
RateBox MakeRateBox(const ConfusionCounts& c, double per_rate_significance, RateIntervalFn fn);

// Largest number of positive (tp + fn) or negative (fp + tn) trials the
// rate-box methods accept. A rate within 1/n of 1 is held as a double, whose
// spacing there is 1.1e-16, so 1 - rate loses about n * 1e-16 relative
// precision: eps (which depends on it through a log) moves by 2e-5 per
// decade at 1e14 trials, 2e-4 at 1e15, 4e-3 at 1e16, and at 2^62 a rate
// rounded to exactly 1 gave a lower bound of +inf.
inline constexpr int64_t kRateBoxMaxTrials = 100000000000000;  // 1e14

// The rate-box methods' own range check (their ValidateMethodArguments):
// each side at most kRateBoxMaxTrials, the message naming the counts.
Status ValidateRateBoxCounts(const ConfusionCounts& c);

// The eps interval of the rate-box method (arguments already validated).
EpsInterval RateBoxEpsInterval(const ConfusionCounts& c, double delta, double alpha, bool one_sided,
                               RateIntervalFn fn);

// One end of a rate interval (rate_intervals.h: ClopperPearsonLower, ...)
// and a method's two ends: lower(k, n, s) and upper(k, n, s) are the lo and
// hi of the method's RateIntervalFn.
using RateLimitFn = double (*)(int64_t k, int64_t n, double significance);
struct RateLimitFns {
  RateLimitFn lower, upper;
};

// The method's bound over a box of counts (IntervalEstimator::
// BoundOverCounts; arguments already validated), from four rate limits:
// the upper limits hi(F) of the fewest errors' two rates and the lower
// limits lo(M) of the most errors'. Lower end: the larger of Below(F) =
// EpsBelowBand(hi(F)) (EpsFromRates(hi(F)) if hi(F) lies below the band
// fnr + fpr < 1 - delta, else 0) and Above(M) = EpsAboveBand(lo(M))
// (EpsFromRates(lo(M)) if lo(M) lies above it, > 1 + delta, else 0;
// eps_from_rates.h). Upper end: the larger of EpsBetterThanChance(lo(M))
// and EpsWorseThanChance(hi(F)).
// Proof. The rate limits are non-decreasing in their count
// (Clopper-Pearson and Jeffreys limits), so every counts c of the box has
// hi(c) >= hi(F) and lo(c) <= lo(M) in each rate. c's lower end is
// MinEpsOverBox of its box (eps_from_rates.h): where the box lies below the
// band it is EpsFromRates(hi(c)); then hi(F) lies below too, and
// EpsFromRates is non-increasing in both rates there, so it is at most
// Below(F). Where the box lies above the band it is EpsFromRates(lo(c)); then
// lo(M) lies above too, where EpsFromRates is non-decreasing in both rates:
// at most Above(M). Otherwise it is 0. Upper end: MaxEpsOverBox of c's box
// is the larger of EpsBetterThanChance(lo(c)) >= EpsBetterThanChance(lo(M))
// and EpsWorseThanChance(hi(c)) >= EpsWorseThanChance(hi(F)). QED.
// The bound equals the larger of the lower ends of F's and M's own boxes
// (F's box above the band puts M's above, with a larger EpsFromRates; M's
// below puts F's below, likewise), with four limits computed instead of
// eight.
// The limits are memoised per thread (core/recent_values.h): the exact
// search asks for the same counts' limits again as it halves a run, and
// gets the same values.
EpsIntervalBound RateBoxBoundOverCounts(const ConfusionCounts& fewest_errors,
                                        const ConfusionCounts& most_errors, double delta,
                                        double alpha, bool one_sided, RateLimitFns limits);

// What distinguishes one rate-box method from another: its registry names
// and descriptions (two-sided, one-sided) and its rate interval, whole and
// by end.
struct RateBoxKind {
  std::string_view name, one_sided_name;
  std::string_view description, one_sided_description;
  RateIntervalFn interval;
  RateLimitFns limits;
};

// The rate-box interval estimator of `kind` (clopper_pearson.cc,
// jeffreys.cc): Estimate is RateBoxEpsInterval, BoundOverCounts
// RateBoxBoundOverCounts, and the counts are checked by
// ValidateRateBoxCounts.
std::unique_ptr<IntervalEstimator> MakeRateBoxEstimator(const RateBoxKind& kind, bool one_sided);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_RATE_BOX_METHOD_H_
