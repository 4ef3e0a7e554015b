// Epsilon lower bound from error rates of a membership test (docs/studies.md A1).
//
// (FNR, FPR) = (x, y) is achievable by an (eps, delta)-DP mechanism iff it
// lies in the privacy region (Kairouz et al. 2017; Bayesian paper §2.3)
//   R(eps, delta) = { x + e^eps y >= 1 - delta,  y + e^eps x >= 1 - delta,
//                     y + e^eps x <= e^eps + delta, x + e^eps y <= e^eps + delta }.
// EpsFromRates returns inf{ eps >= 0 : (x, y) in R(eps, delta) }:
//   max{ 0, log((1-delta-y)/x), log((1-delta-x)/y),
//           log((x-delta)/(1-y)), log((y-delta)/(1-x)) }
// The first two terms are the Bayesian paper's Eq. 1 (a better-than-chance
// test); the last two are Eq. 1 at the complement (1-x, 1-y) and bound a
// worse-than-chance test. Corners are exact: a zero denominator under a
// positive numerator gives +inf; a non-positive numerator gives no
// constraint.
#ifndef PRIVBENCH_ESTIMATORS_EPS_FROM_RATES_H_
#define PRIVBENCH_ESTIMATORS_EPS_FROM_RATES_H_

#include "core/result.h"

namespace privbench {

// Validated: fnr, fpr in [0, 1]; delta in [0, 1).
Result<double> EpsFromRates(double fnr, double fpr, double delta);

// Unchecked version for inner loops (arguments already validated).
double EpsFromRatesUnchecked(double fnr, double fpr, double delta);

// Its two halves (unchecked): EpsFromRatesUnchecked = the larger of them.
// The better-than-chance terms max{0, log((1-delta-y)/x),
// log((1-delta-x)/y)} are non-increasing in both rates; the
// worse-than-chance terms max{0, log((x-delta)/(1-y)), log((y-delta)/(1-x))}
// are non-decreasing in both. So the maximum over a box is the first at
// (fnr_lo, fpr_lo) or the second at (fnr_hi, fpr_hi) (MaxEpsOverBox).
double EpsBetterThanChance(double fnr, double fpr, double delta);
double EpsWorseThanChance(double fnr, double fpr, double delta);

// A box of (FNR, FPR) values, e.g. the product of two rate intervals.
struct RateBox {
  double fnr_lo, fnr_hi;
  double fpr_lo, fpr_hi;
};

// Exact minimum of EpsFromRates over the box. The level sets of
// EpsFromRates are the convex regions R(eps, delta), so it is
// quasi-convex: below the band 1-delta <= x+y <= 1+delta (where it is 0) it
// decreases in both rates and the minimum is the corner (fnr_hi, fpr_hi);
// above the band it is the corner (fnr_lo, fpr_lo); a box that meets the
// band has minimum 0. (Bayesian paper footnote 1: taking a corner blindly,
// or dropping an infinite term, is wrong.)
// (unchecked) = the larger of EpsBelowBand(fnr_hi, fpr_hi) and
// EpsAboveBand(fnr_lo, fpr_lo).
double MinEpsOverBox(const RateBox& box, double delta);

// EpsFromRates at (fnr, fpr) where the point lies below the band
// (fnr + fpr < 1 - delta), else 0; and where it lies above it
// (fnr + fpr > 1 + delta), else 0 (unchecked).
double EpsBelowBand(double fnr, double fpr, double delta);
double EpsAboveBand(double fnr, double fpr, double delta);

// Exact maximum over the box: a quasi-convex function attains it at a
// vertex.
double MaxEpsOverBox(const RateBox& box, double delta);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_EPS_FROM_RATES_H_
