// The numbers of study B1 epsilon_star_noise_curves (Negoescu et al.,
// "Epsilon*: Privacy Metric for Machine Learning Models", PPAI-24, App. B,
// Fig. 3; README.md), without I/O.
//
// Train losses N(train_mean, train_sd^2) = N(0, 1), population losses
// N(population_mean, population_sd^2) = N(3, 1) (the paper's Fig. 3). With
// "member iff loss <= tau", at each threshold tau of the 2m-point quantile
// grid (estimators/loss_samples/curves.h):
//   FPR = P_population(loss <= tau),  FNR = P_train(loss > tau),
//   term1 = (1 - delta - FPR) / FNR,  term2 = (1 - delta - FNR) / FPR,
// (a) from the known CDFs, (b) from the eCDFs of n simulated losses of each
// distribution (simulations/loss_models.h). Thresholds where FPR or FNR is
// below rate_floor are dropped ("for numerical stability"; the paper's
// floor was lost: ours 1e-6, the library default, equal to the parametric
// clip default). The noise of curve (b) is |ln(empirical term / exact
// term)| at its thresholds, grouped by the exact denominator rate (FNR for
// term1, FPR for term2): "the ends" (rate < 0.01) against "the centre"
// (rate in [0.1, 0.9]).
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_NOISE_CURVES_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_NOISE_CURVES_COMPUTE_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/result.h"
#include "estimators/loss_samples/curves.h"
#include "estimators/loss_samples/exact.h"
#include "experiments/epsilon_star_noise_curves/config.h"

namespace privbench::epsilon_star_noise_curves {

inline constexpr double kEndRate = 0.01;  // "the ends": denominator rate below
inline constexpr double kCentreLo = 0.1;  // "the centre": denominator rate within
inline constexpr double kCentreHi = 0.9;

// Both curves, the simulated losses, and the exact rates and terms at the
// empirical curve's thresholds (the noise comparison).
struct NoiseCurves {
  EpsilonStarCurve exact, empirical;
  std::vector<double> train_losses, population_losses;
  std::vector<double> exact_fpr, exact_fnr, exact_term1, exact_term2;  // [empirical.size()]
};

// Draws n train then n population losses from MakeRng(seed, {1}), computes
// both curves (on two threads when `threads` >= 2) and the exact values at
// the empirical thresholds. An error if either curve keeps no threshold.
Result<NoiseCurves> ComputeNoiseCurves(const Config& c, uint64_t seed, int threads);

// Exact rates and terms of the known distributions at thresholds `tau`
// (term1 is +inf where the exact FNR underflows).
struct ExactAtThresholds {
  std::vector<double> fpr, fnr, term1, term2;
};
Result<ExactAtThresholds> ExactRatesAt(const KnownLossDistribution& train,
                                       const KnownLossDistribution& population, double delta,
                                       const std::vector<double>& tau);

// The largest term1 (first) or term2 of a curve, where it lies, and its
// denominator rate (FNR for term1, FPR for term2). value -inf and NaN
// position for an empty curve.
struct TermMax {
  double value = -INFINITY, threshold = NAN, denominator_rate = NAN;
  size_t index = 0;
};
TermMax MaxOf(const EpsilonStarCurve& c, bool first);

// |ln(empirical term / exact term)| at the empirical thresholds where both
// terms are > 0 and finite, split by the exact denominator rate.
struct LogErrorsByRegion {
  std::vector<double> ends;    // rate < kEndRate
  std::vector<double> centre;  // rate in [kCentreLo, kCentreHi]
};
LogErrorsByRegion LogErrors(const NoiseCurves& r, bool first);

// The order statistic at index floor(0.9 (k - 1)) of k values (no
// interpolation; NaN for none): the table's 90th percentile.
double LowerP90(std::vector<double> v);

}  // namespace privbench::epsilon_star_noise_curves

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_NOISE_CURVES_COMPUTE_H_
