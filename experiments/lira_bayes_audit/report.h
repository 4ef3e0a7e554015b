// The study file of lira_bayes_audit (README.md): raw per-trial and
// per-shadow data, /summary/table2 (one row per setting, selection and
// method with the confusion counts, so anyone can recompute the interval),
// the Fig. 1 analogue (posterior density of eps at the selected threshold),
// the claims of the Bayesian paper's Sec. 4.2 and the numbers the published
// list shows beside Table 2 (CIFAR-10 / SST-2 there, Fashion-MNIST here:
// shown, not compared).
#ifndef PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_REPORT_H_

#include <string>
#include <utility>
#include <vector>

#include "attacks/lira.h"
#include "core/result.h"
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
  std::vector<std::pair<std::string, std::string>> record;  // first target's TrainingRecord
};

struct AuditResult {
  Accounting accounting;
  std::vector<SettingResult> settings;
  std::vector<int64_t> pool_rows;  // Fashion-MNIST training-image index of each pool point
  std::string architecture;
  int64_t num_parameters = 0;
  std::string dataset_provenance, dataset_source, dataset_checksums;
  std::string shadow_part_versions, target_part_versions;
  double seconds_per_shadow = 0.0, seconds_per_target = 0.0;  // training wall time per model
};

// Claim ids (also in experiments/lira_bayes_audit/claims.json).
std::vector<std::string> ClaimIds();

Status WriteAudit(const Config& c, const AuditResult& r, ResultWriter& out);

}  // namespace lira_bayes_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_LIRA_BAYES_AUDIT_REPORT_H_
