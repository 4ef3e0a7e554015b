// Repeated resampling of membership scores: MultiSplit, a lower bound that
// aggregates many random splits, and the bootstrap (BCa) interval of any
// scalar metric of the scores. Both as in jax-privacy's auditing module
// (version 2.0.0: `MultiSplit`, `BootstrapParams`, `_bootstrap`), seeded
// with core/seeding.h so that a seed gives the same bytes on every
// machine and at any thread count.
//
// MULTISPLIT (multi_split.h: the median of B splits' bounds at alpha / 2,
// valid at alpha by Meinshausen, Meier & Buhlmann 2009, Thm 3.1; the splits'
// seeds DeriveSeed(seed, {3, j})).
// MultiSplit takes any per-split bound as a callback; SplitBoundByName
// makes the library's: the one-run bounds (one_run_scores.h
// OneRunSplitBound: the canaries split without regard to membership), every
// interval method of the registry (score_audit.h SelectSplit: its
// stratified halves, the lower end) and the Gaussian-DP bound (GaussianDpSplit:
// mu_lower). score_audit's own "split" rows are unchanged; its "multi_split"
// rows are MultiSplitByName's medians for the interval methods and
// "gaussian_dp" at the audit's seed (score_audit.h).
//
// BOOTSTRAP (Efron, "Better Bootstrap Confidence Intervals", JASA 82(397),
// 1987; jax-privacy `BootstrapParams.confidence_interval` and `_bootstrap`).
// For a metric theta(members, non-members): B replicates, each resampling
// the member scores (P draws with replacement) and the non-member scores (N
// draws), separately (the two samples are independent); replicate b draws
// its indices with boost::random::uniform_int_distribution from
// Rng(DeriveSeed(seed, {4, b})), members first. Reported at each requested
// quantile level u (for a two-sided interval at confidence c: u = (1 - c)/2
// and (1 + c)/2):
//  - percentile (bias_correction = false): the type-7 quantile u of the
//    replicates (core/stats.h Quantile);
//  - BC (bias_correction = true, jax-privacy's default): with
//    z0 = Phi^-1((#{theta*_b < theta_hat} + 1) / (B + 2)) (the count
//    smoothed by 1 and 2 as jax-privacy does, so z0 is finite), the
//    quantile at level Phi(z0 + (z0 + z_u) / (1 - a (z0 + z_u))), a = 0,
//    z_u = Phi^-1(u) (Efron 1987's BCa level with a = 0);
//  - BCa (acceleration = true as well): a from the jackknife over all P + N
//    scores (each deleted once; Efron 1987's jackknife estimate of a, as
//    jax-privacy computes it: one pooled sum over both samples):
//        a = sum_i (mean - theta_(i))^3 / (6 (sum_i (mean - theta_(i))^2)^{3/2}),
//    0 when every theta_(i) is equal. Where 1 - a (z0 + z_u) <= 0 the formula
//    has no value; its limit is used, level 1 if z0 + z_u > 0, else 0.
// WHAT IT MEANS: an interval for the metric's value on the score
// distributions (e.g. the population AUC), asymptotically at confidence c
// when the metric is smooth; no finite-sample guarantee. For an eps
// estimate (raw_count_epsilon) it is an interval for the estimate's
// sampling distribution, NOT for the mechanism's eps.
// WORK: B metric evaluations (each ~ its cost on P + N scores), plus P + N
// for the jackknife (refused above kMaxJackknifeScores scores: O(n^2)).
// Memory: O(P + N) per thread, plus the B replicates.
#ifndef PRIVBENCH_ESTIMATORS_SCORE_AUDIT_RESAMPLING_H_
#define PRIVBENCH_ESTIMATORS_SCORE_AUDIT_RESAMPLING_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "estimators/score_audit/multi_split.h"
#include "estimators/score_audit/score_metrics.h"

namespace privbench {

inline constexpr int64_t kMaxBootstrapSamples = 1'000'000;
inline constexpr int64_t kMaxJackknifeScores = 20'000;

// The library's per-split bounds by name: "one_run", "one_run_fdp",
// "one_run_gaussian_dp" (its mu_lower), "gaussian_dp" (score_audit's
// mu_lower) or an interval method of the registry (its eps lower end). The
// callback refers to the two score vectors, which must outlive it.
// Errors: an unknown name (naming bound), bad scores, delta.
Result<SplitBound> SplitBoundByName(const std::string& bound,
                                    const std::vector<double>& member_scores,
                                    const std::vector<double>& nonmember_scores, double delta);

// MultiSplit of a named bound (SplitBoundByName) with what it bounds:
// eps_lower is the median itself for the eps bounds; for the mu bounds
// ("gaussian_dp", "one_run_gaussian_dp") GaussianDpEpsilon(median mu, delta)
// at delta > 0 (a lower bound on eps(delta) only under the assumption that
// the trade-off is Gaussian; median mu is the valid statement), nullopt at
// delta = 0.
struct NamedMultiSplit {
  MultiSplitResult result;
  bool bounds_mu = false;
  std::optional<double> eps_lower;
};
Result<NamedMultiSplit> MultiSplitByName(const std::string& bound,
                                         const std::vector<double>& member_scores,
                                         const std::vector<double>& nonmember_scores, double delta,
                                         const MultiSplitOptions& options);

struct BootstrapOptions {
  int64_t num_samples = 1000;                      // B, in [1, kMaxBootstrapSamples]
  std::vector<double> quantiles = {0.025, 0.975};  // non-empty, each in (0, 1)
  bool bias_correction = true;
  bool acceleration = false;  // needs bias_correction; at most kMaxJackknifeScores scores
  uint64_t seed = 0;
  int threads = 1;  // in [1, 1024]; the values do not depend on it
};
struct BootstrapResult {
  double estimate = 0.0;          // the metric on the scores themselves
  std::vector<double> quantiles;  // the requested levels u
  std::vector<double> levels;     // the levels actually read (corrected)
  std::vector<double> values;     // the replicates' quantiles at `levels`
  double z0 = 0.0, acceleration = 0.0;
  std::vector<double> replicates;  // theta*_b, b = 0..B-1
};
// Errors name the scores, num_samples, quantiles, acceleration, threads; a
// metric's error (or a value that is not finite) is returned with the
// replicate's index (or the left-out score's, for the jackknife).
Result<BootstrapResult> Bootstrap(const std::vector<double>& member_scores,
                                  const std::vector<double>& nonmember_scores,
                                  const ScoreMetric& metric, const BootstrapOptions& options);

// The two-sided interval at `confidence` in (0, 1): quantiles (1 - c)/2 and
// (1 + c)/2 (jax-privacy's BootstrapParams.confidence_interval).
std::vector<double> ConfidenceQuantiles(double confidence);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_SCORE_AUDIT_RESAMPLING_H_
