// What study katz_coverage (README.md) writes, all through WriteReport:
//   the raw draws, S settings x T trials (experiments/lib/coverage/
//   coverage_report.h, WriteCoverageRun, with <x>, <y> = p1, p0, the counts
//   n1, n0 and the methods' data in /bounds/<method>/log_ratio_lo):
//   /settings/{pair_index,p1,p0,n,target}      [S], target = log(p1/p0)
//   /trials/{n1,n0}                            [S, T]
//   /methods/{name,description,nominal}        the four bounds
//   /bounds/<method>/log_ratio_lo              [S, T] unclipped (may be -inf)
//   /bounds/<method>/{coverage,coverage_se,mean_eps_bound,median_eps_bound,
//                     frac_vacuous,mean_eps_bound_covering}  [S]
//   /bounds/<method>/coverage_class            [S]
//   /summary/{coverage,coverage_by_method,detection_ceiling}
//   /numbers/katz_coverage_*                every detection ceiling, and per
//                                           method the minimum coverage and
//                                           the settings under
//   /claims/...                             the verdict and evidence of the
//                                           four claims of claims.json
//   /meta lost_parameters
// The claims are checked against ML-Audit (Lu et al., NeurIPS 2022) Sec. 4
// and Sec. 4.2 point 3: the Katz-log bound is a valid lower bound, has
// better coverage and is tighter than Clopper-Pearson bounds on numerator
// and denominator separately, which are conservative. Tables and claims are
// pure functions of the computed run, declared here for the unit test.
#ifndef PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_REPORT_H_

#include <vector>

#include "core/result.h"
#include "experiments/katz_coverage/compute.h"
#include "experiments/katz_coverage/config.h"
#include "experiments/lib/coverage/coverage_report.h"
#include "results/h5_file.h"

namespace privbench::katz_coverage {

// The target log(p1/p0) of every setting (/settings/target, the wide
// table's column).
std::vector<double> Targets(const Results& r);

// The statistics of the clipped bound max{0, bound} the study reports, in
// /bounds/<method>/ and the long table.
std::vector<StatDataset> ClippedStats();

// claims.cc: the four claims, in the order the study writes them.
std::vector<Claim> RatioClaims(const Config& c, const Results& r);

// tables.cc: the summary tables coverage, coverage_by_method and
// detection_ceiling, in that order.
Result<std::vector<SummaryTable>> RatioTables(const Config& c, const Results& r);

// report.cc: writes everything listed above into `out`.
Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

}  // namespace privbench::katz_coverage

#endif  // PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_REPORT_H_
