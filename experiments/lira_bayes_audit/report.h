// The study file of lira_bayes_audit (README.md), written by WriteReport:
//   /meta                 lost_parameters, stand_in, dataset provenance, source,
//                         checksums and preprocessing, architecture, num_parameters, torch_version,
//                         part versions, seconds per shadow / target model
//   /accounting           attributes accountant, sigma, q, steps, epsilon, delta, n_train
//   /pool_rows, /shadow_is_in
//   /settings/<setting>/  raw per-shadow and per-trial data (shadow_phi,
//                         selection_weight, challenge, base, bits, target_phi,
//                         score_online, score_offline, accuracies,
//                         bonferroni_grid, roc/threshold, roc/<method>/{lower,upper})
//                         and the first target's training record (training_*)
//   /figure/<setting>/    the Fig. 1 analogue: posterior density of eps at the
//                         selected threshold (eps, density; lower, upper, ...)
//   /summary/table2       one row per setting, selection and method with the
//                         confusion counts, so anyone can recompute the interval
//   /summary/width_reduction, /summary/accuracy   (every /summary table: tables.cc)
//   /numbers/...          the numbers the published list shows beside Table 2
//                         (CIFAR-10 / SST-2 there; Fashion-MNIST here: shown,
//                         not compared; or CIFAR-10 with --dataset=cifar10)
//   /settings/<setting>/population/{shadow_prob [M x Z], target_prob
//                         [trials x Z]}  true-class probabilities of the Z
//                         population points (test images, /population_rows)
//   /settings/<setting>/attacks/{rmia_offline_a, <name>/score [trials],
//                         <name>/reference_shadows [trials x k]}  LiRA and
//                         RMIA on the same shadows (compute.h)
//   /summary/attacks      AUC, TPR at low FPR, eps lower bounds per attack
//   /claims/<id>          the verdicts and evidence of the Bayesian paper's
//                         Sec. 4.2 claims (ClaimIds, claims.cc); statement and source come
//                         from claims.json
#ifndef PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_REPORT_H_

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "attacks/lira.h"
#include "core/result.h"
#include "experiments/lib/framework/judged_claim.h"
#include "experiments/lira_bayes_audit/compute.h"
#include "experiments/lira_bayes_audit/config.h"
#include "results/h5_file.h"

namespace privbench {
namespace lira_bayes_audit {

struct SettingResult {
  Setting setting;
  ShadowScores shadows;
  std::vector<double> shadow_test_accuracy, shadow_train_accuracy;
  SelectWorstResult selection;
  GamePlan plan;
  TrialScores trials;
  std::vector<double> target_test_accuracy, target_train_accuracy;
  std::vector<double> grid;  // Bonferroni thresholds
  RocTable table;
  std::vector<IntervalRow> rows;  // max_lower, split_half, bonferroni x methods
  // RMIA beside LiRA (compute.h): population probabilities, the tuned a,
  // every attack's trial scores and its summary.
  PopulationProbs population;
  double offline_a = 0.0;
  std::vector<AttackScores> attacks;
  std::vector<AttackSummary> attack_summaries;
  std::vector<std::pair<std::string, std::string>> record;  // first target's TrainingRecord
};

struct AuditResult {
  Accounting accounting;
  std::vector<SettingResult> settings;
  std::vector<int64_t> pool_rows;        // training-image index of each pool point
  std::vector<int64_t> population_rows;  // test-image index of each population point z
  std::string architecture;
  int64_t num_parameters = 0;
  std::string dataset_provenance, dataset_source, dataset_checksums, dataset_preprocessing;
  std::string shadow_part_versions, target_part_versions;
  double seconds_per_shadow = 0.0, seconds_per_target = 0.0;  // training wall time per model
};

// What the two-phase sweep hands the report (run.cc).
using Results = AuditResult;

// The RMIA paper's claim checked beside LiRA (claims.json).
inline constexpr const char* kRmiaClaim = "lira_bayes_audit_rmia_few_refs_beats_offline_lira";

// Claim ids (also in experiments/lira_bayes_audit/claims.json).
std::vector<std::string> ClaimIds();

Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// ---- What report.cc (WriteReport and the raw data), claims.cc (the
// verdicts) and tables.cc (/summary/*) share. ----

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// report.cc: whether the data is CIFAR-10; what the data is, for captions and
// evidence (the Fashion-MNIST stand-in, or CIFAR-10).
bool OnCifar10(const AuditResult& r);
std::string StandIn(const AuditResult& r);

// claims.cc: split_half and bonferroni, the selections that make an interval
// a valid statement (max_lower chooses the threshold on the data).
bool IsValidSelection(const std::string& selection);
// The row of a selection and method, or nullptr.
const IntervalRow* Find(const std::vector<IntervalRow>& rows, const std::string& selection,
                        const std::string& method);
// Mann-Whitney AUC of scores over the trials (NaN without both members and
// non-members).
double TrialAuc(const std::vector<double>& scores, const std::vector<uint8_t>& bits);

// A claim's verdict; undecidable: these data cannot make it fail (the claim
// group gets the attribute undecidable = 1).
struct Verdict {
  Claim claim;
  bool undecidable = false;
};
Verdict WidthOrder(const AuditResult& r);
Claim BayesFinite(const AuditResult& r);
Claim NoDpLeaksMore(const AuditResult& r);
Verdict ValidBelowEps(const AuditResult& r, double eps, double delta);
Claim DpAccuracyLower(const AuditResult& r);
JudgedClaim RmiaBeatsOfflineLira(const AuditResult& r);

// tables.cc: width / CP width - 1 in percent at the paper's selection (NaN
// where a width is infinite or a row is missing).
double Reduction(const std::vector<IntervalRow>& rows, const std::string& method);
Result<SummaryTable> Table2(const AuditResult& r);
Result<SummaryTable> ReductionTable(const AuditResult& r);
Result<SummaryTable> AccuracyTable(const AuditResult& r);
Result<SummaryTable> AttackTable(const AuditResult& r);

}  // namespace lira_bayes_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_REPORT_H_
