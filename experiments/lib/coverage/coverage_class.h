// How the Monte-Carlo coverage studies (experiments/bayes_coverage/README.md bayes_coverage,
// B7 katz_coverage) grade an empirical coverage against its nominal level.
//
// With the nominal standard error se0 = sqrt(nominal (1 - nominal) / trials),
// a setting's coverage c is "under" if c < nominal - 3 se0, "over" if
// c > nominal + 3 se0, else "near". For a method whose true coverage equals
// its nominal level, each one-sided class is entered by chance with
// probability Phi(-3) = 0.00135 per setting (normal approximation).
#ifndef PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_CLASS_H_
#define PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_CLASS_H_

#include <cstdint>

namespace privbench {

// Nominal Monte-Carlo standard error sqrt(p (1 - p) / trials).
double NominalSe(double nominal, int64_t trials);
// Observed Monte-Carlo standard error sqrt(c (1 - c) / trials).
double ObservedSe(double coverage, int64_t trials);

enum class CoverageClass { kUnder, kNear, kOver };
// The classes above, with the threshold in units of NominalSe.
CoverageClass ClassifyCoverage(double coverage, double nominal, int64_t trials,
                               double threshold_se = 3.0);
const char* CoverageClassName(CoverageClass c);  // "under", "near", "over"

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_COVERAGE_COVERAGE_CLASS_H_
