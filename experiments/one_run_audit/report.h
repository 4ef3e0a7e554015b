// What study one_run_audit (docs/studies.md, one_run_audit) writes, from
// WriteReport, E runs, K pairs, m canaries per type:
//   /meta lost_parameters
//   /settings/{k_plus,k_minus} [K]; attributes canaries, delta, beta, data,
//       canary_types
//   /runs/{target_epsilon,noise_multiplier,q,steps,n_train,eps_rdp,eps_pld,
//          eps_last_iterate,
//          attack_eps_lower,attack_advantage,train_accuracy,
//          population_accuracy}                     [E]
//   /audit/{input_space,white_box}/{v,lower} [E,K], best_lower [E],
//          {included,scores} [E,m]
//   /summary/bounds       per run and canary type: the best lower bound
//                         against the rdp and pld accountants
//   /summary/comparison   the one-run bounds against C1's attack bound on the
//                         same models, with the models each costs
//   /claims/one_run_audit_{below_accountant,grows_with_eps,white_box_tighter}
//                         (the paper's Figs. 1-2 shape; Steinke, Nasr &
//                         Jagielski 2023): verdicts and evidence only, the
//                         statements and criteria are claims.json's
#ifndef PRIVBENCH_EXPERIMENTS_ONE_RUN_AUDIT_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_ONE_RUN_AUDIT_REPORT_H_

#include <string>
#include <vector>

#include "core/result.h"
#include "experiments/one_run_audit/compute.h"
#include "experiments/one_run_audit/config.h"
#include "results/h5_file.h"

namespace privbench {
namespace one_run_audit {

// What the runs hand the report.
struct Results {
  std::vector<RunResult> runs;  // one per target eps, the non-private run last
  std::string data_provenance;  // the Adult copy trained on
};

Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// The claims, exposed for their unit test.
Claim BelowAccountantClaim(const std::vector<RunResult>& runs);
Claim GrowsWithEpsClaim(const std::vector<RunResult>& runs);
Claim WhiteBoxTighterClaim(const std::vector<RunResult>& runs);

// The summary tables (tables.cc): the bounds per run and canary type; the
// one-run audits against C1's attack bound on the same models, with what
// each costs in trained models. `provenance` names the data.
Result<SummaryTable> BoundsTable(const Config& c, const std::vector<RunResult>& runs,
                                 const std::string& provenance);
Result<SummaryTable> ComparisonTable(const Config& c, const std::vector<RunResult>& runs,
                                     const std::string& provenance);

}  // namespace one_run_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_ONE_RUN_AUDIT_REPORT_H_
