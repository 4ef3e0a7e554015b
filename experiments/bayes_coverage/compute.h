// The numbers of study bayes_coverage (README.md): Monte-Carlo
// coverage of every registered interval estimator's nominal 1 - alpha eps
// interval (Bayesian paper, Zanella-Beguelin et al. ICML 2023, Sec. 2.5-3.4).
//
// For true rates (FNR, FPR) and n total membership trials (n/2 members, n/2
// non-members), one Monte-Carlo trial draws FN ~ Bin(n/2, FNR) and
// FP ~ Bin(n/2, FPR) (simulations/confusion_draws.h, seed
// DeriveSeed(seed, {setting, trial})), and every registered interval
// estimator (estimators/interval_registry.h) builds its nominal 1 - alpha
// interval from (TP, FN, FP, TN). The target is the true eps of
// docs/studies.md A1, EpsFromRatesUnchecked(FNR, FPR, delta_m), where a
// method with requires_zero_delta() runs at delta_m = 0 (and its target is
// recomputed there) and every other method at the study's delta.
// Coverage of a two-sided interval: lower <= eps_true <= upper; of a
// one-sided lower bound: lower <= eps_true. Coverage classes:
// experiments/lib/coverage/coverage_class.h.
#ifndef PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_COMPUTE_H_
#define PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_COMPUTE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "estimators/interval_estimator.h"
#include "experiments/bayes_coverage/config.h"
#include "experiments/lib/coverage/coverage_class.h"

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

// One (pair, n) setting.
struct CoverageSetting {
  int64_t pair = 0;
  double fpr = 0.0, fnr = 0.0;
  int64_t n = 0;
  int64_t positives() const { return n / 2; }
  int64_t negatives() const { return n - n / 2; }
  // "(FPR 0.01, FNR 0.3, n 1000)"
  std::string Label() const;
};
// Every (pair, n), pair-major.
std::vector<CoverageSetting> MakeCoverageSettings(const Config& c);

// A registered estimator as the study runs it.
struct CoverageMethod {
  std::string name;   // registry name
  std::string label;  // name, plus " (delta=0)" when run at delta = 0
  bool one_sided = false;
  double delta = 0.0;  // the delta it runs at (0 if requires_zero_delta())
  std::unique_ptr<IntervalEstimator> estimator;  // stateless; shared by threads
};

// Every registered interval estimator, in registry order (new estimators
// appear automatically). Validates delta.
Result<std::vector<CoverageMethod>> MakeCoverageMethods(double delta);

// Coverage of one interval (see the header comment); `upper` null for a
// one-sided bound.
bool IntervalCovers(double lower, const double* upper, double truth);

struct IntervalCoverageStats {
  int64_t trials = 0;
  double coverage = 0.0;    // fraction of trials covering the truth
  double se = 0.0;          // ObservedSe(coverage, trials)
  double miss_low = 0.0;    // fraction with truth < lower (interval above the truth)
  double miss_high = 0.0;   // fraction with truth > upper (two-sided only, else 0)
  double mean_lower = 0.0;  // mean lower end (always finite)
  double median_lower = 0.0;
  int64_t infinite = 0;  // two-sided intervals with upper = +inf
  double frac_infinite = 0.0;
  // Mean of upper - lower over the finite two-sided intervals; NaN when the
  // method is one-sided or every interval is infinite (documented in the
  // study's tables).
  double mean_width = 0.0;
};

// Statistics of one method in one setting; `upper` is empty for a one-sided
// method, else the same length as `lower`. Precondition: lower non-empty.
IntervalCoverageStats SummarizeIntervals(const std::vector<double>& lower,
                                         const std::vector<double>& upper, double truth);

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

// Row s of a [S, T] array stored row-major.
std::vector<double> Row(const std::vector<double>& v, int64_t s, int64_t t);

// One method's intervals [S*T] (setting-major) and per-setting statistics.
struct MethodData {
  std::vector<double> lower, upper;          // upper empty for one-sided
  std::vector<double> truth;                 // [S]
  std::vector<IntervalCoverageStats> stats;  // [S]
  std::vector<CoverageClass> classes;        // [S]
};

// Everything the Monte-Carlo run produced.
struct CoverageRun {
  std::vector<int64_t> fn, fp;   // [S*T] drawn counts
  std::vector<MethodData> data;  // one per method, in method order
};

// Draws every (setting, trial) and runs every method on it, on `threads`
// threads (the result does not depend on the thread count). Fills lower,
// upper, fn and fp; the statistics are left to SummarizeCoverage.
Result<CoverageRun> RunCoverageTrials(const Config& c, const std::vector<CoverageSetting>& settings,
                                      const std::vector<CoverageMethod>& methods, uint64_t seed,
                                      int threads, bool quiet);

// Fills truth, stats and classes of every method (nominal 1 - alpha).
void SummarizeCoverage(const Config& c, const std::vector<CoverageSetting>& settings,
                       const std::vector<CoverageMethod>& methods, CoverageRun* run);

}  // namespace privbench::bayes_coverage

#endif  // PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_COMPUTE_H_
