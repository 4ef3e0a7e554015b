// The numbers of study bayes_width_grid: interval width over a grid of
// (FPR, FNR) (Zanella-Béguelin et al., "Bayesian Estimation of Differential
// Privacy", ICML 2023, Sec. 3.4 "Varying Attack Accuracy", Fig. 5;
// README.md).
//
// For each (FPR, FNR) of a grid, a hypothetical attack observed on n trials
// (n/2 members, n/2 non-members) with the expected counts
// FN = round(FNR n/2), FP = round(FPR n/2) (no sampling, as in the paper).
// Every registered interval estimator gives its interval for eps at
// confidence 1 - alpha (a method defined only at delta = 0 runs at delta = 0;
// one-sided methods have no width). At each grid point: the width
// (upper - lower) of each two-sided method and the reduction of the
// Bayesian width against Clopper-Pearson and against Jeffreys,
// 100 (1 - W_bayes / W_ref) percent; then the range of the reductions over
// the grid and over sub-grids, and where the largest differences lie.
//
// Only better-than-chance attacks FPR + FNR < 1 are evaluated by default
// (the privacy region is symmetric under (FNR, FPR) -> (1 - FNR, 1 - FPR),
// and FPR + FNR = 1 is eps = 0). 2-D arrays are [fpr, fnr] flattened row by
// row (index i * B + j for fpr[i], fnr[j]), NaN outside the evaluated region.
#ifndef PRIVBENCH_EXPERIMENTS_LIB_BAYES_WIDTH_GRID_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_LIB_BAYES_WIDTH_GRID_COMPUTE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/progress.h"
#include "core/result.h"
#include "estimators/confusion_counts.h"
#include "experiments/bayes_width_grid/config.h"
#include "experiments/lib/bayes_width/bayes_width.h"

namespace privbench::bayes_width_grid {

// `points` evenly spaced values from lo to hi (lo alone for one point),
// rounded to 1e-12 so that 0.01 + 49 * 0.02 prints as 0.99.
std::vector<double> RateAxis(double lo, double hi, int64_t points);

// The grid and which of its points are evaluated.
struct GridLayout {
  std::vector<double> fpr;      // [A]
  std::vector<double> fnr;      // [B]
  std::vector<bool> valid;      // [A * B]
  std::vector<int64_t> points;  // indices of the valid points, increasing
};
// An error when no point is valid.
Result<GridLayout> MakeGridLayout(const Config& c);

// Every method's interval at every evaluated point, and the reductions.
struct WidthGrid {
  GridLayout grid;
  std::vector<WidthMethod> methods;  // [M], registry order
  PaperMethods paper;
  std::vector<int64_t> fp_axis, fn_axis;                 // [A], [B]: round(rate * n/2)
  std::vector<ConfusionCounts> counts;                   // [A * B]
  std::vector<double> true_eps;                          // [A * B] Eq. 1 at the rounded rates
  std::vector<std::vector<double>> lower, upper, width;  // [M][A * B]
  std::vector<double> reduction_cp, reduction_jf;        // [A * B] percent
  int64_t undefined_cp = 0, undefined_jf = 0;            // evaluated points, non-finite reduction
  std::vector<double> jeffreys_over_cp;                  // [A * B] W_J / W_CP where W_CP finite > 0
  // The convention test: Clopper-Pearson at confidence 1 - alpha/2 (95% for
  // alpha = 0.1) while the others stay at 1 - alpha, and the Bayesian
  // reduction against it (the only reading under which 36-52% vs CP
  // appears; README.md).
  std::vector<double> width_cp_half_alpha, reduction_cp_half_alpha;  // [A * B]
  size_t B() const { return grid.fnr.size(); }
  double fpr_at(int64_t p) const { return grid.fpr[p / B()]; }
  double fnr_at(int64_t p) const { return grid.fnr[p % B()]; }
};

// Evaluates every valid point of `grid` on `threads` threads (the result
// does not depend on the thread count); `progress` (may be null) advances
// once per point.
Result<WidthGrid> ComputeWidthGrid(const Config& c, GridLayout grid, int threads,
                                   ProgressReporter* progress);

// An inclusive box of rates; the reductions' range is reported per box.
struct Box {
  std::string name;
  double fpr_lo, fpr_hi, fnr_lo, fnr_hi;
};
// "fpr_0-0.5_fnr_0-0.5"
std::string BoxName(double fpr_lo, double fpr_hi, double fnr_lo, double fnr_hi);
// "all" (the whole grid), then one box per group of four in c.subgrids.
std::vector<Box> ReportedBoxes(const Config& c, const GridLayout& grid);

// The evaluated points inside a box.
struct BoxSummary {
  int64_t points = 0;
  // Points where the Bayesian width is not strictly below both CP and
  // Jeffreys; the first such point's index (-1 if none).
  int64_t violations = 0;
  int64_t first_violation = -1;
  FiniteRange vs_cp, vs_jeffreys;  // ranges of the reductions
  FiniteRange vs_cp_half_alpha;    // the reduction vs CP at 1 - alpha/2
};
BoxSummary SummarizeBox(const WidthGrid& w, const Box& box);

// The point with the largest absolute width difference (CP - Bayesian, and
// Jeffreys - Bayesian), and the vertex of the evaluated region it lies
// within 0.1 of (in both rates), "" if none. Vertices: (fpr_min, fnr_min)
// "low FPR, low FNR", (fpr_min, largest FNR evaluated there) "low FPR, high
// FNR", (largest FPR evaluated at fnr_min, fnr_min) "high FPR, low FNR".
struct CornerAnalysis {
  FiniteRange diff_cp, diff_jeffreys;
  std::string corner_cp, corner_jeffreys;
};
// An error when no width difference is finite.
Result<CornerAnalysis> AnalyzeCorners(const WidthGrid& w);

}  // namespace privbench::bayes_width_grid

#endif  // PRIVBENCH_EXPERIMENTS_LIB_BAYES_WIDTH_GRID_COMPUTE_H_
