// The numbers of study bayes_coverage (README.md): Monte-Carlo
// coverage of every registered interval estimator's nominal 1 - alpha eps
// interval (Bayesian paper, Zanella-Beguelin et al. ICML 2023, Sec. 2.5-3.4).
//
// The design, the statistics and their assumptions are those of
// experiments/lib/coverage/coverage_run.h with (x, y) = (FPR, FNR) and n
// total membership trials (n/2 members, n/2 non-members): a trial draws
// FN ~ Bin(n/2, FNR) and FP ~ Bin(n/2, FPR) (simulations/confusion_draws.h),
// and every registered interval estimator (estimators/interval_registry.h)
// builds its nominal 1 - alpha interval from (TP, FN, FP, TN). The target is
// the true eps of docs/studies.md A1, EpsFromRatesUnchecked(FNR, FPR,
// delta_m), where a method with requires_zero_delta() runs at delta_m = 0
// (and its target is recomputed there) and every other method at the
// study's delta. Coverage of a two-sided interval: lower <= eps_true <=
// upper; of a one-sided lower bound: lower <= eps_true.
#ifndef PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_COMPUTE_H_

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "experiments/bayes_coverage/config.h"
#include "experiments/lib/coverage/coverage_run.h"

namespace privbench::bayes_coverage {

// The study's defaults, shared with //experiments/bayes_coverage:benchmark
// (our choice; the paper gives no coverage grid): (FPR, FNR) pairs and total
// trials n.
struct RatePair {
  double fpr;
  double fnr;
};
std::vector<RatePair> DefaultCoverageRatePairs();
std::vector<int64_t> DefaultCoverageTrialCounts();  // {200, 1000, 5000}

// The true eps of a setting (x = FPR, y = FNR) at delta (docs/studies.md A1).
double TrueEps(const CoverageSetting& s, double delta);
// Its members (positives, n/2) and non-members (negatives, n - n/2).
int64_t Positives(const CoverageSetting& s);
int64_t Negatives(const CoverageSetting& s);

// Every registered interval estimator, in registry order (new estimators
// appear automatically), at nominal level 1 - alpha; its label is the name,
// plus " (delta=0)" when it runs at delta = 0 (requires_zero_delta()) while
// the study's delta is not 0. Validates delta.
Result<std::vector<CoverageMethod>> MakeCoverageMethods(double delta, double alpha);

// Paired width comparison of two two-sided methods over the same trials:
// means of upper - lower over the trials where BOTH are finite.
struct PairedWidths {
  int64_t both_finite = 0;
  double mean_a = 0.0, mean_b = 0.0;  // NaN if both_finite == 0
  double frac_infinite_a = 0.0, frac_infinite_b = 0.0;
};
PairedWidths ComparePairedWidths(const std::vector<double>& lower_a,
                                 const std::vector<double>& upper_a,
                                 const std::vector<double>& lower_b,
                                 const std::vector<double>& upper_b);

// What the computation hands the report: the grid, the methods, the trials
// (counts FN, FP) and every method's intervals with their statistics.
using Results = CoverageResults;

// The grid of (FPR, FNR) x n settings and the registered methods, not yet
// run.
Result<Results> CoverageDesign(const Config& c);

// The whole computation, on `threads` threads (the result does not depend
// on the thread count).
Result<Results> ComputeCoverage(const Config& c, uint64_t seed, int threads, bool quiet);

}  // namespace privbench::bayes_coverage

#endif  // PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_COMPUTE_H_
