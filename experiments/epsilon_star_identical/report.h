// The output of study B2 epsilon_star_identical (Negoescu et al., PPAI-24,
// App. B.1, Fig. 4; README.md). Tables, claims and the
// lost-parameter text are pure functions of the computed results.
//
// Output results/raw/epsilon_star_identical.h5:
//   /settings/n [N], /estimators [E], /analyses [2]
//   /<analysis>/<estimator>/values [N x R], mean [N], sd [N] (attributes
//     window, exact, options)
//   /exact/{rate_window, clip_window, common_window} scalars
//   /numbers/<...>_mean_n<n>, /summary tables, /claims (see below).
// Claims (App. B.1 on Fig. 4): (1) "the parametric implementation shows
// values closer to the true value of 0 than the empirical CDF
// implementation" - checked as: mean parametric < mean empirical at EVERY
// n; (2) "the larger the loss sample size, the closer both implementations
// get to the true value of 0" - checked as: each mean strictly decreases
// from each n to the next. Both for the primary analysis and, as separate
// claims (suffix _common_window), for the common window.
#ifndef PRIVBENCH_EXPERIMENTS_EPSILON_STAR_IDENTICAL_REPORT_H_
#define PRIVBENCH_EXPERIMENTS_EPSILON_STAR_IDENTICAL_REPORT_H_

#include <string>

#include "core/result.h"
#include "experiments/epsilon_star_identical/compute.h"
#include "experiments/epsilon_star_identical/config.h"
#include "experiments/lib/framework/judged_claim.h"
#include "experiments/lib/framework/study.h"
#include "results/h5_file.h"

namespace privbench::epsilon_star_identical {

// Mean and sd of every estimator at every n in analysis `a` (0 primary,
// 1 common window), plus an "exact" row per n.
SummaryTable IdenticalTable(const IdenticalConfig& c, const IdenticalResults& r, size_t a);

// Claim (1) and claim (2) above for analysis `a`.
// parametric_closer is judged by exact sign tests over the paired
// repetitions (experiments/lib/framework/judged_claim.h): reproduced or not
// reproduced each with error probability <= 5%, else inconclusive.
JudgedClaim ParametricCloserClaim(const IdenticalConfig& c, const IdenticalResults& r, size_t a);
Claim BothShrinkClaim(const IdenticalConfig& c, const IdenticalResults& r, size_t a);

// What the paper does not state and this study chose (/meta lost_parameters).
std::string IdenticalLostParameters(const IdenticalConfig& c, const IdenticalResults& r,
                                    Scale scale);

// Writes everything listed above into `out`.
Status WriteIdenticalResults(const IdenticalConfig& c, const IdenticalResults& r, Scale scale,
                             ResultWriter& out);

}  // namespace privbench::epsilon_star_identical

#endif  // PRIVBENCH_EXPERIMENTS_EPSILON_STAR_IDENTICAL_REPORT_H_
