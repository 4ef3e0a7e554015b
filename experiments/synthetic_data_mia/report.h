// What study synthetic_data_mia (F1) writes, from WriteReport; C cases
// (synthesizer at eps), T targets, G = C x T x adversaries games, A attacks
// (compute.h AttackNames), R test releases per game, W worst-case audits:
//   /targets/{kind,outlier_score} [T], /targets/records [T, d],
//   /targets/removed_duplicates [1] (pool rows equal to a target)
//   /cases/{synthesizer,bug} [C] strings, /cases/{epsilon,delta,rho,mu} [C]
//       (epsilon +inf: non-private)
//   /games/{case_index,target_index} [G], /games/adversary [G], /games/seconds [G]
//   /games/{auc,tpr_at_fpr_01,privacy_gain,cp_eps_lower,mu_lower,
//           gdp_eps_lower} [G, A]; /games/eps_lower/<method> [G, A] with
//           /games/method_applies/<method> [G] (1 where audited at the
//           game's delta); /games/test_scores [G, A, R] (odd index: target in)
//   /worst_case/{synthesizer,bug} [W], /worst_case/{attributes,flagged} [W],
//       /worst_case/bug_audit [W] (1: a planted bug or its correct counterpart,
//       0: the main grid's audit),
//       /worst_case/{epsilon,mu,white_box_eps_lower,dcr_eps_lower,
//       white_box_mu_lower,white_box_gdp_eps_lower,dcr_gdp_eps_lower} [W],
//       /worst_case/{white_box_scores,dcr_scores} [W, 2 x trials] (odd index: target in)
//   /cost/synthesizer [S], /cost/sizes [K], /cost/seconds [S, K], /cost/slope [S]
//   /summary/{games,by_case,worst_case,cost} tables
//   /claims/synthetic_data_mia_* (claims.json): verdicts and evidence only.
#ifndef PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_REPORT_H_

#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/lib/framework/judged_claim.h"
#include "experiments/synthetic_data_mia/compute.h"
#include "experiments/synthetic_data_mia/config.h"
#include "experiments/synthetic_data_mia/targets.h"
#include "results/h5_file.h"

namespace privbench {
namespace synthetic_data_mia {

struct Results {
  std::vector<CaseSpec> cases;
  std::vector<Target> targets;
  int64_t removed_duplicates = 0;
  std::vector<GameResult> games;
  std::vector<WorstCaseResult> worst_case;
  std::vector<CostResult> cost;
  std::string data_provenance;
};

Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// The claims, exposed for their unit tests.
JudgedClaim FixedBeatsRandomClaim(const Results& r, double alpha);
JudgedClaim FeaturesBeatDcrClaim(const Results& r, double alpha);
JudgedClaim OutliersLeakMoreClaim(const Results& r, double alpha);
Claim NoViolationClaim(const Results& r, double alpha);
Claim BugsFlaggedClaim(const Results& r);
Claim BlackBoxFarBelowClaim(const Results& r);
Claim CostClaim(const Results& r);

}  // namespace synthetic_data_mia
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_REPORT_H_
