// The report shape and helpers of the Epsilon* simulation studies
// (Negoescu et al., "Epsilon*: Privacy Metric for Machine Learning Models",
// PPAI-24, App. B, Figs. 3-5): B1 `epsilon_star_noise_curves`,
// B2 `epsilon_star_identical`, B3 `epsilon_star_distance` (their README.md).
//
// Each study's report.h declares
//   using Results = SimStudyResults<its simulation>;
//   Status WriteReport(const Config&, const Results&, ResultWriter&);
// and the parts WriteReport writes, for its unit tests. The helpers below
// write what B2 and B3 write alike: each estimates Epsilon* with every
// registered estimator in two analyses (estimation_config.h
// PrimaryAndCommonAnalyses: 0 primary, each estimator on its own window;
// 1 common window) against the exact value on each window (windows.h), and
// judges its paired claims by sign tests (framework/judged_claim.h).
#ifndef PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SIM_SIM_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SIM_SIM_REPORT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/lib/epsilon_star_sim/replicates.h"
#include "experiments/lib/epsilon_star_sim/windows.h"
#include "experiments/lib/framework/judged_claim.h"
#include "experiments/lib/framework/study.h"
#include "results/h5_file.h"
#include "results/table_builder.h"

namespace privbench {

// What a simulation study's report is written from: its simulation and the
// scale it ran at (for /meta lost_parameters).
template <class Sim>
struct SimStudyResults {
  Sim sim;
  Scale scale = Scale::kQuick;
};

// Analysis a's claim id suffix: "" (primary) or "_common_window".
std::string AnalysisSuffix(size_t a);

// The end of analysis a's table title: "each estimator on its own window"
// or "every estimator on a common window".
std::string AnalysisTitle(size_t a);

// The end of analysis a's table caption: `primary` (a = 0, the study's
// sentence on the two windows) or the common-window sentence, then
// " Options: <the analysis' options>.".
std::string AnalysisCaption(size_t a, const std::string& primary, const SimAnalysis& analysis);

// /estimators [E] and /analyses [2].
Status WriteEstimatorsAndAnalyses(const std::vector<std::string>& names,
                                  const std::vector<SimAnalysis>& analyses, ResultWriter& out);

// /exact/<window>: one exact value per window (exact[w]) or one per setting
// (exact[w][setting]), each with its attribute window (the window's text).
Status WriteExactWindows(const ExactWindows& windows, const std::vector<double>& exact,
                         ResultWriter& out);
Status WriteExactWindows(const ExactWindows& windows, const std::vector<std::vector<double>>& exact,
                         ResultWriter& out);

// "/<analysis>/<estimator>", the group of one estimator's values.
std::string EstimatorGroup(const SimAnalysis& analysis, const std::string& estimator);

// The attributes of EstimatorGroup(analysis, estimator) in analysis a:
// window (the window the estimator reads), `reference` (the study's exact
// reference, or the window it is taken on) and options.
Status SetEstimatorAttributes(size_t a, const SimAnalysis& analysis, const std::string& estimator,
                              const Attribute& reference, ResultWriter& out);

// A claim judged by `tests` (JudgeAllGreater at family level 0.05): its
// evidence is `head`, then, when the tests do not decide,
// "; INCONCLUSIVE: holds in <x>% of the <compared>", then `tail`. It holds
// when the tests say so and `valid` (e.g. there was something to test).
JudgedClaim SignTestClaim(const std::string& id, const std::vector<SignTest>& tests, bool valid,
                          const std::string& head, const std::string& compared,
                          const std::string& tail);

// /meta attributes epsilon_star_options_primary,
// epsilon_star_options_common_window and lost_parameters.
Status WriteAnalysesMeta(const std::vector<SimAnalysis>& analyses,
                         const std::string& lost_parameters, ResultWriter& out);

}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIB_EPSILON_STAR_SIM_SIM_REPORT_H_
