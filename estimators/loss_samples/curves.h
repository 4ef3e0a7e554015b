// The two ratio terms of Epsilon* against the threshold, for study B1
// (Negoescu et al., PPAI-24, App. B, Fig. 3: training losses N(0,1),
// non-training N(3,1); (a) exact CDFs, (b) eCDFs of simulated losses;
// "we remove FNR and FPR values less than [lost] for numerical stability").
//
// For each threshold tau of the 2m-point quantile grid (epsilon_star_options.h;
// exact: tau = F_p^-1(alpha_k) and F_t^-1(alpha_k); empirical: the lower
// sample quantiles of ecdf_sweep.h), in ascending order of tau, equal
// thresholds reported once:
//   FPR = P_population(loss <= tau),  FNR = P_train(loss > tau),
//   term1 = (1 - delta - FPR) / FNR,   term2 = (1 - delta - FNR) / FPR.
// A threshold is dropped when FPR < rate_floor or FNR < rate_floor (the
// paper's floor was lost; default 1e-6 is ours, matching the parametric clip
// default; rate_floor > 0 keeps both terms finite). Nothing is dropped at
// the upper end (terms may be negative there). Epsilon* over the kept
// points is log max{1, max term1, max term2}.
//
// Memory: O(number of kept thresholds) (5 doubles each; up to 2m).
#ifndef PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_CURVES_H_
#define PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_CURVES_H_

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "estimators/loss_samples/exact.h"

namespace privbench {

struct EpsilonStarCurveOptions {
  double delta = 0.0;                            // [0, 1)
  int64_t quantiles_per_distribution = 1000000;  // m, in [1, 1e8]
  double rate_floor = 1e-6;                      // (0, 1): drop rates below it
};

Status ValidateEpsilonStarCurveOptions(const EpsilonStarCurveOptions& options);

struct EpsilonStarCurve {
  std::vector<double> threshold;  // ascending, distinct
  std::vector<double> fpr;
  std::vector<double> fnr;
  std::vector<double> term1;  // (1 - delta - FPR) / FNR
  std::vector<double> term2;  // (1 - delta - FNR) / FPR
  size_t size() const { return threshold.size(); }
};

// (a) From known CDFs (Fig. 3a). Validates the distributions and options.
Result<EpsilonStarCurve> ExactEpsilonStarCurve(const KnownLossDistribution& train,
                                               const KnownLossDistribution& population,
                                               const EpsilonStarCurveOptions& options);

// (b) From the eCDFs of loss samples (Fig. 3b). Validates samples (messages
// name "train_losses" / "population_losses") and options.
Result<EpsilonStarCurve> EmpiricalEpsilonStarCurve(const std::vector<double>& train_losses,
                                                   const std::vector<double>& population_losses,
                                                   const EpsilonStarCurveOptions& options);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_CURVES_H_
