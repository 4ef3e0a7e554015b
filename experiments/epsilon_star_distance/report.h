// What study B3 epsilon_star_distance (Negoescu et al., PPAI-24, App. B.1,
// Fig. 5; README.md) writes into results/raw/epsilon_star_distance.h5:
//   /settings/{d [D], n [N], population_shape [D], population_offset [D]}
//     (attributes train, population, shift, repetitions), /estimators [E],
//     /analyses [2]
//   /exact/{rate_window, clip_window, common_window} [D] (attribute window)
//   /<analysis>/<estimator>/{values [D x N x R], mean, sd, bias [D x N],
//     exact_reference [D]} (attributes window, exact_reference_window,
//     options)
//   /numbers/distance_exact_<window>_d<d>
//   /summary/distance_exact (the exact value of every d on each window) and
//     /summary/distance_{primary,common_window} (mean, sd, exact reference
//     and bias of every (d, n, estimator))
//   /claims: the verdict and evidence of each claim below, for the primary
//     analysis and (suffix _common_window) the common window; the
//     statements and criteria come from claims.json
//   /meta attributes epsilon_star_options_primary,
//     epsilon_star_options_common_window, lost_parameters.
// Claims (App. B.1 on Fig. 5):
//   d0_empirical_overshoots_more: at d = 0 (true value 0) empirical >
//     parametric at every n, by exact sign tests over the paired
//     repetitions at family level 0.05 (experiments/lib/framework/
//     judged_claim.h: reproduced or not reproduced each with error
//     probability <= 5%, else inconclusive);
//   empirical_undershoots_more: at every d > 0 and every n the empirical
//     value is below its exact value and below parametric, by two sign
//     tests per (d, n) case at family level 0.05;
//   parametric_more_accurate (the paper's conclusion of App. B.1): at
//     every (d, n) the parametric root mean squared error against its exact
//     reference is below the empirical one;
//   biases_shrink_with_n: for empirical and parametric, at every d, |bias|
//     strictly decreases from each n to the next.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_DISTANCE_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_DISTANCE_REPORT_H_

#include "core/result.h"
#include "experiments/epsilon_star_distance/compute.h"
#include "experiments/epsilon_star_distance/config.h"
#include "experiments/lib/epsilon_star_sim/sim_report.h"
#include "experiments/lib/framework/judged_claim.h"
#include "experiments/lib/framework/study.h"
#include "results/h5_file.h"

namespace privbench::epsilon_star_distance {

// What the report is written from (experiments/lib/epsilon_star_sim/
// sim_report.h SimStudyResults): the simulation (.sim) and the scale it ran
// at (.scale, for /meta lost_parameters).
using Results = SimStudyResults<DistanceResults>;

// Writes everything listed above into `out`.
Status WriteReport(const Config& config, const Results& results, ResultWriter& out);

// The parts WriteReport writes, for the unit tests: the summary tables and
// the claims of analysis `a` (0 primary, 1 common window).
Result<SummaryTable> DistanceExactTable(const Config& c, const DistanceResults& r);
Result<SummaryTable> DistanceTable(const Config& c, const DistanceResults& r, size_t a);
JudgedClaim D0OvershootsClaim(const Config& c, const DistanceResults& r, size_t a);
JudgedClaim UndershootsClaim(const Config& c, const DistanceResults& r, size_t a);
Claim MoreAccurateClaim(const Config& c, const DistanceResults& r, size_t a);
Claim BiasesShrinkClaim(const Config& c, const DistanceResults& r, size_t a);

}  // namespace privbench::epsilon_star_distance

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_DISTANCE_REPORT_H_
