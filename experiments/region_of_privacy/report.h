// The study file of study C1 `region_of_privacy` (Erlingsson, Mironov,
// Raghunathan & Song 2019, "That which we call private", Sec. 3-5;
// README.md), written by WriteReport once every sweep part exists:
//   /meta                      provenance, the data, the lost parameters
//   /training/<level>          every level's training record
//   /settings, /dp, /baseline  per-run quantities (levels x repetitions)
//   /losses                    every per-example loss
//   /accounting                upper bounds of the noise actually used
//   /aggregate, /numbers       means over repetitions; numbers for verify
//   /summary/{table1,rotated,region}  Table 1, the rotated table (Sec. 3)
//                              and the region of privacy (Sec. 5.3, Fig. 1-2)
//   /claims                    Table 1's trends, the non-empty region, the
//                              ordering of the accountants: the verdict and
//                              its numbers (statement, source and criterion
//                              come from claims.json)
// The tables, claims and texts are pure functions of the aggregates, so they
// are unit-tested without a sweep.
#ifndef PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_REPORT_H_

#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "experiments/lib/framework/judged_claim.h"
#include "experiments/region_of_privacy/compute.h"
#include "experiments/region_of_privacy/config.h"
#include "results/h5_file.h"

namespace privbench {
namespace region_of_privacy {

// What the sweep's merge hands to the report.
struct Results {
  std::vector<double> noise;  // SortedNoise: largest first
  ModelGrid models;           // [level][rep], level 0 = baseline (ReadModels)
  bool real_data = false;     // real Purchase-100, else the surrogate
  std::string data_resolution;
  std::string parts_dir;      // the configuration's parts directory
  std::string part_versions;  // DescribePartVersions
  double unit_seconds_total = 0.0;
};

// Computes the upper bounds and aggregates and writes the whole study file.
Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// The parts of the file that are pure functions of the aggregates, public
// for report_test.

// The choices the paper leaves open and how this run made them (/meta).
// A fraction as a percentage ("1" for 0.01), as the tables and texts print
// it (tables.cc).
std::string Percent(double fraction);

std::string LostParameters(const Config& c, bool real_data);

// The captions' common part: data, model, sampling (q, steps), repetitions.
// provenance: the data's ("purchase100-surrogate" is labelled as such).
std::string SetupText(const Config& c, const std::string& provenance, double q, int64_t steps);

// Numbers for verify, keyed by noise multiplier ("tpr_pct_sigma0.44"), in
// /numbers/region_of_privacy_<id>.
std::vector<std::pair<std::string, double>> VerifyNumbers(const std::vector<double>& noise,
                                                          const Aggregates& a);

// The summary tables table1, rotated and region; `setup` from SetupText,
// `provenance` in the titles.
Result<std::vector<SummaryTable>> SummaryTables(const Config& c, const std::vector<double>& noise,
                                                const Aggregates& a, const std::string& provenance,
                                                const std::string& setup);

// The level of tpr_rises' trend test (CheckTrendRisesAsNoiseFalls).
inline constexpr double kTrendTestAlpha = 0.05;

// The claims (criteria in compute.h and claims.json), in the order written:
// accuracy_rises, tpr_rises, region_nonempty, refined_tighter, pld_tighter.
// tpr_rises is judged by a test (it may be inconclusive); the others are
// definite (inconclusive 0, holds_fraction 1 or 0 as they hold).
Result<std::vector<JudgedClaim>> Claims(const Config& c, const std::vector<double>& noise,
                                        const Aggregates& a, const std::string& provenance);

}  // namespace region_of_privacy
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_REGION_OF_PRIVACY_REPORT_H_
