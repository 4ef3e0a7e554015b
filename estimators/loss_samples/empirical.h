// Empirical Epsilon* (Negoescu et al., PPAI-24, Sec. 3 and App. B.1;
// docs/studies.md A6): FPR and FNR from the empirical CDFs of the two loss
// samples, at the 2m quantile-grid thresholds of ecdf_sweep.h, keeping
// thresholds whose rates both lie in the open window
// (rate_floor, rate_ceiling) (paper: (0.001, 0.999)):
//   FPR(tau) = #{population <= tau} / n_pop,  FNR(tau) = #{train > tau} / n_train,
//   Epsilon* = max over kept tau of log max{1, (1-delta-FPR)/FNR, (1-delta-FNR)/FPR}.
// Rates and their complements are exact ratios of counts. No distributional
// assumption; the estimate is biased upward when the distributions are
// close (max over noisy ratios) and downward when they are far apart
// (the window cuts the tails where the signal is), App. B.1, Figs. 4-5.
//
// Cost: two sorted copies (O(n) memory), O(n log n) time for the sorts and
// one O(n + m) merge-like pass. Options clip_lo, clip_hi and transform are
// validated but not used.
#ifndef PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_EMPIRICAL_H_
#define PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_EMPIRICAL_H_

#include <vector>

#include "estimators/loss_samples/epsilon_star_options.h"

namespace privbench {

// The empirical value from samples already sorted ascending (unchecked:
// non-empty, finite, sorted, options validated). Lets studies that sort once
// evaluate several deltas or windows without copying.
double EmpiricalEpsilonStarSorted(const std::vector<double>& sorted_train,
                                  const std::vector<double>& sorted_population,
                                  const EpsilonStarOptions& options);

}  // namespace privbench

#endif  // PRIVBENCH_ESTIMATORS_LOSS_SAMPLES_EMPIRICAL_H_
