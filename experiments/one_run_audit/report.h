// Output of study one_run_audit: raw arrays, the bounds table and the
// claims (docs/studies.md, one_run_audit).
//
// Claims (the paper's Figs. 1-2 shape; Steinke, Nasr & Jagielski 2023):
//  - one_run_audit_below_accountant: at every finite eps and for both
//    canary types the best lower bound (Bonferroni over the k pairs) is <=
//    the PLD accountant's eps (hence <= RDP's), as a valid audit must be;
//  - one_run_audit_grows_with_eps: the white-box bound at the largest
//    finite eps exceeds the one at the smallest, and the non-private run's
//    is not below the largest finite eps's;
//  - one_run_audit_white_box_tighter: summed over the eps levels the
//    white-box bounds exceed the input-space bounds, and at the largest eps
//    level (non-private if run) white-box > input-space.
#ifndef PRIVBENCH_EXPERIMENTS_ONE_RUN_AUDIT_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_ONE_RUN_AUDIT_REPORT_H_

#include <vector>

#include "core/result.h"
#include "experiments/one_run_audit/compute.h"
#include "experiments/one_run_audit/config.h"
#include "results/h5_file.h"

namespace privbench {
namespace one_run_audit {

Claim BelowAccountantClaim(const std::vector<RunResult>& runs);
Claim GrowsWithEpsClaim(const std::vector<RunResult>& runs);
Claim WhiteBoxTighterClaim(const std::vector<RunResult>& runs);

// Everything below /settings, /runs, /audit, /summary and /claims.
Status WriteResults(const Config& c, const std::vector<RunResult>& runs,
                    const std::string& data_provenance, ResultWriter& out);

}  // namespace one_run_audit
}  // namespace privbench

#endif  // PRIVBENCH_EXPERIMENTS_ONE_RUN_AUDIT_REPORT_H_
