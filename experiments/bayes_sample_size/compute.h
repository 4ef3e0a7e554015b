// The numbers of study bayes_sample_size: interval endpoints against the
// number of samples (Zanella-Béguelin et al., "Bayesian Estimation of
// Differential Privacy", ICML 2023, Sec. 3.4 "Varying Number of Samples",
// Fig. 4; README.md).
//
// A hypothetical attack with rates (FPR, FNR) is observed on n trials, n/2
// members and n/2 non-members, with the expected counts FN = round(FNR n/2),
// FP = round(FPR n/2) (no sampling: a deterministic comparison of interval
// constructions, as in the paper). For every n of an even grid, every
// registered interval estimator gives its interval for eps at confidence
// 1 - alpha (a method defined only at delta = 0 runs at delta = 0; a
// one-sided method contributes its lower bound only). "Samples needed" for
// an estimate within +-h is the smallest grid n from which the width STAYS
// <= 2h up to the end of the grid (experiments/lib/bayes_width/bayes_width.h).
#ifndef PRIVBENCH_EXPERIMENTS_BAYES_SAMPLE_SIZE_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_BAYES_SAMPLE_SIZE_COMPUTE_H_

#include <cstdint>
#include <vector>

#include "core/progress.h"
#include "core/result.h"
#include "estimators/confusion_counts.h"
#include "experiments/bayes_sample_size/config.h"
#include "experiments/lib/bayes_width/bayes_width.h"

namespace privbench::bayes_sample_size {

// n_min, n_min + n_step, ..., up to n_max.
std::vector<int64_t> SampleSizeGrid(const Config& c);

// Every method's interval at every n of the grid.
struct SampleSizeCurves {
  std::vector<WidthMethod> methods;     // [M], registry order
  std::vector<int64_t> n;               // [G]
  std::vector<ConfusionCounts> counts;  // [G]
  std::vector<double> point_eps;        // [G] Eq. 1 at the rounded rates
  // [M][G]; upper and width are NaN for one-sided methods.
  std::vector<std::vector<double>> lower, upper, width;
  // [M]; {-1, -1} for one-sided methods (and where the target is not reached).
  std::vector<SamplesNeeded> needed;
  double true_eps = 0.0;      // Eq. 1 at the nominal rates
  double target_width = 0.0;  // 2 * target_half_width
};

// Evaluates the grid `n` (SampleSizeGrid) on `threads` threads; the result
// does not depend on the thread count. `progress` (may be null) advances
// once per grid point.
Result<SampleSizeCurves> ComputeSampleSizeCurves(const Config& c, const std::vector<int64_t>& n,
                                                 int threads, ProgressReporter* progress);

}  // namespace privbench::bayes_sample_size

#endif  // PRIVBENCH_EXPERIMENTS_BAYES_SAMPLE_SIZE_COMPUTE_H_
