// Exact Epsilon* from KNOWN loss distributions (simulations only:
// Negoescu et al., PPAI-24, App. B.1 "directly evaluating the CDFs of the
// known ... distributions"; docs/studies.md A6, B1-B3).
//
// With train CDF F_t and population CDF F_p (member iff loss <= tau):
//   population thresholds tau_k = F_p^-1(alpha_k):  FPR = alpha_k,
//                                                   FNR = 1 - F_t(tau_k);
//   train thresholds      tau_k = F_t^-1(alpha_k):  FNR = 1 - alpha_k,
//                                                   FPR = F_p(tau_k);
//   alpha_k = k/(m+1), k = 1..m (epsilon_star_options.h), and
//   Epsilon* = max over thresholds with both rates in the OPEN window
//   (rate_floor, rate_ceiling) of log max{1, (1-delta-FPR)/FNR, (1-delta-FNR)/FPR},
// the same window as the empirical variant (paper: (0.001, 0.999)), so the
// two are directly comparable. Like the parametric variant we also evaluate
// the window's end thresholds F_p^-1(floor), F_p^-1(ceiling),
// F_t^-1(1-floor), F_t^-1(1-ceiling) (the level's rate set exactly to the
// bound, the other rate kept if inside the closed window): for continuous
// CDFs the supremum over the open window equals the maximum over the closed
// one, and for separated distributions it sits on the boundary (two Normals
// with different means have infinite unwindowed Epsilon*), so the result is
// the supremum over the window rather than a grid-alignment artifact. Ends
// at level 0 or 1 (floor = 0, ceiling = 1) are skipped.
//
// Assumptions: continuous CDFs, quantile = inverse CDF on (0, 1).
// Numerics: 1 - FPR and 1 - FNR are taken from the survival function when
// one is supplied and the CDF exceeds 1/2 (no cancellation); otherwise
// 1 - cdf. Every callable's value is checked (CDF in [0, 1], finite
// thresholds): a bad value is an Error, never a silent NaN. Exceptions
// (Boost.Math throws on domain errors) are turned into Errors.
// Options clip_lo, clip_hi and transform are validated but not used.
// Cost: m evaluations of each quantile and each CDF (Boost's Gamma
// quantile dominates: see the benchmark).
#ifndef PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_EXACT_H_
#define PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_EXACT_H_

#include <functional>

#include "core/result.h"
#include "estimators/loss_samples/epsilon_star_options.h"

namespace privbench {

struct KnownLossDistribution {
  std::function<double(double)> cdf;       // P(loss <= x); required
  std::function<double(double)> quantile;  // inverse CDF at p in (0, 1); required
  std::function<double(double)> survival;  // P(loss > x); optional (else 1 - cdf)
};

// N(mean, sd^2) via Boost.Math (cdf, survival = complement, quantile).
// Validates mean finite, sd > 0.
Result<KnownLossDistribution> NormalLossDistribution(double mean, double sd);
// Gamma(shape k, scale theta) via Boost.Math (cdf, survival, quantile);
// the CDF is 0 (survival 1) for x < 0. Validates shape, scale > 0.
Result<KnownLossDistribution> GammaLossDistribution(double shape, double scale);

Result<double> ExactEpsilonStar(const KnownLossDistribution& train,
                                const KnownLossDistribution& population,
                                const EpsilonStarOptions& options);

// The same with bare callables (no survival functions).
Result<double> ExactEpsilonStar(std::function<double(double)> train_cdf,
                                std::function<double(double)> population_cdf,
                                std::function<double(double)> population_quantile,
                                std::function<double(double)> train_quantile,
                                const EpsilonStarOptions& options);

// Internal (shared with curves.cc): CDF and survival of `d` at x, checked.
struct KnownTails {
  double cdf, sf;
};
Result<KnownTails> EvaluateKnownTails(const KnownLossDistribution& d, const char* which, double x);
// Checked quantile (finite) of `d` at level p in (0, 1).
Result<double> EvaluateKnownQuantile(const KnownLossDistribution& d, const char* which, double p);
// Error unless cdf and quantile are set (messages name `which`).
Status CheckKnownLossDistribution(const KnownLossDistribution& d, const char* which);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_EXACT_H_
