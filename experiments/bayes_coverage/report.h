// What study bayes_coverage (README.md) writes: the raw draws and
// intervals, the summary tables, the /numbers scalars and the claims checked
// against the Bayesian paper (Zanella-Beguelin et al., ICML 2023): Sec. 2.6
// (Clopper-Pearson exceeds nominal coverage), Sec. 3.2 (the Jeffreys
// rectangle over-covers; the joint-posterior credible interval has nominal
// coverage), Sec. 3.3 (the one-sided bound F^-1(alpha)) and Sec. 3.4 (the
// Bayesian interval is the narrowest). Tables and claims are pure functions
// of the computed run; the Write* functions only store them.
#ifndef PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_REPORT_H_

#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/bayes_coverage/compute.h"
#include "experiments/bayes_coverage/config.h"
#include "results/h5_file.h"

namespace privbench::bayes_coverage {

// The six claims, in the order the study writes them.
std::vector<Claim> CoverageClaims(const BayesCoverageConfig& c,
                                  const std::vector<CoverageSetting>& settings,
                                  const std::vector<CoverageMethod>& methods,
                                  const std::vector<MethodData>& data);

// The summary tables coverage, coverage_by_method, width_by_method and
// coverage_classes, in that order.
std::vector<SummaryTable> CoverageTables(const BayesCoverageConfig& c,
                                         const std::vector<CoverageSetting>& settings,
                                         const std::vector<CoverageMethod>& methods,
                                         const std::vector<MethodData>& data);

// Per method: the minimum coverage over the settings and the number of
// settings classed "under" (/numbers/bayes_coverage_<method>_{min_coverage,
// settings_under}).
struct MethodNumbers {
  double min_coverage = 1.0;
  int64_t settings_under = 0;
};
MethodNumbers CountMethodNumbers(const MethodData& d);

// /settings, /trials, /methods and /estimates (layout in main.cc).
Status WriteCoverageRawData(ResultWriter& out, const BayesCoverageConfig& c,
                            const std::vector<CoverageSetting>& settings,
                            const std::vector<CoverageMethod>& methods, const CoverageRun& run);

// The tables, /numbers, claims and /meta lost_parameters.
Status WriteCoverageReport(ResultWriter& out, const BayesCoverageConfig& c,
                           const std::vector<CoverageSetting>& settings,
                           const std::vector<CoverageMethod>& methods,
                           const std::vector<MethodData>& data);

}  // namespace privbench::bayes_coverage

#endif  // PRIVBENCH_EXPERIMENTS_BAYES_COVERAGE_REPORT_H_
