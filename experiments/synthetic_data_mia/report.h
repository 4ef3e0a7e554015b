// What study synthetic_data_mia (F1) writes, from WriteReport; C cases
// (synthesizer at eps), T targets, G = C x T x adversaries games, A attacks
// (those run, --attacks: compute.h SelectedAttacks, named by
// /games/attack_names), R test releases per game, W worst-case audits:
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
//   /claims/synthetic_data_mia_* (claims.json): verdicts and evidence only;
//       a claim needing an attack the games did not run (UndecidableReason)
//       has holds = 0, attribute undecidable = 1 and evidence naming the
//       attacks it needs (results/verify: inconclusive).
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
  std::vector<std::string> attacks = AttackNames();  // run by every game, in that order
  std::vector<GameResult> games;
  std::vector<WorstCaseResult> worst_case;
  std::vector<CostResult> cost;
  std::string data_provenance;
};

Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// Why the claim `id` cannot be decided on the attacks the games ran ("" when
// it can): features_beat_dcr needs histogram_logistic, queries_logistic and
// dcr_hamming; outliers_leak_more at least one black-box attack;
// black_box_far_below every black-box attack (its best black-box bound over
// fewer attacks would favour the claim). The others are decidable on any
// non-empty set (the worst-case audits always run).
std::string UndecidableReason(const Results& r, const std::string& id);

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
