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
//           game's delta); /games/test_scores [G, A, R] (odd index: target in;
//           R = 0 without --keep_test_scores, as at paper scale)
//   /worst_case/{synthesizer,bug} [W], /worst_case/{attributes,flagged} [W],
//       /worst_case/bug_audit [W] (1: a planted bug or its correct counterpart,
//       0: the main grid's audit),
//       /worst_case/{epsilon,mu,white_box_eps_lower,dcr_eps_lower,
//       white_box_mu_lower,white_box_gdp_eps_lower,dcr_gdp_eps_lower} [W],
//       /worst_case/{white_box_scores,dcr_scores} [W, 2 x trials] (odd index: target in)
//   /games/judged_ceiling [G, A], /worst_case/{white_box,dcr}_ceiling [W]:
//       the largest judged bound each audit could report at its sample size
//       (power.h JudgedCeiling)
//   /cases/perfect_test_eps_lower [C]: the perfect-test bound of the case's
//       worst-case white-box audit (compute.h PerfectTestBounds; -1: none)
//   /outlier_sweep/targets/{kind,outlier_score,exposure} [T'],
//       /outlier_sweep/targets/records [T', d], /outlier_sweep/cases [K']
//       (main case indices), /outlier_sweep/attack_names [A'],
//       /outlier_sweep/games/{case_index,target_index,adversary,seconds} [G'],
//       /outlier_sweep/games/auc [G', A'] (compute.h RunOutlierSweep)
//   /bug_power/{worst_case_index,attack,law,replicates,quick_trials,
//       quick_probability,quick_se,paper_trials,paper_probability,paper_se}
//       [P] (compute.h PlantedBugPower)
//   /cost/synthesizer [S], /cost/sizes [K], /cost/seconds [S, K], /cost/slope [S]
//   /summary/{games,by_case,worst_case,bug_power,outlier_sweep,cost}   tables.cc
//   /claims/synthetic_data_mia_* (claims.json, judged in claims.cc): verdicts
//       and evidence only; a claim needing an attack the games did not run
//       (UndecidableReason) has holds = 0, attribute undecidable = 1 and
//       evidence naming the attacks it needs (results/verify: inconclusive).
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
  OutlierSweep sweep;                // outliers_leak_more's per-target games
  std::vector<BugPower> bug_power;   // the planted bugs' detection probabilities
  std::vector<double> perfect_test;  // per case (PerfectTestBounds); empty: not computed
};

// claims.h: the claims (claims.cc) and the helpers tables.cc shares.

// tables.cc: the summary tables; CostTable is an error without cost rows
// (WriteReport writes it only when some were measured).
Result<SummaryTable> GamesTable(const Results& r);
Result<SummaryTable> ByCaseTable(const Results& r);
Result<SummaryTable> WorstCaseTable(const Results& r);
Result<SummaryTable> BugPowerTable(const Results& r);
Result<SummaryTable> OutlierSweepTable(const Results& r);
Result<SummaryTable> CostTable(const Results& r);

Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

}  // namespace synthetic_data_mia
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_SYNTHETIC_DATA_MIA_REPORT_H_
