// What study bayes_coverage (README.md) writes, all through WriteReport:
//   the raw draws, S settings x T trials (experiments/lib/coverage/
//   coverage_report.h, WriteCoverageRun, with <x>, <y> = fpr, fnr, the
//   counts fn, fp and the methods' data in /estimates/<name>/{eps_lo,eps_hi}):
//   /settings/{pair_index,fpr,fnr,n,positives,negatives,true_eps,true_eps_delta0}  [S]
//   /trials/{fn,fp}                           [S, T] int64 counts
//   /methods/{name,label,one_sided,delta}     one row per registered estimator
//   /estimates/<name>/eps_lo                  [S, T]
//   /estimates/<name>/eps_hi                  [S, T] (two-sided methods only; may be inf)
//   /estimates/<name>/{true_eps,coverage,coverage_se,miss_low,miss_high,
//                      mean_width,frac_infinite,mean_lower,median_lower}  [S]
//   /estimates/<name>/coverage_class          [S] "under" / "near" / "over"
//   /summary/{coverage,coverage_by_method,width_by_method,coverage_classes,
//             diagonal_limit}
//   /numbers/bayes_coverage_*                  per method the minimum coverage
//                                              and the settings under; the
//                                              diagonal limits
//   /claims/...                                the verdict and evidence of
//                                              the seven claims of claims.json
//   /meta lost_parameters
// The claims are checked against the Bayesian paper (Zanella-Beguelin et
// al., ICML 2023): Sec. 2.6 (Clopper-Pearson exceeds nominal coverage),
// Sec. 3.2 (the Jeffreys rectangle over-covers; the joint-posterior credible
// interval has nominal coverage), Sec. 3.3 (the one-sided bound F^-1(alpha))
// and Sec. 3.4 (the Bayesian interval is the narrowest). Tables and claims
// are pure functions of the computed run, declared here for the unit test.
#ifndef PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_REPORT_H_

#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/bayes_coverage/compute.h"
#include "experiments/bayes_coverage/config.h"
#include "results/h5_file.h"

namespace privbench::bayes_coverage {

// The true eps of every setting at the study's delta (/settings/true_eps and
// the wide tables' column).
std::vector<double> TrueEpsAtDelta(const Config& c, const Results& r);

// One diagonal setting (FPR = FNR, true eps > 0) of a Bayesian method
// against the large-n limit of diagonal_limit.h; rows setting-major.
struct DiagonalRow {
  size_t setting = 0;
  std::string method;  // "bayesian" (two-sided) or "bayesian_one_sided"
  double rho = 0.0, coverage = 0.0, se = 0.0;
  double limit_independent = 0.0;  // the closed form (rho = 0)
  double limit = 0.0;              // at the setting's rho
  double limit_se = 0.0;           // sqrt(limit (1 - limit) / trials)
  bool largest_n = false;          // the largest n of its (FPR, FNR) pair
};
std::vector<DiagonalRow> DiagonalRows(const Config& c, const Results& r);

// claims.cc: the seven claims, in the order the study writes them.
std::vector<Claim> CoverageClaims(const Config& c, const Results& r);

// tables.cc: the summary tables coverage, coverage_by_method,
// width_by_method, coverage_classes and diagonal_limit, in that order.
Result<std::vector<SummaryTable>> CoverageTables(const Config& c, const Results& r);

// report.cc: writes everything listed above into `out`.
Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

}  // namespace privbench::bayes_coverage

#endif  // PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_REPORT_H_
