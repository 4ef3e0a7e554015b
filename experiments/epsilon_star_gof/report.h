// What study C4 epsilon_star_gof (Negoescu et al., "Epsilon*", PPAI-24,
// App. B.2, Fig. 6; README.md (C4)) writes from the merged arrays
// (compute.h) into results/raw/epsilon_star_gof.h5 (the raw arrays,
// settings and /meta are written by the merge, run.h):
//   /summary/gof_by_n_eval       one row per (loss set, model, analysis,
//                                n_eval)
//   /summary/gof_by_components   one row per (loss set, model, analysis, k)
//   /summary/models              one row per (model, repetition)
//   /numbers/epsilon_star_gof_*  the fractions and medians of each analysis
//   /claims                      the verdict and evidence of each claim
//                                below (statements and criteria: claims.json)
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
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/epsilon_star_gof/compute.h"
#include "experiments/epsilon_star_gof/config.h"
#include "experiments/lib/framework/judged_claim.h"
#include "results/h5_file.h"

namespace privbench::epsilon_star_gof {

// What the report needs: the merged arrays of every unit and the label of
// the data they came from (e.g. "uci-adult").
struct Results {
  GofArrays arrays;
  std::string dataset_label;
};

// Writes the three tables, then every analysis's numbers and claims.
Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// "100,500,1000" (also the merge's sweep configuration text).
std::string JoinInts(const std::vector<int64_t>& values);

// The parts WriteReport writes, for the unit tests.
Result<SummaryTable> GofByNEvalTable(const Config& config, const Results& results);
Result<SummaryTable> GofByComponentsTable(const Config& config, const Results& results);
Result<SummaryTable> ModelsTable(const Results& results);

struct GofNumber {
  std::string id;  // full name under /numbers: "epsilon_star_gof_frac_above_all"
  double value = 0.0;
};

// The numbers and the five claims of analysis f (0: primary), in the order
// they are written. The three comparative claims (more with DP, more with
// components, one component more with DP) are judged by an exact sign test
// over the repetitions (each repetition's fraction of p > alpha, DP against
// no DP, or many components against one), at family level 0.05
// (experiments/lib/framework/judged_claim.h): their verdicts are in
// sign_verdicts, keyed by claim id; inconclusive where the test cannot
// decide (with 3 repetitions per model type it never can: 1/8 > 0.05).
struct AnalysisReport {
  std::vector<GofNumber> numbers;
  std::vector<Claim> claims;
  std::map<std::string, SignVerdict> sign_verdicts;
};
AnalysisReport ReportAnalysis(const Config& config, const GofArrays& arrays, int64_t f);

}  // namespace privbench::epsilon_star_gof

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_GOF_REPORT_H_
