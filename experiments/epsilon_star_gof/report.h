// The summary tables, numbers and claims of study C4 epsilon_star_gof
// (Negoescu et al., "Epsilon*", PPAI-24, App. B.2, Fig. 6; README.md
// (C4)), as pure functions of the merged arrays (compute.h), and the writer
// that puts them into the study file.
//
// Claims (training losses, primary p-values, alpha = significance = 0.05;
// for the primary analysis, and again for each other analysis with its
// suffix: _floor<value> for the other floors, _carlini_logit):
//   most_above            fraction of all p-values > alpha is > 1/2;
//   more_with_dp          that fraction is larger for DP than for no DP;
//   more_with_components  fraction at k >= 10 (or k = K if K < 10) is
//                         larger than at k = 1 (both models pooled);
//   one_component_most_n_eval  for EACH model type, more than half of the
//                         n_eval values have median p (over repetitions)
//                         at k = 1 above alpha;
//   one_component_more_with_dp  fraction of k = 1 p-values > alpha is
//                         larger for DP than for no DP.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/epsilon_star_gof/compute.h"
#include "experiments/epsilon_star_gof/config.h"
#include "results/h5_file.h"

namespace privbench::epsilon_star_gof {

// "100,500,1000".
std::string JoinInts(const std::vector<int64_t>& values);

// /summary/gof_by_n_eval: one row per (loss set, model, analysis, n_eval).
SummaryTable GofByNEvalTable(const GofArrays& arrays, const GofStudyConfig& config,
                             const std::string& dataset_label);
// /summary/gof_by_components: one row per (loss set, model, analysis, k).
SummaryTable GofByComponentsTable(const GofArrays& arrays, const GofStudyConfig& config,
                                  const std::string& dataset_label);
// /summary/models: one row per (model, repetition).
SummaryTable ModelsTable(const GofArrays& arrays, const std::string& dataset_label);

struct GofNumber {
  std::string id;  // full name under /numbers: "epsilon_star_gof_frac_above_all"
  double value = 0.0;
};

// The numbers and the five claims of analysis f (0: primary), in the order
// they are written.
struct AnalysisReport {
  std::vector<GofNumber> numbers;
  std::vector<Claim> claims;
};
AnalysisReport ReportAnalysis(const GofArrays& arrays, const GofStudyConfig& config, int64_t f);

// Writes the three tables, then every analysis's numbers and claims.
Status WriteReport(const GofArrays& arrays, const GofStudyConfig& config,
                   const std::string& dataset_label, ResultWriter& out);

}  // namespace privbench::epsilon_star_gof

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_REPORT_H_
