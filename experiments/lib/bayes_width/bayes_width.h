// Interval widths at the expected counts of a hypothetical attack: the code
// shared by bayes_sample_size (Zanella-Béguelin et al., "Bayesian Estimation
// of Differential Privacy", ICML 2023, Sec. 3.4 Fig. 4; experiments/bayes_sample_size/README.md)
// and bayes_width_grid (Sec. 3.4 Fig. 5; experiments/bayes_width_grid/README.md).
//
// Both studies evaluate every registered interval estimator on the confusion
// counts of a hypothetical attack with given (FPR, FNR) and n trials, split
// evenly into n/2 members and n/2 non-members (no sampling: the counts are
// the expected counts, rounded). What is computed here:
//  - the list of methods as the group runs them (every registered estimator;
//    one that requires_zero_delta() runs at delta = 0 and is labelled so);
//  - the balanced counts of an attack;
//  - every method's interval at those counts;
//  - "samples needed" for a target width on an increasing grid of n;
//  - the relative width reduction of one method against another.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_BAYES_WIDTH_BAYES_WIDTH_H_
#define PRIVBENCH_EXPERIMENTS_LIB_BAYES_WIDTH_BAYES_WIDTH_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "estimators/confusion_counts.h"

namespace privbench {

// One registered interval estimator as the group runs it.
struct WidthMethod {
  std::string name;        // registry name, e.g. "clopper_pearson"
  std::string label;       // name, plus " (delta=0)" when run at delta = 0 by necessity
  bool one_sided = false;  // contributes its lower bound only (upper = NaN)
  double delta = 0.0;      // the delta it is actually run at
};

// Every registered estimator, in registry order: those with
// requires_zero_delta() at delta = 0 (labelled "<name> (delta=0)"), the
// others at `delta` (validated: [0, 1)).
Result<std::vector<WidthMethod>> RegisteredWidthMethods(double delta);

// Positions of the paper's three methods (Clopper-Pearson, Jeffreys,
// Bayesian) in `methods`; an error if the registry lacks one of them.
struct PaperMethods {
  size_t clopper_pearson = 0;
  size_t jeffreys = 0;
  size_t bayesian = 0;
};
Result<PaperMethods> FindPaperMethods(const std::vector<WidthMethod>& methods);

// The confusion counts of a hypothetical attack with n trials, m = n/2
// members and m non-members: FN = round(fnr * m), TP = m - FN,
// FP = round(fpr * m), TN = m - FP, rounding half away from zero
// (std::llround). Validates fpr, fnr in [0, 1] and n even and >= 2.
Result<ConfusionCounts> BalancedCounts(double fpr, double fnr, int64_t n);

// One method's interval; upper is NaN for a one-sided method and may be
// +inf. width() = upper - lower (NaN for one-sided, +inf if unbounded).
struct MethodInterval {
  double lower = 0.0;
  double upper = 0.0;
  double width() const { return upper - lower; }
};

// The interval of every method at `counts`, confidence 1 - alpha (the
// library's convention, estimators/interval_estimator.h), in `methods`
// order. Errors name the method and the counts.
Result<std::vector<MethodInterval>> EstimateAll(const std::vector<WidthMethod>& methods,
                                                const ConfusionCounts& counts, double alpha);

// Samples needed for a target width, on an increasing grid n[0] < n[1] < ...
// with widths[i] at n[i]. Widths are not monotone in n in general (the
// rounded counts make the realised rates wobble around the nominal ones), so
// two definitions:
//   first: the smallest n[i] with widths[i] <= target;
//   stays: the smallest n[i] with widths[j] <= target for EVERY j >= i
//          (the width stays within the target from n[i] to the end of the
//          grid). This is the group's definition of "samples needed".
// Each is -1 when no grid point qualifies. NaN widths never qualify.
struct SamplesNeeded {
  int64_t first = -1;
  int64_t stays = -1;
};
// Validates equal, non-zero sizes and a strictly increasing grid.
Result<SamplesNeeded> FindSamplesNeeded(const std::vector<int64_t>& n,
                                        const std::vector<double>& widths, double target);

// Relative width reduction of `width` against `reference`, in percent:
// 100 * (1 - width / reference). Defined (finite) when both are finite and
// reference > 0; 100 when width is finite and reference is +inf; -inf when
// width is +inf and reference finite; NaN otherwise (both infinite, a NaN
// input, or reference <= 0). Callers count and report the non-finite
// points; they never enter a min/max.
double WidthReductionPercent(double width, double reference);

// Minimum and maximum of the finite values among xs[i] with mask[i] true
// (mask empty = all); count = how many entered; NaN min/max when none.
struct FiniteRange {
  double min = 0.0;
  double max = 0.0;
  int64_t count = 0;
  int64_t argmin = -1;  // index into xs
  int64_t argmax = -1;
};
FiniteRange RangeOfFinite(const std::vector<double>& xs, const std::vector<bool>& mask = {});

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_BAYES_WIDTH_BAYES_WIDTH_H_
