// The Monte-Carlo design and the statistics of an interval coverage study
// (experiments/bayes_coverage, experiments/katz_coverage): how often a
// method's nominal-level interval, computed from counts drawn at known true
// parameters, contains the target those parameters imply, and how wide or
// informative it is.
//
// Design. The grid has one setting per (pair of true parameters (x, y),
// sample size n), pair-major (every n of a pair before the next pair). Each
// setting is repeated `trials` times; repetition t of setting s draws its two
// counts from seed DeriveSeed(seed, {s, t}) and every method turns them into
// a lower bound, or a two-sided interval, for the target. The study chooses
// the draw (two binomial counts), the methods and the target, which depends
// only on the setting's true parameters and the method (never on the draw).
//
// Statistics of one method in one setting, over its trials. Trials are
// independent and identically distributed, so the coverage is a binomial
// proportion and its standard error the binomial one:
//   coverage       fraction with lower <= target (two-sided: and
//                  target <= upper); se = sqrt(c (1 - c) / trials);
//   class          under / near / over its nominal level: with the nominal
//                  standard error se0 = sqrt(nominal (1 - nominal) / trials),
//                  under if c < nominal - 3 se0, over if c > nominal + 3 se0,
//                  else near; a method whose true coverage equals its
//                  nominal level enters each one-sided class by chance with
//                  probability Phi(-3) = 0.00135 per setting (normal
//                  approximation);
//   miss_low       fraction with target < lower (the interval above it);
//   miss_high      fraction with target > upper (two-sided; else 0);
//   mean_lower, median_lower   of the lower end;
//   frac_infinite  fraction of two-sided intervals with upper = +inf;
//   mean_width     mean of upper - lower over the finite two-sided
//                  intervals (NaN when one-sided or none is finite);
//   of the clipped lower end max{0, lower}, the eps lower bound an auditor
//   reports (eps >= 0): mean_clipped, median_clipped, frac_vacuous (lower
//   <= 0) and mean_clipped_covering (over the covering trials only: a
//   tightness that does not reward over-shooting the target; NaN if none).
// A study writes the statistics it reports (coverage_report.h).
#ifndef PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_RUN_H_
#define PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_RUN_H_

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/result.h"

namespace privbench {

// Nominal Monte-Carlo standard error sqrt(p (1 - p) / trials).
double NominalSe(double nominal, int64_t trials);
// Observed Monte-Carlo standard error sqrt(c (1 - c) / trials).
double ObservedSe(double coverage, int64_t trials);

enum class CoverageClass { kUnder, kNear, kOver };
// The classes of the header comment, with the threshold in units of
// NominalSe.
CoverageClass ClassifyCoverage(double coverage, double nominal, int64_t trials,
                               double threshold_se = 3.0);
const char* CoverageClassName(CoverageClass c);  // "under", "near", "over"

// What a study calls the parts every coverage study has.
struct CoverageNames {
  std::string study;                  // progress label; /numbers/<study>_<method>_...
  std::string x, y;                   // the true parameters: /settings/<x>, table columns
  std::string x_label, y_label;       // the same in setting labels
  std::string n;                      // the sample size in labels and tables (/settings/n)
  std::array<std::string, 2> counts;  // /trials/<counts[i]>: a trial's two draws
  std::string group;                  // /<group>/<method>/...: each method's data
  std::string lower, upper;           // its datasets of lower and upper ends
};

// One setting of the grid.
struct CoverageSetting {
  int64_t pair = 0;  // index of its (x, y) pair
  double x = 0.0, y = 0.0;
  int64_t n = 0;
  std::string label;  // "(<x_label> x, <y_label> y, <n> n)", e.g. "(p1 0.5, p0 0.05, N 100)"
};

// Every (pair, n) of the paired lists x, y and the sample sizes ns,
// pair-major.
std::vector<CoverageSetting> MakeCoverageSettings(const CoverageNames& names,
                                                  const std::vector<double>& x,
                                                  const std::vector<double>& y,
                                                  const std::vector<int64_t>& ns);

// A method as the study runs and reports it.
struct CoverageMethod {
  std::string name;   // its group and /numbers name
  std::string label;  // in tables and evidence: the name, or the name qualified
  std::string description;
  bool one_sided = true;    // a lower bound only, else a two-sided interval
  double nominal = 0.0;     // nominal coverage
  double delta = 0.0;       // the delta of its eps target
  bool guaranteed = false;  // nominal level exact by construction, not asymptotic
};

struct IntervalStats {
  int64_t trials = 0;
  double truth = 0.0;  // the target
  double coverage = 0.0, se = 0.0;
  double miss_low = 0.0, miss_high = 0.0;
  double mean_lower = 0.0, median_lower = 0.0;
  double frac_infinite = 0.0, mean_width = 0.0;
  double mean_clipped = 0.0, median_clipped = 0.0;
  double frac_vacuous = 0.0, mean_clipped_covering = 0.0;
};

// The statistics of the header comment; `upper` is empty for a one-sided
// method, else as long as `lower`. Precondition: lower non-empty.
IntervalStats SummarizeIntervals(const std::vector<double>& lower, const std::vector<double>& upper,
                                 double truth);

// Row s of a [S, T] array stored row-major, T = t.
std::vector<double> Row(const std::vector<double>& v, int64_t s, int64_t t);

// One method's ends [S * T] (setting-major) and per-setting statistics.
struct MethodRun {
  std::vector<double> lower, upper;    // upper empty for a one-sided method
  std::vector<IntervalStats> stats;    // [S]
  std::vector<CoverageClass> classes;  // [S]
};

struct CoverageRun {
  int64_t trials = 0;                          // T
  std::array<std::vector<int64_t>, 2> counts;  // [S * T] the draws
  std::vector<MethodRun> data;                 // one per method, in method order
};

// Everything a coverage study computed.
struct CoverageResults {
  CoverageNames names;
  std::vector<CoverageSetting> settings;
  std::vector<CoverageMethod> methods;
  CoverageRun run;
};

// One repetition: the counts it drew and every method's ends (upper is read
// for the two-sided methods only). The run hands it in zeroed, one entry per
// method.
struct CoverageTrial {
  std::array<int64_t, 2> counts = {0, 0};
  std::vector<double> lower, upper;
};
using CoverageTrialFn = std::function<Status(const CoverageSetting& setting, int64_t trial,
                                             uint64_t trial_seed, CoverageTrial& out)>;

// Runs `trial` for every setting of r and t < trials on `threads` threads,
// with the seeds of the header comment (the result does not depend on the
// thread count), reporting progress under r.names.study unless quiet.
// Fills the counts and ends; a NaN end is an error. The first failing
// (setting, trial) in that order is returned.
Result<CoverageRun> RunCoverageTrials(const CoverageResults& r, int64_t trials,
                                      const CoverageTrialFn& trial, uint64_t seed, int threads,
                                      bool quiet);

// Fills r->run's statistics and classes, each method at its nominal level
// against truth(method, setting).
using CoverageTruthFn =
    std::function<double(const CoverageMethod& method, const CoverageSetting& setting)>;
void SummarizeCoverage(const CoverageTruthFn& truth, CoverageResults* r);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_RUN_H_
