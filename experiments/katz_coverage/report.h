// What study katz_coverage (README.md) writes: the raw draws and
// bounds, the summary tables, the /numbers scalars and the claims checked
// against ML-Audit (Lu et al., NeurIPS 2022) Sec. 4 and Sec. 4.2 point 3:
// the Katz-log bound is a valid lower bound, has better coverage and is
// tighter than Clopper-Pearson bounds on numerator and denominator
// separately, which are conservative. Tables and claims are pure functions
// of the computed run; the Write* functions only store them.
#ifndef PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_REPORT_H_

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "experiments/katz_coverage/compute.h"
#include "experiments/katz_coverage/config.h"
#include "results/h5_file.h"

namespace privbench::katz_coverage {

// The four claims, in the order the study writes them.
std::vector<Claim> RatioClaims(const KatzCoverageConfig& c,
                               const std::vector<RatioSetting>& settings,
                               const std::vector<RatioMethod>& methods,
                               const std::vector<RatioMethodData>& data);

// The summary tables coverage, coverage_by_method and detection_ceiling, in
// that order.
std::vector<SummaryTable> RatioTables(const KatzCoverageConfig& c,
                                      const std::vector<RatioSetting>& settings,
                                      const std::vector<RatioMethod>& methods,
                                      const std::vector<RatioMethodData>& data,
                                      const std::vector<CeilingRow>& ceiling);

// Per method: the minimum coverage over the settings and the number of
// settings classed "under" (/numbers/katz_coverage_<method>_{min_coverage,
// settings_under}).
struct RatioNumbers {
  double min_coverage = 1.0;
  int64_t settings_under = 0;
};
RatioNumbers CountRatioNumbers(const RatioMethodData& d);

// /settings, /trials, /methods and /bounds (layout in main.cc).
Status WriteRatioRawData(ResultWriter& out, const KatzCoverageConfig& c,
                         const std::vector<RatioSetting>& settings,
                         const std::vector<RatioMethod>& methods, const RatioRun& run);

// The tables, /numbers, claims and /meta lost_parameters.
Status WriteRatioReport(ResultWriter& out, const KatzCoverageConfig& c,
                        const std::vector<RatioSetting>& settings,
                        const std::vector<RatioMethod>& methods,
                        const std::vector<RatioMethodData>& data,
                        const std::vector<CeilingRow>& ceiling);

}  // namespace privbench::katz_coverage

#endif  // PRIVBENCH_EXPERIMENTS_KATZ_COVERAGE_REPORT_H_
