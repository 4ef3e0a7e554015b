// What study B2 epsilon_star_identical (Negoescu et al., PPAI-24, App. B.1,
// Fig. 4; README.md) writes into results/raw/epsilon_star_identical.h5:
//   /settings/n [N] (attributes distribution, repetitions), /estimators [E],
//   /analyses [2]
//   /<analysis>/<estimator>/values [N x R], mean [N], sd [N] (attributes
//     window, exact, options)
//   /exact/{rate_window, clip_window, common_window} scalars (attribute
//     window)
//   /numbers/identical_<analysis>_<estimator>_mean_n<n>,
//     /numbers/identical_exact_<window>
//   /summary/identical_{primary,common_window}: mean and sd of every
//     estimator at every n, plus an exact row per n
//   /claims: the verdict and evidence of each claim below, for the primary
//     analysis and (suffix _common_window) the common window; the
//     statements and criteria come from claims.json
//   /meta attributes epsilon_star_options_primary,
//     epsilon_star_options_common_window, lost_parameters.
// Claims (App. B.1 on Fig. 4):
//   parametric_closer: parametric < empirical (truth 0) at EVERY n, judged
//     by exact sign tests over the paired repetitions
//     (experiments/lib/framework/judged_claim.h: reproduced or not
//     reproduced each with error probability <= 5%, else inconclusive);
//   both_shrink: each mean strictly decreases from each n to the next.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_IDENTICAL_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_IDENTICAL_REPORT_H_

#include "core/result.h"
#include "experiments/epsilon_star_identical/compute.h"
#include "experiments/epsilon_star_identical/config.h"
#include "experiments/lib/epsilon_star_sim/sim_report.h"
#include "experiments/lib/framework/judged_claim.h"
#include "experiments/lib/framework/study.h"
#include "results/h5_file.h"

namespace privbench::epsilon_star_identical {

// What the report is written from (experiments/lib/epsilon_star_sim/
// sim_report.h SimStudyResults): the simulation (.sim) and the scale it ran
// at (.scale, for /meta lost_parameters).
using Results = SimStudyResults<IdenticalResults>;

// Writes everything listed above into `out`.
Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// The parts WriteReport writes for analysis `a` (0 primary, 1 common
// window), for the unit tests: the summary table (tables.cc) and the two
// claims (claims.cc).
Result<SummaryTable> IdenticalTable(const Config& c, const IdenticalResults& r, size_t a);
JudgedClaim ParametricCloserClaim(const Config& c, const IdenticalResults& r, size_t a);
Claim BothShrinkClaim(const Config& c, const IdenticalResults& r, size_t a);

}  // namespace privbench::epsilon_star_identical

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_IDENTICAL_REPORT_H_
